//! `pjlab atlas`: first-player balance of a game's setup variants across strength levels and
//! opening protocols, from one atlas file (see `pjlab_arena::atlas`), every cell an ordinary
//! balance run (the ladder a tournament) in a directory of its own.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use anyhow::{Context, Result, bail};
use indicatif::{MultiProgress, ProgressDrawTarget};
use pjlab_arena::atlas::{Atlas, Cell, SPEC_FILE};
use pjlab_arena::{RunSpec, record, session};
use pjlab_core::GameKit;

use crate::Verbosity;
use crate::cmd::arena::{Launch, play_run};
use crate::cmd::game::{AgentFactory, GameName};

mod page;

/// Balance atlases: which setup variants are fair, at every strength level and under every
/// opening protocol of an atlas file (`configs/atlas-*.toml`).
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    /// Play an atlas: every cell in the file's order (cheapest level first, the ladder where
    /// the file puts it). Stop it at any time (Ctrl-C keeps every finished game) and run the
    /// same command again: finished cells are skipped, an interrupted one resumes.
    Run(RunArgs),
    /// List an atlas's cells with the games each has played and has left.
    Status(StatusArgs),
    /// Write the atlas's report from its cells' games (also written at the end of each `run`):
    /// report.md (the answer in words, every cell's figures, the protocols and variants
    /// compared), atlas.csv, charts per protocol (plots/*.svg: the score against the levels'
    /// Elo, and once the ladder has games with the levels evenly spaced), and index.html with
    /// the same charts and example games of the strongest level finished as boards.
    Report(ReportArgs),
    /// Join the shards of an atlas played apart (`run --shard K/N`) into one atlas directory,
    /// cell by cell, and write its report.
    Merge(MergeArgs),
}

