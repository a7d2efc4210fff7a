//! Which edge a descent takes: PUCT with first-play urgency (everywhere, or below the root with
//! Gumbel), Gumbel's sequential halving at the root, and what the root draws once per search
//! (Dirichlet noise mixed into its priors, Gumbel samples and the halving schedule).

use pjlab_core::Game;
use rand::RngExt;
use rand_distr::{Distribution, Gamma};

use super::Mcts;
use crate::gumbel;
use crate::tree::{NONE, NodeId, Proof, ROOT};

impl<G: Game> Mcts<G> {
    /// Draws root noise and Gumbel samples once the root is expanded.
    pub(super) fn prepare_root(&mut self) {
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

    /// The edge the descent takes from the expanded node `id`: Gumbel's choice at the root
    /// (counted in its schedule), PUCT elsewhere or once the schedule is spent.
    pub(super) fn select(&mut self, id: NodeId) -> usize {
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
        edge
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

    /// The root's children for Gumbel: Q from the root's side to move, visits, priors.
    pub(super) fn root_children(&self) -> gumbel::Children {
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
        gumbel::Children {
            q,
            visits,
            priors,
            raw_value: root.raw_value,
        }
    }

    /// Gumbel's choice at the root: among the considered edges whose visits this search equal
    /// the schedule's next entry (proven losses for the root left out), the best
    /// `gumbel + logit + sigma(q)`; `None` once the schedule is spent.
    fn select_gumbel_root(&self) -> Option<usize> {
        let config = self.config.gumbel?;
        let target = *self.schedule.get(self.root_selections)?;
        let children = self.root_children();
        let sigma = children.transformed_q(&config);
        let priors = children.priors;
        let root = self.tree.node(ROOT);
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
}
