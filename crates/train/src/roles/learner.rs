//! The learner behind `pjlab train --run DIR --learner`: the single-process loop with its
//! self-play replaced by the chunks that actors write.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use pjlab_core::GameKit;
use pjlab_selfplay::{Sample, SelfPlayStats};

use crate::Error;
use crate::config::RunConfig;
use crate::progress::Progress;
use crate::roles::chunks::{Chunk, committed, parse_chunk_name};
use crate::run::{RunOptions, RunSummary, summary};
use crate::steps::{Judge, Trainer, iteration_line, open_run};
use pjlab_nn::EvalCounters;

/// How often the learner looks for new chunks while it waits.
const POLL: Duration = Duration::from_millis(250);

/// New chunks, gathered until they hold an iteration's games.
struct Gathered {
    chunks: Vec<Chunk>,
    games: usize,
}

/// Waits for committed chunks not yet taken until they hold at least `games` games, and takes
/// them in the order of their numbers, then actors (`a002-000001` before `a001-000002`), no
/// more than needed: the learner's iterations are then a function of the chunks on disk alone,
/// and a resumed learner takes the same ones. `None` when `stop` is raised first (what was read
/// is dropped, and read again later).
fn gather(
    out: &std::path::Path,
    taken: &HashSet<String>,
    games: usize,
    stop: &AtomicBool,
    progress: &dyn Progress,
) -> Result<Option<Gathered>, Error> {
    let mut got = Gathered {
        chunks: Vec::new(),
        games: 0,
    };
    let mut read: HashSet<String> = HashSet::new();
    loop {
        let mut new: Vec<(u64, u32, String)> = committed(out)?
            .into_iter()
            .filter(|name| !taken.contains(name) && !read.contains(name))
            .filter_map(|name| parse_chunk_name(&name).map(|(actor, seq)| (seq, actor, name)))
            .collect();
        new.sort();
        for (_, _, name) in new {
            let chunk = Chunk::read(out, &name)?;
            got.games += chunk.games.len();
            progress.phase_at(got.games.min(games) as u64);
            read.insert(name);
            got.chunks.push(chunk);
            if got.games >= games {
                return Ok(Some(got));
            }
        }
        if stop.load(Ordering::SeqCst) {
            return Ok(None);
        }
        std::thread::sleep(POLL);
    }
}

/// Runs (or resumes) the learner of the run `config` in `options.out`: it writes the initial
/// checkpoint when the run has none (the actors' first network), then each iteration waits for
/// new chunks worth `games_per_iteration` games (taken by number, then actor, no more than needed), takes them into the window,
/// trains `train_ratio` samples per new position, evaluates when due and writes the metrics line
/// and checkpoint (which records the chunks taken). It stops at the last iteration, after
/// `options.stop_after` iterations, or when `stop` is raised (between iterations or while
/// waiting); a resumed learner goes on from its newest checkpoint and takes every chunk once.
///
/// # Errors
/// As [`crate::train`], and a chunk that does not read.
pub fn learn<K: GameKit>(
    config: &RunConfig<K>,
    options: &RunOptions,
    stop: &AtomicBool,
) -> Result<RunSummary, Error> {
    config.validate()?;
    let judge = Judge::new(config)?;
    let out = &options.out;
    let _run = open_run(config, options)?;
    let mut trainer = Trainer::<K>::resume(config, out, options.refill_window)?;
    if crate::checkpoint::latest::<K>(out)?.is_none() {
        trainer.checkpoint(config, options, 0, 0.0)?;
    }
    let mut taken: HashSet<String> = trainer.chunks.iter().cloned().collect();
    let progress = &*options.progress;
    trainer.begin(progress, "learner", config.iterations);
    let started = Instant::now();
    let mut last_end = Instant::now();
    let mut this_invocation = 0;
    let mut iteration = trainer.done;
    while iteration < config.iterations {
        if options.stop_after.is_some_and(|n| this_invocation >= n) || stop.load(Ordering::SeqCst) {
            break;
        }
        // 1. The actors' new chunks, into the window in the order they were found.
        let t = Instant::now();
        progress.phase(
            "waiting",
            config.games_per_iteration as u64,
            "games from the actors",
        );
        let Some(gathered) = gather(out, &taken, config.games_per_iteration, stop, progress)?
        else {
            break;
        };
        iteration += 1;
        this_invocation += 1;
        let mut stats = SelfPlayStats::default();
        for chunk in gathered.chunks {
            stats.merge(&chunk.stats());
            for row in &chunk.positions {
                trainer.window.push(Sample::from_row(row)?);
            }
            taken.insert(chunk.name.clone());
            trainer.chunks.push(chunk.name);
        }
        let waited_s = t.elapsed().as_secs_f64();

        // 2. Training and evaluation as in the single-process loop.
        let (trained, strength, eval_s) =
            trainer.train_and_evaluate(config, &judge, iteration, stats.positions, progress);

        // 3. The metrics line (self-play time is the time spent waiting for chunks, and the
        // positions' rate is the actors' since the previous iteration) and the checkpoint.
        let positions = stats.positions as f64;
        let mut line = iteration_line(
            iteration,
            (waited_s, eval_s),
            stats,
            &EvalCounters::default(),
            &trainer.window,
            &trained,
            strength,
            trainer.elapsed_before + started.elapsed().as_secs_f64(),
        );
        line.positions_per_s = positions / last_end.elapsed().as_secs_f64().max(1e-9);
        trainer.finish_iteration(config, options, line, progress)?;
        last_end = Instant::now();
    }
    progress.end();
    Ok(summary(iteration, trainer.lines))
}
