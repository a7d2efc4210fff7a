//! Pijersi as the network sees it: [`PijersiEncoder`].

use pjlab_core::{Encoder, EncoderCard, EncoderId};

use crate::symmetry::{action_from_mover, mirrored_action};
use crate::{Cell, Color, Position, Role};

/// Pijersi from the side to move's point of view (version 1).
///
/// When Black is to move the board is turned half a turn and the colours swapped
/// ([`Position::from_mover`]), so the mover always plays "White", upwards. Layout, cell-major
/// within each plane (cell index 0 = a1 of the mover's view, 45 cells):
///
/// | planes | content |
/// |---|---|
/// | 0..4   | the mover's pieces whose top (or single cube) is rock, paper, scissors, wise |
/// | 4..8   | the opponent's, same order |
/// | 8..12  | the mover's stacks by bottom role |
/// | 12..16 | the opponent's stacks by bottom role |
///
/// then one scalar: capture-free turns so far / 20 (the draw counter). Input length 721.
/// Policy: the dense action index of the move in the mover's view. Augmentation: the left-right
/// mirror, a proven symmetry of the rules (`crates/pijersi/tests/symmetry.rs`).
#[derive(Copy, Clone, Debug, Default)]
pub struct PijersiEncoder;

/// Cells of the Pijersi board.
const CELLS: usize = 45;

impl PijersiEncoder {
    /// Planes of 45 cells.
    pub const PLANES: usize = 16;
    /// Input length: the planes and the draw-counter scalar.
    pub const INPUT_LEN: usize = Self::PLANES * CELLS + 1;
}

impl Encoder<Position> for PijersiEncoder {
    fn id(&self) -> EncoderId {
        EncoderId {
            name: "pijersi-planes".into(),
            version: 1,
        }
    }

    fn input_len(&self) -> usize {
        Self::INPUT_LEN
    }

    fn num_actions(&self) -> usize {
        crate::action::num_actions()
    }

    fn encode(&self, position: &Position, out: &mut [f32]) {
        debug_assert_eq!(out.len(), Self::INPUT_LEN);
        out.fill(0.0);
        let view = position.from_mover();
        let mine = view.pieces(Color::White);
        let theirs = view.pieces(Color::Black);
        let stacks = view.stacks();
        let mut set = |plane: usize, cells: u64| {
            for cell in crate::geometry::bits(cells) {
                out[plane * CELLS + cell] = 1.0;
            }
        };
        for (r, role) in Role::ALL.into_iter().enumerate() {
            let tops = view.tops(role);
            let bottoms = view.bottoms(role) & stacks;
            set(r, tops & mine);
            set(4 + r, tops & theirs);
            set(8 + r, bottoms & mine);
            set(12 + r, bottoms & theirs);
        }
        out[Self::PLANES * CELLS] = f32::from(position.halfmove()) / 20.0;
    }

    fn policy_index(&self, position: &Position, action: usize) -> usize {
        action_from_mover(position.side_to_move(), action)
    }

    fn symmetries(&self) -> usize {
        2
    }

    fn transform(&self, position: &Position, k: usize) -> Position {
        if k == 1 {
            position.mirrored()
        } else {
            position.clone()
        }
    }

    fn transform_action(&self, action: usize, k: usize) -> usize {
        if k == 1 {
            mirrored_action(action)
        } else {
            action
        }
    }

