//! The crate's error type.

/// What the engine refuses: a bad `setoption`, or an agent it cannot build.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A number option outside its range.
    #[error("{name} must be a whole number from {min} to {max}")]
    OutOfRange {
        /// The option, as the GUI spelled it.
        name: String,
        /// The least value.
        min: u64,
        /// The greatest value.
        max: u64,
    },
    /// An `Engine` value other than `alphabeta` or `mcts`.
    #[error("Engine must be alphabeta or mcts, not {0}")]
    UnknownEngine(String),
    /// A `Checkpoint` path with a comma, which would cut the agent's spec.
    #[error("Checkpoint: a path with a comma cannot name an agent")]
    CommaInCheckpoint,
    /// A `ScoreFormat` other than `ugi` or `natsel`.
    #[error("ScoreFormat must be ugi or natsel, not {0}")]
    UnknownScoreFormat(String),
    /// An option the engine does not have.
    #[error("unknown option {0}")]
    UnknownOption(String),
    /// A network checkpoint asked of an engine built without network players.
    #[error("this engine cannot load network checkpoints")]
    NoCheckpoints,
    /// The agent the options name cannot be built.
    #[error(transparent)]
    Agent(#[from] pjlab_agents::SpecError),
}
