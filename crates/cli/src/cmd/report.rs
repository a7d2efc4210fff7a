//! `pjlab report`: a run's report written again from its games file alone.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use pjlab_arena::{record, report, session};
use pjlab_core::GameKit;

use crate::cmd::game::GameName;

/// Write a run's report again from its records alone, exactly as the run writes it: for a
/// match, tournament or balance run, from its games.parquet (report.md, games.csv, summary.csv,
/// games.txt and plots/); for a training run, from its metrics.jsonl (training.md); for a
/// Chifoumi run, from its matches or arenas (report.md, scores.svg). Every figure of a report is
/// a function of these files; this is how a committed report is checked.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The run's directory (holding games.parquet, a training run's metrics.jsonl, or a
    /// Chifoumi run's matches.parquet or arenas.parquet).
    dir: PathBuf,
    /// Where to write the report (default: the run's directory).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let out = args.out.clone().unwrap_or_else(|| args.dir.clone());
    if pjlab_chifoumi_eval::record::Records::exist(&args.dir) {
        let records = pjlab_chifoumi_eval::record::Records::read(&args.dir)?;
        std::fs::create_dir_all(&out)
            .with_context(|| format!("cannot create {}", out.display()))?;
        pjlab_chifoumi_eval::report::write_report(&out, &records)?;
        println!("{}", out.join("report.md").display());
        return Ok(());
    }
    let chifoumi_config = std::fs::read_to_string(args.dir.join("config.toml"))
        .ok()
        .and_then(|text| pjlab_chifoumi_learn::LearnConfig::parse(&text).ok());
    if chifoumi_config.is_some() && args.dir.join("metrics.jsonl").exists() {
        let logs = pjlab_chifoumi_learn::read_metrics(&args.dir)?;
        std::fs::create_dir_all(&out)
            .with_context(|| format!("cannot create {}", out.display()))?;
        let path = out.join("training.md");
        std::fs::write(&path, pjlab_chifoumi_learn::report::training_report(&logs))
            .with_context(|| format!("cannot write {}", path.display()))?;
        println!("{}", path.display());
        return Ok(());
    }
    let parquet = session::games_file(&args.dir);
    let metrics = args.dir.join("metrics.jsonl");
    if !parquet.exists() && metrics.exists() {
        let rows = pjlab_train::summary::read_metrics(&metrics)?;
        let out = args.out.clone().unwrap_or_else(|| args.dir.clone());
        std::fs::create_dir_all(&out)
            .with_context(|| format!("cannot create {}", out.display()))?;
        let path = out.join("training.md");
        std::fs::write(&path, pjlab_train::summary::training_report(&rows))
            .with_context(|| format!("cannot write {}", path.display()))?;
        println!("{}", path.display());
        return Ok(());
    }
    let spec = record::load_spec(&parquet)
        .with_context(|| format!("no run's games in {}", args.dir.display()))?;
    let game = GameName::parse(&spec.game)?;
    let out = args.out.clone().unwrap_or_else(|| args.dir.clone());
    crate::with_game!(game, |K| write::<K>(&parquet, &out))?;
    println!("{}", out.join("report.md").display());
    Ok(())
}

fn write<K: GameKit>(parquet: &Path, out: &Path) -> Result<()> {
    let (spec, games) = record::load::<K>(parquet)?;
    let scheduled = spec.schedule::<K>()?.len();
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    report::write::<K>(out, &spec, &games, scheduled)?;
    Ok(())
}
