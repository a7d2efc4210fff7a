//! Positions for the tests of the symmetries, the encoder and the evaluation.

use pjlab_abalone::{Position, Rules, Variant};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

/// Every `every`-th position of `games` seeded random games from each of [`Variant::ALL`], of at
/// most `plies` plies, under rules without the draw counter so that games run long enough to
/// push, eject, make junctions and end; the last position of each game too (won ones included).
pub fn random_positions(games: usize, seed: u64, plies: usize, every: usize) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for variant in Variant::ALL {
        for _ in 0..games {
            let rules = Rules {
                no_ejection_plies: None,
                ..variant.rules()
            };
            let mut position = variant.start().with_rules(rules).expect("same mode");
            for ply in 0..plies {
                position.legal_moves(&mut moves);
                let Some(&mv) = moves.choose(&mut rng) else {
                    break;
                };
                if ply % every == 0 {
                    out.push(position.clone());
                }
                position.play_unchecked(mv);
            }
            out.push(position);
        }
    }
    out
}
