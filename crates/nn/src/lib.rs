//! The lab's policy/value network and everything that runs or stores one, for any game's
//! encoder: the Burn model and its config ([`net`]), the packed CPU forward pass that self-play
//! and the players run ([`inference`]), the batched MCTS evaluator with its cache
//! ([`evaluator`]), a network under training with its AdamW state ([`trainee`]), the weight
//! files of a checkpoint ([`checkpoint`]), the ONNX export with its model card ([`export`]),
//! and the card's names and shapes checked against any ONNX model ([`card`]); with the
//! `onnx-runtime` feature, an ONNX model (the lab's or a foreign one) run by tract, also as an
//! evaluator ([`onnx`]).
//!
//! What a network is trained on and how lives above: `pjlab-train` (AlphaZero self-play) and
//! `pjlab-chifoumi-learn` (policy gradient) both train a [`Trainee`] and write its files with
//! [`checkpoint`].
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
mod proto;
pub mod trainee;

pub use evaluator::{EvalCounters, NetEvaluator, softmax_in_place, wdl_probabilities, wdl_value};
pub use inference::PackedNet;
pub use model::{Model, NetworkFile, Source};
pub use net::{DRAW, LOSS, NetConfig, NetShape, PolicyValueNet, WIN};
pub use trainee::Trainee;

/// Errors of loading, saving and exporting networks.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A checkpoint or model file that is missing, unreadable or of another shape.
    #[error("checkpoint: {0}")]
    Checkpoint(String),
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
