//! What a search is told: how it behaves ([`Config`], with its [`RootNoise`]) and when it
//! stops ([`Budget`]).

use std::time::Duration;

use crate::gumbel::GumbelConfig;

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
    /// Keep the subtree of the move played ([`Mcts::advance`](crate::Mcts::advance)) instead
    /// of starting afresh.
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
