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
    /// A checkpoint's `state.json` that does not parse, or a state that cannot be written.
    #[error("checkpoint {path}: {cause}")]
    State {
        /// The state file.
        path: String,
        /// The failure.
        cause: serde_json::Error,
    },
    /// A `state.json` without the encoder and game `pjlab train` writes.
    #[error(
        "{path}: not a checkpoint of `pjlab train` (a network of `pjlab chifoumi train` plays \
         only Chifoumi): {cause}"
    )]
    NotTrained {
        /// The state file.
        path: String,
        /// What did not parse.
        cause: serde_json::Error,
    },
    /// A checkpoint of another game than the one asked for.
    #[error("{path} holds a network for {found}, not {expected}")]
    OtherGame {
        /// The checkpoint or run given.
        path: String,
        /// The game it was trained on.
        found: String,
        /// The game asked for.
        expected: &'static str,
    },
    /// A checkpoint written for another encoding than this build's.
    #[error("{path} was written for encoder {found:?}, this build has {expected:?}")]
    OtherEncoder {
        /// The checkpoint.
        path: String,
        /// Its encoder.
        found: pjlab_core::EncoderId,
        /// This build's.
        expected: pjlab_core::EncoderId,
    },
    /// A checkpoint whose network has another shape than this build's encoder gives.
    #[error("{path} holds a network of shape {found:?}, this build has {expected:?}")]
    OtherShape {
        /// The checkpoint.
        path: String,
        /// Its network's shape.
        found: pjlab_nn::NetShape,
        /// This build's.
        expected: pjlab_nn::NetShape,
    },
    /// A checkpoint's replay window larger than the positions its run's files still hold.
    #[error("the window needs {needed} positions, the run's files hold {found}")]
    ShortWindow {
        /// The window's length.
        needed: usize,
        /// The positions found.
        found: usize,
    },
    /// A run directory without a checkpoint where one is needed (an actor's first network).
    #[error("{run}: no checkpoint")]
    NoCheckpoint {
        /// The run directory.
        run: String,
    },
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
