//! An atlas's directory from start to report: opened from its file ([`open`]), its cells
//! played in order, each an ordinary run played to its end by `pjlab-arena` ([`run`]), their
//! games counted ([`status`]), the shards of an atlas played apart joined ([`merge`]), and the
//! report written with its page and example games ([`publish`]). The binary adds its flags,
//! progress bars and the drawing of a game as a board.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use pjlab_arena::drive::{AgentResult, Finished, Launch, Progress, play_run};
use pjlab_arena::merge::ShardRun;
use pjlab_arena::{RunSpec, Shard, record, session, shard};
use pjlab_core::{GameKit, Provenance};
use pjlab_run::dir::{OpenRun, Opener, RunKind};

use crate::results::Results;
use crate::{Atlas, Cell, Error, SPEC_FILE, io, page, report};

/// An atlas read from its directory, or from the file it is started from.
#[derive(Clone, Debug)]
pub struct Opened {
    /// The atlas.
    pub atlas: Atlas,
    /// The file's text, to write into the directory once the atlas is checked; none when the
    /// directory holds the atlas already.
    pub new_text: Option<String>,
}

/// The atlas in `dir`, or the one in `spec` when `dir` holds none yet (given anyway, `spec` must
/// hold the same atlas).
///
/// # Errors
/// [`Error::Io`] for a file that does not read, [`Error::Spec`] for one that is no atlas,
/// [`Error::OtherAtlas`] when `spec` and `dir` hold different atlases, [`Error::NoAtlas`] when
/// neither holds one.
pub fn open(spec: Option<&Path>, dir: &Path) -> Result<Opened, Error> {
    let read = |path: &Path| {
        let text = std::fs::read_to_string(path).map_err(io(path))?;
        let atlas = Atlas::parse(&text).map_err(|cause| Error::Spec {
            path: path.to_path_buf(),
            cause,
        })?;
        Ok::<_, Error>((text, atlas))
    };
    let given = spec.map(read).transpose()?;
    let stored = dir.join(SPEC_FILE);
    if stored.exists() {
        let (_, atlas) = read(&stored)?;
        if let Some((_, other)) = given
            && other != atlas
        {
            return Err(Error::OtherAtlas {
                dir: dir.to_path_buf(),
                spec: spec.map(Path::to_path_buf).unwrap_or_default(),
            });
        }
        return Ok(Opened {
            atlas,
            new_text: None,
        });
    }
    match given {
        Some((text, atlas)) => Ok(Opened {
            atlas,
            new_text: Some(text),
        }),
        None => Err(Error::NoAtlas(dir.to_path_buf())),
    }
}

/// A cell's games so far: none when it has not started.
fn cell_games<K: GameKit>(dir: &Path, cell: &Cell) -> Result<usize, Error> {
    let parquet = session::games_file(dir);
    if !parquet.exists() {
        return Ok(0);
    }
    let (stored, played) = record::load::<K>(&parquet)?;
    if !same_run(&stored, &cell.spec) {
        return Err(Error::CellOptions(dir.to_path_buf()));
    }
    Ok(played.len())
}

/// Whether two runs play the same games: equal but for their command lines and sessions.
fn same_run(a: &RunSpec, b: &RunSpec) -> bool {
    let games = |s: &RunSpec| RunSpec {
        command: String::new(),
        sessions: Vec::new(),
        ..s.clone()
    };
    games(a) == games(b)
}

/// How [`run`] plays an atlas.
pub struct RunOptions<'a> {
    /// Only the cells of these levels (`ladder` for the ladder); all when empty.
    pub only: &'a [String],
    /// Only this part of every cell (into a directory of the shard's own).
    pub shard: Option<Shard>,
    /// Worker threads, each playing one game at a time.
    pub workers: usize,
    /// A cell session's line in its records (called as each cell starts; its command is the
    /// cell's too).
    pub provenance: &'a dyn Fn() -> Provenance,
    /// Raised to stop (Ctrl-C): the games finished are kept, the next run goes on.
    pub stop: &'a AtomicBool,
}

