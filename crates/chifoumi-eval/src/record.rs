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

use std::collections::BTreeMap;
use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{ListBuilder, StringBuilder, UInt16Builder};
use arrow_array::cast::AsArray;
use arrow_array::types::{Int8Type, Int32Type, UInt8Type, UInt16Type, UInt32Type, UInt64Type};
use arrow_array::{
    Array, ArrayRef, Int8Array, Int32Array, RecordBatch, UInt8Array, UInt16Array, UInt32Array,
    UInt64Array,
};
use arrow_schema::DataType;
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::Compression;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use pjlab_chifoumi::players::{ArenaDuel, ArenaResult};
use pjlab_chifoumi::{Action, Bag, Duel, GameEnd, GameSummary, MatchResult, Object};
use pjlab_selfplay::record::{check_columns, list_of, temporary_beside};

use crate::{Error, MatchSpec, PlayedArena, PlayedMatch, RunKind, RunSpec};

pub use pjlab_selfplay::record::SCHEMA_KEY;
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
        let spec = serde_json::to_string(&self.run).expect("a run spec is JSON");
        let mut matches = self.matches.clone();
        matches.sort_by_key(|m| m.spec.id);
        let mut arenas = self.arenas.clone();
        arenas.sort_by_key(|a| a.spec.id);
        // The detail table first: a crash between the two writes leaves details of matches the
        // main table does not list yet (ignored, and played again on resume), never a listed
        // match without its details.
        if self.run.kind == RunKind::Arena {
            write_batch(
                &dir.join("duels.parquet"),
                duels_batch(&arenas)?,
                DUELS_SCHEMA,
                &spec,
            )?;
            write_batch(
                &dir.join("arenas.parquet"),
                arenas_batch(&self.run, &arenas)?,
                ARENAS_SCHEMA,
                &spec,
            )
        } else {
            write_batch(
                &dir.join("games.parquet"),
                games_batch(&matches)?,
                GAMES_SCHEMA,
                &spec,
            )?;
            write_batch(
                &dir.join("matches.parquet"),
                matches_batch(&self.run, &matches)?,
                MATCHES_SCHEMA,
                &spec,
            )
        }
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

fn write_batch(path: &Path, batch: RecordBatch, schema: &str, spec: &str) -> Result<(), Error> {
    let metadata = vec![
        KeyValue::new(SCHEMA_KEY.to_string(), schema.to_string()),
        KeyValue::new(RUN_KEY.to_string(), spec.to_string()),
    ];
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_key_value_metadata(Some(metadata))
        .build();
    let tmp = temporary_beside(path, ".parquet.tmp").map_err(|e| io(path, e))?;
    let mut writer = ArrowWriter::try_new(tmp.as_file(), batch.schema(), Some(props))
        .map_err(|e| io(tmp.path(), e))?;
    writer.write(&batch).map_err(|e| io(tmp.path(), e))?;
    writer.close().map_err(|e| io(tmp.path(), e))?;
    tmp.persist(path).map_err(|e| io(path, e.error))?;
    Ok(())
}

fn strings<'a>(values: impl IntoIterator<Item = &'a str>) -> ArrayRef {
    let mut b = StringBuilder::new();
    for v in values {
        b.append_value(v);
    }
    Arc::new(b.finish())
}

fn bags<'a>(values: impl IntoIterator<Item = &'a Bag>) -> ArrayRef {
    let mut b = ListBuilder::new(UInt16Builder::new());
    for bag in values {
        b.values().append_slice(&bag.counts());
        b.append(true);
    }
    Arc::new(b.finish())
}

fn letter(o: Option<Object>) -> String {
    o.map(|o| o.letter().to_string()).unwrap_or_default()
}

