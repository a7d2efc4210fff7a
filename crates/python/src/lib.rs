//! The lab's games for Python: the Rust side of the `pjlab` package.
//!
//! One thin layer over the game crates that converts types and errors and holds no game logic:
//!
//! - [`load_game`]: the registry, a game's name and variant to a [`GameHandle`] (static facts and
//!   new states), in one place.
//! - [`State`]: one game in progress with OpenSpiel's vocabulary (current player, legal actions
//!   and mask, apply, returns, observation tensor, move text), for every game: [`KitState`] over
//!   any [`pjlab_core::GameKit`] (Pijersi, Abalone, Chomp) and [`ChifoumiState`], whose deal and
//!   duel draws are explicit chance nodes (`pjlab_chifoumi::Chanced`).
//! - [`Batch`]: N games stepped together into flat arrays, with automatic reset and seeds from
//!   [`batch::game_seed`].
//! - [`build_player`]: the lab's agents by spec (`alphabeta:depth=3`, `net:checkpoint=DIR`,
//!   ...) choosing actions in a [`State`], through the factories the binary uses too
//!   (`pjlab_players::build`; `pjlab_players::chifoumi::build` for Chifoumi).
//! - [`load_model`]: a network (a training checkpoint, or an ONNX model that follows the game's
//!   model card, checked by `pjlab_nn::card`) evaluating observations or states.
//! - Records: [`GameHandle::state_from_text`], [`GameHandle::decode_moves`] and
//!   [`GameHandle::action_texts`] turn a run's Parquet rows (move texts, action indices) into
//!   actions and notation (the package reads the Parquet with pyarrow).
//! - [`Error`]: every refusal, with what and where; nothing here panics on bad input.
//! - With the `python` feature (which maturin turns on; see `python/pyproject.toml`), the PyO3
//!   module `pjlab._pjlab` over all of this.
//!
//! ```
//! use pjlab_python::load_game;
//! let game = load_game("abalone", Some("doubles"))?;
//! assert_eq!(game.num_players(), 4);
//! let mut state = game.new_initial_state(0)?;
//! let mut legal = Vec::new();
//! state.legal_actions(&mut legal);
//! state.apply_action(legal[0] as i64)?;
//! assert_eq!(state.current_player(), Some(1));
//! assert!(state.apply_action(-1).is_err());
//! # Ok::<(), pjlab_python::Error>(())
//! ```

mod agent;
pub mod batch;
mod chifoumi;
mod chifoumi_agent;
mod error;
mod model;
mod registry;
mod state;

#[cfg(feature = "python")]
mod py;

pub use agent::{Player, build_player};
pub use batch::{Batch, Outputs, StepOutputs, VecBatch};
pub use chifoumi::ChifoumiState;
pub use error::Error;
pub use model::{Model, load_model};
pub use registry::{ChifoumiGame, GameHandle, KitGame, games, load_game};
pub use state::{KitState, State};
