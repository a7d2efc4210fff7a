//! The Burn side of the lab: the policy/value network, its batched evaluator, the learner, and
//! the self-play training loop behind `pjlab train`, for any game's [`pjlab_core::GameKit`]
//! (its encoder, self-play setups, training table and strength measure come from the kit).
//!
//! The loop ([`run`]) plays, trains and evaluates; [`checkpoint`] writes and loads checkpoints
//! ([`checkpoint::load`] is the one way back to a trained network); [`metrics`] writes the
//! metrics lines and plots, [`summary`] a run's report from them; [`strength`] measures a network; [`agent`] makes it a player;
//! [`export`] and [`onnx`] take it to other programs.

pub mod agent;
pub mod checkpoint;
pub mod config;
pub mod evaluator;
pub mod export;
pub mod inference;
pub mod learner;
pub mod lock;
pub mod metrics;
pub mod net;
pub mod onnx;
pub mod roles;
pub mod run;
mod steps;
pub mod strength;
pub mod summary;

pub use agent::NetAgent;
pub use config::{EvalConfig, RunConfig};
pub use evaluator::{EvalCounters, NetEvaluator};
pub use learner::{Batch, Learner, StepMetrics, TrainConfig, load_model};
pub use metrics::IterationMetrics;
pub use net::{NetConfig, NetShape, PolicyValueNet};
pub use run::{RunOptions, RunSummary, train};
pub use strength::Strength;

/// Errors of training.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A bad setting.
    #[error("config: {0}")]
    Config(String),
    /// Reading or writing a checkpoint failed.
    #[error("checkpoint: {0}")]
    Checkpoint(String),
    /// Self-play records.
    #[error(transparent)]
    Records(#[from] pjlab_selfplay::Error),
    /// Plots.
    #[error(transparent)]
    Plot(#[from] pjlab_stats::Error),
    /// Other I/O. The failure is in the message, not chained as a source, so it prints once.
    #[error("{path}: {cause}")]
    Io {
        /// The file or directory.
        path: String,
        /// The failure.
        cause: std::io::Error,
    },
    /// Another process is using the run directory.
    #[error("{0}")]
    Busy(String),
    /// A metrics line that does not parse.
    #[error("metrics: {0}")]
    Metrics(String),
}
