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
    /// A configuration that is not TOML, or has an unknown key or a value of the wrong type.
    #[error("config: {0}")]
    Toml(#[from] toml::de::Error),
    /// A configuration's value that parses but makes no sense.
    #[error("config: {key}: {why}")]
    Value {
        /// The key.
        key: &'static str,
        /// What it must be.
        why: &'static str,
    },
    /// A configuration's `game` that is not a string (shown as the TOML value found).
    #[error("config: game: expected a game's name, found {0}")]
    GameKey(String),
    /// `train.eval_source` that is neither `game` nor `nnue:PATH` (the text given).
    #[error("config: train.eval_source: {0:?} is neither \"game\" nor \"nnue:PATH\"")]
    EvalSource(String),
    /// The learned evaluation `train.eval_source` names does not load.
    #[error("config: train.eval_source: {path}: {cause}")]
    EvalFile {
        /// The network file.
        path: String,
        /// Why it does not load.
        cause: pjlab_nnue::Error,
    },
    /// The game refused the configuration's setups (its section named after the game).
    #[error("config: {game}: {cause}")]
    Setups {
        /// The game.
        game: &'static str,
        /// The game's reason.
        cause: pjlab_core::Error,
    },
    /// The game has no variant `eval.variant`.
    #[error("config: eval.variant: {0}")]
    EvalVariant(pjlab_core::Error),
    /// The game's hand-written evaluation, a value label's source, does not load.
    #[error("config: the game's evaluation: {0}")]
    HandEval(pjlab_core::Error),
    /// `eval.opponent` names an agent `pjlab-agents` refuses.
    #[error("config: eval.opponent `{spec}`: {cause}")]
    Opponent {
        /// The opponent's spec.
        spec: String,
        /// Why it is refused.
        cause: pjlab_agents::SpecError,
    },
    /// A configuration's error, with where the configuration came from (its file).
    #[error("{origin}: {cause}")]
    InConfig {
        /// The file, or how the configuration was given.
        origin: String,
        /// The error.
        cause: Box<Error>,
    },
    /// An actor's batch of games out of range.
    #[error("games a batch must be within 1..={max}, got {games}")]
    BatchGames {
        /// The games asked.
        games: usize,
        /// The most a batch takes.
        max: usize,
    },
    /// An actor waited for the learner's files in vain.
    #[error(
        "waited {:.0} s for {what}; start the learner first (pjlab train --run DIR --learner)",
        waited.as_secs_f64()
    )]
    NoLearner {
        /// What it waited for.
        what: String,
        /// How long.
        waited: std::time::Duration,
    },
    /// The worker threads could not be started.
    #[error("workers: {0}")]
    Workers(#[from] rayon::ThreadPoolBuildError),
    /// An actor's provenance could not be put into JSON.
    #[error("provenance: {0}")]
    Provenance(serde_json::Error),
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
