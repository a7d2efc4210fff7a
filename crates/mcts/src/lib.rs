//! Monte Carlo tree search over any [`pjlab_core::Game`], built for batched evaluation.
//!
//! - [`Mcts`]: one tree per game, arena-allocated (`Tree` nodes in one `Vec`, children
//!   contiguous). PUCT with first-play urgency, Dirichlet noise at the root, optional Gumbel
//!   root search ([`gumbel`]), tree reuse ([`Mcts::advance`]), proven wins, losses and draws
//!   (MCTS-solver), and a [`Budget`] of simulations, nodes and time.
//! - [`Evaluator`]: priors and values for a *slice* of positions. The search is split into
//!   [`Mcts::gather`] (descend to leaves, with virtual loss) and [`Mcts::apply`] (expand, back
//!   up), and [`search_lockstep`] drives many games so that one evaluator call serves them all.
//! - Evaluators here: [`UniformEvaluator`] and [`RolloutEvaluator`]; the network evaluator
//!   lives with the network.
//! - [`ismcts()`]: information-set MCTS for games with hidden information and chance
//!   ([`pjlab_core::ImperfectGame`]), searching one tree over determinizations.
//!
//! Values carry their point of view ([`Value`]). Inside the tree, a node's value sum is from
//! the side that played the move into it, so a parent compares its children directly.
//!
//! ```
//! use pjlab_chomp::Chomp;
//! use pjlab_mcts::{Budget, Config, Mcts, RolloutEvaluator};
//! let mut search = Mcts::new(Chomp::new(3, 3)?, Config::default(), 7);
//! let result = search.search(&mut RolloutEvaluator::new(7), &Budget::simulations(2_000));
//! // 3x3 is won by biting (2,2), leaving an L of equal arms.
//! assert_eq!(result.best_move.map(|m| (m.row, m.col)), Some((1, 1)));
//! # Ok::<(), pjlab_chomp::Error>(())
//! ```

mod evaluator;
pub mod gumbel;
pub mod ismcts;
mod search;
mod tree;

pub use evaluator::{
    BlendedValue, Decisive, Evaluation, Evaluator, HeuristicEvaluator, Request, RolloutEvaluator,
    UniformEvaluator, Value,
};
pub use gumbel::GumbelConfig;
pub use ismcts::{IsmctsConfig, IsmctsResult, LeafValue, ZeroLeaf, ismcts, ismcts_until};
pub use search::{
    Budget, Config, Mcts, RootNoise, SearchResult, drive_lockstep, drive_lockstep_with,
    search_lockstep,
};
pub use tree::Proof;
