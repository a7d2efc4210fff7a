//! `pjlab report`: a run's report written again from its games file alone.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use pjlab_arena::shard::{self, ShardRun};
use pjlab_arena::{record, report, session};
use pjlab_core::GameKit;
use pjlab_run::dir::{MANIFEST_FILE, METRICS_FILE, Manifest, RunDir, RunKind};

use crate::cmd::game::GameName;

/// Write a run's report again from its records alone, exactly as the run writes it: for a
/// match, tournament or balance run, from its games.parquet (report.md, games.csv, summary.csv,
/// games.txt and plots/); for a training run, from its metrics.jsonl (training.md and plots/); for a
/// Chifoumi run, from its matches or arenas (report.md, scores.svg). Every figure of a report is
/// a function of these files; this is how a committed report is checked. With --merge, join the
/// shards of a match, tournament or balance run into the whole run first; with --pool, report a
/// match's replicates (the same match played with other seeds) as one run. For a Chifoumi
/// exploitability run (`pjlab chifoumi exploit`), report.md from its stages' records and metrics.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The run's directory (holding games.parquet, a training run's metrics.jsonl, or a
    /// Chifoumi run's matches.parquet or arenas.parquet).
    #[arg(required_unless_present_any = ["merge", "pool"])]
    dir: Option<PathBuf>,
    /// Where to write the report (default: the run's directory; required with --merge and
    /// --pool).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Join the shards of one run (`pjlab match|tournament|balance ... --shard K/N`, one
    /// directory each, all N of them, finished) into --out: a games.parquet of the whole run,
    /// as if it had been played in one piece (its command is the first shard's less `--shard`;
    /// it names every shard's invocations), and its report, the same as the unsharded run's
    /// but for those invocations. Refused when the shards were run with different options
    /// (--shard, --out and --workers aside), when a shard is missing, given twice or unfinished,
    /// and when --out already holds games.
    #[arg(long, value_name = "DIR", num_args = 1.., conflicts_with = "dir", requires = "out")]
    merge: Vec<PathBuf>,
    /// Pool the replicates of one match (the same `pjlab match` options but --seed, one
    /// finished directory each, at least two) into --out: one games.parquet with every
    /// replicate's games one after another, and its report, in which a game played in more than
    /// one replicate counts once (deterministic players repeat games across seeds as within
    /// one). Its `seeds` row names the replicates' seeds, its `run by` row every invocation.
    /// Refused for replicates of different options, of one seed, unfinished or sharded, and
    /// when --out already holds games. `pjlab report OUT` writes the pool's report again.
    #[arg(
        long,
        value_name = "DIR",
        num_args = 2..,
        conflicts_with_all = ["dir", "merge"],
        requires = "out"
    )]
    pool: Vec<PathBuf>,
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    match (args.dir, args.out) {
        (Some(dir), out) => rewrite(&dir, out),
        (None, Some(out)) if !args.pool.is_empty() => join(&args.pool, &out, Join::Pool),
        (None, Some(out)) => join(&args.merge, &out, Join::Merge),
        (None, None) => bail!("--merge and --pool need --out"),
    }
}

/// What a run directory holds: its manifest (every run writes one; the committed runs all
/// carry theirs).
fn manifest(dir: &Path) -> Result<Manifest> {
    match RunDir::at(dir).manifest()? {
        Some(manifest) => Ok(manifest),
        None => bail!(
            "no run's games in {}: it has no {MANIFEST_FILE}",
            dir.display()
        ),
    }
}