/// Options of `pjlab atlas report`.
#[derive(clap::Args, Debug)]
struct ReportArgs {
    /// The atlas's directory.
    dir: PathBuf,
    /// Example games drawn as boards (games/*.html) for each variant of the strongest level
    /// finished under the main protocol (0: none).
    #[arg(long, default_value_t = 1)]
    examples: usize,
    /// Where to write the report, the charts and the page (default: the atlas's directory);
    /// the cells are read from DIR.
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Options of `pjlab atlas run`.
#[derive(clap::Args, Debug)]
struct RunArgs {
    /// The atlas file; copied into --out as atlas.toml before any game is played. Not needed
    /// when --out already holds an atlas (given anyway, it must say the same).
    #[arg(long)]
    spec: Option<PathBuf>,
    /// The atlas's directory: atlas.toml, then one directory a cell (LEVEL/PROTOCOL, ladder).
    #[arg(long)]
    out: PathBuf,
    /// Worker threads, each playing one game at a time on one core (default: all cores).
    #[arg(long)]
    workers: Option<usize>,
    /// Play only the cells of these levels (comma-separated; the ladder is `ladder`).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Play only the K-th of N disjoint parts of every cell (`--shard 2/4`), into an --out of
    /// this shard's own; `pjlab atlas merge` joins the N shards' directories into the atlas
    /// (`scripts/ray/lab.py atlas` does both on a Ray cluster).
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
}

/// Options of `pjlab atlas merge`.
#[derive(clap::Args, Debug)]
struct MergeArgs {
    /// The shards' directories (`pjlab atlas run --shard K/N --out DIR`), every one of the N.
    #[arg(required = true)]
    shards: Vec<PathBuf>,
    /// The atlas's directory: each cell whose shards have all finished is merged into it (a
    /// cell merged before is left as it is), then the report is written.
    #[arg(long)]
    out: PathBuf,
}

/// Options of `pjlab atlas status`.
#[derive(clap::Args, Debug)]
struct StatusArgs {
    /// The atlas's directory.
    dir: PathBuf,
}

/// Runs `pjlab atlas`.
pub fn run(args: Args, verbosity: Verbosity) -> Result<()> {
    match args.command {
        Command::Run(args) => run_atlas(args, verbosity),
        Command::Status(args) => status(&args.dir),
        Command::Report(args) => {
            let (atlas, _) = open_atlas(None, &args.dir)?;
            match &args.out {
                Some(out) => report_into(&atlas, &args.dir, out, args.examples),
                None => report(&atlas, &args.dir, args.examples),
            }
        }
        Command::Merge(args) => merge(&args),
    }
}

/// The atlas in `out`, or the one in `spec` when `out` holds none yet; the second value is the
/// text to write into `out` once the atlas is checked (none when `out` holds it already).
fn open_atlas(spec: Option<&Path>, out: &Path) -> Result<(Atlas, Option<String>)> {
    let stored = out.join(SPEC_FILE);
    let given = spec
        .map(|path| {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let atlas = Atlas::parse(&text).with_context(|| path.display().to_string())?;
            Ok::<_, anyhow::Error>((text, atlas))
        })
        .transpose()?;
    if stored.exists() {
        let text = std::fs::read_to_string(&stored)
            .with_context(|| format!("cannot read {}", stored.display()))?;
        let atlas = Atlas::parse(&text).with_context(|| stored.display().to_string())?;
        if let Some((_, other)) = given
            && other != atlas
        {
            bail!(
                "{} holds another atlas than {}: give a new --out, or leave out --spec to go on \
                 with the one there",
                out.display(),
                spec.map_or(String::new(), |p| p.display().to_string())
            );
        }
        return Ok((atlas, None));
    }
    match given {
        Some((text, atlas)) => Ok((atlas, Some(text))),
        None => bail!(
            "{} holds no atlas ({SPEC_FILE}): start it with --spec FILE",
            out.display()
        ),
    }
}

fn run_atlas(args: RunArgs, verbosity: Verbosity) -> Result<()> {
    let (atlas, new_text) = open_atlas(args.spec.as_deref(), &args.out)?;
    let game = GameName::parse(&atlas.game)?;
    crate::with_game!(game, |K, agents| play_atlas::<K>(
        &atlas,
        new_text.as_deref(),
        &args,
        agents,
        verbosity
    ))
}

/// A cell's games so far: none when it has not started.
fn cell_games<K: GameKit>(dir: &Path, cell: &Cell) -> Result<usize> {
    let parquet = session::games_file(dir);
    if !parquet.exists() {
        return Ok(0);
    }
    let (stored, played) = record::load::<K>(&parquet)?;
    if !same_run(&stored, &cell.spec) {
        bail!(
            "{} was started with other options than the atlas gives its cell (players, \
             variants, games, seed, openings or shard)",
            dir.display()
        );
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

fn play_atlas<K: GameKit>(
    atlas: &Atlas,
    new_text: Option<&str>,
    args: &RunArgs,
    agents: AgentFactory<K::Game>,
    verbosity: Verbosity,
) -> Result<()> {
    for name in &args.only {
        if name != "ladder" && !atlas.levels.iter().any(|l| &l.name == name) {
            let known: Vec<&str> = atlas.levels.iter().map(|l| l.name.as_str()).collect();
            bail!(
                "--only {name}: no such level (the atlas's are {}, and ladder)",
                known.join(", ")
            );
        }
    }
    let shard = args
        .shard
        .as_deref()
        .map(str::parse::<pjlab_arena::Shard>)
        .transpose()?;
    let cells: Vec<Cell> = atlas
        .cells()
        .into_iter()
        .map(|mut c| {
            c.spec.shard = shard;
            c
        })
        .filter(|c| {
            args.only.is_empty()
                || args
                    .only
                    .iter()
                    .any(|o| Some(o) == c.level.as_ref() || (o == "ladder" && c.level.is_none()))
        })
        .collect();
    // Every cell is checked before the first game: its schedule, its agents, its games so far.
    let mut counts = Vec::with_capacity(cells.len());
    for cell in &cells {
        let dir = args.out.join(&cell.dir);
        let scheduled = cell
            .spec
            .shard_schedule::<K>()
            .with_context(|| cell.dir.display().to_string())?
            .len();
        for player in &cell.spec.players {
            agents(&player.spec, 0).with_context(|| format!("level {}", player.label))?;
        }
        counts.push((scheduled, cell_games::<K>(&dir, cell)?));
    }
    // The spec is in the atlas's directory before its first game; one process an atlas.
    let out = &args.out;
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let _lock = pjlab_run::dir::RunLock::acquire(out, "pjlab atlas run")?;
    if let Some(text) = new_text {
        let path = out.join(SPEC_FILE);
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    let total: usize = counts.iter().map(|c| c.0).sum();
    let done: usize = counts.iter().map(|c| c.1.min(c.0)).sum();
    let multi = MultiProgress::new();
    let quiet = verbosity == Verbosity::Quiet;
    if quiet {
        multi.set_draw_target(ProgressDrawTarget::hidden());
    }
    let outer = multi.add(crate::bars::counter(
        "atlas",
        "games",
        total as u64,
        done as u64,
        quiet,
    ));
    let finished = counts.iter().filter(|c| c.1 >= c.0).count();
    outer.set_message(format!("{finished}/{} cells done", cells.len()));
    let mut finished = finished;
    for (cell, &(scheduled, played)) in cells.iter().zip(&counts) {
        if played >= scheduled {
            // A cell killed after its last game was saved but before its report was whole
            // (report.md is written last): its report is written again from its records.
            let dir = args.out.join(&cell.dir);
            if !dir.join("report.md").exists() {
                let (spec, games) = record::load::<K>(&session::games_file(&dir))?;
                pjlab_arena::report::write::<K>(&dir, &spec, &games, scheduled)?;
            }
            continue;
        }
        if crate::cmd::STOP.load(Ordering::SeqCst) {
            break;
        }
        let dir = args.out.join(&cell.dir);
        let mut spec = cell.spec.clone();
        spec.command = crate::cmd::command_line();
        let _ = multi.println(format!("cell {}: {scheduled} games", cell.dir.display()));
        // A cell stopped before its first game holds an empty games file of its own run (its
        // options were checked above): it goes on like any other started cell.
        let started = session::games_file(&dir).exists();
        let launch = Launch {
            out: &dir,
            resume: started,
            shard,
            workers: args.workers,
            verbosity,
            outer: Some((&multi, &outer)),
        };
        let (now, of) = play_run::<K>(spec, &launch, agents)?;
        if now >= of {
            finished += 1;
            outer.set_message(format!("{finished}/{} cells done", cells.len()));
        }
    }
    outer.finish_and_clear();
    if shard.is_none() {
        report(atlas, &args.out, 1)?;
    }
    if finished < cells.len() {
        println!(
            "{finished} of {} cells finished; run `pjlab atlas run --out {}` again to go on",
            cells.len(),
            args.out.display()
        );
    } else {
        println!(
            "all {} cells finished in {}",
            cells.len(),
            args.out.display()
        );
    }
    Ok(())
}

/// `pjlab atlas status DIR`: every cell with its games played and scheduled.
fn status(dir: &Path) -> Result<()> {
    let (atlas, _) = open_atlas(None, dir)?;
    let game = GameName::parse(&atlas.game)?;
    crate::with_game!(game, |K| {
        println!("| cell | agent | games played | scheduled |");
        println!("|---|---|---|---|");
        for cell in atlas.cells() {
            let scheduled = cell.spec.shard_schedule::<K>()?.len();
            let played = cell_games::<K>(&dir.join(&cell.dir), &cell)?;
            let agent: Vec<&str> = cell.spec.players.iter().map(|p| p.label.as_str()).collect();
            println!(
                "| {} | {} | {played} | {scheduled} |",
                cell.dir.display(),
                agent.join(", ")
            );
        }
        Ok(())
    })
}

/// Writes the atlas's report, its page and example games into its directory; prints where.
fn report(atlas: &Atlas, dir: &Path, examples: usize) -> Result<()> {
    report_into(atlas, dir, dir, examples)
}

/// Writes the report of the atlas whose cells are in `dir` into `out`.
fn report_into(atlas: &Atlas, dir: &Path, out: &Path, examples: usize) -> Result<()> {
    let game = GameName::parse(&atlas.game)?;
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let (markdown, results) = crate::with_game!(game, |K| {
        let results = pjlab_arena::atlas::report::collect::<K>(dir, atlas)?;
        let markdown = pjlab_arena::atlas::report::write_results::<K>(out, atlas, &results)?;
        Ok::<_, anyhow::Error>((markdown, results))
    })?;
    let games = example_games(atlas, &results, dir, out, examples)?;
    let html = page::html(atlas, &markdown, &games, dir);
    let path = out.join("index.html");
    std::fs::write(&path, html).with_context(|| format!("cannot write {}", path.display()))?;
    println!("report in {}", out.join("report.md").display());
    println!("page in {}", path.display());
    Ok(())
}

/// Draws `per_variant` games of each variant of the strongest level finished under the main
/// protocol as pages under `games/`; returns (variant, cell, index, page) of each.
fn example_games(
    atlas: &Atlas,
    results: &pjlab_arena::atlas::report::Results,
    dir: &Path,
    into: &Path,
    per_variant: usize,
) -> Result<Vec<page::Example>> {
    let mut examples = Vec::new();
    let Some(level) = results.top_complete(atlas, 0) else {
        return Ok(examples);
    };
    if per_variant == 0 {
        return Ok(examples);
    }
    let out = into.join("games");
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    for cell in atlas.cells() {
        if cell.level.as_deref() != Some(atlas.levels[level].name.as_str())
            || cell.protocol.as_deref() != Some(atlas.protocols[0].name.as_str())
        {
            continue;
        }
        let cell_dir = dir.join(&cell.dir);
        let rows = pjlab_selfplay::read_games(&session::games_file(&cell_dir))
            .with_context(|| format!("cannot read {}", cell_dir.display()))?;
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
                crate::cmd::show::write_run_game(&cell_dir, index, &out.join(&name))?;
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

/// `pjlab atlas merge`: every cell whose shards have all finished, merged into `--out`.
fn merge(args: &MergeArgs) -> Result<()> {
    let (atlas, _) = open_atlas(None, &args.shards[0])?;
    for dir in &args.shards[1..] {
        let (other, _) = open_atlas(None, dir)?;
        if other != atlas {
            bail!(
                "{} and {} hold different atlases",
                args.shards[0].display(),
                dir.display()
            );
        }
    }
    let (_, new_text) = open_atlas(Some(&args.shards[0].join(SPEC_FILE)), &args.out)?;
    if let Some(text) = new_text {
        std::fs::create_dir_all(&args.out)
            .with_context(|| format!("cannot create {}", args.out.display()))?;
        std::fs::write(args.out.join(SPEC_FILE), text)
            .with_context(|| format!("cannot write into {}", args.out.display()))?;
    }
    let game = GameName::parse(&atlas.game)?;
    let (mut merged, mut waiting) = (0, 0);
    crate::with_game!(game, |K| {
        for cell in atlas.cells() {
            let out = args.out.join(&cell.dir);
            if session::games_file(&out).exists() {
                continue;
            }
            let dirs: Vec<PathBuf> = args.shards.iter().map(|d| d.join(&cell.dir)).collect();
            let mut complete = true;
            for dir in &dirs {
                let file = session::games_file(dir);
                if !file.exists() {
                    complete = false;
                    break;
                }
                let (spec, played) = record::load::<K>(&file)?;
                complete &= played.len() >= spec.shard_schedule::<K>()?.len();
            }
            if complete {
                crate::cmd::report::merge_shards::<K>(&dirs, &out)?;
                merged += 1;
            } else {
                waiting += 1;
            }
        }
        Ok::<_, anyhow::Error>(())
    })?;
    println!("{merged} cells merged, {waiting} with shards still playing");
    report(&atlas, &args.out, 1)
}
