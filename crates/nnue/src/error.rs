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
    /// Training options out of range.
    #[error(
        "batch, learning rate and label scale must be positive, lambda a share from 0 to 1 and \
         validation from 0 to below 1"
    )]
    TrainOptions,
    /// Data options out of range: no worker, or a depth of 0.
    #[error("data needs a worker and a depth of at least 1")]
    NoWorkerOrDepth,
    /// Data options out of range: the opening plies or the random moves' share.
    #[error("opening plies must be a range min..=max and random moves a share from 0 to 1")]
    Openings,
    /// Data asked of no setup variant.
    #[error("data needs a variant")]
    NoVariant,
    /// A training sample with a feature the network has no input for.
    #[error("a sample has a feature beyond {inputs}")]
    FeatureBeyond {
        /// The network's inputs.
        inputs: usize,
    },
    /// Factorised training of a feature set that has no factors.
    #[error("feature set `{0}` has no factors to train (factorise = true)")]
    NoFactors(String),
    /// A feature set larger than the network, or with more features on at once than the
    /// forward pass takes.
    #[error("{features} features with up to {active} on do not fit a network of {inputs} inputs")]
    TooManyFeatures {
        /// The feature set's size.
        features: usize,
        /// Its most features on at once.
        active: usize,
        /// The network's inputs.
        inputs: usize,
    },
    /// A network's input count out of range.
    #[error("inputs must be 1 to 65536, got {0}")]
    Inputs(usize),
    /// A network's layer sizes out of range.
    #[error(
        "hidden must be 1 to {} and l2 1 to {}, got {hidden} and {l2}",
        crate::net::MAX_HIDDEN,
        crate::net::MAX_L2
    )]
    Sizes {
        /// The accumulator's width.
        hidden: usize,
        /// The second layer's width.
        l2: usize,
    },
    /// A network whose weights' lengths do not match its sizes.
    #[error("an inconsistent network")]
    Inconsistent,
    /// Weights too large for integer accumulators.
    #[error(
        "accumulators up to {0:.1} in size do not fit 16 bits at {scale} units apiece",
        scale = crate::quant::MIN_SCALE
    )]
    AccumulatorRange(f64),
    /// Second-layer weights too large for 16-bit integers.
    #[error(
        "second-layer weights up to {0:.1} do not fit 16 bits at {scale} units apiece",
        scale = crate::quant::MIN_SCALE
    )]
    SecondLayerRange(f64),
    /// A network whose accumulator is not as wide as the positions that track it.
    #[error("an accumulator of {hidden} does not fit positions tracked at {width}")]
    Width {
        /// The network's accumulator width.
        hidden: usize,
        /// The width the positions track.
        width: usize,
    },
    /// A data directory that already holds positions, opened without resuming.
    #[error(
        "{0} already holds {file}; resume it (--resume) or choose another directory",
        file = crate::data::POSITIONS_FILE
    )]
    HoldsPositions(String),
    /// A positions table whose footer lacks what a resume needs.
    #[error("{path}: its footer has no readable {what}; it cannot be resumed")]
    Footer {
        /// The table.
        path: String,
        /// What it lacks.
        what: &'static str,
    },
    /// Positions resumed with other options than they were played with.
    #[error(
        "{0} holds positions played with other options; resume it with the same ones or choose \
         another directory"
    )]
    OtherOptions(String),
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
