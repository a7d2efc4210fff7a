//! Perft: the number of move sequences of a given depth, by the spec's definition.
//!
//! A won position has no moves, so a winning move counts 1 at the last ply and ends its
//! sequence (counting nothing more) before it, exactly as the reference engines count; draws
//! are ignored. The last ply is counted with [`Position::count_moves`] without generating moves.

use crate::moves::Move;
use crate::position::Position;

/// perft(`depth`) from `position`.
pub fn perft(position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        _ if position.is_won() => 0,
        1 => position.count_moves(),
        _ => {
            let mut moves = Vec::with_capacity(256);
            position.generate_moves(&mut moves);
            moves
                .iter()
                .map(|&mv| perft(&position.after(mv), depth - 1))
                .sum()
        }
    }
}

/// perft(`depth`) split by first move, in move-generation order. Empty at a won position.
pub fn divide(position: &Position, depth: u32) -> Vec<(Move, u64)> {
    if position.is_won() || depth == 0 {
        return Vec::new();
    }
    let mut moves = Vec::with_capacity(256);
    position.generate_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| (mv, perft(&position.after(mv), depth - 1)))
        .collect()
}
