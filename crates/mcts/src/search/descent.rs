//! One simulation's way through the tree: down to a leaf under virtual loss, then either queued
//! for an evaluation (expanded later by [`Mcts::apply`]) or resolved at once (a finished game,
//! a proven node), and its value backed up to the root. With [`Config::solver`](super::Config),
//! proofs climb as well (MCTS-solver): a node is won once one child is lost for its side to
//! move, lost or drawn once every child is proven.

use pjlab_core::{Game, Outcome};

use super::{Leaf, Mcts};
use crate::evaluator::Evaluation;
use crate::tree::{NO_PARENT, NodeId, Proof, ROOT};

/// How one descent ended.
pub(super) enum Descent {
    /// At an unexpanded leaf, now queued for an evaluation.
    Queued,
    /// At a finished game or a proven node, backed up at once.
    Resolved,
    /// At a leaf already awaiting its evaluation (the descent is undone).
    Collision,
}

impl<G: Game> Mcts<G> {
    /// Descends from the root into the next free leaf slot.
    pub(super) fn descend(&mut self) -> Descent {
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
            // 1. A proven node: its exact value, no evaluation needed.
            if let Some(v) = node.proof.value() {
                self.backup(id, v);
                return Descent::Resolved;
            }
            // 2. An unexpanded node: a collision, a finished game, or a leaf to evaluate.
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
            // 3. An expanded node: go down the selected edge.
            let edge = self.select(id);
            let mv = self.tree.edges[edge].mv;
            let child = self.tree.child(id, edge);
            self.add_virtual(child);
            self.leaves[slot].position.play_unchecked(mv);
            id = child;
        }
    }

    /// Expands the queued leaf `i` with `eval` (uniform priors when its priors do not match the
    /// moves) and backs up its value; returns the leaf's node.
    pub(super) fn expand_leaf(&mut self, i: usize, eval: &Evaluation) -> NodeId {
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
        node
    }

    #[inline]
    fn add_virtual(&mut self, id: NodeId) {
        let vloss = self.config.virtual_loss;
        let node = self.tree.node_mut(id);
        node.visits += 1;
        node.value_sum -= vloss;
    }

    /// Undoes the virtual visits of the path from `id` up to the root (and the Gumbel root
    /// selection it counted).
    pub(super) fn revert_virtual(&mut self, mut id: NodeId) {
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
}
