//! The search: one [`Mcts`] per game, split into [`Mcts::gather`] (descend to leaves) and
//! [`Mcts::apply`] (expand them with their evaluations and back up), so that
//! [`search_lockstep`] can advance many games with one evaluator call per step.

use std::time::{Duration, Instant};

use pjlab_core::{Game, Outcome, Side};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Gamma};

use crate::evaluator::{Evaluation, Evaluator, Request};
use crate::gumbel::{self, GumbelConfig};
use crate::tree::{NO_PARENT, NONE, NodeId, Proof, ROOT, Tree};

/// Dirichlet noise mixed into the root priors: `(1 - fraction) * p + fraction * Dir(alpha)`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RootNoise {
    /// Concentration of the Dirichlet distribution (AlphaZero: 0.3 for chess, about 10 / moves).
    pub alpha: f32,
    /// Weight of the noise, in `[0, 1]` (AlphaZero: 0.25).
    pub fraction: f32,
}

/// How the search behaves (not how long it runs: that is [`Budget`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Exploration constant of PUCT, dimensionless: `U = c_puct * prior * sqrt(N) / (1 + n)`.
    pub c_puct: f32,
    /// First-play urgency: an unvisited child's Q is the parent's Q minus this, in value units
    /// (values lie in `[-1, 1]`).
    pub fpu_reduction: f32,
    /// Dirichlet noise at the root (self-play exploration); `None` for play and analysis.
    pub root_noise: Option<RootNoise>,
    /// Gumbel root search instead of PUCT at the root; the policy target becomes the improved
    /// policy. PUCT is used below the root either way.
    pub gumbel: Option<GumbelConfig>,
    /// MCTS-solver: propagate proven wins, losses and draws up the tree and stop once the root
    /// is proven.
    pub solver: bool,
    /// Value units subtracted from each node on the path of a leaf while it awaits evaluation,
    /// so that the next descent of the same game goes elsewhere.
    pub virtual_loss: f32,
    /// Leaves gathered per game before each evaluator call (1 = plain sequential MCTS).
    pub leaves_per_call: usize,
    /// Keep the subtree of the move played ([`Mcts::advance`]) instead of starting afresh.
    pub reuse_tree: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            c_puct: 1.5,
            fpu_reduction: 0.2,
            root_noise: None,
            gumbel: None,
            solver: true,
            virtual_loss: 1.0,
            leaves_per_call: 1,
            reuse_tree: true,
        }
    }
}

/// When a search stops: the first limit reached.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Simulations per move (each one evaluates a leaf or backs up a finished game).
    pub simulations: u32,
    /// Nodes in the tree, reused ones included: a memory bound. A node takes 32 bytes, and an
    /// expanded one 12 bytes per legal move (Pijersi).
    pub max_nodes: usize,
    /// Wall-clock time per move.
    pub time: Option<Duration>,
}

impl Budget {
    /// `n` simulations, at most 20 million nodes, no time limit.
    pub fn simulations(n: u32) -> Budget {
        Budget {
            simulations: n,
            max_nodes: 20_000_000,
            time: None,
        }
    }

    /// A time limit only (the node bound stays).
    pub fn time(time: Duration) -> Budget {
        Budget {
            simulations: u32::MAX,
            max_nodes: 20_000_000,
            time: Some(time),
        }
    }
}

/// What a search found at its root.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The move to play (`None` when the game is over).
    pub best_move: Option<M>,
    /// The root's value for its side to move: mean backed-up value, or the proven one.
    pub value: f32,
    /// The root's side to move.
    pub side: Side,
    /// What is proven about the root (only with [`Config::solver`], or at a finished game).
    pub proof: Proof,
    /// Simulations run by this search.
    pub simulations: u32,
    /// Nodes in the tree.
    pub nodes: usize,
    /// The policy target over the root's legal moves: visit shares (PUCT) or the improved
    /// policy (Gumbel).
    pub policy: Vec<(M, f32)>,
    /// Visits of each root move.
    pub visits: Vec<(M, u32)>,
    /// The principal variation from the root (most visited children, proven wins first).
    pub pv: Vec<M>,
}

