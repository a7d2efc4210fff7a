//! One game of alpha-beta self-play, with the positions it labels.
//!
//! The lab's shared game loop (`pjlab_agents::play_game`, which the arena and self-play
//! records run) plays agents that only answer with a move; this loop needs each search's
//! score and principal variation to label the position, a share of the searched moves
//! replaced by random ones, and positions off the game's line (`pv_leaf`). It also cannot be
//! reached from here: `pjlab-agents` depends on this crate for the learned evaluation. So the
//! loop stays here, small, on the same engine the agents run.

use std::sync::atomic::{AtomicBool, Ordering};

use pjlab_alphabeta::{Engine, Limits};
use pjlab_core::{Game, GameKit, Heuristic, SetupVariant, Side, seed};
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{DataOptions, GAME_STREAM, Row};

/// A finished game: its number, its labelled positions and its winner.
pub(super) struct Played {
    /// The game's number in the run.
    pub index: usize,
    /// Its labelled positions, in the order played.
    pub rows: Vec<Row>,
    /// 1 the first mover won, 0 a draw (or abandoned), -1 the second.
    pub winner: i32,
}

/// Plays game `index` from `variant`; `None` when `stop` was raised first.
pub(super) fn play<K: GameKit, H: Heuristic<K::Game>>(
    engine: &mut Engine<K::Game, H>,
    variant: K::Variant,
    options: &DataOptions,
    index: usize,
    stop: &AtomicBool,
) -> Option<Played> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed::stream(options.seed, GAME_STREAM, index as u64));
    let mut position = variant.start(rng.random());
    engine.clear();
    let mut moves = Vec::new();
    let (lo, hi) = options.opening_plies;
    let opening = rng.random_range(lo..=hi);
    let mut labelled: Vec<(String, i32, Side, u32)> = Vec::new();
    let mut ply = 0;
    let outcome = loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        if let Some(outcome) = position.outcome() {
            break Some(outcome);
        }
        if ply >= options.max_plies {
            break None;
        }
        position.legal_moves(&mut moves);
        let mv = if ply < opening {
            *moves.choose(&mut rng).expect("a game not over has a move")
        } else {
            let result = engine.search(&position, &Limits::depth(options.depth));
            if options.pv_leaf {
                if let Some((leaf, score)) = pv_leaf(&position, &result.pv, result.score) {
                    labelled.push((leaf.to_text(), score, leaf.side_to_move(), ply));
                }
            } else {
                labelled.push((
                    position.to_text(),
                    result.score,
                    position.side_to_move(),
                    ply,
                ));
            }
            match result.best_move {
                Some(mv) if !rng.random_bool(options.random_moves) => mv,
                _ => *moves.choose(&mut rng).expect("a game not over has a move"),
            }
        };
        position.play_unchecked(mv);
        ply += 1;
    };
    let variant = variant.to_string();
    let rows = labelled
        .into_iter()
        .map(|(position, score, side, ply)| Row {
            position,
            score,
            result: outcome.map_or(0.5, |o| (o.value_for(side) + 1.0) / 2.0),
            game: index as u64,
            ply,
            variant: variant.clone(),
        })
        .collect();
    let winner = match outcome.and_then(|o| o.winner()) {
        Some(Side::First) => 1,
        Some(Side::Second) => -1,
        None => 0,
    };
    Some(Played {
        index,
        rows,
        winner,
    })
}

/// The position at the end of `pv` from `root` and the score `score` (for the root's side to
/// move) for its own side to move; `None` when a move of the line is illegal or the line ends
/// the game.
fn pv_leaf<G: Game>(root: &G, pv: &[G::Move], score: i32) -> Option<(G, i32)> {
    let mut leaf = root.clone();
    for &mv in pv {
        leaf.play(mv).ok()?;
    }
    if leaf.outcome().is_some() {
        return None;
    }
    let odd = pv.len() % 2 == 1;
    Some((leaf, if odd { -score } else { score }))
}
