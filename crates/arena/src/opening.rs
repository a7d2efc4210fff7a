//! Random openings: the plies drawn before the agents play, uniformly or among the moves a
//! shallow search does not judge to lose material.

use pjlab_alphabeta::{Engine, Limits, Options as AbOptions};
use pjlab_core::{Game, GameKit};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
/// How the random opening plies are drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Random plies before the agents play.
    pub plies: u32,
    /// If set, each ply is drawn only among the moves that a shallow alpha-beta search (one ply
    /// for the reply, then quiescence over captures) scores within this many centi-units (a cube
    /// is about 100) of the best move: no random move then hangs a piece. Unset, every legal
    /// move is equally likely.
    pub margin: Option<i32>,
}

/// Random opening moves from `start`, drawn with `seed` (fewer if the game ends); the margin is
/// judged by the game's own evaluation.
pub fn random_opening<K: GameKit>(
    start: &K::Game,
    opening: Opening,
    seed: u64,
) -> Vec<<K::Game as Game>::Move> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut position = start.clone();
    let mut moves = Vec::new();
    let mut legal = Vec::new();
    let mut engine = opening.margin.map(|_| {
        Engine::new(
            K::evaluation(None).expect("the default evaluation"),
            AbOptions {
                tt_mib: 1,
                quiescence_plies: 16,
            },
        )
    });
    for _ in 0..opening.plies {
        if position.outcome().is_some() {
            break;
        }
        position.legal_moves(&mut legal);
        if let (Some(engine), Some(margin)) = (engine.as_mut(), opening.margin) {
            let scores: Vec<i32> = legal
                .iter()
                .map(|&mv| {
                    let mut after = position.clone();
                    after.play_unchecked(mv);
                    if after.outcome().is_some() {
                        // A move that ends the game at once: a win for the mover here.
                        i32::MAX / 2
                    } else {
                        -engine.search(&after, &Limits::depth(1)).score
                    }
                })
                .collect();
            let best = scores.iter().copied().max().unwrap_or(0);
            let kept: Vec<_> = legal
                .iter()
                .zip(&scores)
                .filter(|&(_, &s)| s >= best.saturating_sub(margin))
                .map(|(&mv, _)| mv)
                .collect();
            legal = kept;
        }
        let Some(&mv) = legal.choose(&mut rng) else {
            break;
        };
        position.play_unchecked(mv);
        moves.push(mv);
    }
    moves
}