/// The report of the run in `dir`, written into `out` (default: `dir`).
fn rewrite(dir: &Path, out: Option<PathBuf>) -> Result<()> {
    let out = out.unwrap_or_else(|| dir.to_path_buf());
    let manifest = manifest(dir)?;
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let written = match (manifest.kind, manifest.game.as_str()) {
        (RunKind::Training, "chifoumi") => {
            let logs = pjlab_chifoumi_learn::read_metrics(dir)?;
            let path = out.join("training.md");
            std::fs::write(&path, pjlab_chifoumi_learn::report::training_report(&logs))
                .with_context(|| format!("cannot write {}", path.display()))?;
            pjlab_chifoumi_learn::metrics::plot(&out, &logs)?;
            path
        }
        (RunKind::Exploit, "chifoumi") => {
            pjlab_chifoumi_learn::exploit::report::rewrite(dir, &out)?;
            out.join("report.md")
        }
        (_, "chifoumi") => {
            let records = pjlab_chifoumi_eval::record::Records::read(dir)?;
            pjlab_chifoumi_eval::report::write_report(&out, &records)?;
            out.join("report.md")
        }
        (RunKind::Training, _) => {
            let rows = pjlab_train::summary::read_metrics(&dir.join(METRICS_FILE))?;
            let path = out.join("training.md");
            std::fs::write(&path, pjlab_train::summary::training_report(&rows))
                .with_context(|| format!("cannot write {}", path.display()))?;
            pjlab_train::metrics::plot(&out, &rows)?;
            path
        }
        (RunKind::NnueGenerations, _) => pjlab_generations::report::rewrite(dir, &out)?,
        (RunKind::Atlas, _) => bail!(
            "{} holds an atlas, whose cells are runs of their own: write its report with \
             `pjlab atlas report {}`",
            dir.display(),
            dir.display()
        ),
        (kind @ RunKind::NnueData, _) => bail!(
            "{} holds a {} run, whose positions.parquet is training data: it has no report \
             (read it with `pjlab nnue train --data {}`)",
            dir.display(),
            kind.name(),
            dir.display()
        ),
        (_, game) => {
            let game = GameName::parse(game)?;
            let parquet = session::games_file(dir);
            crate::with_game!(game, |K| write::<K>(&parquet, &out))?;
            out.join("report.md")
        }
    };
    println!("{}", written.display());
    Ok(())
}

fn write<K: GameKit>(parquet: &Path, out: &Path) -> Result<()> {
    let (spec, games) = record::load::<K>(parquet)?;
    let scheduled = spec.shard_schedule::<K>()?.len();
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    report::write::<K>(out, &spec, &games, scheduled)?;
    Ok(())
}

/// How runs are joined into one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Join {
    /// The shards of one run (`--merge`).
    Merge,
    /// The replicates of one match (`--pool`).
    Pool,
}

/// `--merge` or `--pool`: the runs in `dirs` joined into `out` (games and report).
fn join(dirs: &[PathBuf], out: &Path, how: Join) -> Result<()> {
    let parquet = session::games_file(out);
    if parquet.exists() {
        bail!(
            "{} already holds games: choose another --out",
            parquet.display()
        );
    }
    let first = dirs
        .first()
        .context("--merge and --pool need the runs' directories")?;
    let spec = record::load_spec(&session::games_file(first))
        .with_context(|| format!("no run's games in {}", first.display()))?;
    let game = GameName::parse(&spec.game)?;
    crate::with_game!(game, |K| join_game::<K>(dirs, out, how))?;
    println!("{}", out.join("report.md").display());
    Ok(())
}

fn join_game<K: GameKit>(dirs: &[PathBuf], out: &Path, how: Join) -> Result<()> {
    let mut shards: Vec<ShardRun<K>> = Vec::with_capacity(dirs.len());
    for dir in dirs {
        let (spec, games) = record::load::<K>(&session::games_file(dir))
            .with_context(|| format!("cannot read the run in {}", dir.display()))?;
        shards.push(ShardRun {
            source: dir.display().to_string(),
            spec,
            games,
        });
    }
    let (spec, games) = match how {
        Join::Merge => shard::merge(shards)?,
        Join::Pool => {
            let (mut spec, games) = pjlab_arena::pool::pool(shards)?;
            spec.command = crate::cmd::command_line();
            (spec, games)
        }
    };
    pjlab_arena::merge::write_joined::<K>(out, &spec, &games)?;
    Ok(())
}
