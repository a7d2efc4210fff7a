//! [`Error`]: what the registry, states and batches refuse, each saying what and where.

/// Why a call was refused. The state or batch it was made on is left unchanged.
///
/// The Python module raises each as the `pjlab.errors` class [`Error::python_class`] names (all
/// `pjlab.Error`s; [`Error::UnknownGame`] and [`Error::UnknownVariant`] also `KeyError`s, a
/// missing file a `FileNotFoundError`, the others `ValueError`s), with this message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// No game of the registry has this name.
    #[error("unknown game {name:?} (one of {known})")]
    UnknownGame {
        /// The name asked for.
        name: String,
        /// The registry's names, comma separated.
        known: String,
    },
    /// The game has no variant of this name.
    #[error("unknown variant {variant:?} of {game}: {reason}")]
    UnknownVariant {
        /// The game.
        game: &'static str,
        /// The variant asked for.
        variant: String,
        /// What the game's parser said.
        reason: String,
    },
    /// An action index outside the game's action space.
    #[error("action {action} is out of range: {game} has actions 0..{num_actions}")]
    ActionOutOfRange {
        /// The game.
        game: &'static str,
        /// The index given.
        action: i64,
        /// The size of the action space.
        num_actions: usize,
    },
    /// An action in range that is not legal here (or any action once the game is over).
    #[error("action {action} is not legal in {game} position {position}{why}")]
    IllegalAction {
        /// The game.
        game: &'static str,
        /// The index given.
        action: usize,
        /// The position, in the game's text form.
        position: String,
        /// More detail, starting with ": ", or empty.
        why: String,
    },
    /// A player index outside the game's players.
    #[error("player {player} is out of range: {game} has players 0..{num_players}")]
    PlayerOutOfRange {
        /// The game.
        game: &'static str,
        /// The index given.
        player: i64,
        /// The number of players.
        num_players: usize,
    },
    /// An array or slice whose length does not fit.
    #[error("{what} has shape {found}, expected {expected}")]
    Shape {
        /// Which argument.
        what: &'static str,
        /// The shape given.
        found: String,
        /// The shape wanted.
        expected: String,
    },
    /// A file or directory that is not there (a model's path), raised as `FileNotFoundError`.
    #[error("no such file or directory: {0}")]
    NotFound(String),
    /// A bad argument of another kind (a batch of zero games, say).
    #[error("{0}")]
    Argument(String),
    /// An agent that cannot be built or answered no legal move (raised by the layers that play
    /// the registry's states: `pjlab-players`' factories through the bindings).
    #[error("{0}")]
    Agent(String),
    /// A network that does not load or does not fit its game (raised by the bindings' models).
    #[error("{0}")]
    Model(String),
    /// Where it happened, around another error: `env 3: action 7 is not legal ...`.
    #[error("{at}: {source}")]
    At {
        /// The place, e.g. `env 3`.
        at: String,
        /// The error there.
        source: Box<Error>,
    },
}

impl Error {
    /// Whether this is a missing file, raised as `FileNotFoundError` in Python.
    pub fn is_not_found(&self) -> bool {
        match self {
            Error::NotFound(_) => true,
            Error::At { source, .. } => source.is_not_found(),
            _ => false,
        }
    }

    /// Whether this is a lookup failure (an unknown name), raised as `KeyError` in Python.
    pub fn is_lookup(&self) -> bool {
        match self {
            Error::UnknownGame { .. } | Error::UnknownVariant { .. } => true,
            Error::At { source, .. } => source.is_lookup(),
            _ => false,
        }
    }

    /// The name of the Python exception class it is raised as (`pjlab.errors`): each derives
    /// from `pjlab.Error` and from the built-in of [`Error::is_lookup`] (`KeyError`),
    /// [`Error::is_not_found`] (`FileNotFoundError`) or else `ValueError`.
    pub fn python_class(&self) -> &'static str {
        match self {
            Error::UnknownGame { .. } | Error::UnknownVariant { .. } => "UnknownGameError",
            Error::ActionOutOfRange { .. } | Error::IllegalAction { .. } => "IllegalActionError",
            Error::PlayerOutOfRange { .. } => "PlayerError",
            Error::Shape { .. } => "ShapeError",
            Error::NotFound(_) => "NotFoundError",
            Error::Argument(_) => "ArgumentError",
            Error::Agent(_) => "AgentError",
            Error::Model(_) => "ModelError",
            Error::At { source, .. } => source.python_class(),
        }
    }

    /// This error, placed at `at` (`env 3`, say).
    pub fn at(self, at: impl Into<String>) -> Error {
        Error::At {
            at: at.into(),
            source: Box::new(self),
        }
    }
}
