//! The evaluation a game gives alpha-beta search: a static score and what counts as tactical.
//!
//! The trait lives here, beside [`Game`], so that each game's crate implements it for its own
//! evaluation while the search (`pjlab-alphabeta`) knows no game.

use crate::Game;

/// A game-specific evaluation plugged into the search.
pub trait Heuristic<G: Game> {
    /// The static score of `position` for its side to move (centi-units: a cube is about 100).
    /// Never called on a finished game.
    fn evaluate(&self, position: &G) -> i32;

    /// Whether `mv` is tactical (a capture, an immediate win): searched by quiescence and ordered
    /// before quiet moves.
    fn is_tactical(&self, _position: &G, _mv: G::Move) -> bool {
        false
    }

    /// Keeps only the tactical moves of `moves` (quiescence's move list). Override when the
    /// test shares work across moves.
    fn retain_tactical(&self, position: &G, moves: &mut Vec<G::Move>) {
        moves.retain(|&mv| self.is_tactical(position, mv));
    }

    /// Order among tactical moves, higher first (e.g. the value of what is captured).
    fn tactical_order(&self, _position: &G, _mv: G::Move) -> i32 {
        0
    }

    /// Size of the history table (indices of [`Heuristic::history_index`]).
    fn history_size(&self, position: &G) -> usize {
        position.num_actions()
    }

    /// Slot of `mv` in the history table; moves may share one. Defaults to the dense action
    /// index; a game whose action index is costly can use something cheaper.
    fn history_index(&self, position: &G, mv: G::Move) -> usize {
        position.action_index(mv)
    }
}

/// A score of 0 everywhere: with enough depth the search is an exact solver.
#[derive(Copy, Clone, Debug, Default)]
pub struct ZeroHeuristic;

impl<G: Game> Heuristic<G> for ZeroHeuristic {
    fn evaluate(&self, _position: &G) -> i32 {
        0
    }
}
