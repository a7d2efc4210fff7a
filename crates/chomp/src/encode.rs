//! Chomp as the network sees it: [`ChompEncoder`].

use pjlab_core::{Encoder, EncoderCard, EncoderId};

use crate::Chomp;

/// Chomp on a fixed `rows x cols` bar (version 1): one input per square, 1.0 while it is still
/// there, row-major. Chomp is impartial, so the side to move is not shown. Policy: the game's
/// own action index (`row * cols + col`). No symmetry is used (a non-square bar has none).
#[derive(Copy, Clone, Debug)]
pub struct ChompEncoder {
    rows: usize,
    cols: usize,
}

impl ChompEncoder {
    /// The encoder for positions on a `rows x cols` bar.
    pub fn new(rows: usize, cols: usize) -> ChompEncoder {
        ChompEncoder { rows, cols }
    }
}

impl Encoder<Chomp> for ChompEncoder {
    fn id(&self) -> EncoderId {
        EncoderId {
            name: format!("chomp-{}x{}", self.rows, self.cols),
            version: 1,
        }
    }

    fn input_len(&self) -> usize {
        self.rows * self.cols
    }

    fn num_actions(&self) -> usize {
        self.rows * self.cols
    }

    /// A diagram of another bar is cut to this one (its squares outside are not shown).
    fn encode(&self, position: &Chomp, out: &mut [f32]) {
        out.fill(0.0);
        for (r, len) in position.lengths().into_iter().enumerate().take(self.rows) {
            out[r * self.cols..r * self.cols + len.min(self.cols)].fill(1.0);
        }
    }

    fn policy_index(&self, _position: &Chomp, action: usize) -> usize {
        action
    }

    fn card(&self) -> EncoderCard {
        let squares = || {
            (0..self.rows).flat_map(|r| (0..self.cols).map(move |c| format!("{},{}", r + 1, c + 1)))
        };
        EncoderCard {
            layout: format!(
                "one plane of {} x {} squares, row-major (row * {} + column)",
                self.rows, self.cols, self.cols
            ),
            perspective: "none: Chomp is impartial, the side to move is not shown".into(),
            planes: vec!["squares still on the bar".into()],
            cells: squares().collect(),
            values: "1.0 where the square is still there, 0.0 elsewhere".into(),
            actions: squares().collect(),
            actions_meaning: "`actions[i]` is the move (row,column from 1) that takes square i \
                              and every square from its column on in its row and the rows after \
                              it"
            .into(),
            ..EncoderCard::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pjlab_core::Game;

    #[test]
    fn chomp_input_is_the_diagram() {
        let p = Chomp::from_text("3x4:4,2,1:2").unwrap();
        let mut v = vec![0.0; 12];
        ChompEncoder::new(3, 4).encode(&p, &mut v);
        assert_eq!(v, [1., 1., 1., 1., 1., 1., 0., 0., 1., 0., 0., 0.].to_vec());
    }
}
