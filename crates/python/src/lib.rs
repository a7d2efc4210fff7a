//! The lab's games for Python: the Rust side of the `pjlab` package.
//!
//! A thin layer that converts types and errors and holds no game logic. The games, states,
//! batches and errors are `pjlab-registry`'s dynamic game API (re-exported here); the players
//! and networks are `pjlab-players`'. This crate adds:
//!
//! - [`build_player`]: the lab's agents by spec (`alphabeta:depth=3`, `net:checkpoint=DIR`,
//!   ...) choosing actions in a [`State`], through the factories the binary uses too
//!   (`pjlab_players::build`; `pjlab_players::chifoumi::build` for Chifoumi).
//! - [`load_model`]: a network (a training checkpoint, or an ONNX model that follows the game's
//!   model card, checked by `pjlab_nn::card`) evaluating observations or states.
//! - With the `raster` feature, [`raster`]: a position's picture as RGB pixels.
//! - With the `python` feature (which maturin turns on; see `python/pyproject.toml`), the PyO3
//!   module `pjlab._pjlab` over all of this.
//!
//! ```
//! use pjlab_python::{build_player, load_game};
//! let game = load_game("chomp", Some("3x4"))?;
//! let state = game.new_initial_state(0)?;
//! let mut player = build_player("chomp", "alphabeta:depth=2", 1)?;
//! let action = player.choose(state.as_ref(), &[])?;
//! let mut legal = Vec::new();
//! state.legal_actions(&mut legal);
//! assert!(legal.contains(&action));
//! # Ok::<(), pjlab_python::Error>(())
//! ```

mod agent;
mod chifoumi_agent;
mod model;

#[cfg(feature = "python")]
mod py;
#[cfg(feature = "raster")]
pub mod raster;

pub use agent::{Player, build_player};
pub use model::{Model, load_model};
pub use pjlab_registry::{
    Batch, ChifoumiGame, ChifoumiState, Error, GameHandle, KitGame, KitState, Outputs, State,
    StepOutputs, VecBatch, batch, games, load_game,
};
