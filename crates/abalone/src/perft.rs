//! Perft: the number of move sequences of a given depth from a position.
//!
//! Every move counts, ejections and passes included; a finished position (six ejections, a
//! draw by the counter or the cap) has no moves. The last ply is counted with
//! [`Position::count_moves`] without generating moves, so this agrees with the generic
//! `pjlab_core::perft` everywhere.

use crate::moves::Move;
use crate::position::Position;

/// perft(`depth`) from `position`.
pub fn perft(position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => position.count_moves(),
        _ => {
            let mut moves = Vec::with_capacity(128);
            position.legal_moves(&mut moves);
            moves
                .iter()
                .map(|&mv| perft(&position.after(mv), depth - 1))
                .sum()
        }
    }
}

/// perft(`depth`) split by first move, in move-generation order. Empty at depth 0 and at a
/// finished position.
pub fn divide(position: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut moves = Vec::with_capacity(128);
    position.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| (mv, perft(&position.after(mv), depth - 1)))
        .collect()
}
