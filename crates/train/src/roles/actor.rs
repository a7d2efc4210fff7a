//! The self-play actor behind `pjlab selfplay --run DIR`: plays batches of games with the run's
//! newest checkpoint and writes each batch as a chunk for the learner.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use burn::tensor::Device;
use pjlab_core::GameKit;
use pjlab_selfplay::write_games;

use crate::Error;
use crate::checkpoint::{self, io_err};
use crate::config::RunConfig;
use crate::progress::{Progress, Reporter};
use crate::roles::chunks::{chunk_name, committed, next_seq, parse_chunk_name};
use crate::run::PROVENANCE_KEY;
use crate::steps::{SelfPlayStep, mix, self_play};
use pjlab_nn::PolicyValueNet;
use pjlab_run::dir::RunLock;

/// Footer key of a chunk's Parquet files naming the actor that wrote it.
pub const ACTOR_KEY: &str = "pjlab.actor";

/// Games a batch may hold (game ids keep 20 bits for the game within its chunk).
pub const MAX_BATCH_GAMES: usize = 1 << 20;

/// How an actor runs.
#[derive(Clone, Debug)]
pub struct ActorOptions {
    /// The run directory (the learner's).
    pub run: PathBuf,
    /// This actor's number, unique among the run's actors (its chunks are named by it).
    pub actor: u32,
    /// Games a batch (a chunk); the configuration's `games_per_iteration` when unset.
    pub games: Option<usize>,
    /// Lock-step workers (threads); the configuration's `workers` when unset.
    pub workers: Option<usize>,
    /// Stop after this many batches.
    pub batches: Option<u64>,
    /// This actor's games written but not yet taken by the learner beyond which it waits
    /// before its next batch (so that actors faster than the learner do not train it on stale
    /// games, and each actor gets its share); the configuration's `games_per_iteration` when
    /// unset, and never less than a batch.
    pub max_pending: Option<usize>,
    /// How long to wait for the learner's configuration and first checkpoint.
    pub wait: Duration,
    /// Where progress goes (nothing by default; the binary draws bars).
    pub progress: Reporter,
    /// This invocation's provenance, written into each chunk's footers.
    pub provenance: pjlab_core::Provenance,
}

/// Why an actor stopped.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// The learner finished: its newest checkpoint is the run's last iteration.
    RunFinished,
    /// It played the batches it was asked for.
    Batches,
    /// `stop` was raised (a signal): the batch in progress was finished and written.
    Signal,
}

/// What an actor did.
#[derive(Clone, Debug, PartialEq)]
pub struct ActorSummary {
    /// Chunks written.
    pub batches: u64,
    /// Games and positions in them.
    pub games: u64,
    /// See `games`.
    pub positions: u64,
    /// Why it stopped.
    pub stopped: Stopped,
}

