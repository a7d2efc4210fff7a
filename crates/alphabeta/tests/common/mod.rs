//! Helpers shared by the engine's tests: a plain negamax, the independent answer the engine is
//! held to.

use pjlab_alphabeta::{Heuristic, MATE};
use pjlab_core::{Game, Outcome};

/// Plain negamax: every move to `depth`, then every tactical move for `quiescence` more plies,
/// standing pat on the evaluation. Scores as the engine's: a loss `ply` plies from the root is
/// `-(MATE - ply)`.
pub fn minimax<G: Game, H: Heuristic<G>>(
    h: &H,
    position: &G,
    depth: u32,
    ply: i32,
    quiescence: u32,
) -> i32 {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    if moves.is_empty() {
        return match position.outcome() {
            Some(Outcome::Win(side)) if side == position.side_to_move() => MATE - ply,
            Some(Outcome::Win(_)) => -(MATE - ply),
            _ => 0,
        };
    }
    if depth == 0 {
        let stand = h.evaluate(position);
        if quiescence == 0 {
            return stand;
        }
        let mut best = stand;
        for &mv in moves.iter().filter(|&&mv| h.is_tactical(position, mv)) {
            let mut child = position.clone();
            child.play_unchecked(mv);
            best = best.max(-minimax(h, &child, 0, ply + 1, quiescence - 1));
        }
        return best;
    }
    let mut best = i32::MIN + 1;
    for &mv in &moves {
        let mut child = position.clone();
        child.play_unchecked(mv);
        best = best.max(-minimax(h, &child, depth - 1, ply + 1, quiescence));
    }
    best
}