/// What [`run`] tells its caller as it goes.
pub enum Event<'a, K: GameKit> {
    /// Every cell is checked, before the first game: games in all and played, cells in all and
    /// finished.
    Checked {
        /// Games of every cell to play.
        games: usize,
        /// Of which played.
        done: usize,
        /// Cells to play.
        cells: usize,
        /// Of which finished.
        finished: usize,
    },
    /// A cell starts or goes on, with its games in all.
    Cell {
        /// The cell.
        cell: &'a Cell,
        /// Its games scheduled.
        scheduled: usize,
    },
    /// The cell's run is open, or played a game.
    Run(Progress<'a, K>),
    /// The cell's session ended; `finished` cells are finished now.
    Ended {
        /// The cell.
        cell: &'a Cell,
        /// How it ended.
        run: &'a Finished<K>,
        /// Cells finished now.
        finished: usize,
    },
}

/// How a call of [`run`] ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ran {
    /// Cells played (those `only` names).
    pub cells: usize,
    /// Of which finished.
    pub finished: usize,
}

/// Plays the atlas in `dir` (`opened` by [`open`]) cell by cell in the atlas's order, skipping
/// finished cells and resuming an interrupted one, until all are finished or `stop` is raised.
/// Every cell is checked before the first game (its schedule, its agents, its games so far);
/// `dir` is then opened as a run of its own (`pjlab-run`'s [`Opener`]: locked for the whole run,
/// its `run.json` written, and the atlas file).
///
/// # Errors
/// [`Error::UnknownLevel`] for an `only` that names no level, [`Error::Cell`] for a cell whose
/// schedule cannot be made, [`Error::Agent`] for an agent that cannot be built,
/// [`Error::CellOptions`] for a cell started with other options, [`Error::Run`] when another
/// process plays the atlas or `dir` holds another run, and the errors of the cells' runs.
pub fn run<K: GameKit>(
    dir: &Path,
    opened: &Opened,
    options: &RunOptions<'_>,
    factory: impl Fn(&str, u64) -> AgentResult<K::Game> + Sync + Clone + 'static,
    events: &mut dyn FnMut(Event<'_, K>),
) -> Result<Ran, Error> {
    let atlas = &opened.atlas;
    let cells = cells_to_play(atlas, options.only, options.shard)?;
    // Every cell is checked before the first game: its schedule, its agents, its games so far.
    let mut counts = Vec::with_capacity(cells.len());
    for cell in &cells {
        let scheduled = cell
            .spec
            .shard_schedule::<K>()
            .map_err(|cause| Error::Cell {
                cell: cell.dir.clone(),
                cause,
            })?
            .len();
        for player in &cell.spec.players {
            factory(&player.spec, 0).map_err(|cause| Error::Agent {
                level: player.label.clone(),
                cause,
            })?;
        }
        counts.push((scheduled, cell_games::<K>(&dir.join(&cell.dir), cell)?));
    }
    // The spec is in the atlas's directory before its first game; one process an atlas.
    let _run = open_atlas(dir, opened, "pjlab atlas run")?;
    let mut finished = counts.iter().filter(|c| c.1 >= c.0).count();
    events(Event::Checked {
        games: counts.iter().map(|c| c.0).sum(),
        done: counts.iter().map(|c| c.1.min(c.0)).sum(),
        cells: cells.len(),
        finished,
    });
    for (cell, &(scheduled, played)) in cells.iter().zip(&counts) {
        let cell_dir = dir.join(&cell.dir);
        if played >= scheduled {
            // A cell killed after its last game was saved but before its report was whole
            // (report.md is written last): its report is written again from its records.
            if !cell_dir.join("report.md").exists() {
                let (spec, games) = record::load::<K>(&session::games_file(&cell_dir))?;
                pjlab_arena::report::write::<K>(&cell_dir, &spec, &games, scheduled)?;
            }
            continue;
        }
        if options.stop.load(Ordering::SeqCst) {
            break;
        }
        let provenance = (options.provenance)();
        let mut spec = cell.spec.clone();
        spec.command = provenance.command.clone();
        events(Event::Cell { cell, scheduled });
        // A cell stopped before its first game holds an empty games file of its own run (its
        // options were checked above): it goes on like any other started cell.
        let launch = Launch {
            out: &cell_dir,
            resume: session::games_file(&cell_dir).exists(),
            shard: options.shard,
            workers: options.workers,
            provenance: &provenance,
            holder: None,
            stop: options.stop,
        };
        let ended = play_run::<K>(spec, &launch, factory.clone(), &mut |p| {
            events(Event::Run(p))
        })?;
        if ended.games.len() >= ended.scheduled {
            finished += 1;
        }
        events(Event::Ended {
            cell,
            run: &ended,
            finished,
        });
    }
    Ok(Ran {
        cells: cells.len(),
        finished,
    })
}

/// The cells of `atlas` that `only` names (all when empty), each of `shard` if given.
fn cells_to_play(atlas: &Atlas, only: &[String], shard: Option<Shard>) -> Result<Vec<Cell>, Error> {
    for name in only {
        if name != "ladder" && !atlas.levels.iter().any(|l| &l.name == name) {
            let known: Vec<&str> = atlas.levels.iter().map(|l| l.name.as_str()).collect();
            return Err(Error::UnknownLevel {
                name: name.clone(),
                known: known.join(", "),
            });
        }
    }
    Ok(atlas
        .cells()
        .into_iter()
        .map(|mut c| {
            c.spec.shard = shard;
            c
        })
        .filter(|c| {
            only.is_empty()
                || only
                    .iter()
                    .any(|o| Some(o) == c.level.as_ref() || (o == "ladder" && c.level.is_none()))
        })
        .collect())
}

/// One cell's games, as [`status`] counts them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellStatus {
    /// The cell's directory, relative to the atlas's.
    pub dir: PathBuf,
    /// Its players' labels.
    pub players: Vec<String>,
    /// Games played.
    pub played: usize,
    /// Games scheduled.
    pub scheduled: usize,
}