fn matches_batch(run: &RunSpec, matches: &[PlayedMatch]) -> Result<RecordBatch, Error> {
    let label = |m: &PlayedMatch, s: usize| run.players[m.spec.seats[s]].as_str();
    let result = |r: &MatchResult| r.result_for(0);
    RecordBatch::try_from_iter([
        (
            "match_id",
            Arc::new(UInt64Array::from_iter_values(
                matches.iter().map(|m| m.spec.id),
            )) as ArrayRef,
        ),
        (
            "seed",
            Arc::new(UInt64Array::from_iter_values(
                matches.iter().map(|m| m.spec.seed),
            )),
        ),
        ("player_0", strings(matches.iter().map(|m| label(m, 0)))),
        ("player_1", strings(matches.iter().map(|m| label(m, 1)))),
        (
            "score_0",
            Arc::new(Int32Array::from_iter_values(
                matches.iter().map(|m| m.result.score[0]),
            )),
        ),
        (
            "score_1",
            Arc::new(Int32Array::from_iter_values(
                matches.iter().map(|m| m.result.score[1]),
            )),
        ),
        (
            "duels_0",
            Arc::new(UInt32Array::from_iter_values(
                matches.iter().map(|m| m.result.duels[0]),
            )),
        ),
        (
            "duels_1",
            Arc::new(UInt32Array::from_iter_values(
                matches.iter().map(|m| m.result.duels[1]),
            )),
        ),
        (
            "result",
            Arc::new(Int8Array::from_iter_values(
                matches.iter().map(|m| result(&m.result)),
            )),
        ),
        (
            "games",
            Arc::new(UInt16Array::from_iter_values(
                matches.iter().map(|m| m.result.games.len() as u16),
            )),
        ),
    ])
    .map_err(|e| io(Path::new("matches.parquet"), e))
}

fn games_batch(matches: &[PlayedMatch]) -> Result<RecordBatch, Error> {
    let rows: Vec<(u64, u16, &GameSummary, &[Action])> = matches
        .iter()
        .flat_map(|m| {
            m.result
                .games
                .iter()
                .zip(&m.actions)
                .enumerate()
                .map(|(g, (s, a))| (m.spec.id, g as u16, s, a.as_slice()))
        })
        .collect();
    let duel = |s: &GameSummary| match s.end {
        GameEnd::Duel(d) => Some(d),
        GameEnd::TimeOut => None,
    };
    let draws: Vec<[String; 2]> = rows
        .iter()
        .map(|r| [0u8, 1].map(|p| letter(duel(r.2).and_then(|d| d.draw_of(p)))))
        .collect();
    let mut actions = ListBuilder::new(StringBuilder::new());
    for r in &rows {
        for a in r.3 {
            actions.values().append_value(a.as_str());
        }
        actions.append(true);
    }
    RecordBatch::try_from_iter([
        (
            "match_id",
            Arc::new(UInt64Array::from_iter_values(rows.iter().map(|r| r.0))) as ArrayRef,
        ),
        (
            "game",
            Arc::new(UInt16Array::from_iter_values(rows.iter().map(|r| r.1))),
        ),
        (
            "first",
            Arc::new(UInt8Array::from_iter_values(rows.iter().map(|r| r.2.first))),
        ),
        (
            "turns",
            Arc::new(UInt16Array::from_iter_values(
                rows.iter().map(|r| r.2.turns),
            )),
        ),
        (
            "end",
            strings(rows.iter().map(|r| {
                if duel(r.2).is_some() {
                    "duel"
                } else {
                    "timeout"
                }
            })),
        ),
        (
            "trigger",
            Arc::new(Int8Array::from_iter_values(
                rows.iter()
                    .map(|r| duel(r.2).map_or(-1, |d| d.trigger as i8)),
            )),
        ),
        ("draw_0", strings(draws.iter().map(|d| d[0].as_str()))),
        ("draw_1", strings(draws.iter().map(|d| d[1].as_str()))),
        ("bag_0", bags(rows.iter().map(|r| &r.2.bags[0]))),
        ("bag_1", bags(rows.iter().map(|r| &r.2.bags[1]))),
        (
            "value_0",
            Arc::new(Int8Array::from_iter_values(
                rows.iter().map(|r| r.2.end.value_for(0) as i8),
            )),
        ),
        ("actions", Arc::new(actions.finish())),
    ])
    .map_err(|e| io(Path::new("games.parquet"), e))
}

fn arenas_batch(run: &RunSpec, arenas: &[PlayedArena]) -> Result<RecordBatch, Error> {
    let mut players = ListBuilder::new(StringBuilder::new());
    let mut scores = ListBuilder::new(arrow_array::builder::Int32Builder::new());
    for a in arenas {
        for &p in &a.spec.seats {
            players.values().append_value(&run.players[p]);
        }
        players.append(true);
        scores.values().append_slice(&a.result.scores);
        scores.append(true);
    }
    RecordBatch::try_from_iter([
        (
            "arena_id",
            Arc::new(UInt64Array::from_iter_values(
                arenas.iter().map(|a| a.spec.id),
            )) as ArrayRef,
        ),
        (
            "seed",
            Arc::new(UInt64Array::from_iter_values(
                arenas.iter().map(|a| a.spec.seed),
            )),
        ),
        ("players", Arc::new(players.finish())),
        ("scores", Arc::new(scores.finish())),
        (
            "turns",
            Arc::new(UInt32Array::from_iter_values(
                arenas.iter().map(|a| a.result.turns),
            )),
        ),
    ])
    .map_err(|e| io(Path::new("arenas.parquet"), e))
}

