//! The training loop behind `pjlab train`, for any game's kit: self-play, training and
//! evaluation in iterations, everything written into one run directory, resumable from its last
//! checkpoint.
//!
//! Run directory:
//!
//! ```text
//! config.toml                 the configuration the run was started with
//! games/iter-0001.parquet     self-play games of each iteration (schema games/1)
//! positions/iter-0001.parquet their positions (schema positions/1)
//! checkpoints/iter-0001/      model.bpk, optimizer.bpk, state.json (see `checkpoint`);
//!                             checkpoints/latest names the newest
//! metrics.jsonl               one JSON object per iteration (see `metrics`)
//! plots/*.svg                 losses, strength, games
//! ```

use std::time::Instant;

use burn::module::Module;
use pjlab_core::GameKit;
use pjlab_selfplay::write_games;

use crate::Error;
use pjlab_run::dir::iter_name;

use crate::config::RunConfig;
use crate::metrics::IterationMetrics;
use crate::steps::{Judge, SelfPlayStep, Trainer, iteration_line, open_run, self_play};
use crate::strength::Strength;

/// What a finished (or stopped) run reports.
#[derive(Clone, Debug)]
pub struct RunSummary {
    /// Iterations completed, all invocations.
    pub iterations: u32,
    /// The last strength measured.
    pub strength: Option<Strength>,
    /// All metrics lines.
    pub metrics: Vec<IterationMetrics>,
}

pub use crate::options::{RunOptions, run_config};
pub use pjlab_run::dir::{PROVENANCE_FILE, PROVENANCE_KEY};

/// Runs (or resumes) the training run described by `config` in `options.out`.
///
/// # Errors
/// Bad configuration, a run directory holding another configuration, or I/O failures.
pub fn train<K: GameKit>(config: &RunConfig<K>, options: &RunOptions) -> Result<RunSummary, Error> {
    config.validate()?;
    let setups = config.setups()?;
    let judge = Judge::new(config)?;
    let out = &options.out;
    let run = open_run(config, options)?;
    let mut trainer = Trainer::<K>::resume(config, out, options.refill_window)?;
    let progress = &*options.progress;
    trainer.begin(progress, "train", config.iterations);
    let step = SelfPlayStep::of(config);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.workers)
        .build()?;
    let started = Instant::now();
    let mut this_invocation = 0;
    let mut iteration = trainer.done;
    while iteration < config.iterations {
        if options.stop_after.is_some_and(|n| this_invocation >= n)
            || options
                .stop
                .is_some_and(|f| f.load(std::sync::atomic::Ordering::SeqCst))
        {
            break;
        }
        iteration += 1;
        this_invocation += 1;
        let network_id = if iteration == 1 {
            "init".to_string()
        } else {
            iter_name(iteration - 1)
        };

        // 1. Self-play, one lock-step worker per core; the games join the replay window.
        let t = Instant::now();
        progress.phase("self-play", config.games_per_iteration as u64, "");
        let model = trainer.learner.model().valid();
        let (games, stats, counters) = self_play::<K>(
            &pool,
            &model,
            &trainer.device,
            &step,
            setups.as_ref(),
            config.games_per_iteration,
            u64::from(iteration - 1) * config.games_per_iteration as u64,
            (config.seed, iteration),
            &|| progress.tick(),
        );
        let name = format!("{}.parquet", iter_name(iteration));
        write_games(
            &out.join("games").join(&name),
            &out.join("positions").join(&name),
            &games,
            &network_id,
            &run.footer(),
        )?;
        for g in games {
            for s in g.samples {
                trainer.window.push(s);
            }
        }
        let selfplay_s = t.elapsed().as_secs_f64();

        // 2. Training on the window, `train_ratio` samples per new position; 3. evaluation,
        // when due.
        let (trained, strength, eval_s) =
            trainer.train_and_evaluate(config, &judge, iteration, stats.positions, progress);

        // 4. The metrics line, plots and the checkpoint.
        let line = iteration_line(
            iteration,
            (selfplay_s, eval_s),
            stats,
            &counters,
            &trainer.window,
            &trained,
            strength,
            trainer.elapsed_before + started.elapsed().as_secs_f64(),
        );
        trainer.finish_iteration(config, options, line, progress)?;
    }
    progress.end();
    Ok(summary(iteration, trainer.lines))
}

/// The summary of a run that reached `iterations` with these metrics lines.
pub(crate) fn summary(iterations: u32, lines: Vec<IterationMetrics>) -> RunSummary {
    RunSummary {
        iterations,
        strength: lines.iter().rev().find_map(|m| m.strength.clone()),
        metrics: lines,
    }
}