/// Every cell of the atlas in `dir` with its games played and scheduled.
///
/// # Errors
/// [`Error::Arena`] for a schedule that cannot be made or records that do not read,
/// [`Error::CellOptions`] for a cell started with other options.
pub fn status<K: GameKit>(dir: &Path, atlas: &Atlas) -> Result<Vec<CellStatus>, Error> {
    atlas
        .cells()
        .into_iter()
        .map(|cell| {
            Ok(CellStatus {
                scheduled: cell.spec.shard_schedule::<K>()?.len(),
                played: cell_games::<K>(&dir.join(&cell.dir), &cell)?,
                players: cell.spec.players.iter().map(|p| p.label.clone()).collect(),
                dir: cell.dir,
            })
        })
        .collect()
}

/// How a call of [`merge`] ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// Cells merged now.
    pub merged: usize,
    /// Cells some of whose shards are still playing.
    pub waiting: usize,
}

/// Opens the atlas of the shards' directories `shards` (`run` with a shard each, every one of
/// the N) and of `out`, opening `out` as an atlas run (its `run.json`, and its file if it holds
/// none).
///
/// # Errors
/// As [`open`]; [`Error::DifferentShards`] when two shards hold different atlases,
/// [`Error::Run`] when another process holds `out` or it holds another run.
pub fn open_shards(shards: &[PathBuf], out: &Path) -> Result<Atlas, Error> {
    let Some(first) = shards.first() else {
        return Err(Error::NoAtlas(out.to_path_buf()));
    };
    let atlas = open(None, first)?.atlas;
    for dir in &shards[1..] {
        if open(None, dir)?.atlas != atlas {
            return Err(Error::DifferentShards(first.clone(), dir.clone()));
        }
    }
    open_atlas(
        out,
        &open(Some(&first.join(SPEC_FILE)), out)?,
        "pjlab atlas merge",
    )?;
    Ok(atlas)
}

/// The atlas's directory `dir` opened on `pjlab-run`'s [`Opener`] as a run of its own, for
/// `command`: locked, refused when it holds another kind of run or another game's, its
/// `run.json` written, and the atlas's file when it holds none yet (`opened` was checked against
/// the one it holds).
fn open_atlas(dir: &Path, opened: &Opened, command: &str) -> Result<OpenRun, Error> {
    let mut opening = Opener::new(RunKind::Atlas, &opened.atlas.game, command)
        .config_file(SPEC_FILE)
        .lock(dir)?;
    if let Some(text) = &opened.new_text {
        opening.snapshot(text.clone());
    }
    Ok(opening.commit()?)
}

