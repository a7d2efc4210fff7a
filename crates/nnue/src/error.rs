//! Errors of this crate.

/// What can go wrong with a network's file, its training data or its training.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A network file is not one, or not one this version reads.
    #[error("{path}: {message}")]
    Format {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// The network was trained on other features than the game's.
    #[error("network expects features {expected}, the game has {found}")]
    Features {
        /// The network's feature set.
        expected: String,
        /// The game's.
        found: String,
    },
    /// A line (or a table's row) of training data does not parse.
    #[error("{path}:{line}: {message}")]
    Data {
        /// The file.
        path: String,
        /// The line (or row) number, from 1.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The game has no sparse features to learn an evaluation on.
    #[error("{0} has no sparse features for a learned evaluation")]
    NoFeatures(&'static str),
    /// The training data hold no position (that the filters keep).
    #[error("no positions in the data")]
    NoPositions,
    /// A setting is out of range.
    #[error("{0}")]
    Config(String),
    /// A run directory could not be opened (locked by another process, holding another kind
    /// of run, unwritable).
    #[error(transparent)]
    Run(#[from] pjlab_run::Error),
    /// A Parquet table could not be written or read (another schema, a missing column).
    #[error(transparent)]
    Table(#[from] pjlab_run::table::Error),
    /// The game's kit refused (its evaluation's weights, a variant's name).
    #[error(transparent)]
    Game(#[from] pjlab_core::Error),
}
