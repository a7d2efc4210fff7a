//! The crate's error type: every message says what is wrong and where.

use thiserror::Error;

/// Everything that can go wrong when reading text or playing a move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Error {
    /// A PSN string that cannot be read.
    #[error("invalid psn {psn:?}: {reason}")]
    Psn {
        /// The text given.
        psn: String,
        /// What is wrong, and where in the text.
        reason: String,
    },
    /// A board the rules cannot reach or do not allow (too many cubes, a wise on a fighter).
    #[error("invalid position: {0}")]
    Position(String),
    /// A move string that is not a path of cells.
    #[error("invalid move {text:?}: {reason}")]
    MoveText {
        /// The text given.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// A well-formed move that is not legal in the position.
    #[error("illegal move {mv} in position {psn}")]
    IllegalMove {
        /// The move, as text.
        mv: String,
        /// The position, as PSN.
        psn: String,
    },
    /// A line of rulebook game notation that cannot be read or played.
    #[error("line {line}: {reason}")]
    Notation {
        /// 1-based line number.
        line: usize,
        /// What is wrong, quoting the offending item.
        reason: String,
    },
    /// A setup variant name that does not exist.
    #[error(
        "unknown variant {0:?} (expected classic, full-random, half-random, pijersi-24, pijersi-36, pijersi-1296 or pijersi-8100)"
    )]
    UnknownVariant(String),
    /// A variant asked for something it cannot do (e.g. enumerating a random variant).
    #[error("{0}")]
    Variant(String),
    /// An evaluation weights file that cannot be read or parsed.
    #[error(transparent)]
    EvalConfig(#[from] pjlab_core::weights::WeightsError),
}
