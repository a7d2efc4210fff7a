//! Training positions from alpha-beta self-play: each position a game reached, labelled with
//! the score of a search from it (deeper than the static evaluation the network replaces) and
//! with the game's result, both for the side to move.
//!
//! A data run is a run directory ([`pjlab_run::dir`]) of kind
//! [`RunKind::NnueData`](pjlab_run::dir::RunKind::NnueData):
//!
//! ```text
//! run.json            the manifest (kind `nnue-data`, the game)
//! .lock               held while the positions are generated
//! provenance.jsonl    one line per invocation
//! positions.parquet   the table [`POSITIONS`], rewritten atomically as games finish
//! ```
//!
//! The table ([`POSITIONS`], schema `nnue-positions/1` under the footer's schema key) has one
//! row a position: the position in the game's text form (so that the features are computed
//! when training, by the feature set of the day), the search's score in centi-units (forced
//! results beyond [`pjlab_alphabeta::MATE_BOUND`]), the game's result for the side to move (1,
//! 0.5 or 0), the game's number, the ply at which it was searched and the setup variant's
//! name. Its footer also holds the provenance ([`PROVENANCE_KEY`](pjlab_run::dir::PROVENANCE_KEY)), the options
//! ([`OPTIONS_KEY`]) and the processor time the table's games cost over every invocation that
//! played them ([`CPU_KEY`]). Rows are in game order, so that a run stopped early keeps
//! whole games, the first ones.
//!
//! Earlier builds wrote text files instead, one position a line:
//! `position<TAB>score<TAB>result`; [`read`] still reads them (any path not a directory and
//! not ending in `.parquet`).

mod play;
mod read;

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use pjlab_core::GameKit;
use pjlab_run::dir::{OpenRun, Opener, RunKind};
use pjlab_run::pool::{Order, Pool};
use pjlab_run::table::{Column, Schema, TableBuilder, Type};

use crate::Error;

pub use read::{Filter, Sample, read, read_rows};

/// The table of training positions.
pub const POSITIONS: Schema = Schema {
    name: "nnue-positions/1",
    columns: &[
        Column::new("position", Type::Str),
        Column::new("score", Type::I32),
        Column::new("result", Type::F32),
        Column::new("game", Type::U64),
        Column::new("ply", Type::U32),
        Column::new("variant", Type::Str),
    ],
};

/// The table's file name in a data run's directory.
pub const POSITIONS_FILE: &str = "positions.parquet";

/// Footer key of the options (and variants) the positions were generated with, as JSON.
pub const OPTIONS_KEY: &str = "pjlab.nnue-data.options";

/// Footer key of the number of games whose positions the table holds (games `0..n`), which a
/// resumed run continues from.
pub const GAMES_KEY: &str = "pjlab.nnue-data.games";

/// Footer key of the CPU seconds spent playing the table's games, summed over every invocation
/// that played some of them (each counts the whole process, all threads). Absent from tables of
/// earlier builds, and from any table resumed from one of them, whose earlier share is unknown.
pub const CPU_KEY: &str = "pjlab.nnue-data.cpu-seconds";

/// The stream of [`pjlab_core::seed::stream`] that seeds each game (setup, opening, random
/// moves) from the run's seed and the game's number.
pub const GAME_STREAM: u64 = 0;

/// How often the table is rewritten while games are played, so that a run killed without
/// warning keeps most of its games.
const SAVE_INTERVAL: Duration = Duration::from_secs(60);

/// How the games are played.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct DataOptions {
    /// Games to play.
    pub games: usize,
    /// Depth of the search that chooses each move and labels each position.
    pub depth: u32,
    /// Random plies at the start of each game, drawn uniformly from this range (inclusive).
    pub opening_plies: (u32, u32),
    /// Share of the moves after the opening played at random instead of the search's choice
    /// (the position is still labelled by the search).
    pub random_moves: f64,
    /// Seed of the setups, openings and random moves (game `i` draws from
    /// `seed::stream(seed, GAME_STREAM, i)`).
    pub seed: u64,
    /// Threads playing games (the positions do not depend on it).
    pub workers: usize,
    /// Longest game, in plies, before it is abandoned (its positions kept with a draw).
    pub max_plies: u32,
    /// Label the end of the search's principal variation instead of the position searched:
    /// the position where the search's score comes from a static evaluation, with that score
    /// (negated for an odd number of plies), so that the network learns what a static
    /// evaluation there should have said. Skipped when the line ends the game.
    pub pv_leaf: bool,
}

impl DataOptions {
    /// Checks the options.
    ///
    /// # Errors
    /// [`Error::NoWorkerOrDepth`] or [`Error::Openings`] when a number is out of range.
    pub fn check(&self) -> Result<(), Error> {
        if self.workers == 0 || self.depth == 0 {
            return Err(Error::NoWorkerOrDepth);
        }
        if self.opening_plies.0 > self.opening_plies.1 || !(0.0..=1.0).contains(&self.random_moves)
        {
            return Err(Error::Openings);
        }
        Ok(())
    }
}

