//! The lock-step driver: each search [gathers](Mcts::gather) leaves, one evaluator call serves
//! the requests of all of them, and each search [applies](Mcts::apply) its share of the
//! answers ([`search_lockstep`], [`drive_lockstep`], [`drive_lockstep_with`]).

use pjlab_core::Game;

use super::descent::Descent;
use super::{Budget, Mcts};
use crate::evaluator::{Evaluation, Evaluator, Request};
use crate::tree::ROOT;

impl<G: Game> Mcts<G> {
    /// Descends to up to [`Config::leaves_per_call`](crate::Config::leaves_per_call) leaves.
    /// Those that need an evaluation are queued ([`Mcts::requests`]); finished games and proven
    /// nodes are backed up at once.
    /// Returns the number queued.
    pub fn gather(&mut self) -> usize {
        let want = self.config.leaves_per_call.max(1);
        let mut attempts = 0;
        while self.pending < want && attempts < 4 * want && !self.is_done() {
            attempts += 1;
            match self.descend() {
                Descent::Queued => self.pending += 1,
                Descent::Resolved => self.simulations += 1,
                Descent::Collision => break,
            }
        }
        self.pending
    }

    /// The queued leaves, in the order [`Mcts::apply`] expects their evaluations.
    pub fn requests(&self) -> impl Iterator<Item = Request<'_, G>> {
        self.leaves[..self.pending].iter().map(|leaf| Request {
            position: &leaf.position,
            moves: &leaf.moves,
        })
    }

    /// Expands the queued leaves with `evals` (one per request, same order) and backs up their
    /// values.
    /// Leaves without an evaluation (a short `evals`) are given back, unvisited.
    pub fn apply(&mut self, evals: &[Evaluation]) {
        debug_assert_eq!(evals.len(), self.pending);
        let answered = self.pending.min(evals.len());
        for (i, eval) in evals.iter().enumerate().take(answered) {
            let node = self.expand_leaf(i, eval);
            self.simulations += 1;
            if node == ROOT {
                self.prepare_root();
            }
        }
        self.release_pending(answered);
    }

    /// Gives back the queued leaves from the `from`-th on, unvisited (their virtual visits
    /// undone), and empties the queue.
    pub(super) fn release_pending(&mut self, from: usize) {
        for i in from..self.pending {
            let node = self.leaves[i].node;
            self.tree.node_mut(node).in_flight = false;
            self.revert_virtual(node);
        }
        self.pending = 0;
    }
}

/// Runs the searches to `budget` together: each step gathers leaves from every unfinished
/// search and makes one evaluator call for all of them.
pub fn search_lockstep<G: Game, E: Evaluator<G> + ?Sized>(
    searches: &mut [Mcts<G>],
    evaluator: &mut E,
    budget: &Budget,
) {
    for search in searches.iter_mut() {
        search.start(budget);
    }
    drive_lockstep(searches, evaluator);
}

/// Runs searches already [started](Mcts::start), each with its own budget, to their ends: each
/// step gathers leaves from every unfinished search and makes one evaluator call for all.
pub fn drive_lockstep<G: Game, E: Evaluator<G> + ?Sized>(
    searches: &mut [Mcts<G>],
    evaluator: &mut E,
) {
    drive_lockstep_with(searches, evaluator, &mut |_| {});
}

/// As [`drive_lockstep`], calling `after_step` with the searches after each evaluator call
/// (for progress reports; the searches are the same as without it).
pub fn drive_lockstep_with<G: Game, E: Evaluator<G> + ?Sized>(
    searches: &mut [Mcts<G>],
    evaluator: &mut E,
    after_step: &mut dyn FnMut(&[Mcts<G>]),
) {
    let mut evals: Vec<Evaluation> = Vec::new();
    loop {
        let mut running = false;
        let mut total = 0;
        for search in searches.iter_mut() {
            if !search.is_done() {
                running = true;
                search.gather();
            }
            total += search.pending;
        }
        if total == 0 {
            if running {
                continue;
            }
            break;
        }
        if evals.len() < total {
            evals.resize_with(total, Evaluation::default);
        }
        {
            let requests: Vec<Request<'_, G>> =
                searches.iter().flat_map(|s| s.requests()).collect();
            evaluator.evaluate(&requests, &mut evals[..total]);
        }
        let mut offset = 0;
        for search in searches.iter_mut() {
            let n = search.pending;
            search.apply(&evals[offset..offset + n]);
            offset += n;
        }
        after_step(searches);
    }
}
