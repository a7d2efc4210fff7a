//! What the runs of every imperfect-information game share, written once: the board games have
//! `pjlab-arena` over their `GameKit`; a game of hidden information and chance, whose players
//! are rebuilt for every match and whose unit of play is its own (a match of several games, one
//! hand, an arena of many players), has this.
//!
//! - [`schedule`]: a run's labels (specs, repeats numbered) and its schedule of [`MatchSpec`]s,
//!   a function of the player count, the count and the seed alone, so an interrupted run
//!   resumes by playing what its records lack: every pair with seats swapped on a shared seed
//!   ([`schedule::paired`]), or every player at once, rotated ([`schedule::rotated`]).
//! - [`Contest`]: what the game plays for one scheduled unit; [`Runner`] builds its players
//!   afresh from their specs through the caller's [`Factory`] and plays it; [`play_all`] and
//!   [`play_session`] play a schedule on worker threads (the latter from a run directory, the
//!   records saved every 30 s and at the end, on `pjlab_run::session`).
//! - [`standings`]: the report's sections every such run has: each player's match score with
//!   its Wilson interval and rating, the cross table and the pairs.
//!
//! What stays with each game: its rules, players and their specs, the contest itself, the
//! records' columns, and the report's sections about the game (Chifoumi's duels).

mod runner;
pub mod schedule;
pub mod standings;

pub use runner::{Contest, Factory, Runner, Unbuilt, play_all, play_session};
pub use schedule::{MatchSpec, labels, spec_of};
