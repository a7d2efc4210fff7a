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

use std::path::{Path, PathBuf};
use std::time::Instant;

use burn::module::Module;
use burn::tensor::Device;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use pjlab_core::{Encoder, GameKit, Heuristic, Solved};
use pjlab_mcts::Decisive;
use pjlab_selfplay::{FinishedGame, ReplayWindow, SelfPlayStats, write_games};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::Error;
use crate::checkpoint::{self, io_err, iter_name, write_atomic};
use crate::config::RunConfig;
use crate::evaluator::{EvalCounters, NetEvaluator};
use crate::learner::{Batch, Learner, StepMetrics};
use crate::metrics::{self, IterationMetrics};
use crate::net::{NetShape, PolicyValueNet};
use crate::strength::{Strength, VersusAlphaBeta, optimal_share, versus_alphabeta};

/// How `train` runs, beyond the configuration.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The run directory.
    pub out: PathBuf,
    /// Draw progress bars (when stderr is a terminal).
    pub progress: bool,
    /// Stop after this many iterations of this invocation (the run stays resumable).
    pub stop_after: Option<u32>,
    /// Checkpoints kept (the newest ones).
    pub keep_checkpoints: usize,
    /// Also keep, for good, the checkpoint of every iteration that is a multiple of this (a
    /// run's strength curve plays them later).
    pub keep_every: Option<u32>,
    /// This invocation's provenance: appended to `provenance.jsonl` in the run directory and
    /// written into the footers of the Parquet files it writes (key `pjlab.provenance`).
    pub provenance: pjlab_core::Provenance,
}

impl RunOptions {
    /// Defaults for a run directory: progress bars, no early stop, 3 checkpoints kept.
    pub fn new(out: impl Into<PathBuf>) -> RunOptions {
        RunOptions {
            out: out.into(),
            progress: true,
            stop_after: None,
            keep_checkpoints: 3,
            keep_every: None,
            provenance: pjlab_core::Provenance::default(),
        }
    }
}

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

/// What one self-play worker brings back: its games, counters and evaluator counters.
type WorkerOutput<G> = (Vec<FinishedGame<G>>, SelfPlayStats, EvalCounters);

/// How a run measures its network: by the kit's solved positions when it has them, otherwise by
/// games against alpha-beta.
enum Judge<K: GameKit> {
    /// Positions with their winning moves (Chomp).
    Solved(Solved<K::Game>),
    /// Colour-paired games against `alphabeta:depth=N`.
    Games(VersusAlphaBeta<K::Variant>),
}

impl<K: GameKit> Judge<K> {
    /// The judge of `config`'s runs; `eval.variant` must name one of the game's variants when
    /// the strength is measured by games.
    fn new(config: &RunConfig<K>) -> Result<Judge<K>, Error> {
        if let Some(solved) = K::solved_positions(&config.game) {
            return Ok(Judge::Solved(solved));
        }
        Ok(Judge::Games(VersusAlphaBeta {
            pairs: config.eval.pairs,
            depth: config.eval.depth,
            simulations: config.eval.simulations,
            decisive: config.selfplay.decisive,
            variant: config.eval_variant()?,
            max_plies: config.eval.max_plies,
            opening_plies: config.eval.opening_plies,
            workers: config.workers,
        }))
    }

    /// Units of work of one evaluation (for the progress bar).
    fn units(&self) -> u64 {
        match self {
            Judge::Solved(_) => 1,
            Judge::Games(settings) => 2 * settings.pairs as u64,
        }
    }

    fn measure(
        &self,
        model: &PolicyValueNet,
        device: &Device,
        config: &RunConfig<K>,
        seed: u64,
        tick: &(dyn Fn() + Sync),
    ) -> Strength {
        match self {
            Judge::Solved(solved) => {
                let s = optimal_share::<K>(model, device, &K::encoder(&config.game), solved);
                tick();
                s
            }
            Judge::Games(settings) => {
                versus_alphabeta::<K>(model, device, &config.game, settings, seed, tick)
            }
        }
    }
}

/// File of a run directory with one JSON line per invocation of `pjlab train` on it.
pub const PROVENANCE_FILE: &str = "provenance.jsonl";
/// Footer key of the provenance in the Parquet files a run writes.
pub const PROVENANCE_KEY: &str = "pjlab.provenance";

/// Appends `line` and a newline to `path` (created if missing).
fn append_line(path: &Path, line: &str) -> Result<(), Error> {
    use std::io::Write as _;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(io_err(path))?;
    writeln!(file, "{line}").map_err(io_err(path))
}

/// A seed for one purpose of one iteration, mixed from the run's seed (SplitMix64).
fn mix(seed: u64, iteration: u32, worker: u64, tag: u64) -> u64 {
    let mut z = seed
        ^ u64::from(iteration).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ worker.wrapping_mul(0xBF58_476D_1CE4_E5B9)
        ^ tag.wrapping_mul(0x94D0_49BB_1331_11EB);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The configuration a run directory was started with, if any.
///
/// # Errors
/// As [`RunConfig::from_file`]: a run of another game does not parse as one of `K`.
pub fn run_config<K: GameKit>(dir: &Path) -> Result<Option<RunConfig<K>>, Error> {
    let path = dir.join("config.toml");
    if !path.exists() {
        return Ok(None);
    }
    RunConfig::from_file(&path).map(Some)
}

fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ")
}

