//! The alpha-beta baseline every checkpoint is measured against, over any
//! [`pjlab_core::Game`].
//!
//! - [`Engine`]: negamax with principal-variation search, iterative deepening, a transposition
//!   table (the game's 64-bit hash, size in MiB), move ordering (table move, tactical moves,
//!   two killers per ply, history by dense action index), quiescence over tactical moves, and
//!   depth, node and time [`Limits`]. Single-threaded and deterministic.
//! - [`Heuristic`]: the game-specific part (static score, which moves are tactical).
//!   [`ZeroHeuristic`] turns the engine into an exact solver of small games; [`PijersiEval`]
//!   scores Pijersi with named [`PijersiWeights`] read from a TOML config.
//!
//! Game rules stay in the game: the 20-turn draw counter, for one, ends Pijersi's move lists.
//!
//! ```
//! use pjlab_alphabeta::{Engine, Limits, Options, PijersiEval};
//! use pjlab_pijersi::Position;
//! // A White rock on f1 reaches the back row at once.
//! let position = Position::from_psn("6/R-6/6/r-6/6/7/6 w 0 1")?;
//! let mut engine = Engine::new(PijersiEval::default(), Options::default());
//! let result = engine.search(&position, &Limits::depth(3));
//! assert_eq!(result.best_move.map(|m| m.to_string()).as_deref(), Some("f1g1"));
//! assert_eq!(result.mate_in(), Some(1));
//! # Ok::<(), pjlab_pijersi::Error>(())
//! ```

mod engine;
mod pijersi;
mod tt;

pub use engine::{
    Engine, Heuristic, Limits, MATE, MATE_BOUND, MAX_PLY, Options, SearchResult, ZeroHeuristic,
};
pub use pijersi::{EvalConfig, PijersiEval, PijersiWeights};

/// What can go wrong outside the search itself: reading an evaluation config.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The config file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The config is not valid TOML for the evaluation.
    #[error("bad evaluation config {path}: {message}")]
    Config {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
}
