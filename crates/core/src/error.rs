//! The crate's error type: what a game's kit, a setup mix or a picture check refuses, each
//! variant naming what was wrong.

/// An error of a kind the receiver does not know: what a callback given by a program above the
/// lab's crates returns (a factory of players, say), to be shown or passed on.
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Everything the game API's generic code can refuse.
///
/// A game's own error (an unknown variant name, a weights file that does not parse, a record
/// that does not read) is kept as its message in the variant that says what was being done, so
/// that the error stays `Clone` and comparable and prints once.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A name that is not one of the game's setup variants.
    #[error("{reason}")]
    UnknownVariant {
        /// The name given.
        name: String,
        /// The game's message (it lists the known variants).
        reason: String,
    },
    /// A setup weight that is negative or not finite.
    #[error("setup weights must be finite and >= 0")]
    SetupWeight,
    /// A setup mix without a positive weight (all zero, or no variant named).
    #[error("the setup mix needs a positive weight")]
    NoPositiveWeight,
    /// A weight in a setup mix's text that is not a number.
    #[error("setup mix: bad weight in {part:?}")]
    WeightText {
        /// The `variant:weight` item.
        part: String,
    },
    /// A name in a setup mix's text that is not one of the game's variants.
    #[error("setup mix: {reason}")]
    MixVariant {
        /// The variant parser's message.
        reason: String,
    },
    /// A training config's game table that cannot give starts (Chomp: a bar size out of range).
    #[error("{reason}")]
    Setups {
        /// The game's message.
        reason: String,
    },
    /// An evaluation weights file that cannot be read or has unknown keys or bad values.
    #[error(transparent)]
    Weights(#[from] crate::weights::WeightsError),
    /// Evaluation weights given to a game whose evaluation has none.
    #[error("{game}'s alpha-beta evaluation has no weights")]
    NoWeights {
        /// The game.
        game: &'static str,
    },
    /// A game record that cannot be read.
    #[error("{reason}")]
    Record {
        /// The game's message (it says where in the record).
        reason: String,
    },
    /// A move of a game record that does not read, or is not legal where it stands.
    #[error("move {number} ({token:?}): {reason}")]
    RecordMove {
        /// 1-based move number.
        number: usize,
        /// The move's text.
        token: String,
        /// The game's message.
        reason: String,
    },
    /// A start asked of a game whose records do not hold their start.
    #[error("a {game} record does not hold its start")]
    RecordWithoutStart {
        /// The game.
        game: &'static str,
    },
    /// A reading of the rules the game does not have (`pjlab perft --pass-through`).
    #[error("{game} has no {name} rules")]
    UnknownRules {
        /// The game.
        game: &'static str,
        /// The reading asked for.
        name: String,
    },
    /// A position that cannot be played under a variant's rules.
    #[error("{reason}")]
    Adopt {
        /// The variant.
        variant: String,
        /// The game's message.
        reason: String,
    },
    /// A picture that is not one well-formed SVG element ([`crate::svg::balanced`]).
    #[error("{0}")]
    Picture(String),
}