/// Runs (or resumes) the training run described by `config` in `options.out`.
///
/// # Errors
/// Bad configuration, a run directory holding another configuration, or I/O failures.
pub fn train<K: GameKit>(config: &RunConfig<K>, options: &RunOptions) -> Result<RunSummary, Error> {
    config.validate()?;
    let setups = K::self_play_setups(&config.game)
        .map_err(|e| Error::Config(format!("{}: {e}", K::INFO.name)))?;
    let judge = Judge::new(config)?;
    let out = &options.out;
    std::fs::create_dir_all(out).map_err(io_err(out))?;
    let _lock = crate::lock::RunLock::acquire(out)?;
    for sub in ["games", "positions", "checkpoints", "plots"] {
        let dir = out.join(sub);
        std::fs::create_dir_all(&dir).map_err(io_err(&dir))?;
    }
    if let Some(previous) = run_config::<K>(out)? {
        let mut a = previous.clone();
        a.iterations = config.iterations;
        if a != *config {
            return Err(Error::Config(format!(
                "{} holds a run with another configuration (only `iterations` may change \
                 on resume); choose another --out",
                out.display()
            )));
        }
    }
    write_atomic(&out.join("config.toml"), &config.to_toml())?;
    let provenance = serde_json::to_string(&options.provenance)
        .map_err(|e| Error::Config(format!("provenance: {e}")))?;
    append_line(&out.join(PROVENANCE_FILE), &provenance)?;
    let footer = [(PROVENANCE_KEY.to_string(), provenance)];

    let encoder = K::encoder(&config.game);
    // The game's evaluation, when value targets take a share from it.
    let value_eval = if config.train.eval_target > 0.0 {
        Some(K::evaluation(None).map_err(Error::Config)?)
    } else {
        None
    };
    let shape = NetShape {
        input: encoder.input_len(),
        actions: encoder.num_actions(),
    };
    let device = Device::default();
    let mut learner = Learner::new(&config.network, shape, &config.train, &device, config.seed);
    let mut window: ReplayWindow<K::Game> = ReplayWindow::new(config.window.clone());
    let mut done = 0u32;
    let mut elapsed_before = 0.0;
    if let Some((path, state)) = checkpoint::latest::<K>(out)? {
        if state.shape != shape {
            return Err(Error::Checkpoint(format!(
                "{} holds a network of shape {:?}, this build has {:?}",
                path.display(),
                state.shape,
                shape
            )));
        }
        learner.load(&path)?;
        window = checkpoint::restore_window(out, &state)?;
        done = state.iteration;
        elapsed_before = state.elapsed_s;
    }
    let mut lines = metrics::read(out, done)?;

    let multi = MultiProgress::with_draw_target(if options.progress {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    });
    let main_bar = multi.add(ProgressBar::new(u64::from(config.iterations)));
    main_bar.set_style(style(
        "{prefix} [{elapsed_precise}] [{bar:30}] iteration {pos}/{len} (ETA {eta}) {msg}",
    ));
    main_bar.set_prefix("train");
    main_bar.set_position(u64::from(done));
    let phase = multi.add(ProgressBar::new(0));
    phase.set_style(style("{prefix:>9} [{bar:30}] {pos}/{len} {per_sec} {msg}"));
    let say = |line: String| {
        if multi.is_hidden() {
            if options.progress {
                eprintln!("{line}");
            }
        } else {
            let _ = multi.println(line);
        }
    };

    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.workers)
        .build()
        .map_err(|e| Error::Config(format!("workers: {e}")))?;
    let started = Instant::now();
    let mut this_invocation = 0;
    let mut iteration = done;
    while iteration < config.iterations {
        if options.stop_after.is_some_and(|n| this_invocation >= n) {
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
        phase.set_prefix("self-play");
        phase.set_length(config.games_per_iteration as u64);
        phase.set_position(0);
        let model = learner.model().valid();
        let workers = config.workers.min(config.games_per_iteration);
        let per_worker: Vec<usize> = (0..workers)
            .map(|w| {
                config.games_per_iteration / workers
                    + usize::from(w < config.games_per_iteration % workers)
            })
            .collect();
        let results: Vec<WorkerOutput<K::Game>> = pool.install(|| {
            (0..workers)
                .into_par_iter()
                .map(|w| {
                    let mut evaluator = Decisive::new(NetEvaluator::new(
                        &model,
                        &device,
                        encoder.clone(),
                        config.cache_positions,
                    ));
                    evaluator.check = config.selfplay.decisive;
                    let first_id = u64::from(iteration - 1) * config.games_per_iteration as u64
                        + per_worker[..w].iter().sum::<usize>() as u64;
                    let mut games = Vec::new();
                    let stats = pjlab_selfplay::play_games(
                        setups.as_ref(),
                        &mut evaluator,
                        &config.selfplay,
                        per_worker[w],
                        first_id,
                        mix(config.seed, iteration, w as u64, 1),
                        |g| {
                            phase.inc(1);
                            games.push(g);
                        },
                    );
                    (games, stats, evaluator.inner.counters())
                })
                .collect()
        });
        let mut games = Vec::new();
        let mut stats = SelfPlayStats::default();
        let mut counters = EvalCounters::default();
        for (g, s, c) in results {
            games.extend(g);
            stats.merge(&s);
            counters.requests += c.requests;
            counters.cache_hits += c.cache_hits;
            counters.batches += c.batches;
        }
        let name = format!("{}.parquet", iter_name(iteration));
        write_games(
            &out.join("games").join(&name),
            &out.join("positions").join(&name),
            &games,
            &network_id,
            &footer,
        )?;
        for g in games {
            for s in g.samples {
                window.push(s);
            }
        }
        let selfplay_s = t.elapsed().as_secs_f64();

        // 2. Training on the window, `train_ratio` samples per new position.
        let t = Instant::now();
        let steps = if window.is_ready() {
            (stats.positions as f64 * config.train.train_ratio / config.train.batch_size as f64)
                .round() as u64
        } else {
            0
        };
        phase.set_prefix("train");
        phase.set_length(steps);
        phase.set_position(0);
        let mut rng = ChaCha8Rng::seed_from_u64(mix(config.seed, iteration, 0, 2));
        let mut sums = StepMetrics::default();
        let mut trained = 0u64;
        let mut steps_run = 0u64;
        for _ in 0..steps {
            let picked = window.draw(config.train.batch_size, &mut rng);
            if picked.is_empty() {
                break;
            }
            let samples: Vec<_> = picked.iter().map(|&i| window.get(i)).collect();
            let mut batch = Batch::build(&encoder, &samples, config.train.augment, &mut rng);
            if let Some(eval) = &value_eval {
                let scale = config.train.eval_scale.max(1.0);
                batch.blend_values(&samples, config.train.eval_target, |p| {
                    (eval.evaluate(p) as f32 / scale).tanh()
                });
            }
            let m = learner.step(&batch);
            let w = m.rows as f64;
            sums.policy_loss += m.policy_loss * w;
            sums.value_loss += m.value_loss * w;
            sums.value_accuracy += m.value_accuracy * w;
            sums.policy_entropy += m.policy_entropy * w;
            trained += m.rows as u64;
            steps_run += 1;
            phase.inc(1);
        }
        let train_s = t.elapsed().as_secs_f64();

        // 3. Evaluation, when due.
        let t = Instant::now();
        let due = iteration == config.iterations
            || (config.eval.every > 0 && iteration.is_multiple_of(config.eval.every));
        let strength = if due {
            phase.set_prefix("eval");
            phase.set_length(judge.units());
            phase.set_position(0);
            let model = learner.model().valid();
            let tick = || phase.inc(1);
            Some(judge.measure(
                &model,
                &device,
                config,
                mix(config.seed, iteration, 0, 3),
                &tick,
            ))
        } else {
            None
        };
        let eval_s = t.elapsed().as_secs_f64();

        // 4. The metrics line, plots and the checkpoint.
        let mean = |x: f64| (trained > 0).then(|| x / trained as f64);
        let line = IterationMetrics {
            iteration,
            selfplay_s,
            train_s,
            eval_s,
            mean_length: stats.positions as f64 / stats.games.max(1) as f64,
            positions_per_s: stats.positions as f64 / selfplay_s.max(1e-9),
            cache_hit_rate: counters.cache_hits as f64 / counters.requests.max(1) as f64,
            selfplay: stats,
            window: window.len(),
            seen: window.seen(),
            train_steps: steps_run,
            samples_trained: trained,
            train_samples_per_s: trained as f64 / train_s.max(1e-9),
            policy_loss: mean(sums.policy_loss),
            value_loss: mean(sums.value_loss),
            value_accuracy: mean(sums.value_accuracy),
            policy_entropy: mean(sums.policy_entropy),
            strength,
            elapsed_s: elapsed_before + started.elapsed().as_secs_f64(),
        };
        say(metrics::summary_line(&line, K::INFO.sides));
        metrics::append(out, &line)?;
        let elapsed_s = line.elapsed_s;
        lines.push(line);
        metrics::plot(out, &lines)?;
        let report = out.join("training.md");
        std::fs::write(&report, crate::summary::training_report(&lines)).map_err(|cause| {
            Error::Io {
                path: report.display().to_string(),
                cause,
            }
        })?;
        checkpoint::write(
            out,
            iteration,
            &learner,
            &window,
            config,
            &encoder,
            elapsed_s,
            options.keep_checkpoints,
            options.keep_every,
        )?;
        main_bar.set_position(u64::from(iteration));
    }
    phase.finish_and_clear();
    main_bar.finish();
    Ok(RunSummary {
        iterations: iteration,
        strength: lines.iter().rev().find_map(|m| m.strength.clone()),
        metrics: lines,
    })
}
