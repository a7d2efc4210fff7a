//! Evaluation: matches, round-robin tournaments and setup-balance studies between agents of any
//! game of the registry (generic over its [`pjlab_core::GameKit`]), seat-aware: in a game with
//! more seats than sides (Abalone in doubles) each seat has its own agent of its side's player.
//!
//! - [`schedule`]: which games a run plays (colour pairs on one setup and opening, variants in
//!   turn, enumerable setups walked in order), derived from a [`RunSpec`] alone.
//! - [`runner`]: plays them on worker threads, one core each; external engines that hang or crash
//!   forfeit.
//! - [`session`]: a run's sessions: resume checks, periodic saves, the SPRT's early stop, the
//!   running score; [`drive`]: a run played to its end and reported, the SPRT's decision
//!   returned (what `pjlab match`, the atlas's cells and the generations' gates call).
//! - [`shard`]: a run split into N parts played apart (`--shard K/N`); [`merge`]: the finished
//!   parts joined into the whole run; [`pool`]: a match's replicates (the same match with other
//!   seeds) reported as one run, each distinct game counted once across them.
//! - [`record`]: every game in Parquet (the self-play games schema) with the run's options, so
//!   an interrupted run resumes from its file.
//! - [`stats`], [`plot`] and [`table`] (from `pjlab-stats`): Wilson intervals, BayesElo-style
//!   ratings, SPRT, tests on scores across groups, SVG charts, Markdown tables.
//! - [`report`]: the Markdown report, CSV tables, the games in the rulebook notation and SVG
//!   plots; [`timing`]: each player's time per move.

pub mod drive;
pub mod fault;
pub mod merge;
mod opening;
pub mod pool;
pub mod record;
pub mod report;
pub mod runner;
pub mod schedule;
pub mod session;
pub mod shard;
#[cfg(test)]
mod testing;
pub mod timing;

use std::path::PathBuf;

pub use pjlab_stats::{plot, stats, table};

pub use fault::{MergeFault, PoolFault, SpecFault};
pub use runner::{Clock, Ending, Factory, MoveEffort, PlayOptions, Played, PlayedGame, play_games};
pub use schedule::{GameSpec, Opening, Player, RunKind, RunSpec};
pub use shard::{ParseShardError, Shard};

/// What is wrong with a recorded game (see [`Error::Recorded`]); each reads after "game N".
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameFault {
    /// Its id is past the run's schedule.
    #[error(" is not in the run's schedule")]
    NotScheduled,
    /// It starts elsewhere than its scheduled position.
    #[error(" starts from {found} where the schedule says {scheduled}")]
    Start {
        /// The recorded start.
        found: String,
        /// The schedule's start.
        scheduled: String,
    },
    /// A move that does not parse or is not legal where it was played.
    #[error(": illegal move {0}")]
    IllegalMove(String),
    /// An ending name the lab does not know.
    #[error(": termination {0}")]
    Termination(String),
}

/// What can go wrong in a run.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A run spec that cannot be played (players, variants, counts, shards).
    #[error(transparent)]
    Spec(#[from] SpecFault),
    /// Replicates that cannot be pooled.
    #[error(transparent)]
    Pool(#[from] PoolFault),
    /// Shards that cannot be merged.
    #[error(transparent)]
    Merge(#[from] MergeFault),
    /// The game refused: an unknown variant.
    #[error(transparent)]
    Game(#[from] pjlab_core::Error),
    /// A player's agent could not be built.
    #[error("agent `{label}`: {cause}")]
    Agent {
        /// The player's label.
        label: String,
        /// Why the factory refused its spec.
        cause: pjlab_core::BoxError,
    },
    /// A games file could not be written or read back as a table.
    #[error(transparent)]
    Records(#[from] pjlab_selfplay::Error),
    /// The run's options could not be put into JSON.
    #[error("the run's options as JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// A games file's footer (its run options, forfeits, clocks or efforts) is missing or not
    /// what its key holds.
    #[error("{}: {}", path.display(), match cause {
        None => format!("no `{key}` footer: not a match file"),
        Some(cause) => format!("bad `{key}` footer: {cause}"),
    })]
    Footer {
        /// The games file.
        path: PathBuf,
        /// The footer key.
        key: &'static str,
        /// The JSON error, or none when the key is missing.
        cause: Option<serde_json::Error>,
    },
    /// A recorded game does not agree with its run: not in its schedule, another start, an
    /// illegal move or an unknown ending.
    #[error("{}: game {id}{fault}", path.display())]
    Recorded {
        /// The games file.
        path: PathBuf,
        /// The game's id.
        id: u64,
        /// What is wrong with it.
        fault: GameFault,
    },
    /// A session could not start (another run in the directory, records that do not resume)
    /// or a save during the run failed.
    #[error(transparent)]
    Session(#[from] pjlab_run::session::SessionError),
    /// A chart could not be drawn.
    #[error(transparent)]
    Plot(#[from] pjlab_stats::Error),
    /// The run's directory refused by `pjlab-run`'s opener: locked by another process, holding
    /// another kind of run or another game's, or not writable.
    #[error(transparent)]
    Lock(pjlab_run::Error),
    /// A report file could not be written.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// What failed.
        message: String,
    },
}
