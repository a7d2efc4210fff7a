//! The game API every game and every algorithm of the lab speaks.
//!
//! A game is a two-sided, perfect-information, deterministic state machine with a cheap `Clone`
//! (copy-make is the search primitive), a dense action index space (the policy head, the legal
//! mask, training targets and golden files all speak it) and text forms of moves and positions.
//!
//! - [`Game`]: the trait. Each method documents the invariant the generic test kit checks.
//! - [`ImperfectGame`]: the trait of stochastic, partially observable, multi-player games.
//! - [`Side`], [`Outcome`]: who moves and who won, with values that name their point of view.
//! - [`perft`]: move-path counting over the trait, the second implementation every fast,
//!   game-specific perft is checked against.
//! - [`testkit`]: the generic suite every game runs in one line.
//! - [`bench`]: the figures a game's rules bench gives `pjlab bench`, and its helpers.
//! - [`svg`]: what the games' board pictures share, and reading a picture back.
//! - [`seed`]: seeds derived from a run's seed; [`spec`]: the `name:key=value` spec parser of
//!   players and agents.
//!
//! # How the games to come fit
//! - **Chomp** (any `m x n`): the action space depends on the bar's size, which is why
//!   [`Game::num_actions`] takes `&self`.
//! - **Abalone in doubles** (four seats, two teams): the side to move is the *team* (a [`Side`]);
//!   the seat that moves this turn is part of the position and is exposed by the game's own type
//!   (e.g. `seat()`), while outcomes, values and search stay two-sided. Move generation reads the
//!   seat to decide which marbles may move. Nothing in this trait needs to change.
//! - **Spatial rock-paper-scissors** (stochastic, partially observable): it does not fit this
//!   trait, whose positions are fully visible and whose `play` is deterministic. It implements
//!   [`ImperfectGame`] beside this one (chance outcomes sampled from an explicit RNG passed to
//!   `play`, per-player observations, resampling of hidden state for information-set search),
//!   and algorithms that need perfect information keep using [`Game`].
//!
//! # Example
//! ```
//! use pjlab_core::{Outcome, Side};
//! let outcome = Outcome::Win(Side::First);
//! assert_eq!(outcome.value_for(Side::First), 1.0);
//! assert_eq!(outcome.value_for(Side::Second), -1.0);
//! assert_eq!(Outcome::Draw.value_for(Side::Second), 0.0);
//! ```

pub mod bench;
pub mod encode;
mod error;
mod features;
mod game;
mod game_type;
mod heuristic;
pub mod imperfect;
mod kit;
pub mod perft;
pub mod provenance;
pub mod seed;
pub mod setups;
pub mod spec;
pub mod svg;
pub mod testkit;
pub mod weights;

pub use encode::{Encoder, EncoderCard, EncoderId};
pub use error::{BoxError, Error};
pub use features::SparseFeatures;
pub use game::{Game, GameRecord, Outcome, Side};
pub use game_type::{ChanceMode, GameType, Information, Utility};
pub use heuristic::{Heuristic, ZeroHeuristic};
pub use imperfect::ImperfectGame;
pub use kit::{GameInfo, GameKit, Solved};
pub use provenance::Provenance;
pub use setups::{SetupMix, SetupVariant, Setups, Start};

/// `name` with its first letter in upper case (`white` -> `White`): a side's name at the start
/// of a picture's caption or a report's sentence.
pub fn title_case(name: &str) -> String {
    let mut chars = name.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
