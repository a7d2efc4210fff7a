//! `pjlab atlas`: first-player balance of a game's setup variants across strength levels and
//! opening protocols, from one atlas file (`pjlab-atlas` opens, plays, counts, merges and
//! reports it), every cell an ordinary balance run (the ladder a tournament) in a directory of
//! its own.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Result;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget};
use pjlab_atlas::{Atlas, Event, RunOptions};
use pjlab_core::GameKit;

use crate::Verbosity;
use crate::cmd::arena::{factory, print_ended, run_bar};
use crate::cmd::game::{AgentFactory, GameName};

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
            let atlas = pjlab_atlas::open(None, &args.dir)?.atlas;
            let out = args.out.as_deref().unwrap_or(&args.dir);
            report(&atlas, &args.dir, out, args.examples)
        }
        Command::Merge(args) => merge(&args),
    }
}

fn run_atlas(args: RunArgs, verbosity: Verbosity) -> Result<()> {
    let opened = pjlab_atlas::open(args.spec.as_deref(), &args.out)?;
    let game = GameName::parse(&opened.atlas.game)?;
    crate::with_game!(game, |K, agents| play_atlas::<K>(
        &opened, &args, agents, verbosity
    ))
}

fn play_atlas<K: GameKit>(
    opened: &pjlab_atlas::Opened,
    args: &RunArgs,
    agents: AgentFactory<K::Game>,
    verbosity: Verbosity,
) -> Result<()> {
    let shard = args
        .shard
        .as_deref()
        .map(str::parse::<pjlab_arena::Shard>)
        .transpose()?;
    crate::cmd::install_stop_signal("finished games are kept");
    let workers = pjlab_run::pool::workers(args.workers);
    let options = RunOptions {
        only: &args.only,
        shard,
        workers,
        provenance: &crate::cmd::provenance,
        stop: &crate::cmd::STOP,
    };
    let multi = MultiProgress::new();
    let quiet = verbosity == Verbosity::Quiet;
    if quiet {
        multi.set_draw_target(ProgressDrawTarget::hidden());
    }
    let mut outer: Option<ProgressBar> = None;
    let mut bar: Option<ProgressBar> = None;
    let mut started = Instant::now();
    let mut total_cells = 0;
    let ran =
        pjlab_atlas::run::<K>(
            &args.out,
            opened,
            &options,
            factory(agents),
            &mut |event| match event {
                Event::Checked {
                    games,
                    done,
                    cells,
                    finished,
                } => {
                    let new = multi.add(crate::bars::counter(
                        "atlas",
                        "games",
                        games as u64,
                        done as u64,
                        quiet,
                    ));
                    new.set_message(format!("{finished}/{cells} cells done"));
                    outer = Some(new);
                    total_cells = cells;
                }
                Event::Cell { cell, scheduled } => {
                    let _ =
                        multi.println(format!("cell {}: {scheduled} games", cell.dir.display()));
                    started = Instant::now();
                }
                Event::Run(p) => {
                    let outer = outer.as_ref().map(|o| (&multi, o));
                    run_bar(&mut bar, outer, &p, quiet);
                }
                Event::Ended {
                    cell,
                    run,
                    finished,
                } => {
                    if let Some(bar) = bar.take() {
                        bar.finish_and_clear();
                    }
                    print_ended(run, &args.out.join(&cell.dir), workers, started, verbosity);
                    if let Some(o) = &outer {
                        o.set_message(format!("{finished}/{total_cells} cells done"));
                    }
                }
            },
        );
    if let Some(bar) = bar.take() {
        bar.finish_and_clear();
    }
    if let Some(outer) = outer {
        outer.finish_and_clear();
    }
    let ran = ran?;
    if shard.is_none() {
        report(&opened.atlas, &args.out, &args.out, 1)?;
    }
    if ran.finished < ran.cells {
        println!(
            "{} of {} cells finished; run `pjlab atlas run --out {}` again to go on",
            ran.finished,
            ran.cells,
            args.out.display()
        );
    } else {
        println!("all {} cells finished in {}", ran.cells, args.out.display());
    }
    Ok(())
}

/// `pjlab atlas status DIR`: every cell with its games played and scheduled.
fn status(dir: &Path) -> Result<()> {
    let atlas = pjlab_atlas::open(None, dir)?.atlas;
    let game = GameName::parse(&atlas.game)?;
    let cells = crate::with_game!(game, |K| pjlab_atlas::status::<K>(dir, &atlas))?;
    println!("| cell | agent | games played | scheduled |");
    println!("|---|---|---|---|");
    for c in cells {
        println!(
            "| {} | {} | {} | {} |",
            c.dir.display(),
            c.players.join(", "),
            c.played,
            c.scheduled
        );
    }
    Ok(())
}

/// Writes the report of the atlas whose cells are in `dir` into `out`, its page and example
/// games drawn as `pjlab show` draws them; prints where.
fn report(atlas: &Atlas, dir: &Path, out: &Path, examples: usize) -> Result<()> {
    let game = GameName::parse(&atlas.game)?;
    let draw = |cell: &Path, index: usize, page: &Path| {
        crate::cmd::show::write_run_game(cell, index, page)
            .map_err(|e| pjlab_core::BoxError::from(format!("{e:#}")))
    };
    let published = crate::with_game!(game, |K| pjlab_atlas::publish::<K>(
        atlas, dir, out, examples, &draw
    ))?;
    println!("report in {}", published.report.display());
    println!("page in {}", published.page.display());
    Ok(())
}

/// `pjlab atlas merge`: every cell whose shards have all finished, merged into `--out`.
fn merge(args: &MergeArgs) -> Result<()> {
    let atlas = pjlab_atlas::open_shards(&args.shards, &args.out)?;
    let game = GameName::parse(&atlas.game)?;
    let merged = crate::with_game!(game, |K| pjlab_atlas::merge::<K>(
        &atlas,
        &args.shards,
        &args.out
    ))?;
    println!(
        "{} cells merged, {} with shards still playing",
        merged.merged, merged.waiting
    );
    report(&atlas, &args.out, &args.out, 1)
}