struct Leaf<G: Game> {
    node: NodeId,
    position: G,
    moves: Vec<G::Move>,
}

enum Descent {
    Queued,
    Resolved,
    Collision,
}

/// A search tree over one game, rooted at the current position.
pub struct Mcts<G: Game> {
    config: Config,
    root: G,
    tree: Tree<G::Move>,
    rng: ChaCha8Rng,
    leaves: Vec<Leaf<G>>,
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
    schedule: Vec<u32>,
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

    /// Starts a search with this budget (counters, root noise and Gumbel samples are per
    /// search). [`search_lockstep`] calls it.
    pub fn start(&mut self, budget: &Budget) {
        self.cancel_pending();
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

    /// Descends to up to [`Config::leaves_per_call`] leaves. Those that need an evaluation are
    /// queued ([`Mcts::requests`]); finished games and proven nodes are backed up at once.
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
            let leaf = &self.leaves[i];
            let node = leaf.node;
            let side = leaf.position.side_to_move();
            let value = eval.value.for_side(side);
            if eval.priors.len() == leaf.moves.len() {
                self.tree.expand(node, &leaf.moves, &eval.priors);
            } else {
                let uniform = vec![1.0 / leaf.moves.len() as f32; leaf.moves.len()];
                self.tree.expand(node, &leaf.moves, &uniform);
            }
            let n = self.tree.node_mut(node);
            n.raw_value = value;
            n.in_flight = false;
            self.backup(node, value);
            self.simulations += 1;
            if node == ROOT {
                self.prepare_root();
            }
        }
        for i in answered..self.pending {
            let node = self.leaves[i].node;
            self.tree.node_mut(node).in_flight = false;
            self.revert_virtual(node);
        }
        self.pending = 0;
    }

    /// Moves the root along `mv`, keeping its subtree if [`Config::reuse_tree`] is set.
    ///
    /// # Errors
    /// When `mv` is not legal at the root (the search is then unchanged).
    pub fn advance(&mut self, mv: G::Move) -> Result<(), G::Error> {
        self.cancel_pending();
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

    /// The result of the search so far.
    pub fn result(&self) -> SearchResult<G::Move> {
        let root = self.tree.node(ROOT);
        let side = self.root.side_to_move();
        let value = match root.proof.value() {
            Some(v) if self.config.solver || !root.is_expanded() => v,
            _ => root.q().map_or(0.0, |q| -q),
        };
        let visits: Vec<(G::Move, u32)> = root
            .edges()
            .map(|e| (self.tree.edges[e].mv, self.tree.edge_stats(e).1))
            .collect();
        let policy = if root.is_expanded() {
            self.policy_target()
        } else {
            Vec::new()
        };
        let best = self.best_edge();
        SearchResult {
            best_move: best.map(|e| self.tree.edges[e].mv),
            value,
            side,
            proof: if self.config.solver || !root.is_expanded() {
                root.proof
            } else {
                Proof::Unknown
            },
            simulations: self.simulations,
            nodes: self.tree.len(),
            policy,
            visits,
            pv: self.principal_variation(best),
        }
    }

    fn cancel_pending(&mut self) {
        for i in 0..self.pending {
            let node = self.leaves[i].node;
            self.tree.node_mut(node).in_flight = false;
            self.revert_virtual(node);
        }
        self.pending = 0;
    }

    /// Draws root noise and Gumbel samples once the root is expanded.
    fn prepare_root(&mut self) {
        if self.root_ready {
            return;
        }
        self.root_ready = true;
        let edges = self.tree.node(ROOT).edges();
        let n = edges.len();
        if let Some(noise) = self.config.root_noise
            && n > 1
            && let Ok(gamma) = Gamma::new(noise.alpha.max(1e-3), 1.0)
        {
            let samples: Vec<f32> = (0..n).map(|_| gamma.sample(&mut self.rng)).collect();
            let total: f32 = samples.iter().sum::<f32>().max(f32::MIN_POSITIVE);
            for (e, s) in edges.clone().zip(samples) {
                let edge = &mut self.tree.edges[e];
                edge.prior = (1.0 - noise.fraction) * edge.prior + noise.fraction * s / total;
            }
        }
        if let Some(config) = self.config.gumbel {
            self.gumbel = (0..n)
                .map(|_| gumbel::gumbel_from_uniform(self.rng.random::<f64>()))
                .collect();
            self.root_visits = vec![0; n];
            let remaining = self.budget.simulations.saturating_sub(self.simulations);
            let k = config.considered.min(n).max(1);
            self.schedule = gumbel::considered_visits(k, remaining.min(1 << 20) as usize);
            self.root_selections = 0;
        }
    }

    fn descend(&mut self) -> Descent {
        if self.pending == self.leaves.len() {
            self.leaves.push(Leaf {
                node: ROOT,
                position: self.root.clone(),
                moves: Vec::new(),
            });
        }
        let slot = self.pending;
        self.leaves[slot].position.clone_from(&self.root);
        let mut id = ROOT;
        self.add_virtual(id);
        loop {
            let node = self.tree.node(id);
            if let Some(v) = node.proof.value() {
                self.backup(id, v);
                return Descent::Resolved;
            }
            if !node.is_expanded() {
                if node.in_flight {
                    self.revert_virtual(id);
                    return Descent::Collision;
                }
                let leaf = &mut self.leaves[slot];
                leaf.position.legal_moves(&mut leaf.moves);
                if leaf.moves.is_empty() {
                    // The game is over here (the API's invariant); a broken game reads as a draw.
                    let outcome = leaf.position.outcome().unwrap_or(Outcome::Draw);
                    let side = leaf.position.side_to_move();
                    let node = self.tree.node_mut(id);
                    node.proof = match outcome {
                        Outcome::Draw => Proof::Draw,
                        Outcome::Win(winner) if winner == side => Proof::Win,
                        Outcome::Win(_) => Proof::Loss,
                    };
                    let v = node.proof.value().unwrap_or(0.0);
                    node.raw_value = v;
                    self.backup(id, v);
                    if self.config.solver {
                        self.propagate_proof(id);
                    }
                    return Descent::Resolved;
                }
                self.tree.node_mut(id).in_flight = true;
                self.leaves[slot].node = id;
                return Descent::Queued;
            }
            let gumbel_root = id == ROOT && self.config.gumbel.is_some();
            let edge = if gumbel_root {
                self.select_gumbel_root()
                    .unwrap_or_else(|| self.select_puct(id))
            } else {
                self.select_puct(id)
            };
            if gumbel_root {
                let first = self.tree.node(ROOT).first_edge as usize;
                if let Some(v) = self.root_visits.get_mut(edge - first) {
                    *v += 1;
                }
                self.root_selections += 1;
            }
            let mv = self.tree.edges[edge].mv;
            let child = self.tree.child(id, edge);
            self.add_virtual(child);
            self.leaves[slot].position.play_unchecked(mv);
            id = child;
        }
    }

    #[inline]
    fn add_virtual(&mut self, id: NodeId) {
        let vloss = self.config.virtual_loss;
        let node = self.tree.node_mut(id);
        node.visits += 1;
        node.value_sum -= vloss;
    }

    /// Undoes the virtual visits of the path from `id` up to the root.
    fn revert_virtual(&mut self, mut id: NodeId) {
        let vloss = self.config.virtual_loss;
        let gumbel = self.config.gumbel.is_some();
        loop {
            let node = self.tree.node_mut(id);
            node.visits -= 1;
            node.value_sum += vloss;
            let (parent, parent_edge) = (node.parent, node.parent_edge as usize);
            if parent == NO_PARENT {
                break;
            }
            if parent == ROOT && gumbel {
                let first = self.tree.node(ROOT).first_edge as usize;
                if let Some(v) = self.root_visits.get_mut(parent_edge - first) {
                    *v = v.saturating_sub(1);
                }
                self.root_selections = self.root_selections.saturating_sub(1);
            }
            id = parent;
        }
    }

    /// Backs up `value` (for the side to move at `id`) to the root, turning the virtual visits
    /// of the descent into real ones.
    fn backup(&mut self, mut id: NodeId, value: f32) {
        let vloss = self.config.virtual_loss;
        let mut v = -value;
        loop {
            let node = self.tree.node_mut(id);
            node.value_sum += v + vloss;
            if node.parent == NO_PARENT {
                break;
            }
            id = node.parent;
            v = -v;
        }
    }

    /// Proves ancestors of the newly proven `id` while their children allow it.
    fn propagate_proof(&mut self, mut id: NodeId) {
        loop {
            let parent = self.tree.node(id).parent;
            if parent == NO_PARENT {
                return;
            }
            let mut all_proven = true;
            let mut any_draw = false;
            let mut proof = Proof::Unknown;
            for e in self.tree.node(parent).edges() {
                match self.tree.edge_stats(e).2 {
                    Proof::Loss => {
                        proof = Proof::Win;
                        break;
                    }
                    Proof::Unknown => all_proven = false,
                    Proof::Draw => any_draw = true,
                    Proof::Win => {}
                }
            }
            if proof == Proof::Unknown && all_proven {
                proof = if any_draw { Proof::Draw } else { Proof::Loss };
            }
            if proof == Proof::Unknown {
                return;
            }
            self.tree.node_mut(parent).proof = proof;
            id = parent;
        }
    }

    /// The PUCT choice among the edges of `id` (an edge index).
    fn select_puct(&self, id: NodeId) -> usize {
        let node = self.tree.node(id);
        let sqrt_n = (node.visits.max(1) as f32).sqrt();
        let parent_q = node.q().map_or(0.0, |q| -q);
        let fpu = parent_q - self.config.fpu_reduction;
        let c = self.config.c_puct * sqrt_n;
        let nodes = &self.tree.nodes;
        let mut best = node.first_edge as usize;
        let mut best_score = f32::NEG_INFINITY;
        for e in node.edges() {
            let edge = &self.tree.edges[e];
            let score = if edge.child == NONE {
                fpu + c * edge.prior
            } else {
                let child = &nodes[edge.child as usize];
                let q = match child.proof {
                    Proof::Loss => return e,
                    Proof::Win => -1e9,
                    Proof::Draw => 0.0,
                    Proof::Unknown => child.q().unwrap_or(fpu),
                };
                q + c * edge.prior / (1 + child.visits) as f32
            };
            if score > best_score {
                best_score = score;
                best = e;
            }
        }
        best
    }

    /// Root statistics for Gumbel: Q from the root's side to move, visits, priors.
    fn root_stats(&self) -> (Vec<f32>, Vec<u32>, Vec<f32>) {
        let root = self.tree.node(ROOT);
        let n = root.num_edges as usize;
        let (mut q, mut visits, mut priors) = (
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
        );
        for e in root.edges() {
            let (child_q, child_visits, proof) = self.tree.edge_stats(e);
            let (value, n) = match proof.value() {
                // A child proven for its side to move: the opposite for the root.
                Some(v) => (-v, child_visits.max(1)),
                None => (child_q.unwrap_or(0.0), child_visits),
            };
            q.push(value);
            visits.push(n);
            priors.push(self.tree.edges[e].prior);
        }
        (q, visits, priors)
    }

    fn select_gumbel_root(&self) -> Option<usize> {
        let config = self.config.gumbel?;
        let target = *self.schedule.get(self.root_selections)?;
        let (q, visits, priors) = self.root_stats();
        let root = self.tree.node(ROOT);
        let sigma = gumbel::transformed_q(&q, &visits, &priors, root.raw_value, &config);
        let first = root.first_edge as usize;
        let mut best = None;
        let mut best_score = f32::NEG_INFINITY;
        for j in 0..priors.len() {
            if self.root_visits.get(j) != Some(&target)
                || self.tree.edge_stats(first + j).2 == Proof::Win
            {
                continue;
            }
            let s = gumbel::score(self.gumbel[j], priors[j], sigma[j]);
            if s > best_score {
                best_score = s;
                best = Some(first + j);
            }
        }
        best
    }

    /// The move to play (an edge of the root): a proven win if there is one; Gumbel's final
    /// choice; else the most visited edge (ties: higher Q), avoiding proven losses while an
    /// alternative exists.
    fn best_edge(&self) -> Option<usize> {
        let root = self.tree.node(ROOT);
        if !root.is_expanded() {
            return None;
        }
        let winning = root
            .edges()
            .filter(|&e| self.tree.edge_stats(e).2 == Proof::Loss)
            .max_by_key(|&e| self.tree.edge_stats(e).1);
        if winning.is_some() {
            return winning;
        }
        if let Some(config) = self.config.gumbel
            && self.root_visits.len() == root.num_edges as usize
            && self.gumbel.len() == self.root_visits.len()
        {
            let (q, visits, priors) = self.root_stats();
            let sigma = gumbel::transformed_q(&q, &visits, &priors, root.raw_value, &config);
            let max_visits = self.root_visits.iter().copied().max().unwrap_or(0);
            let mut best = None;
            let mut best_score = f32::NEG_INFINITY;
            for (j, e) in root.edges().enumerate() {
                if self.root_visits[j] != max_visits || self.tree.edge_stats(e).2 == Proof::Win {
                    continue;
                }
                let s = gumbel::score(self.gumbel[j], priors[j], sigma[j]);
                if s > best_score {
                    best_score = s;
                    best = Some(e);
                }
            }
            if best.is_some() {
                return best;
            }
        }
        self.most_visited(ROOT)
    }

    /// The most visited edge of `id` (ties: higher Q, then the earlier edge), proven losses
    /// last.
    fn most_visited(&self, id: NodeId) -> Option<usize> {
        let key = |e: usize| {
            let (q, visits, proof) = self.tree.edge_stats(e);
            (proof != Proof::Win, visits, q.unwrap_or(-2.0))
        };
        self.tree.node(id).edges().max_by(|&a, &b| {
            let (ka, kb) = (key(a), key(b));
            ka.0.cmp(&kb.0)
                .then(ka.1.cmp(&kb.1))
                .then(ka.2.total_cmp(&kb.2))
                // Equal keys: the earlier edge wins (max_by keeps the last maximum).
                .then(b.cmp(&a))
        })
    }

    fn policy_target(&self) -> Vec<(G::Move, f32)> {
        let root = self.tree.node(ROOT);
        let moves = root.edges().map(|e| self.tree.edges[e].mv);
        if let Some(config) = self.config.gumbel {
            let (q, visits, priors) = self.root_stats();
            let policy = gumbel::improved_policy(&q, &visits, &priors, root.raw_value, &config);
            moves.zip(policy).collect()
        } else {
            let total: u32 = root.edges().map(|e| self.tree.edge_stats(e).1).sum();
            let total = total.max(1) as f32;
            moves
                .zip(root.edges())
                .map(|(m, e)| (m, self.tree.edge_stats(e).1 as f32 / total))
                .collect()
        }
    }

    /// The line from the root starting with the edge `best`.
    fn principal_variation(&self, best: Option<usize>) -> Vec<G::Move> {
        let mut pv = Vec::new();
        let mut next = best;
        while let Some(e) = next {
            let edge = &self.tree.edges[e];
            pv.push(edge.mv);
            if edge.child == NONE || pv.len() >= 64 {
                break;
            }
            let id = edge.child;
            next = self
                .tree
                .node(id)
                .edges()
                .find(|&e| self.tree.edge_stats(e).2 == Proof::Loss)
                .or_else(|| self.most_visited(id))
                .filter(|&e| self.tree.edge_stats(e).1 > 0);
        }
        pv
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
    }
}