/// What [`generate`] wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct DataSummary {
    /// Games in the table (a resumed run's earlier games included).
    pub games: usize,
    /// Positions in the table.
    pub positions: usize,
    /// Of the games this call played: wins of the side that moved first, draws, wins of the
    /// second.
    pub results: [usize; 3],
}

/// One row of the positions table.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The position, in the game's text form.
    pub position: String,
    /// The search's score for the side to move, in centi-units.
    pub score: i32,
    /// The game's result for the side to move: 1, 0.5 or 0 (0.5 for a game abandoned at the
    /// ply cap).
    pub result: f32,
    /// The game's number in the run, from 0.
    pub game: u64,
    /// The game's ply at which the search ran (with `pv_leaf`, the labelled position lies the
    /// principal variation's length beyond it).
    pub ply: u32,
    /// The setup variant's name.
    pub variant: String,
}

/// A data run's directory, opened on `pjlab-run`'s [`Opener`]: locked until dropped, its
/// manifest written, this invocation's provenance appended.
pub struct DataRun {
    run: OpenRun,
    footer: Vec<(String, String)>,
    /// A resumed run's table so far: its rows, games and recorded options.
    previous: Option<Previous>,
}

/// What a resumed data run had written.
struct Previous {
    rows: Vec<Row>,
    games: usize,
    options: serde_json::Value,
    /// The CPU seconds its games cost (`None` for a table that does not say).
    cpu_seconds: Option<f64>,
}

impl DataRun {
    /// Opens (creating it if missing) the run directory `path` for the positions of kit `K`'s
    /// game, recording `provenance`. With `resume`, positions already there are kept and
    /// [`generate`] continues after their last game (it refuses other options); without it,
    /// they are refused.
    ///
    /// # Errors
    /// [`Error::Run`] when another process holds the directory or it cannot be written,
    /// [`Error::Run`] too when it holds another kind of run or another game's positions,
    /// [`Error::HoldsPositions`] when it holds positions already (without `resume`),
    /// [`Error::Table`] or [`Error::Footer`] when they do not read.
    pub fn open<K: GameKit>(
        path: impl Into<PathBuf>,
        provenance: &pjlab_core::Provenance,
        resume: bool,
    ) -> Result<DataRun, Error> {
        let opening = Opener::new(RunKind::NnueData, K::INFO.name, "pjlab nnue data")
            .provenance(provenance)
            .lock(path)?;
        let table = opening.dir().join(POSITIONS_FILE);
        let previous = match (table.exists(), resume) {
            (false, _) => None,
            (true, false) => {
                return Err(Error::HoldsPositions(
                    opening.dir().path().display().to_string(),
                ));
            }
            (true, true) => Some(Previous::read(&table)?),
        };
        let run = opening.commit()?;
        Ok(DataRun {
            footer: run.footer(),
            run,
            previous,
        })
    }

    /// Games whose positions the run already holds (0 for a new run).
    pub fn games_done(&self) -> usize {
        self.previous.as_ref().map_or(0, |p| p.games)
    }

    /// The run's directory.
    pub fn path(&self) -> &Path {
        self.run.dir().path()
    }

    /// The positions table's path.
    pub fn positions(&self) -> PathBuf {
        self.run.dir().join(POSITIONS_FILE)
    }

    /// The CPU seconds that earlier invocations spent on the games the run already holds
    /// ([`CPU_KEY`]): 0 for a new run, `None` when a table from an earlier build does not say.
    /// A resumed run's whole cost is this plus the invocation's own.
    pub fn cpu_before(&self) -> Option<f64> {
        self.previous.as_ref().map_or(Some(0.0), |p| p.cpu_seconds)
    }
}

impl Previous {
    /// The table at `path` as an earlier invocation left it.
    fn read(path: &Path) -> Result<Previous, Error> {
        let rows = read_rows(path)?;
        let metadata = pjlab_run::table::read_metadata(path)?;
        let meta = |key: &str| metadata.iter().find(|(k, _)| k == key).map(|(_, v)| v);
        let bad = |what: &'static str| Error::Footer {
            path: path.display().to_string(),
            what,
        };
        let options = meta(OPTIONS_KEY)
            .and_then(|v| serde_json::from_str(v).ok())
            .ok_or_else(|| bad("options"))?;
        // Tables written before the count was kept: the games after the last one with a
        // position are played again (a game without a searched position is rare).
        let games = match meta(GAMES_KEY) {
            Some(v) => v.parse().map_err(|_| bad("games count"))?,
            None => rows.last().map_or(0, |r| r.game as usize + 1),
        };
        let cpu_seconds = match meta(CPU_KEY) {
            Some(v) => Some(v.parse().map_err(|_| bad("CPU seconds"))?),
            None => None,
        };
        Ok(Previous {
            rows,
            games,
            options,
            cpu_seconds,
        })
    }

    /// Whether `recorded` (the options of this invocation) continue the same games: all equal
    /// but the number of games and of workers.
    fn continues(&self, recorded: &serde_json::Value) -> bool {
        let mut previous = self.options.clone();
        if let (Some(p), Some(r)) = (previous.get_mut("options"), recorded.get("options")) {
            for key in ["games", "workers"] {
                if let (Some(slot), Some(v)) = (p.get_mut(key), r.get(key)) {
                    *slot = v.clone();
                }
            }
        }
        previous == *recorded
    }
}