fn duels_batch(arenas: &[PlayedArena]) -> Result<RecordBatch, Error> {
    let rows: Vec<(u64, &ArenaDuel)> = arenas
        .iter()
        .flat_map(|a| a.result.duels.iter().map(move |d| (a.spec.id, d)))
        .collect();
    RecordBatch::try_from_iter([
        (
            "arena_id",
            Arc::new(UInt64Array::from_iter_values(rows.iter().map(|r| r.0))) as ArrayRef,
        ),
        (
            "turn",
            Arc::new(UInt32Array::from_iter_values(rows.iter().map(|r| r.1.turn))),
        ),
        (
            "trigger",
            Arc::new(UInt8Array::from_iter_values(
                rows.iter().map(|r| r.1.duel.trigger),
            )),
        ),
        (
            "target",
            Arc::new(UInt8Array::from_iter_values(
                rows.iter().map(|r| r.1.duel.target),
            )),
        ),
        (
            "draw_trigger",
            strings(
                rows.iter()
                    .map(|r| r.1.duel.draws[0].letter().to_string())
                    .collect::<Vec<_>>()
                    .iter()
                    .map(String::as_str),
            ),
        ),
        (
            "draw_target",
            strings(
                rows.iter()
                    .map(|r| r.1.duel.draws[1].letter().to_string())
                    .collect::<Vec<_>>()
                    .iter()
                    .map(String::as_str),
            ),
        ),
        ("bag_trigger", bags(rows.iter().map(|r| &r.1.bags[0]))),
        ("bag_target", bags(rows.iter().map(|r| &r.1.bags[1]))),
    ])
    .map_err(|e| io(Path::new("duels.parquet"), e))
}

/// The batches of a table, checked for its schema, and the run spec of its footer.
fn read_table(path: &Path, schema: &str) -> Result<(RunSpec, Vec<RecordBatch>), Error> {
    let file = File::open(path).map_err(|e| io(path, e))?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| io(path, e))?;
    let kv = builder.metadata().file_metadata().key_value_metadata();
    let get = |key: &str| {
        kv.and_then(|kv| kv.iter().find(|k| k.key == key))
            .and_then(|k| k.value.clone())
    };
    let found = get(SCHEMA_KEY);
    if found.as_deref() != Some(schema) {
        return Err(io(
            path,
            format!("expected schema {schema}, found {found:?}"),
        ));
    }
    let spec = get(RUN_KEY).ok_or_else(|| io(path, format!("no {RUN_KEY} footer key")))?;
    let run: RunSpec = serde_json::from_str(&spec).map_err(|e| io(path, e))?;
    let batches = builder
        .build()
        .map_err(|e| io(path, e))?
        .map(|b| b.map_err(|e| io(path, e)))
        .collect::<Result<_, _>>()?;
    Ok((run, batches))
}

fn column<'a>(path: &Path, batch: &'a RecordBatch, name: &str) -> Result<&'a ArrayRef, Error> {
    batch
        .column_by_name(name)
        .ok_or_else(|| io(path, format!("missing column {name}")))
}

/// Checks a table's columns and their types before the reader casts them.
fn check(path: &Path, batch: &RecordBatch, expected: &[(&str, DataType)]) -> Result<(), Error> {
    check_columns(batch, expected).map_err(|e| io(path, e))
}

fn matches_columns() -> Vec<(&'static str, DataType)> {
    vec![
        ("match_id", DataType::UInt64),
        ("seed", DataType::UInt64),
        ("player_0", DataType::Utf8),
        ("player_1", DataType::Utf8),
        ("games", DataType::UInt16),
    ]
}

fn games_columns() -> Vec<(&'static str, DataType)> {
    vec![
        ("match_id", DataType::UInt64),
        ("game", DataType::UInt16),
        ("first", DataType::UInt8),
        ("turns", DataType::UInt16),
        ("trigger", DataType::Int8),
        ("draw_0", DataType::Utf8),
        ("draw_1", DataType::Utf8),
        ("bag_0", list_of(DataType::UInt16)),
        ("bag_1", list_of(DataType::UInt16)),
        ("actions", list_of(DataType::Utf8)),
    ]
}