    fn card(&self) -> EncoderCard {
        let cells = (0..CELLS).map(|i| Cell::new(i).map_or_else(String::new, |c| c.to_string()));
        let actions = (0..crate::action::num_actions()).map(|i| {
            crate::action::action_path(i).map_or_else(String::new, |(path, n)| {
                path[..n].iter().map(ToString::to_string).collect()
            })
        });
        EncoderCard {
            layout: "16 planes of 45 cells (plane * 45 + cell), then one scalar".into(),
            perspective: "the side to move plays White: when Black is to move the board is \
                          turned half a turn (each cell to its rotation, see `rotated_cells`) \
                          and the colours swapped"
                .into(),
            planes: [
                "mover's pieces whose top (or single cube) is rock",
                "mover's ... paper",
                "mover's ... scissors",
                "mover's ... wise",
                "opponent's pieces whose top is rock",
                "opponent's ... paper",
                "opponent's ... scissors",
                "opponent's ... wise",
                "mover's stacks whose bottom is rock",
                "mover's ... paper",
                "mover's ... scissors",
                "mover's ... wise",
                "opponent's stacks whose bottom is rock",
                "opponent's ... paper",
                "opponent's ... scissors",
                "opponent's ... wise",
            ]
            .map(String::from)
            .to_vec(),
            scalar: "capture-free turns so far (the PSN half-move counter) / 20".into(),
            cells: cells.collect(),
            rotated_cells: (0..CELLS)
                .map(|i| Cell::new(i).map_or(0, |c| c.rotated().index()))
                .collect(),
            values: "1.0 where the plane's condition holds, 0.0 elsewhere".into(),
            actions: actions.collect(),
            actions_meaning: "`actions[i]` is the UGI move string of action i with White to \
                              move; with Black to move, action i is that string with each cell \
                              rotated (`rotated_cells`)"
                .into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;
    use pjlab_core::Game;
    use rand::SeedableRng;
    use rand::seq::IndexedRandom;
    use rand_chacha::ChaCha8Rng;

    fn positions() -> Vec<Position> {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut out = Vec::new();
        let mut moves = Vec::new();
        for g in 0..12 {
            let mut p = Variant::ALL[g % Variant::ALL.len()].setup(g as u64);
            while p.outcome().is_none() {
                out.push(p.clone());
                Game::legal_moves(&p, &mut moves);
                p.play_unchecked(*moves.choose(&mut rng).unwrap());
            }
        }
        out
    }

    fn encode(p: &Position) -> Vec<f32> {
        let mut v = vec![0.0; PijersiEncoder::INPUT_LEN];
        PijersiEncoder.encode(p, &mut v);
        v
    }

    #[test]
    fn pijersi_input_counts_every_cube_once() {
        for p in positions() {
            let v = encode(&p);
            let cubes: f32 = v[..16 * CELLS].iter().sum();
            let expected: u32 = Role::ALL
                .iter()
                .map(|&r| p.tops(r).count_ones() + (p.bottoms(r) & p.stacks()).count_ones())
                .sum();
            assert_eq!(cubes as u32, expected);
            // The mover's planes hold exactly the mover's cube count.
            let mine: f32 = (0..4)
                .chain(8..12)
                .map(|k| v[k * CELLS..(k + 1) * CELLS].iter().sum::<f32>())
                .sum();
            let mover = p.side_to_move();
            let count = |c: Color| {
                let cells = p.pieces(c);
                cells.count_ones() + (cells & p.stacks()).count_ones()
            };
            assert_eq!(mine as u32, count(mover));
        }
    }

    #[test]
    fn pijersi_flipped_position_encodes_the_same() {
        // The flip swaps who moves and turns the board: the mover's view is unchanged.
        for p in positions() {
            assert_eq!(encode(&p), encode(&p.flipped()));
            let mut moves = Vec::new();
            Game::legal_moves(&p, &mut moves);
            let f = p.flipped();
            for mv in moves {
                let a = PijersiEncoder.policy_index(&p, p.action_index(mv));
                let b = PijersiEncoder.policy_index(&f, f.action_index(mv.rotated()));
                assert_eq!(a, b);
            }
        }
    }

    #[test]
    fn pijersi_policy_indices_are_distinct_per_position() {
        for p in positions().into_iter().step_by(7) {
            let mut moves = Vec::new();
            Game::legal_moves(&p, &mut moves);
            let mut seen = std::collections::HashSet::new();
            for mv in moves {
                let i = PijersiEncoder.policy_index(&p, p.action_index(mv));
                assert!(i < PijersiEncoder.num_actions());
                assert!(seen.insert(i));
            }
        }
    }
}
