//! Exact and fast Abalone rules, as `../shared/specs/abalone.md` states them: the two-player game
//! and doubles with classic material and the junction rule.
//!
//! - [`Position`]: the validated state (bitboards by colour and by seat label in `u128`s, counters,
//!   rules; 80 bytes, `Clone` is the search primitive); [`Setup`]: the unvalidated one a parser
//!   yields.
//! - [`Move`]: an in-line move (trailing marble and direction), a broadside (line and direction)
//!   or a pass, 4 bytes, written in Aba-Pro notation (`a1b2`, `e6e8f6`, `pass`).
//! - Move generation ([`Position::legal_moves`]) and bulk counting ([`Position::count_moves`]) on
//!   whole bitboards, [`perft`], the dense [`action`] index space.
//! - Text: the position text ([`Position::from_text`], `Display`), Aba-Pro moves and games
//!   ([`notation`]).
//! - [`Variant`]: `standard`, `belgian-daisy`, `german-daisy`, and `doubles` in both seat orders,
//!   with or without the junction rule, as a [`pjlab_core::SetupVariant`].
//! - The parts the lab's upper layers take from the game: the alpha-beta evaluation
//!   ([`AbaloneEval`], weights in `configs/alphabeta-abalone.toml`), the network encoder
//!   ([`AbaloneEncoder`], from the mover's side), the sparse features of the learned alpha-beta
//!   evaluation ([`AbaloneFeatures`]) and the board's 12 [`symmetry`] maps with the colour swap.
//! - [`svg::svg`]: a position drawn as a self-contained SVG picture.
//!
//! Decided where the spec is silent: a seat (or, in a constructed position, a side) with no legal
//! move passes; a doubles setup whose daisies touch has its junction made; rules other than the
//! defaults are written as `key=value` tokens after the counters.
//!
//! ```
//! use pjlab_abalone::{Position, Variant, perft};
//! let start = Variant::BelgianDaisy.start();
//! assert_eq!(perft::perft(&start, 2), 2_692);
//! let mut next = start.clone();
//! next.play(start.parse_move("c2c3")?)?;
//! assert_eq!(next.to_string(), "ww1bb/wwwbbb/1ww1bb1/8/9/8/2bbww1/bbbwww/bb1ww w 0 0 1 1");
//! # Ok::<(), pjlab_abalone::Error>(())
//! ```

pub mod action;
pub mod bench;
pub mod encode;
mod error;
pub mod eval;
mod features;
mod game;
pub mod geometry;
mod illegal;
mod kit;
mod moves;
pub mod notation;
pub mod perft;
mod position;
mod seat;
pub mod svg;
pub mod symmetry;
pub mod text;
mod variants;

pub use encode::AbaloneEncoder;
pub use error::Error;
pub use eval::{AbaloneEval, AbaloneWeights};
pub use features::AbaloneFeatures;
pub use geometry::{Bitboard, Cell, Direction};
pub use kit::{AbaloneConfig, AbaloneKit};
pub use moves::{Broadside, Move};
pub use position::{
    Color, DEFAULT_NO_EJECTION_PLIES, EJECTIONS_TO_WIN, MARBLES, Mode, Position, Rules, Seat,
    SeatOrder, Setup,
};
pub use symmetry::Symmetry;
pub use variants::Variant;

use pjlab_core::{Outcome, Side};

/// `black`, `white`, `draw` or `ongoing`: how a game stands, as `pjlab replay` prints it.
pub fn result_name(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        Some(Outcome::Win(Side::First)) => "black",
        Some(Outcome::Win(Side::Second)) => "white",
        Some(Outcome::Draw) => "draw",
        None => "ongoing",
    }
}
