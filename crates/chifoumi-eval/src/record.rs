//! A run's records in Parquet, one directory a run.
//!
//! Match and tournament runs write two tables:
//! - `matches.parquet` (`chifoumi-matches/1`): one row a match: `match_id`, `seed`, `player_0`
//!   and `player_1` (labels; seat 0 moves first in game 1), `score_0`, `score_1` (points),
//!   `duels_0`, `duels_1` (duels triggered), `result` (+1 seat 0 won the match, 0 drawn, -1 lost,
//!   tie-break included), `games`.
//! - `games.parquet` (`chifoumi-games/1`): one row a game: `match_id`, `game` (0-based), `first`
//!   (seat), `turns`, `end` (`duel` or `timeout`), `trigger` (seat, -1 for a time-out), `draw_0`,
//!   `draw_1` (letters, empty for a time-out), `bag_0`, `bag_1` (`[F, P, C]` when the game ended),
//!   `value_0` (+1, 0, -1 for seat 0), `actions` (`N`, `E`, `DUEL`...).
//!
//! With the run's rules, a match's `seed` and its games' `actions` replay it exactly.
//!
//! Arena runs write `arenas.parquet` (`chifoumi-arenas/1`: `arena_id`, `seed`, `players` by
//! seat, `scores` by seat, `turns`) and `duels.parquet` (`chifoumi-duels/1`: `arena_id`, `turn`,
//! `trigger`, `target` (seats), `draw_trigger`, `draw_target`, `bag_trigger`, `bag_target`).
//!
//! Every footer holds `pjlab.schema` and the [`RunSpec`] as JSON under `pjlab.chifoumi`. Files
//! are written whole to a temporary file beside them and renamed, so a crash never leaves half
//! a table.

mod read;

use pjlab_run::dir::{self, Manifest};
use std::path::Path;

use pjlab_chifoumi::{GameEnd, Object};
use pjlab_run::table::{Column, Schema, TableBuilder, Type, Value};

use crate::{Error, MatchSpec, PlayedArena, PlayedMatch, RunKind, RunSpec};
use read::{read_arenas, read_matches};

pub use pjlab_run::table::SCHEMA_KEY;
/// Footer key of the run spec (JSON).
pub const RUN_KEY: &str = "pjlab.chifoumi";
/// Schema of `matches.parquet`.
pub const MATCHES_SCHEMA: &str = "chifoumi-matches/1";
/// Schema of `games.parquet`.
pub const GAMES_SCHEMA: &str = "chifoumi-games/1";
/// Schema of `arenas.parquet`.
pub const ARENAS_SCHEMA: &str = "chifoumi-arenas/1";
/// Schema of `duels.parquet`.
pub const DUELS_SCHEMA: &str = "chifoumi-duels/1";

/// `matches.parquet`.
pub const MATCHES: Schema = Schema {
    name: MATCHES_SCHEMA,
    columns: &[
        Column::new("match_id", Type::U64),
        Column::new("seed", Type::U64),
        Column::new("player_0", Type::Str),
        Column::new("player_1", Type::Str),
        Column::new("score_0", Type::I32),
        Column::new("score_1", Type::I32),
        Column::new("duels_0", Type::U32),
        Column::new("duels_1", Type::U32),
        Column::new("result", Type::I8),
        Column::new("games", Type::U16),
    ],
};

/// `games.parquet`.
pub const GAMES: Schema = Schema {
    name: GAMES_SCHEMA,
    columns: &[
        Column::new("match_id", Type::U64),
        Column::new("game", Type::U16),
        Column::new("first", Type::U8),
        Column::new("turns", Type::U16),
        Column::new("end", Type::Str),
        Column::new("trigger", Type::I8),
        Column::new("draw_0", Type::Str),
        Column::new("draw_1", Type::Str),
        Column::new("bag_0", Type::U16s),
        Column::new("bag_1", Type::U16s),
        Column::new("value_0", Type::I8),
        Column::new("actions", Type::Strs),
    ],
};

