//! The crate's error type: every message says what is wrong and where.

use thiserror::Error;

/// Everything that can go wrong when reading text or playing a move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Error {
    /// A position text that cannot be read.
    #[error("invalid position text {text:?}: {reason}")]
    PositionText {
        /// The text given.
        text: String,
        /// What is wrong, and where in the text.
        reason: String,
    },
    /// A board the rules do not allow (too many marbles, both sides past six ejections).
    #[error("invalid position: {0}")]
    Position(String),
    /// A move string that is not Aba-Pro notation (or names cells off the board).
    #[error("invalid move {text:?}: {reason}")]
    MoveText {
        /// The text given.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// A well-formed move that is not legal in the position.
    #[error("illegal move {mv}: {reason} (position {position})")]
    IllegalMove {
        /// The move, as text.
        mv: String,
        /// Why the rules refuse it.
        reason: String,
        /// The position, as text.
        position: String,
    },
    /// A game record that cannot be read or played.
    #[error("line {line}, column {column}: {reason}")]
    Game {
        /// 1-based line of the offending token.
        line: usize,
        /// 1-based column (in characters) of the offending token.
        column: usize,
        /// What is wrong, quoting the token.
        reason: String,
    },
    /// A variant name that does not exist.
    #[error(
        "unknown variant {0:?} (expected standard, belgian-daisy, german-daisy, doubles, doubles-0321, doubles-nojunction or doubles-0321-nojunction)"
    )]
    UnknownVariant(String),
    /// A position and rules that do not fit together (a doubles position under two-player rules).
    #[error("{0}")]
    Rules(String),
    /// An evaluation weights file that cannot be read or parsed.
    #[error(transparent)]
    EvalConfig(#[from] pjlab_core::weights::WeightsError),
}
