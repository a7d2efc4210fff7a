//! What a search returns ([`SearchResult`]): the move to play, the root's value and proof, the
//! visit counts, the policy target (visit shares, or Gumbel's improved policy) and the
//! principal variation.

use pjlab_core::{Game, Side};

use super::Mcts;
use crate::gumbel;
use crate::tree::{NONE, NodeId, Proof, ROOT};

/// What a search found at its root.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The move to play (`None` when the game is over).
    pub best_move: Option<M>,
    /// The root's value for its side to move: mean backed-up value, or the proven one.
    pub value: f32,
    /// The root's side to move.
    pub side: Side,
    /// What is proven about the root (only with [`Config::solver`](crate::Config::solver), or
    /// at a finished game).
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

impl<G: Game> Mcts<G> {
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
            let children = self.root_children();
            let sigma = children.transformed_q(&config);
            let priors = children.priors;
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

    /// The policy target over the root's edges: Gumbel's improved policy, or visit shares.
    fn policy_target(&self) -> Vec<(G::Move, f32)> {
        let root = self.tree.node(ROOT);
        let moves = root.edges().map(|e| self.tree.edges[e].mv);
        if let Some(config) = self.config.gumbel {
            let policy = self.root_children().improved_policy(&config);
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