/// Plays `options.games` games of alpha-beta with `eval` against itself from `variants` in
/// turn (game `i` from variant `i % variants.len()`) on the lab's worker pool and writes their
/// positions to the run's table, in game order whatever the number of workers (a function of
/// the options and the evaluation alone). `eval` is the game's hand-written evaluation
/// (`K::evaluation`) or a learned one over it. A resumed run plays only the games after those
/// it holds. `progress` is called on the calling thread after each game with the number
/// written in all. Raising `stop` starts no more games and abandons those in progress; the
/// games before the first one unfinished are written.
///
/// # Errors
/// [`Error::NoVariant`] or as [`DataOptions::check`] on bad options, [`Error::OtherOptions`]
/// when a resumed run's positions were played with other options, [`Error::Table`] when the
/// table cannot be written.
pub fn generate<K: GameKit, H>(
    eval: &H,
    variants: &[K::Variant],
    options: &DataOptions,
    run: &DataRun,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(usize),
) -> Result<DataSummary, Error>
where
    H: pjlab_core::Heuristic<K::Game> + Clone + Send + Sync,
{
    if variants.is_empty() {
        return Err(Error::NoVariant);
    }
    options.check()?;
    let cpu_start = pjlab_run::cpu_seconds();
    // The table's games' CPU so far: the earlier invocations' (where known) and this one's.
    let cpu_now = || Some(run.cpu_before()? + (pjlab_run::cpu_seconds()? - cpu_start?));
    let mut footer = run.footer.clone();
    let names: Vec<String> = variants.iter().map(ToString::to_string).collect();
    let recorded =
        serde_json::json!({ "game": K::INFO.name, "variants": names, "options": options });
    let path = run.positions();
    if let Some(previous) = &run.previous
        && !previous.continues(&recorded)
    {
        return Err(Error::OtherOptions(path.display().to_string()));
    }
    footer.push((OPTIONS_KEY.to_string(), recorded.to_string()));

    let (mut rows, done) = match &run.previous {
        Some(p) => (p.rows.clone(), p.games.min(options.games)),
        None => (Vec::new(), 0),
    };
    rows.retain(|r| (r.game as usize) < done);
    let mut summary = DataSummary {
        games: done,
        positions: rows.len(),
        results: [0; 3],
    };
    let mut saved = Instant::now();
    let mut failure = None;
    let jobs: Vec<usize> = (done..options.games).collect();
    let pool = Pool {
        workers: options.workers,
        order: Order::Scheduled,
        stop,
    };
    pool.run(
        &jobs,
        |_| pjlab_alphabeta::Engine::new(eval.clone(), pjlab_alphabeta::Options::default()),
        |engine, &index| {
            let variant = variants[index % variants.len()];
            Ok::<_, Error>(play::play::<K, H>(engine, variant, options, index, stop))
        },
        &mut |game: play::Played| {
            // After a stop, games past the first unfinished one are dropped: the table keeps
            // a prefix of the run's games.
            if game.index != summary.games {
                return;
            }
            summary.games += 1;
            summary.positions += game.rows.len();
            summary.results[(1 - game.winner) as usize] += 1;
            rows.extend(game.rows);
            progress(summary.games);
            if failure.is_none() && saved.elapsed() >= SAVE_INTERVAL {
                failure = write(&path, &rows, &footer, summary.games, cpu_now()).err();
                saved = Instant::now();
            }
        },
    )?;
    if let Some(e) = failure {
        return Err(e);
    }
    write(&path, &rows, &footer, summary.games, cpu_now())?;
    Ok(summary)
}

/// Writes `rows` (of the first `games` games) to the table at `path` atomically, `footer` in
/// its footer with the games count and, where known, the CPU seconds they cost.
fn write(
    path: &Path,
    rows: &[Row],
    footer: &[(String, String)],
    games: usize,
    cpu_seconds: Option<f64>,
) -> Result<(), Error> {
    let mut table = TableBuilder::new(&POSITIONS);
    for row in rows {
        table
            .row([
                row.position.as_str().into(),
                row.score.into(),
                row.result.into(),
                row.game.into(),
                row.ply.into(),
                row.variant.as_str().into(),
            ])
            .map_err(|e| pjlab_run::table::Error {
                path: path.display().to_string(),
                message: e.to_string(),
            })?;
    }
    let mut footer = footer.to_vec();
    footer.push((GAMES_KEY.to_string(), games.to_string()));
    if let Some(cpu) = cpu_seconds {
        footer.push((CPU_KEY.to_string(), format!("{cpu:.2}")));
    }
    table.write(path, &footer)?;
    Ok(())
}
