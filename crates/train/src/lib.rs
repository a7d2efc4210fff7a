//! AlphaZero self-play training behind `pjlab train`, for any game's [`pjlab_core::GameKit`]
//! (its encoder, self-play setups, training table and strength measure come from the kit), on
//! the network of `pjlab-nn`.
//!
//! The loop ([`run`]) plays, trains and evaluates; [`learner`] holds the AlphaZero losses;
//! [`checkpoint`] writes and loads a training run's checkpoints ([`checkpoint::load`] is the
//! way back to a network it trained); [`metrics`] writes the metrics lines and plots,
//! [`summary`] a run's report from them; [`strength`] measures a network (as a player of
//! `pjlab-players`); [`roles`] split the loop into self-play actors and a learner.

pub mod checkpoint;
pub mod config;
pub mod learner;
pub mod metrics;
mod options;
pub mod progress;
pub mod roles;
pub mod run;
mod steps;
pub mod strength;
pub mod summary;

pub use config::{EvalConfig, RunConfig};
pub use learner::{Batch, Learner, StepMetrics, TrainConfig};
pub use metrics::IterationMetrics;
pub use progress::{Progress, Reporter, Silent};
pub use run::{RunOptions, RunSummary, train};
pub use steps::EvalSource;
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
    /// The network's files: loading, saving, exporting.
    #[error(transparent)]
    Net(#[from] pjlab_nn::Error),
    /// A player's spec that `pjlab-agents` refuses.
    #[error(transparent)]
    Agent(#[from] pjlab_agents::SpecError),
    /// The run directory: its lock, manifest, config snapshot, metrics, checkpoints.
    #[error(transparent)]
    Run(#[from] pjlab_run::Error),
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
}
