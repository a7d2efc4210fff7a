//! The lab's policy/value network and everything that runs or stores one, for any game's
//! encoder: the Burn model and its config ([`net`]), the packed CPU forward pass that self-play
//! and the players run ([`inference`]), the batched MCTS evaluator with its cache
//! ([`evaluator`]), a network under training with its AdamW state ([`trainee`]), the weight
//! files of a checkpoint ([`checkpoint`]), the ONNX export with its model card ([`export`]),
//! the card's names and shapes checked against any ONNX model ([`card`]), and policy-gradient
//! learning over any game's decisions ([`pg`]); with the `onnx-runtime` feature, an ONNX model
//! (the lab's or a foreign one) run by tract, also as an evaluator ([`onnx`]).
//!
//! What a network is trained on and how lives above: `pjlab-train` (AlphaZero self-play) and
//! `pjlab-chifoumi-learn` (policy gradient, [`pg`]) both train a [`Trainee`] and write its files
//! with [`checkpoint`].
//!
//! ```
//! use pjlab_nn::{NetConfig, NetShape, PolicyValueNet, inference::PackedNet};
//!
//! let shape = NetShape { input: 8, actions: 4 };
//! let net = PolicyValueNet::new(&NetConfig { hidden: 16, layers: 1 }, shape, &Default::default(), 7);
//! let packed = PackedNet::new(&net);
//! let (mut policy, mut value) = (vec![0.0; 4], vec![0.0; 3]);
//! packed.forward(&[1.0; 8], &mut policy, &mut value);
//! let probabilities = pjlab_nn::wdl_probabilities(&value);
//! assert!((probabilities.iter().sum::<f32>() - 1.0).abs() < 1e-5);
//! ```

pub mod card;
pub mod checkpoint;
pub mod evaluator;
pub mod export;
pub mod inference;
pub mod model;
pub mod net;
#[cfg(feature = "onnx-runtime")]
pub mod onnx;
pub mod pg;
mod proto;
pub mod trainee;

pub use evaluator::{EvalCounters, NetEvaluator, softmax_in_place, wdl_probabilities, wdl_value};
pub use inference::PackedNet;
pub use model::{Model, NetworkFile, Source};
pub use net::{DRAW, LOSS, NetConfig, NetShape, PolicyValueNet, WIN};
pub use trainee::Trainee;

/// The error of an I/O failure on `path`.
pub(crate) fn io_error(path: &std::path::Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |cause| Error::Io {
        path: path.display().to_string(),
        cause,
    }
}

/// The error of `path` not parsing as JSON.
pub(crate) fn json_error(path: &std::path::Path) -> impl Fn(serde_json::Error) -> Error + '_ {
    move |cause| Error::Json {
        path: path.display().to_string(),
        cause,
    }
}

/// Errors of loading, saving and exporting networks.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A network's weights (or optimiser state) that Burn cannot read, write or load into a
    /// network of the shape asked (another shape, missing tensors).
    #[error("{path}: {cause}")]
    Record {
        /// The file, or the checkpoint directory written.
        path: String,
        /// Burn's failure.
        cause: burn::store::RecordError,
    },
    /// A JSON file of a network (`network.json`, a trainer's `state.json`, a model card) that
    /// does not parse.
    #[error("{path}: {cause}")]
    Json {
        /// The file.
        path: String,
        /// The failure.
        cause: serde_json::Error,
    },
    /// A `network.json` written by a newer build, in a format this one does not know.
    #[error("{path}: format {format} is newer than this build's {known}")]
    NewerFormat {
        /// The file.
        path: String,
        /// Its format.
        format: u32,
        /// The newest format this build reads.
        known: u32,
    },
    /// A checkpoint directory that names no network: neither a `network.json` nor a trainer's
    /// `state.json` that implies one.
    #[error("{path}: names no network (neither network.json nor a trainer's state)")]
    NoNetwork {
        /// The state file read.
        path: String,
    },
    /// The run directory's checkpoints: a path that is neither a model, a checkpoint nor a
    /// run directory with one ([`pjlab_run::Error::NoCheckpoint`]).
    #[error(transparent)]
    RunDir(#[from] pjlab_run::Error),
    /// An ONNX model given to a build without the ONNX runtime.
    #[error("{path}: this build runs no ONNX models (feature `onnx-runtime`)")]
    NoOnnxRuntime {
        /// The model.
        path: String,
    },
    /// A model, or its card, that does not fit the game's contract ([`card`]).
    #[error("{path} does not fit {subject}'s model card: {mismatch}")]
    Mismatch {
        /// The model or card file.
        path: String,
        /// The game (or the encoder, when no game is named).
        subject: String,
        /// What differs.
        mismatch: card::Mismatch,
    },
    /// An ONNX model that the runtime cannot build: an operator, a shape or a weight it
    /// cannot read (the runtime's message, its causes joined by colons).
    #[error("{path}: the ONNX model does not load: {reason}")]
    Load {
        /// The model file.
        path: String,
        /// What failed.
        reason: String,
    },
    /// A loaded model that failed to run: the file and the runtime's message.
    #[error("{0}")]
    Run(String),
    /// Other I/O. The failure is in the message, not chained as a source, so it prints once.
    #[error("{path}: {cause}")]
    Io {
        /// The file or directory.
        path: String,
        /// The failure.
        cause: std::io::Error,
    },
}