/// `arenas.parquet`.
pub const ARENAS: Schema = Schema {
    name: ARENAS_SCHEMA,
    columns: &[
        Column::new("arena_id", Type::U64),
        Column::new("seed", Type::U64),
        Column::new("players", Type::Strs),
        Column::new("scores", Type::I32s),
        Column::new("turns", Type::U32),
    ],
};

/// `duels.parquet`.
pub const DUELS: Schema = Schema {
    name: DUELS_SCHEMA,
    columns: &[
        Column::new("arena_id", Type::U64),
        Column::new("turn", Type::U32),
        Column::new("trigger", Type::U8),
        Column::new("target", Type::U8),
        Column::new("draw_trigger", Type::Str),
        Column::new("draw_target", Type::Str),
        Column::new("bag_trigger", Type::U16s),
        Column::new("bag_target", Type::U16s),
    ],
};

/// A run's spec and what it has played so far.
#[derive(Clone, Debug, PartialEq)]
pub struct Records {
    /// What the run plays.
    pub run: RunSpec,
    /// Finished matches (match and tournament runs), by id.
    pub matches: Vec<PlayedMatch>,
    /// Finished arenas (arena runs), by id.
    pub arenas: Vec<PlayedArena>,
}

impl Records {
    /// No match played yet.
    pub fn new(run: RunSpec) -> Records {
        Records {
            run,
            matches: Vec::new(),
            arenas: Vec::new(),
        }
    }

    /// The scheduled matches (or arenas) not played yet.
    pub fn todo(&self) -> Vec<MatchSpec> {
        let done: std::collections::HashSet<u64> = self
            .matches
            .iter()
            .map(|m| m.spec.id)
            .chain(self.arenas.iter().map(|a| a.spec.id))
            .collect();
        self.run
            .schedule()
            .into_iter()
            .filter(|m| !done.contains(&m.id))
            .collect()
    }

    /// Matches (or arenas) finished.
    pub fn len(&self) -> usize {
        self.matches.len() + self.arenas.len()
    }

    /// Whether nothing was played.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Writes the run's tables into `dir` (which must exist).
    ///
    /// # Errors
    /// [`Error::Io`] when a file cannot be written.
    pub fn write(&self, dir: &Path) -> Result<(), Error> {
        let spec = [(
            RUN_KEY.to_string(),
            serde_json::to_string(&self.run).expect("a run spec is JSON"),
        )];
        let mut matches = self.matches.clone();
        matches.sort_by_key(|m| m.spec.id);
        let mut arenas = self.arenas.clone();
        arenas.sort_by_key(|a| a.spec.id);
        // The detail table first: a crash between the two writes leaves details of matches the
        // main table does not list yet (ignored, and played again on resume), never a listed
        // match without its details.
        if self.run.kind == RunKind::Arena {
            write_duels(&dir.join("duels.parquet"), &arenas, &spec)?;
            write_arenas(&dir.join("arenas.parquet"), &self.run, &arenas, &spec)?;
        } else {
            write_games(&dir.join("games.parquet"), &matches, &spec)?;
            write_matches(&dir.join("matches.parquet"), &self.run, &matches, &spec)?;
        }
        Manifest::new(self.run.kind, "chifoumi")
            .write(dir)
            .map_err(|e| Error::io(&dir.join(dir::MANIFEST_FILE), e))
    }

    /// Whether `dir` holds a run's records.
    pub fn exist(dir: &Path) -> bool {
        dir.join("matches.parquet").exists() || dir.join("arenas.parquet").exists()
    }

    /// Reads a run's records from `dir`.
    ///
    /// # Errors
    /// [`Error::Io`] when a table is missing, unreadable, of another schema, or disagrees with
    /// the run spec.
    pub fn read(dir: &Path) -> Result<Records, Error> {
        let arena = dir.join("arenas.parquet");
        if arena.exists() {
            let (run, arenas) = read_arenas(&arena, &dir.join("duels.parquet"))?;
            return Ok(Records {
                run,
                matches: Vec::new(),
                arenas,
            });
        }
        let path = dir.join("matches.parquet");
        if !path.exists() {
            return Err(Error::io(dir, "no matches.parquet or arenas.parquet here"));
        }
        let (run, matches) = read_matches(&path, &dir.join("games.parquet"))?;
        Ok(Records {
            run,
            matches,
            arenas: Vec::new(),
        })
    }
}

