//! `pjlab train`: the main job (self-play, training, evaluation against the baseline).

use std::path::PathBuf;

use anyhow::{Context, Result};
use pjlab_train::{RunConfig, RunOptions, train};

use crate::Verbosity;

/// The configuration `pjlab train` runs when given none: `configs/quick.toml`, built in.
const QUICK: &str = include_str!("../../../../configs/quick.toml");

/// Train a policy/value network by self-play: each iteration plays games with the current
/// network (MCTS, both cores), trains on a replay window of recent positions, evaluates now and
/// then (Pijersi: against alpha-beta in colour-paired games; Chomp: against the exact solver),
/// and writes a checkpoint.
///
/// Everything goes into the run directory: the config, games and positions as Parquet,
/// checkpoints, metrics.jsonl and SVG plots. Running again with the same directory resumes from
/// its last checkpoint (only `iterations` may differ, to extend a run).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// TOML configuration (see configs/README.md); the built-in configs/quick.toml by default.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Run directory; runs/<config name> by default.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Override the configuration's number of iterations.
    #[arg(long)]
    iterations: Option<u32>,
    /// Stop after this many iterations of this invocation (resume later with the same --out).
    #[arg(long)]
    stop_after: Option<u32>,
    /// Checkpoints to keep (the newest).
    #[arg(long, default_value_t = 3)]
    keep_checkpoints: usize,
}

/// Runs the command.
pub fn run(args: Args, verbosity: Verbosity) -> Result<()> {
    let (mut config, name) = match &args.config {
        Some(path) => (
            RunConfig::from_file(path)?,
            path.file_stem()
                .map_or("run".into(), |s| s.to_string_lossy().into_owned()),
        ),
        None => (
            RunConfig::from_toml(QUICK).context("built-in configs/quick.toml")?,
            "quick".to_string(),
        ),
    };
    if let Some(n) = args.iterations {
        config.iterations = n;
    }
    let out = args
        .out
        .unwrap_or_else(|| PathBuf::from("runs").join(&name));
    let mut options = RunOptions::new(&out);
    options.progress = verbosity != Verbosity::Quiet;
    options.stop_after = args.stop_after;
    options.keep_checkpoints = args.keep_checkpoints;
    let summary = train(&config, &options)?;
    println!("run directory: {}", out.display());
    println!("iterations: {}/{}", summary.iterations, config.iterations);
    if let Some(s) = &summary.strength {
        println!(
            "{}: {:.3} (95% interval {:.3}..{:.3}, {} {}; W/D/L {}/{}/{})",
            s.metric,
            s.score,
            s.low,
            s.high,
            s.count,
            if s.metric.starts_with("score") {
                "games"
            } else {
                "positions"
            },
            s.wins,
            s.draws,
            s.losses
        );
    }
    Ok(())
}