/// Waits until `ready` or `wait` has passed (then fails with `what`) or `stop` is raised.
fn wait_until(
    wait: Duration,
    stop: &AtomicBool,
    what: &str,
    mut ready: impl FnMut() -> Result<bool, Error>,
) -> Result<bool, Error> {
    let started = Instant::now();
    loop {
        if ready()? {
            return Ok(true);
        }
        if stop.load(Ordering::SeqCst) {
            return Ok(false);
        }
        if started.elapsed() > wait {
            return Err(Error::NoLearner {
                what: what.to_string(),
                waited: wait,
            });
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The text of the run's configuration, once the learner has written it (waiting up to `wait`);
/// `None` when `stop` is raised first.
///
/// # Errors
/// [`Error::NoLearner`] when none appears in time, [`Error::Io`] when it does not read.
pub fn wait_for_config(
    run: &Path,
    wait: Duration,
    stop: &AtomicBool,
) -> Result<Option<String>, Error> {
    let path = run.join("config.toml");
    let what = format!("{}", path.display());
    if !wait_until(wait, stop, &what, || Ok(path.exists()))? {
        return Ok(None);
    }
    std::fs::read_to_string(&path)
        .map_err(io_err(&path))
        .map(Some)
}

/// Games in actor `actor`'s committed chunks that the learner's newest checkpoint has not taken,
/// and whether the learner has finished (its newest checkpoint is the run's last iteration).
fn pending_games(run: &Path, actor: u32, iterations: u32) -> Result<(usize, bool), Error> {
    let Some((iteration, taken)) = retried(|| checkpoint::latest_progress(run))? else {
        return Ok((0, false));
    };
    let taken: std::collections::HashSet<String> = taken.into_iter().collect();
    let mut games = 0;
    for name in committed(run)? {
        let mine = parse_chunk_name(&name).is_some_and(|(a, _)| a == actor);
        if mine && !taken.contains(&name) {
            let path = run.join("games").join(format!("{name}.parquet"));
            games += pjlab_selfplay::read_games(&path)?.len();
        }
    }
    Ok((games, iteration >= iterations))
}

/// `read` retried while the learner replaces the newest checkpoint under our feet (it deletes
/// old checkpoints as it writes new ones): up to 20 tries 100 ms apart, the last one's error
/// returned.
fn retried<T>(mut read: impl FnMut() -> Result<T, Error>) -> Result<T, Error> {
    for _ in 1..20 {
        if let Ok(found) = read() {
            return Ok(found);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    read()
}

/// Waits while actor `actor`'s games not yet taken by the learner are more than `allowed`;
/// true when the learner has finished instead. Returns at once when `stop` is raised.
fn wait_for_learner(
    run: &Path,
    actor: u32,
    iterations: u32,
    allowed: usize,
    stop: &AtomicBool,
    progress: &dyn Progress,
) -> Result<bool, Error> {
    let mut waiting = false;
    loop {
        let (pending, done) = pending_games(run, actor, iterations)?;
        if done || pending <= allowed || stop.load(Ordering::SeqCst) {
            return Ok(done);
        }
        if !waiting {
            progress.phase(
                "waiting",
                0,
                &format!("for the learner: {pending} of this actor's games not yet taken"),
            );
            waiting = true;
        }
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// The newest checkpoint, [`retried`].
fn load_newest<K: GameKit>(
    run: &Path,
    device: &Device,
) -> Result<Option<(String, u32, PolicyValueNet)>, Error> {
    retried(|| checkpoint::load_latest::<K>(run, device))
}

/// Plays batches of self-play games with the newest checkpoint of `options.run` and writes each
/// as a chunk (see [`crate::roles`]), until the learner finishes, `options.batches` are played or
/// `stop` is raised (checked between batches).
///
/// # Errors
/// Another process running as this actor, a run directory without a learner (after
/// `options.wait`), a checkpoint that does not load, or I/O failures.
pub fn self_play_actor<K: GameKit>(
    options: &ActorOptions,
    stop: &AtomicBool,
) -> Result<ActorSummary, Error> {
    let run = &options.run;
    let mut summary = ActorSummary {
        batches: 0,
        games: 0,
        positions: 0,
        stopped: Stopped::Signal,
    };
    let Some(text) = wait_for_config(run, options.wait, stop)? else {
        return Ok(summary);
    };
    let mut config = RunConfig::<K>::from_toml(&text).map_err(|e| Error::InConfig {
        origin: run.join("config.toml").display().to_string(),
        cause: Box::new(e),
    })?;
    if let Some(w) = options.workers {
        config.workers = w.max(1);
    }
    let games = options.games.unwrap_or(config.games_per_iteration);
    if games == 0 || games > MAX_BATCH_GAMES {
        return Err(Error::BatchGames {
            games,
            max: MAX_BATCH_GAMES,
        });
    }
    let actors = run.join("actors");
    std::fs::create_dir_all(&actors).map_err(io_err(&actors))?;
    let _lock =
        RunLock::acquire_file(&actors.join(format!("a{:03}.lock", options.actor)), |who| {
            format!(
                "actor {} of {} is already running as {who}; give each actor its own --actor",
                options.actor,
                run.display()
            )
        })?;
    let setups = config.setups()?;
    let device = Device::default();
    let latest = run.join("checkpoints").join("latest");
    if !wait_until(options.wait, stop, "the learner's first checkpoint", || {
        Ok(latest.exists())
    })? {
        return Ok(summary);
    }
    let footer = vec![
        (
            PROVENANCE_KEY.to_string(),
            serde_json::to_string(&options.provenance).map_err(Error::Provenance)?,
        ),
        (ACTOR_KEY.to_string(), options.actor.to_string()),
    ];
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.workers)
        .build()?;
    let progress = &*options.progress;
    progress.begin(
        &format!("actor {}", options.actor),
        "batch",
        options.batches.unwrap_or(0),
        0,
    );
    let step = SelfPlayStep::of(&config);
    let mut network: Option<(String, u32, PolicyValueNet)> = None;
    loop {
        if stop.load(Ordering::SeqCst) {
            summary.stopped = Stopped::Signal;
            break;
        }
        if options.batches.is_some_and(|n| summary.batches >= n) {
            summary.stopped = Stopped::Batches;
            break;
        }
        // Wait while the learner is behind.
        let max_pending = options
            .max_pending
            .unwrap_or(config.games_per_iteration)
            .max(games);
        if wait_for_learner(
            run,
            options.actor,
            config.iterations,
            max_pending - games,
            stop,
            progress,
        )? {
            summary.stopped = Stopped::RunFinished;
            break;
        }
        if stop.load(Ordering::SeqCst) {
            continue;
        }
        // A newer checkpoint, if the learner wrote one.
        let newest = std::fs::read_to_string(&latest).map_err(io_err(&latest))?;
        if network
            .as_ref()
            .is_none_or(|(name, _, _)| name != newest.trim())
        {
            network = load_newest::<K>(run, &device)?;
        }
        let Some((name, iteration, model)) = &network else {
            return Err(Error::NoCheckpoint {
                run: run.display().to_string(),
            });
        };
        if *iteration >= config.iterations {
            summary.stopped = Stopped::RunFinished;
            break;
        }
        let seq = next_seq(run, options.actor)?;
        let chunk = chunk_name(options.actor, seq);
        progress.phase("self-play", games as u64, &format!("{chunk} with {name}"));
        let first_id = (u64::from(options.actor) << 44) | (seq << 20);
        let (finished, stats, _) = self_play::<K>(
            &pool,
            model,
            &device,
            &step,
            setups.as_ref(),
            games,
            first_id,
            (mix(config.seed, 0, u64::from(options.actor), 4), seq as u32),
            &|| progress.tick(),
        );
        let file = format!("{chunk}.parquet");
        write_games(
            &run.join("games").join(&file),
            &run.join("positions").join(&file),
            &finished,
            name,
            &footer,
        )?;
        summary.batches += 1;
        summary.games += stats.games;
        summary.positions += stats.positions;
        progress.advance_to(summary.batches);
        progress.say(&format!(
            "{chunk}: {} games, {} positions with {name}",
            stats.games, stats.positions
        ));
    }
    progress.end();
    Ok(summary)
}