fn arenas_columns() -> Vec<(&'static str, DataType)> {
    vec![
        ("arena_id", DataType::UInt64),
        ("seed", DataType::UInt64),
        ("players", list_of(DataType::Utf8)),
        ("scores", list_of(DataType::Int32)),
        ("turns", DataType::UInt32),
    ]
}

fn duels_columns() -> Vec<(&'static str, DataType)> {
    vec![
        ("arena_id", DataType::UInt64),
        ("turn", DataType::UInt32),
        ("trigger", DataType::UInt8),
        ("target", DataType::UInt8),
        ("draw_trigger", DataType::Utf8),
        ("draw_target", DataType::Utf8),
        ("bag_trigger", list_of(DataType::UInt16)),
        ("bag_target", list_of(DataType::UInt16)),
    ]
}

fn bag_of(path: &Path, list: ArrayRef) -> Result<Bag, Error> {
    let v = list.as_primitive::<UInt16Type>().values();
    match v[..] {
        [f, p, c] => Ok(Bag::new(f, p, c)),
        _ => Err(io(path, format!("a bag of {} counts", v.len()))),
    }
}

fn object_of(path: &Path, text: &str) -> Result<Option<Object>, Error> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (None, _) => Ok(None),
        (Some(c), None) => Object::from_letter(c)
            .map(Some)
            .ok_or_else(|| io(path, format!("bad draw {text:?}"))),
        _ => Err(io(path, format!("bad draw {text:?}"))),
    }
}

fn seat_index(path: &Path, run: &RunSpec, label: &str) -> Result<usize, Error> {
    run.players
        .iter()
        .position(|p| p == label)
        .ok_or_else(|| io(path, format!("player {label:?} is not in the run spec")))
}

fn read_matches(path: &Path, games_path: &Path) -> Result<(RunSpec, Vec<PlayedMatch>), Error> {
    let (run, batches) = read_table(path, MATCHES_SCHEMA)?;
    let (_, game_batches) = read_table(games_path, GAMES_SCHEMA)?;
    type Games = Vec<(u16, GameSummary, Vec<Action>)>;
    let mut games: BTreeMap<u64, Games> = BTreeMap::new();
    let gp = games_path;
    for batch in &game_batches {
        check(gp, batch, &games_columns())?;
        let c = |name| column(gp, batch, name);
        let id = c("match_id")?.as_primitive::<UInt64Type>();
        let game = c("game")?.as_primitive::<UInt16Type>();
        let first = c("first")?.as_primitive::<UInt8Type>();
        let turns = c("turns")?.as_primitive::<UInt16Type>();
        let trigger = c("trigger")?.as_primitive::<Int8Type>();
        let draws = [
            c("draw_0")?.as_string::<i32>(),
            c("draw_1")?.as_string::<i32>(),
        ];
        let bag = [c("bag_0")?.as_list::<i32>(), c("bag_1")?.as_list::<i32>()];
        let actions = c("actions")?.as_list::<i32>();
        for i in 0..batch.num_rows() {
            let end = match trigger.value(i) {
                -1 => GameEnd::TimeOut,
                t @ (0 | 1) => {
                    let t = t as u8;
                    let draw = |p: u8| -> Result<Object, Error> {
                        object_of(gp, draws[p as usize].value(i))?
                            .ok_or_else(|| io(gp, "a duel without draws"))
                    };
                    GameEnd::Duel(Duel {
                        trigger: t,
                        target: 1 - t,
                        draws: [draw(t)?, draw(1 - t)?],
                    })
                }
                t => return Err(io(gp, format!("bad trigger {t}"))),
            };
            let list = actions.value(i);
            let list = list.as_string::<i32>();
            let acts = (0..list.len())
                .map(|k| list.value(k).parse::<Action>().map_err(|e| io(gp, e)))
                .collect::<Result<Vec<_>, _>>()?;
            let summary = GameSummary {
                end,
                first: first.value(i),
                turns: turns.value(i),
                bags: [bag_of(gp, bag[0].value(i))?, bag_of(gp, bag[1].value(i))?],
            };
            games
                .entry(id.value(i))
                .or_default()
                .push((game.value(i), summary, acts));
        }
    }
    let mut out = Vec::new();
    for batch in &batches {
        check(path, batch, &matches_columns())?;
        let c = |name| column(path, batch, name);
        let id = c("match_id")?.as_primitive::<UInt64Type>();
        let seed = c("seed")?.as_primitive::<UInt64Type>();
        let players = [
            c("player_0")?.as_string::<i32>(),
            c("player_1")?.as_string::<i32>(),
        ];
        let count = c("games")?.as_primitive::<UInt16Type>();
        for i in 0..batch.num_rows() {
            let mut list = games.remove(&id.value(i)).unwrap_or_default();
            list.sort_by_key(|g| g.0);
            if list.len() != usize::from(count.value(i)) {
                return Err(io(
                    games_path,
                    format!(
                        "match {} has {} games here, {} in matches.parquet",
                        id.value(i),
                        list.len(),
                        count.value(i)
                    ),
                ));
            }
            let mut score = [0i32; 2];
            let mut duels = [0u32; 2];
            for (_, g, _) in &list {
                for (p, s) in score.iter_mut().enumerate() {
                    *s += g.end.value_for(p);
                }
                if let GameEnd::Duel(d) = g.end {
                    duels[d.trigger as usize] += 1;
                }
            }
            out.push(PlayedMatch {
                spec: MatchSpec {
                    id: id.value(i),
                    seats: vec![
                        seat_index(path, &run, players[0].value(i))?,
                        seat_index(path, &run, players[1].value(i))?,
                    ],
                    seed: seed.value(i),
                },
                result: MatchResult {
                    score,
                    duels,
                    winner: MatchResult::decide(score, duels),
                    games: list.iter().map(|g| g.1).collect(),
                },
                actions: list.into_iter().map(|g| g.2).collect(),
            });
        }
    }
    Ok((run, out))
}

