//! A learner trained by policy gradient against a league: its own past snapshots and fixed
//! opponents (scripted players, trained networks), for any game whose matches give the
//! learner's decisions. Written once here; a game brings its [`League`]: what one match plays
//! and returns, and its config.
//!
//! - [`Settings`]: what the loop reads of a game's config (iterations, seed, matches, the
//!   pool, evaluations, checkpoints, the policy-gradient step), and its range checks.
//! - [`train`]: each iteration draws the opponents of its matches from the pool, plays them
//!   in parallel ([`League::play`]), takes the policy-gradient steps of [`pjlab_nn::pg`] on the
//!   learner's decisions, evaluates against every fixed opponent every few iterations
//!   ([`evaluate`]) and writes a checkpoint. Every draw comes from generators seeded by (seed,
//!   iteration), so a run stopped after any iteration resumes to the same weights.
//! - [`checkpoint`]: the run directory's checkpoints and pool; [`metrics`]: `metrics.jsonl`
//!   and its plots; [`report::training_report`]: `training.md`.
//! - [`exploit`]: a player's exploitability (its scores against the game's scripted players,
//!   a best response this league trains against it, and ISMCTS-BR), for a game's
//!   [`exploit::Exploitable`].

pub mod checkpoint;
pub mod exploit;
pub mod metrics;
pub mod report;
mod settings;
mod train;

pub use metrics::{IterationLog, read_metrics};
pub use settings::Settings;
pub use train::{League, Opponent, Played, TrainSummary, evaluate, train};

use std::path::{Path, PathBuf};

/// What can go wrong in a league's training, whatever the game.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A setting out of range.
    #[error("config: {key}: {why}")]
    Value {
        /// The key.
        key: &'static str,
        /// What it must be.
        why: &'static str,
    },
    /// A `state.json` that is not one of the game's trainer.
    #[error("checkpoint: {}: not a checkpoint of {trainer}: {cause}", path.display())]
    NotTrained {
        /// The state file.
        path: PathBuf,
        /// The trainer whose checkpoint it should be, as its error names it.
        trainer: &'static str,
        /// Why it does not parse.
        cause: serde_json::Error,
    },
    /// The network's files.
    #[error(transparent)]
    Net(#[from] pjlab_nn::Error),
    /// The run directory.
    #[error(transparent)]
    Run(#[from] pjlab_run::Error),
    /// A file that cannot be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A file the run needs that is not there.
    #[error("{}: no {what}", path.display())]
    Missing {
        /// The file (or directory) looked at.
        path: PathBuf,
        /// What it should have held.
        what: &'static str,
    },
    /// A chart that cannot be drawn or written.
    #[error(transparent)]
    Stats(#[from] pjlab_stats::Error),
    /// A JSON file that does not parse as what it should hold.
    #[error("{}: {source}", path.display())]
    Json {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: serde_json::Error,
    },
    /// The worker threads could not be started.
    #[error("workers: {0}")]
    Workers(#[from] rayon::ThreadPoolBuildError),
    /// A run that should have a checkpoint has none.
    #[error("checkpoint: {}: no checkpoint", .0.display())]
    NoCheckpoint(PathBuf),
    /// A directory holding an exploitability run of other settings than those asked.
    #[error(
        "{} holds the exploitability run of {player} with other settings: resume it without \
         --player, or choose another --out",
        dir.display()
    )]
    OtherSettings {
        /// The run directory.
        dir: PathBuf,
        /// The player its run measures.
        player: String,
    },
    /// A directory without an exploitability run, and no player named to start one.
    #[error("{} holds no exploitability run: name the --player", .0.display())]
    NoExploitRun(PathBuf),
}

impl Error {
    /// The [`Error::Io`] of `path`, for `map_err`.
    pub(crate) fn io(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
        move |source| Error::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}