fn io(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::io(path, e)
}

fn table_error(e: pjlab_run::table::Error) -> Error {
    Error::Io {
        path: e.path,
        message: e.message,
    }
}

/// Appends a row to `table` for the file at `path`.
fn row<'a>(
    path: &Path,
    table: &mut TableBuilder,
    values: impl IntoIterator<Item = Value<'a>>,
) -> Result<(), Error> {
    table.row(values).map_err(|e| io(path, e))
}

fn letter(o: Option<Object>) -> String {
    o.map(|o| o.letter().to_string()).unwrap_or_default()
}

type Extra = [(String, String)];

fn write_matches(
    path: &Path,
    run: &RunSpec,
    matches: &[PlayedMatch],
    extra: &Extra,
) -> Result<(), Error> {
    let mut table = TableBuilder::new(&MATCHES);
    for m in matches {
        let label = |s: usize| run.players[m.spec.seats[s]].as_str();
        let r = &m.result;
        row(
            path,
            &mut table,
            [
                m.spec.id.into(),
                m.spec.seed.into(),
                label(0).into(),
                label(1).into(),
                r.score[0].into(),
                r.score[1].into(),
                r.duels[0].into(),
                r.duels[1].into(),
                r.result_for(0).into(),
                Value::U16(r.games.len() as u16),
            ],
        )?;
    }
    table.write(path, extra).map_err(table_error)
}

fn write_games(path: &Path, matches: &[PlayedMatch], extra: &Extra) -> Result<(), Error> {
    let mut table = TableBuilder::new(&GAMES);
    for m in matches {
        for (g, (s, actions)) in m.result.games.iter().zip(&m.actions).enumerate() {
            let duel = match s.end {
                GameEnd::Duel(d) => Some(d),
                GameEnd::TimeOut => None,
            };
            let draws = [0u8, 1].map(|p| letter(duel.and_then(|d| d.draw_of(p))));
            let bags = s.bags.map(|b| b.counts());
            row(
                path,
                &mut table,
                [
                    m.spec.id.into(),
                    (g as u16).into(),
                    s.first.into(),
                    s.turns.into(),
                    (if duel.is_some() { "duel" } else { "timeout" }).into(),
                    duel.map_or(-1, |d| d.trigger as i8).into(),
                    (&draws[0]).into(),
                    (&draws[1]).into(),
                    bags[0].as_slice().into(),
                    bags[1].as_slice().into(),
                    (s.end.value_for(0) as i8).into(),
                    Value::Strs(actions.iter().map(|a| a.as_str()).collect()),
                ],
            )?;
        }
    }
    table.write(path, extra).map_err(table_error)
}

fn write_arenas(
    path: &Path,
    run: &RunSpec,
    arenas: &[PlayedArena],
    extra: &Extra,
) -> Result<(), Error> {
    let mut table = TableBuilder::new(&ARENAS);
    for a in arenas {
        let players = a.spec.seats.iter().map(|&p| run.players[p].as_str());
        row(
            path,
            &mut table,
            [
                a.spec.id.into(),
                a.spec.seed.into(),
                Value::Strs(players.collect()),
                a.result.scores.as_slice().into(),
                a.result.turns.into(),
            ],
        )?;
    }
    table.write(path, extra).map_err(table_error)
}

fn write_duels(path: &Path, arenas: &[PlayedArena], extra: &Extra) -> Result<(), Error> {
    let mut table = TableBuilder::new(&DUELS);
    for a in arenas {
        for d in &a.result.duels {
            let draws = d.duel.draws.map(|o| o.letter().to_string());
            let bags = d.bags.map(|b| b.counts());
            row(
                path,
                &mut table,
                [
                    a.spec.id.into(),
                    d.turn.into(),
                    d.duel.trigger.into(),
                    d.duel.target.into(),
                    (&draws[0]).into(),
                    (&draws[1]).into(),
                    bags[0].as_slice().into(),
                    bags[1].as_slice().into(),
                ],
            )?;
        }
    }
    table.write(path, extra).map_err(table_error)
}
