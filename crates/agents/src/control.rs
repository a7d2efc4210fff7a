//! A search driven from outside ([`crate::Agent::search`]): limits for this move, a stop flag
//! raised by another thread, progress reports. The UGI engine drives agents this way.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use pjlab_core::Game;
use pjlab_mcts::{Budget, Evaluator, Mcts};

use crate::Decision;

/// Limits of one search, replacing the agent's own budget. All `None`: search until the stop
/// flag is raised.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Deepest iteration, in plies (alpha-beta; MCTS ignores it).
    pub depth: Option<u32>,
    /// Wall-clock time for the move.
    pub time: Option<Duration>,
    /// Nodes (alpha-beta) or simulations (MCTS).
    pub nodes: Option<u64>,
}

/// How a caller drives one search.
pub struct Control<'a, M> {
    /// `None`: the agent's own budget (the one its spec set); `Some`: exactly these limits.
    pub limits: Option<SearchLimits>,
    /// Raised (by another thread) to end the search early: the agent then answers with its best
    /// move so far.
    pub stop: Arc<AtomicBool>,
    /// Called with the decision so far: after every completed iteration (alpha-beta), every
    /// [`REPORT_EVERY`] and at the end (MCTS), once at the end (agents that do not search).
    pub progress: &'a mut dyn FnMut(&Decision<M>),
}

/// A progress callback: called with the decision so far.
pub type Progress<'a, M> = &'a mut dyn FnMut(&Decision<M>);

/// How often an MCTS search driven by a [`Control`] reports its decision so far.
pub const REPORT_EVERY: Duration = Duration::from_millis(200);

/// Runs `search` to `budget` with `evaluator`; with `progress`, reports the decision so far
/// every [`REPORT_EVERY`] (the search is the same either way). `started` is when the decision
/// began (its time counts from there).
pub fn run_mcts<G: Game, E: Evaluator<G> + ?Sized>(
    search: &mut Mcts<G>,
    evaluator: &mut E,
    budget: &Budget,
    started: Instant,
    progress: Option<Progress<'_, G::Move>>,
) -> Decision<G::Move> {
    let result = match progress {
        None => search.search(evaluator, budget),
        Some(progress) => search.search_reporting(evaluator, budget, REPORT_EVERY, &mut |r| {
            progress(&Decision::from_search(r.clone(), started));
        }),
    };
    Decision::from_search(result, started)
}

/// The MCTS budget for one search: the agent's `own`, or the caller's `limits`: `nodes` as
/// simulations; otherwise a time limit, or no limit at all, searches until the time is up or
/// the stop flag is raised; a depth alone keeps the agent's simulations.
pub fn mcts_budget(own: &Budget, limits: Option<SearchLimits>) -> Budget {
    let Some(limits) = limits else {
        return *own;
    };
    let mut budget = *own;
    if let Some(n) = limits.nodes {
        budget.simulations = n.min(u64::from(u32::MAX)) as u32;
    } else if limits.time.is_some() || limits.depth.is_none() {
        budget.simulations = u32::MAX;
    }
    budget.time = limits.time;
    budget
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caller_limits_replace_the_agents_budget() {
        let own = Budget::simulations(800);
        assert_eq!(mcts_budget(&own, None).simulations, 800);
        let nodes = SearchLimits {
            nodes: Some(50),
            time: Some(Duration::from_millis(10)),
            ..SearchLimits::default()
        };
        let b = mcts_budget(&own, Some(nodes));
        assert_eq!((b.simulations, b.time), (50, nodes.time));
        let depth = SearchLimits {
            depth: Some(3),
            ..SearchLimits::default()
        };
        assert_eq!(mcts_budget(&own, Some(depth)).simulations, 800);
        let until_stop = mcts_budget(&own, Some(SearchLimits::default()));
        assert_eq!((until_stop.simulations, until_stop.time), (u32::MAX, None));
    }
}
