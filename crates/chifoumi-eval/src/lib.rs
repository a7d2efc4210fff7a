//! Chifoumi runs between players: matches, round robins and 5-player arenas, on the runs every
//! imperfect-information game shares (`pjlab-imperfect`: labels, schedules, the runner, the
//! session, the report's match scores, cross table and pairs).
//!
//! - [`RunSpec`]: what a run plays (player specs, matches, seed, rules) and its schedule of
//!   [`MatchSpec`]s, a function of the spec alone, so an interrupted run resumes by playing the
//!   matches its records lack.
//! - [`play_all`]: the schedule on worker threads; raising the stop flag
//!   (Ctrl-C) stops handing out matches, and every finished one has been passed on when they
//!   return.
//! - [`session`]: a run from its directory (new or resumed, saved every 30 s and at the end),
//!   on the lab's run session.
//! - [`record`]: Parquet tables in the lab's conventions (`chifoumi-matches/1`,
//!   `chifoumi-games/1`, `chifoumi-arenas/1`, `chifoumi-duels/1`; the run spec as JSON under the
//!   footer key `pjlab.chifoumi`).
//! - [`report`]: `report.md` from the records (match scores with 95% intervals, a cross table,
//!   ratings, duel statistics) and SVG plots.
//! - [`show`]: one game as a self-contained HTML page that steps through it.
//!
//! Players come from a factory the caller passes (spec → player): every Chifoumi player, the
//! scripted ones, `ismcts` and the learned one, is built by `pjlab_players::chifoumi::build`.

pub mod record;
pub mod report;
mod run;
pub mod session;
pub mod show;
mod spec;

pub use run::{Chifoumi, Factory, Played, PlayedArena, PlayedMatch, Runner, play_all, runner};
pub use spec::{ArenaSpec, MatchSpec, RunKind, RunSpec, labels, spec_of};

/// What can go wrong in a Chifoumi run.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The game refused something (a map, rules, an illegal action).
    #[error(transparent)]
    Game(#[from] pjlab_chifoumi::Error),
    /// A run with too few or too many players for its kind.
    #[error("{}", players_wanted(*kind, *found))]
    Players {
        /// The run's kind: a match, a tournament or an arena.
        kind: RunKind,
        /// The players it names.
        found: usize,
    },
    /// A kind of run that is not a Chifoumi run.
    #[error(
        "a Chifoumi run is a match, a tournament or an arena, not a {} run",
        .0.name()
    )]
    NotChifoumi(RunKind),
    /// A run of no matches.
    #[error("the number of matches must be at least 1")]
    NoMatches,
    /// A player of the run that its factory cannot build (the factory's reason names it, or
    /// the error names the player's label).
    #[error(transparent)]
    Unbuilt(#[from] pjlab_imperfect::Unbuilt),
    /// A session that cannot start (another run in the directory, records that do not resume)
    /// or a save during the run that failed.
    #[error(transparent)]
    Session(#[from] pjlab_run::session::SessionError),
    /// A directory without a run, and no run given to start there.
    #[error("no run to start")]
    NoRun,
    /// A game of a match asked for that the match does not have.
    #[error("game {asked} asked, the match has games 0 to {}", games.saturating_sub(1))]
    NoGame {
        /// The game asked (from 0).
        asked: usize,
        /// The match's games.
        games: usize,
    },
    /// A file that cannot be read or written.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
}

/// What [`Error::Players`] says a run of `kind` needs.
fn players_wanted(kind: RunKind, found: usize) -> String {
    match kind {
        RunKind::Match => format!("a match needs 2 players, not {found}"),
        RunKind::Tournament => format!("a tournament needs at least 2 players, not {found}"),
        _ => format!(
            "an arena needs 2 to {} players, not {found}",
            pjlab_chifoumi::MAX_PLAYERS
        ),
    }
}

impl Error {
    pub(crate) fn io(path: &std::path::Path, e: impl std::fmt::Display) -> Error {
        Error::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        }
    }
}
