//! What a search is asked (its limits and options) and what it answers, and the scores'
//! scale.

use std::time::Duration;

/// Score of a win at the root; a win found `n` plies deep scores `MATE - n`.
pub const MATE: i32 = 1_000_000;
/// Scores beyond this (in absolute value) are wins or losses.
pub const MATE_BOUND: i32 = MATE - 10_000;
pub(crate) const INFINITY: i32 = MATE + 1;
/// Deepest ply searched (quiescence included).
pub const MAX_PLY: usize = 128;

/// When a search stops: the first limit reached. Depth 1 always completes.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies (quiescence goes further).
    pub depth: Option<u32>,
    /// Nodes searched, quiescence nodes included.
    pub nodes: Option<u64>,
    /// Wall-clock time; the result is then the last completed iteration's.
    pub time: Option<Duration>,
}

impl Limits {
    /// Search to `depth` plies.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Search for `time`.
    pub fn time(time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..Limits::default()
        }
    }
}

/// Search settings.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size in MiB (0: none).
    pub tt_mib: usize,
    /// Plies of quiescence search (tactical moves only) beyond the horizon; 0 turns it off.
    pub quiescence_plies: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            tt_mib: 16,
            quiescence_plies: 16,
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The move to play (`None` when the side to move has no legal move).
    pub best_move: Option<M>,
    /// Score for the side to move; beyond [`MATE_BOUND`] a forced win (`MATE - plies`), below
    /// `-MATE_BOUND` a forced loss.
    pub score: i32,
    /// Last completed iteration.
    pub depth: u32,
    /// Nodes searched (all iterations, quiescence included).
    pub nodes: u64,
    /// Principal variation of the last completed iteration.
    pub pv: Vec<M>,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
}

impl<M> SearchResult<M> {
    /// Plies to the end of a forced win (positive) or loss (negative), if the score is one.
    pub fn mate_in(&self) -> Option<i32> {
        if self.score >= MATE_BOUND {
            Some(MATE - self.score)
        } else if self.score <= -MATE_BOUND {
            Some(-(MATE + self.score))
        } else {
            None
        }
    }
}
