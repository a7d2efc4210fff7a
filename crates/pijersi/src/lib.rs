//! Exact and fast Pijersi rules, as `../shared/specs/pijersi.md` states them.
//!
//! - [`Position`]: the validated game state (bitboards, 96 bytes, `Clone` is the search
//!   primitive); [`Setup`]: the unvalidated one a parser yields.
//! - [`Move`]: one whole turn (one or two actions), 4 bytes, written as its UGI path.
//! - Move generation ([`Position::generate_moves`]) and bulk counting
//!   ([`Position::count_moves`]), [`perft`], the dense [`action`] index space.
//! - Text: PSN ([`Position::from_psn`], `Display`), UGI move strings ([`Position::parse_ugi`]),
//!   the rulebook game notation ([`notation`]).
//! - Setups: [`Variant`] (classic and the random families), reproducible from a seed.
//! - The parts the lab's upper layers take from a game: the alpha-beta evaluation
//!   ([`PijersiEval`], weights in `configs/alphabeta.toml`), the network encoder
//!   ([`PijersiEncoder`]) and the setup variants as a [`pjlab_core::SetupVariant`].
//! - [`svg::svg`]: a position drawn as a self-contained SVG picture.
//! - [`Rules::PassThrough`]: pijersi-rs's reading of the back-row win, only when asked for.
//!
//! ```
//! use pjlab_pijersi::{Position, perft};
//! let start = Position::default();
//! assert_eq!(perft::perft(&start, 2), 34_054);
//! let mut next = start.clone();
//! next.play(start.parse_ugi("a4b5c4")?)?;
//! assert_eq!(next.to_string(), "s-p-r-s-p-r-/p-r-s-wwr-s-p-/6/7/3SR2/P-S-R-WW1R-P-/R-P-S-1P-S- b 1 1");
//! # Ok::<(), pjlab_pijersi::Error>(())
//! ```

pub mod action;
pub mod bench;
pub mod encode;
mod error;
mod eval;
mod features;
mod game;
pub mod geometry;
mod kit;
mod moves;
pub mod notation;
pub mod perft;
mod piece;
mod position;
mod psn;
pub mod svg;
pub mod symmetry;
pub mod variants;
mod wins;
mod zobrist;

pub use encode::PijersiEncoder;
pub use error::Error;
pub use eval::{EvalConfig, PijersiEval, PijersiWeights};
pub use features::PijersiFeatures;
pub use geometry::{Bitboard, Cell, Direction};
pub use kit::{PijersiConfig, PijersiKit};
pub use moves::{Move, MoveKind};
pub use piece::{Color, Piece, Role};
pub use position::{DRAW_HALFMOVES, Position, Rules, Setup};
pub use variants::{Variant, classic};
