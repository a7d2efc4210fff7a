//! Gale's Chomp with the poison rule, and an exact solver.
//!
//! An `m x n` bar (m rows of length n, at most 16 x 16). A move names a remaining square
//! `(row, col)` and removes every square at or beyond it in both directions; the poison square
//! `(1,1)` is never a move, so the player to move when only the poison is left has lost
//! (`../shared/specs/chomp.md`).
//!
//! - [`Chomp`]: a position, implementing [`pjlab_core::Game`].
//! - [`svg::svg`]: a position drawn as a self-contained SVG picture.
//! - [`Solver`]: the P/N status of every diagram inside the bar and the winning moves of any.
//!
//! ```
//! use pjlab_chomp::Solver;
//! let solver = Solver::new(3, 3)?;
//! assert_eq!(solver.winning_moves(&[3, 3, 3]), vec![(2, 2)]); // 1-based (row, col)
//! assert_eq!(solver.p_positions(), 5);
//! # Ok::<(), pjlab_chomp::Error>(())
//! ```

pub mod bench;
pub mod encode;
mod game;
mod kit;
mod setups;
mod solver;
pub mod svg;

pub use encode::ChompEncoder;
pub use game::{Chomp, ChompMove};
pub use kit::{ChompConfig, ChompKit, ChompSize, diagrams};
pub use setups::ChompSetups;
pub use solver::Solver;

/// Largest number of rows or columns.
pub const MAX_SIDE: usize = 16;

/// What can go wrong with Chomp input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A bar size outside 1..=16 by 1..=16.
    #[error("bar size {rows}x{cols} is outside 1x1..16x16")]
    Size {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// Text that is not a Chomp position or move.
    #[error("invalid chomp text {text:?}: {reason}")]
    Text {
        /// The text given.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// Self-play setups that make no sense.
    #[error("{0}")]
    Setups(String),
    /// A move that is not legal in the position.
    #[error("illegal move {mv} in {position}")]
    IllegalMove {
        /// The move, as text.
        mv: String,
        /// The position, as text.
        position: String,
    },
}

/// Checks a bar size.
pub(crate) fn check_size(rows: usize, cols: usize) -> Result<(), Error> {
    if (1..=MAX_SIDE).contains(&rows) && (1..=MAX_SIDE).contains(&cols) {
        Ok(())
    } else {
        Err(Error::Size { rows, cols })
    }
}
