//! Perft over the [`Game`] trait: the number of move sequences of a given length.
//!
//! This is the slow, obviously-correct version: it generates and plays every move. A finished
//! position has no moves, so a sequence that reaches one early counts nothing. Games ship their
//! own fast perft (with their own rules for which endings count, e.g. Pijersi's perft ignores
//! draws) and test it against this one where the two definitions agree.

use crate::Game;

/// Counts the move sequences of length `depth` from `game`.
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| {
            let mut child = game.clone();
            child.play_unchecked(mv);
            perft(&child, depth - 1)
        })
        .sum()
}

/// [`perft`] split by first move: `(move text, count)` in move-generation order.
pub fn divide<G: Game>(game: &G, depth: u32) -> Vec<(String, u64)> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = game.clone();
            child.play_unchecked(mv);
            (
                game.move_to_text(mv),
                perft(&child, depth.saturating_sub(1)),
            )
        })
        .collect()
}
