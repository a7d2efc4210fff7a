//! The learned Chifoumi player and its training (`pjlab chifoumi train`).
//!
//! - [`features`]: the network's input, the observation's tensor and a [`features::Memory`]
//!   of the match (scores, duels called, draws revealed, the opponent's pickups seen, where it
//!   was last seen, the `observer`'s estimate of its bag and the exact duel value against it).
//! - [`NetPlayer`] (of `pjlab-players`, where every player is built): the policy over the
//!   intents, sampled at a temperature, on the packed CPU network of [`pjlab_nn::inference`];
//!   `net:checkpoint=DIR` in player specs. Training records its decisions' trace.
//! - [`train::train`]: Chifoumi's league (`pjlab-league`): policy gradient (REINFORCE) with the
//!   network's own win/draw/loss head as baseline and an entropy bonus, AdamW; opponents drawn
//!   each match from a pool of the learner's past snapshots and the scripted players. A decision's return is its game's
//!   result (discounted towards the game's end), the tie-break's share of a duel it called,
//!   and the match's result (`match_weight`), which is what a match is won by. Chosen over
//!   PPO or Q-learning for the size of the game (seven intents, about ten decisions a game)
//!   and because the baseline comes free with the lab's policy/value network; every setting
//!   is in [`config`].
//! - [`checkpoint`]: the run directory (the league's); a stopped run resumes to the same weights.
//! - [`report::training_report`]: `training.md` from the metrics.
//! - [`exploit`]: a player's exploitability (`pjlab chifoumi exploit`): its scores against the
//!   scripted players, a best response trained against it and ISMCTS-BR, and the worst.

pub mod checkpoint;
pub mod config;
mod decisions;
pub mod exploit;
pub mod features;
pub mod metrics;
pub mod report;
pub mod train;

pub use config::LearnConfig;
pub use metrics::{IterationLog, read_metrics};
pub use pjlab_players::chifoumi::NetPlayer;
pub use train::{TrainSummary, evaluate, train};

impl Error {
    /// The [`Error::Io`] of `path`, for `map_err`.
    pub(crate) fn io(path: &std::path::Path) -> impl Fn(std::io::Error) -> Error + '_ {
        move |source| Error::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// What can go wrong in training or loading the learned player.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A config that is not TOML, or has an unknown key or a value of the wrong type (on one
    /// line).
    #[error("config: {}", .0.to_string().replace('\n', " "))]
    Toml(#[from] toml::de::Error),
    /// A config that cannot be written as TOML.
    #[error("config: {0}")]
    TomlOut(#[from] toml::ser::Error),
    /// A config's value out of range.
    #[error("config: {key}: {why}")]
    Value {
        /// The key.
        key: &'static str,
        /// What it must be.
        why: &'static str,
    },
    /// An opponent of the config that does not parse (a scripted player's or a network's spec).
    #[error("config: opponents: {0}")]
    Opponent(pjlab_core::BoxError),
    /// The player an exploitability run measures cannot be built.
    #[error("config: {0}")]
    Measured(pjlab_core::BoxError),
    /// The league's loop, checkpoints, metrics and exploitability runs (a `state.json` that is
    /// not one of `pjlab chifoumi train`, another player's exploitability run, among others).
    #[error(transparent)]
    League(#[from] pjlab_league::Error),
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
        path: std::path::PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A Chifoumi match run (its records, its report).
    #[error(transparent)]
    Eval(#[from] pjlab_chifoumi_eval::Error),
    /// A chart that cannot be drawn or written.
    #[error(transparent)]
    Stats(#[from] pjlab_stats::Error),
    /// The game refused something.
    #[error(transparent)]
    Game(#[from] pjlab_chifoumi::Error),
    /// A player (an opponent's spec, a network) that cannot be built.
    #[error(transparent)]
    Player(#[from] pjlab_players::Error),
}
