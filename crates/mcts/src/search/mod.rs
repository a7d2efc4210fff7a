//! The search: one [`Mcts`] per game, split into [`Mcts::gather`] (descend to leaves) and
//! [`Mcts::apply`] (expand them with their evaluations and back up), so that
//! [`search_lockstep`] can advance many games with one evaluator call per step.
//!
//! This file holds the search's state and its life cycle (new, start, done, advance); the
//! rest, each an `impl Mcts` of its own:
//! - `config`: [`Config`], [`RootNoise`] and [`Budget`];
//! - `selection`: PUCT with first-play urgency, Gumbel root selection, root noise;
//! - `descent`: down to a leaf under virtual loss, expansion, backup, the MCTS-solver;
//! - `results`: [`SearchResult`], the move to play, policy target, principal variation;
//! - `lockstep`: [`Mcts::gather`], [`Mcts::apply`], [`search_lockstep`], [`drive_lockstep`].

mod config;
mod descent;
mod lockstep;
mod results;
mod selection;

use std::time::{Duration, Instant};

use pjlab_core::Game;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub use config::{Budget, Config, RootNoise};
pub use lockstep::{drive_lockstep, drive_lockstep_with, search_lockstep};
pub use results::SearchResult;

use crate::evaluator::Evaluator;
use crate::tree::{NONE, NodeId, Proof, ROOT, Tree};

/// A leaf slot of one descent: the node reached, its position and legal moves.
struct Leaf<G: Game> {
    node: NodeId,
    position: G,
    moves: Vec<G::Move>,
}

/// A search tree over one game, rooted at the current position.
pub struct Mcts<G: Game> {
    config: Config,
    root: G,
    tree: Tree<G::Move>,
    rng: ChaCha8Rng,
    /// Leaf slots, reused from one gather to the next.
    leaves: Vec<Leaf<G>>,
    /// How many of `leaves` are queued for an evaluation.
    pending: usize,
    budget: Budget,
    simulations: u32,
    started: Instant,
    /// Whether root noise and Gumbel samples were drawn for this search.
    root_ready: bool,
    /// Per root child: its Gumbel sample (this search).
    gumbel: Vec<f32>,
    /// Per root child: visits given by this search (Gumbel's schedule counts these).
    root_visits: Vec<u32>,
    /// Gumbel's sequential-halving schedule: the visits the next root choice must have.
    schedule: Vec<u32>,
    /// Root choices made against `schedule` (this search).
    root_selections: usize,
    /// Raised by another thread to end the search early (UGI `stop`).
    stop_flag: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl<G: Game> Mcts<G> {
    /// A fresh tree at `root`; `seed` fixes every random choice (noise, Gumbel samples).
    pub fn new(root: G, config: Config, seed: u64) -> Mcts<G> {
        Mcts {
            config,
            root,
            tree: Tree::new(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            leaves: Vec::new(),
            pending: 0,
            budget: Budget::simulations(0),
            simulations: 0,
            started: Instant::now(),
            root_ready: false,
            gumbel: Vec::new(),
            root_visits: Vec::new(),
            schedule: Vec::new(),
            root_selections: 0,
            stop_flag: None,
        }
    }

    /// A flag another thread may raise to end searches early (after at least one simulation).
    pub fn set_stop_flag(&mut self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>) {
        self.stop_flag = Some(flag);
    }

    /// The position at the root.
    pub fn root(&self) -> &G {
        &self.root
    }

    /// The search's configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Nodes in the tree.
    pub fn nodes(&self) -> usize {
        self.tree.len()
    }

    /// Runs one search to its budget with `evaluator` and returns its result.
    pub fn search<E: Evaluator<G> + ?Sized>(
        &mut self,
        evaluator: &mut E,
        budget: &Budget,
    ) -> SearchResult<G::Move> {
        search_lockstep(std::slice::from_mut(self), evaluator, budget);
        self.result()
    }

    /// As [`Mcts::search`], calling `report` with the result so far every `every` of wall-clock
    /// time (after the evaluator call that crosses it): live analysis. The search is the same
    /// as without the reports, which cost one [`Mcts::result`] each.
    pub fn search_reporting<E: Evaluator<G> + ?Sized>(
        &mut self,
        evaluator: &mut E,
        budget: &Budget,
        every: Duration,
        report: &mut dyn FnMut(&SearchResult<G::Move>),
    ) -> SearchResult<G::Move> {
        self.start(budget);
        let mut last = Instant::now();
        drive_lockstep_with(std::slice::from_mut(self), evaluator, &mut |searches| {
            if last.elapsed() >= every {
                report(&searches[0].result());
                last = Instant::now();
            }
        });
        self.result()
    }

    /// Starts a search with this budget (counters, root noise and Gumbel samples are per
    /// search). [`search_lockstep`] calls it.
    pub fn start(&mut self, budget: &Budget) {
        self.release_pending(0);
        self.budget = *budget;
        self.simulations = 0;
        self.started = Instant::now();
        self.root_ready = false;
        if self.tree.node(ROOT).is_expanded() {
            self.prepare_root();
        }
    }

    /// Whether this search has reached its budget (or proven its root, or the game is over).
    pub fn is_done(&self) -> bool {
        let root = self.tree.node(ROOT);
        (root.proof != Proof::Unknown && (self.config.solver || !root.is_expanded()))
            || self.simulations >= self.budget.simulations
            || self.tree.len() >= self.budget.max_nodes
            || self
                .budget
                .time
                .is_some_and(|t| self.started.elapsed() >= t)
            || (self.simulations > 0
                && self
                    .stop_flag
                    .as_ref()
                    .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed)))
    }

    /// Moves the root along `mv`, keeping its subtree if [`Config::reuse_tree`] is set.
    ///
    /// # Errors
    /// When `mv` is not legal at the root (the search is then unchanged).
    pub fn advance(&mut self, mv: G::Move) -> Result<(), G::Error> {
        self.release_pending(0);
        let mut next = self.root.clone();
        next.play(mv)?;
        let child = self
            .tree
            .node(ROOT)
            .edges()
            .find(|&e| self.tree.edges[e].mv == mv)
            .map(|e| self.tree.edges[e].child)
            .filter(|&c| c != NONE);
        self.tree = match child {
            Some(c) if self.config.reuse_tree => self.tree.subtree(c),
            _ => Tree::new(),
        };
        self.root = next;
        self.root_ready = false;
        Ok(())
    }
}
