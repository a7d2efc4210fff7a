//! The arena: nodes and edges in two `Vec`s, linked by `u32` indices.
//!
//! Expanding a node appends one small [`Edge`] per legal move (move, prior, child link); the
//! child [`Node`] with its statistics is created only when the search first goes through the
//! edge. With Pijersi's ~100-200 moves per position, most edges are never visited, so this
//! keeps an expansion to a few hundred bytes.

/// Index of a node in the arena.
pub(crate) type NodeId = u32;

/// The root's index.
pub(crate) const ROOT: NodeId = 0;
/// The root's parent, and an edge's child before it is visited (the root is nobody's child).
pub(crate) const NONE: NodeId = 0;
/// The root's parent link.
pub(crate) const NO_PARENT: NodeId = NodeId::MAX;

/// What is proven about a node, from the point of view of its side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Proof {
    /// Nothing yet.
    #[default]
    Unknown,
    /// The side to move wins with best play.
    Win,
    /// The side to move loses whatever it plays.
    Loss,
    /// Best play draws.
    Draw,
}

impl Proof {
    /// The exact value for the side to move, if proven.
    #[inline]
    pub fn value(self) -> Option<f32> {
        match self {
            Proof::Unknown => None,
            Proof::Win => Some(1.0),
            Proof::Loss => Some(-1.0),
            Proof::Draw => Some(0.0),
        }
    }
}

/// A legal move of an expanded node.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Edge<M> {
    pub mv: M,
    pub prior: f32,
    /// The node this move leads to, or [`NONE`] until first visited.
    pub child: NodeId,
}

/// A visited position's statistics.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    /// Visits, virtual ones included while a leaf below is in flight.
    pub visits: u32,
    /// Sum of backed-up values from the point of view of the side that moved into this node.
    pub value_sum: f32,
    /// The evaluator's value of this node for its side to move (0 until evaluated).
    pub raw_value: f32,
    pub parent: NodeId,
    /// The parent's edge leading here.
    pub parent_edge: u32,
    /// Edges are `first_edge..first_edge + num_edges`; none until expanded.
    pub first_edge: u32,
    pub num_edges: u32,
    pub proof: Proof,
    /// Waiting for an evaluation.
    pub in_flight: bool,
}

impl Node {
    pub fn new(parent: NodeId, parent_edge: u32) -> Node {
        Node {
            visits: 0,
            value_sum: 0.0,
            raw_value: 0.0,
            parent,
            parent_edge,
            first_edge: 0,
            num_edges: 0,
            proof: Proof::Unknown,
            in_flight: false,
        }
    }

    #[inline]
    pub fn is_expanded(&self) -> bool {
        self.num_edges > 0
    }

    #[inline]
    pub fn edges(&self) -> std::ops::Range<usize> {
        let first = self.first_edge as usize;
        first..first + self.num_edges as usize
    }

    /// Mean value for the side that moved into this node, or `None` if unvisited.
    #[inline]
    pub fn q(&self) -> Option<f32> {
        (self.visits > 0).then(|| self.value_sum / self.visits as f32)
    }
}

/// The arena.
#[derive(Clone, Debug)]
pub(crate) struct Tree<M> {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge<M>>,
}

impl<M: Copy> Tree<M> {
    pub fn new() -> Tree<M> {
        Tree {
            nodes: vec![Node::new(NO_PARENT, 0)],
            edges: Vec::new(),
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    #[inline]
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id as usize]
    }

    /// The child of `edge`, created (unvisited) if the edge was never taken.
    #[inline]
    pub fn child(&mut self, parent: NodeId, edge: usize) -> NodeId {
        let child = self.edges[edge].child;
        if child != NONE {
            return child;
        }
        let id = self.nodes.len() as NodeId;
        self.nodes.push(Node::new(parent, edge as u32));
        self.edges[edge].child = id;
        id
    }

    /// Appends the edges of `parent`, one per move with its prior.
    pub fn expand(&mut self, parent: NodeId, moves: &[M], priors: &[f32]) {
        let first = self.edges.len() as u32;
        self.edges
            .extend(moves.iter().zip(priors).map(|(&mv, &prior)| Edge {
                mv,
                prior,
                child: NONE,
            }));
        let node = self.node_mut(parent);
        node.first_edge = first;
        node.num_edges = moves.len() as u32;
    }

    /// The edge's child statistics: `(q, visits, proof)`, unvisited edges giving
    /// `(None, 0, Unknown)`.
    #[inline]
    pub fn edge_stats(&self, edge: usize) -> (Option<f32>, u32, Proof) {
        match self.edges[edge].child {
            NONE => (None, 0, Proof::Unknown),
            c => {
                let n = &self.nodes[c as usize];
                (n.q(), n.visits, n.proof)
            }
        }
    }

    /// A new arena holding the subtree of `new_root` only (statistics kept), breadth first.
    pub fn subtree(&self, new_root: NodeId) -> Tree<M> {
        let mut tree = Tree {
            nodes: Vec::with_capacity(self.nodes.len()),
            edges: Vec::with_capacity(self.edges.len()),
        };
        let mut root = self.node(new_root).clone();
        root.parent = NO_PARENT;
        root.parent_edge = 0;
        tree.nodes.push(root);
        // `old[i]` is the old id of new node i.
        let mut old = vec![new_root];
        let mut i = 0;
        while i < tree.nodes.len() {
            let source = self.node(old[i]);
            tree.nodes[i].in_flight = false;
            if source.is_expanded() {
                let first = tree.edges.len();
                tree.nodes[i].first_edge = first as u32;
                for (k, e) in source.edges().enumerate() {
                    let mut edge = self.edges[e];
                    if edge.child != NONE {
                        let mut child = self.node(edge.child).clone();
                        child.parent = i as NodeId;
                        child.parent_edge = (first + k) as u32;
                        old.push(edge.child);
                        edge.child = tree.nodes.len() as NodeId;
                        tree.nodes.push(child);
                    }
                    tree.edges.push(edge);
                }
            }
            i += 1;
        }
        tree
    }
}
