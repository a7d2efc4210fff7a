//! The alpha-beta baseline every checkpoint is measured against, over any
//! [`pjlab_core::Game`].
//!
//! - [`Engine`]: negamax with principal-variation search, iterative deepening, a transposition
//!   table (the game's 64-bit hash, size in MiB), move ordering (table move, tactical moves,
//!   two killers per ply, history by dense action index), quiescence over tactical moves, and
//!   depth, node and time [`Limits`]. Single-threaded and deterministic.
//! - [`Heuristic`] (from `pjlab-core`): the game-specific part (static score, which moves are
//!   tactical), implemented in each game's crate (Pijersi's `PijersiEval`, Abalone's
//!   `AbaloneEval`, with named weights read from TOML configs). [`ZeroHeuristic`] turns the
//!   engine into an exact solver of small games.
//!
//! Game rules stay in the game: the 20-turn draw counter, for one, ends Pijersi's move lists.
//!
//! ```
//! use pjlab_alphabeta::{Engine, Limits, Options};
//! use pjlab_pijersi::{PijersiEval, Position};
//! // A White rock on f1 reaches the back row at once.
//! let position = Position::from_psn("6/R-6/6/r-6/6/7/6 w 0 1")?;
//! let mut engine = Engine::new(PijersiEval::default(), Options::default());
//! let result = engine.search(&position, &Limits::depth(3));
//! assert_eq!(result.best_move.map(|m| m.to_string()).as_deref(), Some("f1g1"));
//! assert_eq!(result.mate_in(), Some(1));
//! # Ok::<(), pjlab_pijersi::Error>(())
//! ```

mod engine;
mod limits;
mod tt;

pub use engine::{Engine, Limits, MATE, MATE_BOUND, MAX_PLY, Options, SearchResult};
pub use pjlab_core::{Heuristic, ZeroHeuristic};
