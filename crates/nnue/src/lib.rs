//! An efficiently updatable evaluation for alpha-beta search (NNUE, as in chess engines), for
//! any game whose crate says which sparse features a position has
//! ([`pjlab_core::SparseFeatures`]).
//!
//! - [`Network`]: the first layer is an accumulator per point of view (the sum of the weight
//!   rows of the features on, plus a bias), the two accumulators side to move first, clipped to
//!   `[0, 1]`, then a small dense layer and one output: the logit of the side to move's
//!   expected score (a win 1, a draw 1/2).
//! - [`NnueEval`]: the network as a [`pjlab_core::Heuristic`], so that `pjlab-alphabeta` runs
//!   it unchanged; the game's own evaluation still says which moves are tactical and orders
//!   them.
//! - [`QuantisedNetwork`]: the network in integers (`i16` accumulators, exact `i32` sums), for
//!   a faster search on values close to the float network's.
//! - [`tracked`]: positions that carry both accumulators and update them by the features a
//!   move changes ([`pjlab_core::SparseFeatures::changed`]), and the evaluation that reads them.
//! - [`file`]: the network's file, a JSON card (sizes, feature set, score scale, how it was
//!   trained) and the weights, with the card also written beside it.
//! - [`data`]: positions from alpha-beta self-play labelled with the search's score and the
//!   game's result, a Parquet table (`nnue-positions/1`) in a run directory; [`train`]: a
//!   small trainer for the network on them; [`fit`]: a network fitted to data paths with its
//!   card, as `pjlab nnue train` and the generations do it.
//!
//! No Burn: the network is small enough that its forward pass, its gradients and Adam are a
//! few loops, and alpha-beta calls it one position at a time.

pub mod data;
mod error;
mod eval;
pub mod file;
pub mod fit;
mod net;
mod quant;
pub mod tracked;
pub mod train;

pub use error::Error;
pub use eval::NnueEval;
pub use file::Card;
pub use net::{MAX_HIDDEN, Network};
pub use quant::QuantisedNetwork;
