//! What an agent answers: its move, its rating of the position, its line and its effort.

use std::time::{Duration, Instant};

/// How an agent rates the position it moved from, for its side to move.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Score {
    /// Alpha-beta centi-units (a cube is about 100).
    Centi(i32),
    /// A forced result in this many plies: positive a win, negative a loss.
    Mate(i32),
    /// An expected game value in `[-1, 1]` (MCTS).
    Value(f32),
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Score::Centi(c) => write!(f, "{c:+} cu"),
            Score::Mate(n) if n >= 0 => write!(f, "win in {n} plies"),
            Score::Mate(n) => write!(f, "loss in {} plies", -n),
            Score::Value(v) => write!(f, "{v:+.3}"),
        }
    }
}

/// An agent's answer for one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision<M> {
    /// The move it plays (`None` when there is none).
    pub best_move: Option<M>,
    /// Its rating of the position, if it has one.
    pub score: Option<Score>,
    /// The line it expects, starting with its move.
    pub pv: Vec<M>,
    /// Search depth reached (alpha-beta) or simulations run (MCTS).
    pub effort: u64,
    /// Plies the search looked ahead: the last completed iteration (alpha-beta), the principal
    /// variation's length (MCTS); 0 for agents that do not search.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// Why the agent gave no move in a position that is not over (an external engine that hung,
    /// crashed or answered an illegal move): the game is lost on time.
    pub forfeit: Option<String>,
}

impl<M> Decision<M> {
    /// The decision an MCTS result makes: its move, its value (or the proven result, in plies
    /// of its principal variation), simulations as effort.
    pub fn from_search(result: pjlab_mcts::SearchResult<M>, started: Instant) -> Decision<M> {
        let score = match result.proof {
            pjlab_mcts::Proof::Win => Score::Mate(result.pv.len() as i32),
            pjlab_mcts::Proof::Loss => Score::Mate(-(result.pv.len() as i32)),
            _ => Score::Value(result.value),
        };
        Decision {
            best_move: result.best_move,
            score: Some(score),
            depth: result.pv.len() as u32,
            pv: result.pv,
            effort: u64::from(result.simulations),
            nodes: result.nodes as u64,
            elapsed: started.elapsed(),
            forfeit: None,
        }
    }

    pub(crate) fn just(best_move: Option<M>, started: Instant) -> Decision<M>
    where
        M: Copy,
    {
        Decision {
            best_move,
            score: None,
            pv: best_move.into_iter().collect(),
            effort: 0,
            depth: 0,
            nodes: 0,
            elapsed: started.elapsed(),
            forfeit: None,
        }
    }

    /// A forfeit: no move, for `reason`.
    pub fn forfeit(reason: impl Into<String>, started: Instant) -> Decision<M> {
        Decision {
            best_move: None,
            score: None,
            pv: Vec::new(),
            effort: 0,
            depth: 0,
            nodes: 0,
            elapsed: started.elapsed(),
            forfeit: Some(reason.into()),
        }
    }
}
