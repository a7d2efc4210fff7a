//! `pjlab train`: the main job (self-play, training, evaluation against the baseline).

use std::path::PathBuf;

use anyhow::{Context, Result};
use pjlab_core::GameKit;
use pjlab_train::{RunConfig, RunOptions, train};

use crate::Verbosity;
use crate::cmd::game::GameName;

/// The configuration `pjlab train` runs when given none: `configs/quick.toml`, built in.
const QUICK: &str = include_str!("../../../../configs/quick.toml");

/// Train a policy/value network by self-play, for the game the config names (`game = "pijersi"`,
/// `"abalone"` or `"chomp"`): each iteration plays games with the current network (MCTS, both
/// cores), trains on a replay window of recent positions, evaluates now and then (against
/// alpha-beta in colour-paired games; Chomp: against the exact solver), and writes a checkpoint.
///
/// Everything goes into the run directory: the config, games and positions as Parquet,
/// checkpoints, metrics.jsonl and SVG plots. Running again with the same directory resumes from
/// its last checkpoint (only `iterations` may differ, to extend a run).
///
/// With `--learner`, this process only trains: self-play comes from actors (`pjlab selfplay
/// --run DIR --actor K`, any number, on any machine that mounts DIR) as Parquet chunks under
/// DIR/games; each iteration waits for an iteration's worth of new games, trains on them at the
/// configured ratio and writes a checkpoint the actors pick up. `scripts/ray/lab.py train` starts
/// a learner and its actors on Ray.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// TOML configuration (see configs/README.md): when not given, the run directory's own
    /// config.toml (resuming it), else the built-in configs/quick.toml.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Run directory; runs/<config name> by default.
    #[arg(long, visible_alias = "run", value_name = "DIR")]
    out: Option<PathBuf>,
    /// Train only, on the self-play chunks that `pjlab selfplay` actors write into the run
    /// directory (the distributed roles; without it, one process plays and trains).
    #[arg(long)]
    learner: bool,
    /// Override the configuration's number of iterations.
    #[arg(long)]
    iterations: Option<u32>,
    /// Stop after this many iterations of this invocation (resume later with the same --out).
    #[arg(long)]
    stop_after: Option<u32>,
    /// Checkpoints to keep (the newest).
    #[arg(long, default_value_t = 3)]
    keep_checkpoints: usize,
    /// Also keep the checkpoint of every N-th iteration for good (for a strength curve or a
    /// ladder of the run's networks).
    #[arg(long, value_name = "N")]
    keep_every: Option<u32>,
    /// Resume a run whose replay window's positions files are gone (a run directory carried to
    /// another machine with its checkpoint, metrics and provenance only): the window starts
    /// empty and refills from new self-play. From there on the run differs from an
    /// uninterrupted one; provenance.jsonl keeps the command line that asked for it.
    #[arg(long)]
    refill_window: bool,
}

/// Runs the command: the configuration's `game` (Pijersi when it names none) picks the kit.
pub fn run(args: Args, verbosity: Verbosity) -> Result<()> {
    let own = args
        .out
        .as_ref()
        .map(|dir| dir.join("config.toml"))
        .filter(|path| path.exists());
    let (text, name, origin) = match args.config.as_ref().or(own.as_ref()) {
        Some(path) => (
            std::fs::read_to_string(path).map_err(|cause| pjlab_train::Error::Io {
                path: path.display().to_string(),
                cause,
            })?,
            path.file_stem()
                .map_or("run".into(), |s| s.to_string_lossy().into_owned()),
            path.display().to_string(),
        ),
        None => (
            QUICK.to_string(),
            "quick".to_string(),
            "built-in configs/quick.toml".to_string(),
        ),
    };
    let game = match pjlab_train::config::game_name(&text) {
        Ok(Some(game)) => GameName::parse(&game).with_context(|| format!("{origin}: game"))?,
        // No game is Pijersi's; a text that is not TOML is reported by the parse below.
        Ok(None) | Err(_) => GameName::default(),
    };
    crate::with_game!(game, |K| run_game::<K>(
        &args, &text, &name, &origin, verbosity
    ))
}

fn run_game<K: GameKit>(
    args: &Args,
    text: &str,
    name: &str,
    origin: &str,
    verbosity: Verbosity,
) -> Result<()> {
    let mut config = RunConfig::<K>::from_toml(text).map_err(|e| pjlab_train::Error::InConfig {
        origin: origin.to_string(),
        cause: Box::new(e),
    })?;
    if let Some(n) = args.iterations {
        config.iterations = n;
    }
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("runs").join(name));
    let mut options = RunOptions::new(&out);
    options.progress = crate::bars::Bars::reporter(verbosity != Verbosity::Quiet);
    options.stop_after = args.stop_after;
    options.keep_checkpoints = args.keep_checkpoints;
    options.keep_every = args.keep_every;
    options.refill_window = args.refill_window;
    options.provenance = crate::cmd::provenance();
    // Ctrl-C or SIGTERM stops after the iteration in progress, also where the shell started
    // the run with SIGINT ignored (a background job): the handler replaces the ignoring.
    crate::cmd::install_stop_signal("the run stops after this iteration's checkpoint");
    let summary = if args.learner {
        pjlab_train::roles::learner::learn(&config, &options, &crate::cmd::STOP)?
    } else {
        options.stop = Some(&crate::cmd::STOP);
        train(&config, &options)?
    };
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
    if let Some(rise) = pjlab_train::summary::strength_rise(&summary.metrics) {
        println!("{}", rise.line());
    }
    Ok(())
}