fn read_arenas(path: &Path, duels_path: &Path) -> Result<(RunSpec, Vec<PlayedArena>), Error> {
    let (run, batches) = read_table(path, ARENAS_SCHEMA)?;
    let (_, duel_batches) = read_table(duels_path, DUELS_SCHEMA)?;
    let dp = duels_path;
    let mut duels: BTreeMap<u64, Vec<ArenaDuel>> = BTreeMap::new();
    for batch in &duel_batches {
        check(dp, batch, &duels_columns())?;
        let c = |name| column(dp, batch, name);
        let id = c("arena_id")?.as_primitive::<UInt64Type>();
        let turn = c("turn")?.as_primitive::<UInt32Type>();
        let trigger = c("trigger")?.as_primitive::<UInt8Type>();
        let target = c("target")?.as_primitive::<UInt8Type>();
        let draws = [
            c("draw_trigger")?.as_string::<i32>(),
            c("draw_target")?.as_string::<i32>(),
        ];
        let bag = [
            c("bag_trigger")?.as_list::<i32>(),
            c("bag_target")?.as_list::<i32>(),
        ];
        for i in 0..batch.num_rows() {
            let draw = |k: usize| -> Result<Object, Error> {
                object_of(dp, draws[k].value(i))?.ok_or_else(|| io(dp, "a duel without draws"))
            };
            duels.entry(id.value(i)).or_default().push(ArenaDuel {
                turn: turn.value(i),
                duel: Duel {
                    trigger: trigger.value(i),
                    target: target.value(i),
                    draws: [draw(0)?, draw(1)?],
                },
                bags: [bag_of(dp, bag[0].value(i))?, bag_of(dp, bag[1].value(i))?],
            });
        }
    }
    let mut out = Vec::new();
    for batch in &batches {
        check(path, batch, &arenas_columns())?;
        let c = |name| column(path, batch, name);
        let id = c("arena_id")?.as_primitive::<UInt64Type>();
        let seed = c("seed")?.as_primitive::<UInt64Type>();
        let players = c("players")?.as_list::<i32>();
        let scores = c("scores")?.as_list::<i32>();
        let turns = c("turns")?.as_primitive::<UInt32Type>();
        for i in 0..batch.num_rows() {
            let names = players.value(i);
            let names = names.as_string::<i32>();
            let seats = (0..names.len())
                .map(|k| seat_index(path, &run, names.value(k)))
                .collect::<Result<Vec<_>, _>>()?;
            out.push(PlayedArena {
                spec: MatchSpec {
                    id: id.value(i),
                    seats,
                    seed: seed.value(i),
                },
                result: ArenaResult {
                    scores: scores
                        .value(i)
                        .as_primitive::<Int32Type>()
                        .values()
                        .to_vec(),
                    duels: duels.remove(&id.value(i)).unwrap_or_default(),
                    turns: turns.value(i),
                },
            });
        }
    }
    Ok((run, out))
}