/// Merges into `out` every cell of `atlas` (opened by [`open_shards`]) whose shards have all
/// finished; a cell merged before is left as it is.
///
/// # Errors
/// The errors of reading the shards' records, of merging them (shards of different runs) and
/// of writing the merged cell.
pub fn merge<K: GameKit>(atlas: &Atlas, shards: &[PathBuf], out: &Path) -> Result<Merged, Error> {
    let (mut merged, mut waiting) = (0, 0);
    for cell in atlas.cells() {
        let cell_out = out.join(&cell.dir);
        if session::games_file(&cell_out).exists() {
            continue;
        }
        let mut parts: Vec<ShardRun<K>> = Vec::with_capacity(shards.len());
        for dir in shards.iter().map(|d| d.join(&cell.dir)) {
            let file = session::games_file(&dir);
            if !file.exists() {
                break;
            }
            let (spec, games) = record::load::<K>(&file)?;
            if games.len() < spec.shard_schedule::<K>()?.len() {
                break;
            }
            parts.push(ShardRun {
                source: dir.display().to_string(),
                spec,
                games,
            });
        }
        if parts.len() < shards.len() {
            waiting += 1;
            continue;
        }
        let (spec, games) = shard::merge(parts)?;
        pjlab_arena::merge::write_joined::<K>(&cell_out, &spec, &games)?;
        merged += 1;
    }
    Ok(Merged { merged, waiting })
}

/// Draws game `index` of the run in `cell` as a page at `out` (the binary's `pjlab show`).
pub type DrawGame<'a> = dyn Fn(&Path, usize, &Path) -> Result<(), pjlab_core::BoxError> + 'a;

/// Where [`publish`] wrote.
#[derive(Clone, Debug)]
pub struct Published {
    /// `report.md`.
    pub report: PathBuf,
    /// `index.html`.
    pub page: PathBuf,
}

/// Writes the report of the atlas whose cells are in `dir` into `out` (`report.md`,
/// `atlas.csv`, the charts), its page (`index.html`), and `examples` games of each variant of the
/// strongest level finished under the main protocol drawn by `draw` under `games/`.
///
/// # Errors
/// As [`report::write`]; [`Error::Board`] when an example cannot be drawn.
pub fn publish<K: GameKit>(
    atlas: &Atlas,
    dir: &Path,
    out: &Path,
    examples: usize,
    draw: &DrawGame<'_>,
) -> Result<Published, Error> {
    std::fs::create_dir_all(out).map_err(io(out))?;
    let results = crate::results::collect::<K>(dir, atlas)?;
    let markdown = report::write_results::<K>(out, atlas, &results)?;
    let games = example_games(atlas, &results, dir, out, examples, draw)?;
    let html = page::html(atlas, &markdown, &games, dir);
    let path = out.join("index.html");
    std::fs::write(&path, html).map_err(io(&path))?;
    Ok(Published {
        report: out.join("report.md"),
        page: path,
    })
}

/// Draws `per_variant` games of each variant of the strongest level finished under the main
/// protocol as pages under `into/games/`.
fn example_games(
    atlas: &Atlas,
    results: &Results,
    dir: &Path,
    into: &Path,
    per_variant: usize,
    draw: &DrawGame<'_>,
) -> Result<Vec<page::Example>, Error> {
    let mut examples = Vec::new();
    let Some(level) = results.top_complete(atlas, 0) else {
        return Ok(examples);
    };
    if per_variant == 0 {
        return Ok(examples);
    }
    let out = into.join("games");
    std::fs::create_dir_all(&out).map_err(io(&out))?;
    for cell in atlas.cells() {
        if cell.level.as_deref() != Some(atlas.levels[level].name.as_str())
            || cell.protocol.as_deref() != Some(atlas.protocols[0].name.as_str())
        {
            continue;
        }
        let cell_dir = dir.join(&cell.dir);
        let rows =
            pjlab_selfplay::read_games(&session::games_file(&cell_dir)).map_err(|cause| {
                Error::Games {
                    cell: cell_dir.clone(),
                    cause,
                }
            })?;
        for variant in &cell.spec.variants {
            let picked = rows
                .iter()
                .enumerate()
                .filter(|(_, r)| &r.variant == variant)
                .take(per_variant);
            for (index, _) in picked {
                let name = format!(
                    "{}-{}-{variant}-{index}.html",
                    atlas.levels[level].name, atlas.protocols[0].name
                );
                draw(&cell_dir, index, &out.join(&name)).map_err(|cause| Error::Board {
                    cell: cell_dir.clone(),
                    index,
                    cause,
                })?;
                examples.push(page::Example {
                    variant: variant.clone(),
                    cell: cell.dir.clone(),
                    index,
                    page: format!("games/{name}"),
                });
            }
        }
    }
    Ok(examples)
}
