//! Chomp as the network sees it: [`ChompEncoder`].

use pjlab_core::{Encoder, EncoderId};

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

    fn encode(&self, position: &Chomp, out: &mut [f32]) {
        debug_assert_eq!((position.rows(), position.cols()), (self.rows, self.cols));
        out.fill(0.0);
        for (r, len) in position.lengths().into_iter().enumerate() {
            out[r * self.cols..r * self.cols + len].fill(1.0);
        }
    }

    fn policy_index(&self, _position: &Chomp, action: usize) -> usize {
        action
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
