//! The steps of a training iteration, shared by the single-process loop ([`crate::run`]) and the
//! distributed roles ([`crate::roles`]): opening a run directory, self-play in lock-step
//! batches, training on the replay window, evaluation, and the iteration's metrics line and
//! checkpoint.

use std::path::Path;
use std::time::Instant;

use burn::module::Module;
use burn::tensor::Device;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use pjlab_core::{Encoder, GameKit, Heuristic, Setups, Solved};
use pjlab_mcts::Decisive;
use pjlab_selfplay::{FinishedGame, ReplayWindow, SelfPlayStats};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::Error;
use crate::checkpoint::{self, io_err, write_atomic};
use crate::config::RunConfig;
use crate::evaluator::{EvalCounters, NetEvaluator};
use crate::learner::{Batch, Learner, StepMetrics};
use crate::lock::RunLock;
use crate::metrics::{self, IterationMetrics};
use crate::net::{NetShape, PolicyValueNet};
use crate::run::{PROVENANCE_FILE, PROVENANCE_KEY, RunOptions};
use crate::strength::{Strength, VersusAlphaBeta, optimal_share, versus_alphabeta};

/// A seed for one purpose of one iteration, mixed from the run's seed (SplitMix64).
pub(crate) fn mix(seed: u64, iteration: u32, worker: u64, tag: u64) -> u64 {
    let mut z = seed
        ^ u64::from(iteration).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ worker.wrapping_mul(0xBF58_476D_1CE4_E5B9)
        ^ tag.wrapping_mul(0x94D0_49BB_1331_11EB);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Appends `line` and a newline to `path` (created if missing).
pub(crate) fn append_line(path: &Path, line: &str) -> Result<(), Error> {
    use std::io::Write as _;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(io_err(path))?;
    writeln!(file, "{line}").map_err(io_err(path))
}

/// A run directory opened for training: locked, its sub-directories made, its configuration
/// checked against the one it was started with and written, this invocation's provenance
/// appended. Holds the lock until dropped.
pub(crate) struct OpenRun {
    _lock: RunLock,
    /// Key-value pairs for the footers of the Parquet files the run writes.
    pub(crate) footer: Vec<(String, String)>,
}

/// Opens `options.out` for a run of `config` (see [`OpenRun`]).
pub(crate) fn open_run<K: GameKit>(
    config: &RunConfig<K>,
    options: &RunOptions,
) -> Result<OpenRun, Error> {
    let out = &options.out;
    std::fs::create_dir_all(out).map_err(io_err(out))?;
    let lock = RunLock::acquire(out)?;
    for sub in ["games", "positions", "checkpoints", "plots"] {
        let dir = out.join(sub);
        std::fs::create_dir_all(&dir).map_err(io_err(&dir))?;
    }
    if let Some(previous) = crate::run::run_config::<K>(out)? {
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
    Ok(OpenRun {
        _lock: lock,
        footer: vec![(PROVENANCE_KEY.to_string(), provenance)],
    })
}

/// How a run measures its network: by the kit's solved positions when it has them, otherwise by
/// games against alpha-beta.
pub(crate) enum Judge<K: GameKit> {
    /// Positions with their winning moves (Chomp).
    Solved(Solved<K::Game>),
    /// Colour-paired games against `alphabeta:depth=N`.
    Games(VersusAlphaBeta<K::Variant>),
}

impl<K: GameKit> Judge<K> {
    /// The judge of `config`'s runs; `eval.variant` must name one of the game's variants when
    /// the strength is measured by games.
    pub(crate) fn new(config: &RunConfig<K>) -> Result<Judge<K>, Error> {
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
    pub(crate) fn units(&self) -> u64 {
        match self {
            Judge::Solved(_) => 1,
            Judge::Games(settings) => 2 * settings.pairs as u64,
        }
    }

    pub(crate) fn measure(
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

fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ")
}

/// The progress display of a run: a bar of iterations (or batches) and one of the current
/// phase, or plain lines when stderr is no terminal.
pub(crate) struct Bars {
    multi: MultiProgress,
    progress: bool,
    /// The bar of iterations.
    pub(crate) main: ProgressBar,
    /// The bar of the current phase.
    pub(crate) phase: ProgressBar,
}

impl Bars {
    /// Bars with `prefix` on the main bar counting `total` `unit`s, `done` of them done.
    pub(crate) fn new(progress: bool, prefix: &str, unit: &str, total: u64, done: u64) -> Bars {
        let multi = MultiProgress::with_draw_target(if progress {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        });
        let main = multi.add(ProgressBar::new(total));
        main.set_style(style(&format!(
            "{{prefix}} [{{elapsed_precise}}] [{{bar:30}}] {unit} {{pos}}/{{len}} (ETA {{eta}}) {{msg}}"
        )));
        main.set_prefix(prefix.to_string());
        main.set_position(done);
        let phase = multi.add(ProgressBar::new(0));
        phase.set_style(style("{prefix:>9} [{bar:30}] {pos}/{len} {per_sec} {msg}"));
        Bars {
            multi,
            progress,
            main,
            phase,
        }
    }

    /// Starts a phase of `len` units.
    pub(crate) fn start_phase(&self, name: &str, len: u64) {
        self.phase.set_prefix(name.to_string());
        self.phase.set_length(len);
        self.phase.set_position(0);
    }

    /// Prints a line above the bars (or on stderr when they are hidden and progress is on).
    pub(crate) fn say(&self, line: String) {
        if self.multi.is_hidden() {
            if self.progress {
                eprintln!("{line}");
            }
        } else {
            let _ = self.multi.println(line);
        }
    }

    /// Clears the phase bar and finishes the main one.
    pub(crate) fn finish(&self) {
        self.phase.finish_and_clear();
        self.main.finish();
    }
}

/// What one self-play worker brings back: its games, counters and evaluator counters.
type WorkerOutput<G> = (Vec<FinishedGame<G>>, SelfPlayStats, EvalCounters);

/// A batch of self-play games with `model`: `games` games split over `workers` lock-step
/// workers on `pool`, ids from `first_id`, worker `w` seeded with `mix(seed, round, w, 1)`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn self_play<K: GameKit>(
    pool: &rayon::ThreadPool,
    model: &PolicyValueNet,
    device: &Device,
    config: &RunConfig<K>,
    setups: &dyn Setups<K::Game>,
    games: usize,
    first_id: u64,
    (seed, round): (u64, u32),
    tick: &(dyn Fn() + Sync),
) -> (Vec<FinishedGame<K::Game>>, SelfPlayStats, EvalCounters) {
    let encoder = K::encoder(&config.game);
    let workers = config.workers.min(games).max(1);
    let per_worker: Vec<usize> = (0..workers)
        .map(|w| games / workers + usize::from(w < games % workers))
        .collect();
    let results: Vec<WorkerOutput<K::Game>> = pool.install(|| {
        (0..workers)
            .into_par_iter()
            .map(|w| {
                let mut evaluator = Decisive::new(NetEvaluator::new(
                    model,
                    device,
                    encoder.clone(),
                    config.cache_positions,
                ));
                evaluator.check = config.selfplay.decisive;
                let first = first_id + per_worker[..w].iter().sum::<usize>() as u64;
                let mut finished = Vec::new();
                let stats = pjlab_selfplay::play_games(
                    setups,
                    &mut evaluator,
                    &config.selfplay,
                    per_worker[w],
                    first,
                    mix(seed, round, w as u64, 1),
                    |g| {
                        tick();
                        finished.push(g);
                    },
                );
                (finished, stats, evaluator.inner.counters())
            })
            .collect()
    });
    let mut finished = Vec::new();
    let mut stats = SelfPlayStats::default();
    let mut counters = EvalCounters::default();
    for (g, s, c) in results {
        finished.extend(g);
        stats.merge(&s);
        counters.requests += c.requests;
        counters.cache_hits += c.cache_hits;
        counters.batches += c.batches;
    }
    (finished, stats, counters)
}

/// What an iteration's training steps measured.
#[derive(Default)]
pub(crate) struct Trained {
    /// Sums of the step metrics, each weighted by its rows.
    pub(crate) sums: StepMetrics,
    /// Samples trained.
    pub(crate) samples: u64,
    /// Steps run.
    pub(crate) steps: u64,
    /// Seconds spent.
    pub(crate) seconds: f64,
}

/// The training side of a run: the learner, its replay window, and where a resumed run stands.
pub(crate) struct Trainer<K: GameKit> {
    pub(crate) learner: Learner,
    pub(crate) window: ReplayWindow<K::Game>,
    pub(crate) device: Device,
    pub(crate) encoder: K::Encoder,
    /// The game's evaluation, when value targets take a share from it.
    value_eval: Option<K::Eval>,
    /// Iterations done before this invocation.
    pub(crate) done: u32,
    /// Seconds trained before this invocation.
    pub(crate) elapsed_before: f64,
    /// Self-play chunks taken into the window, in order (the learner role's; empty in the
    /// single-process loop, whose chunks are its iterations).
    pub(crate) chunks: Vec<String>,
    /// The metrics lines so far.
    pub(crate) lines: Vec<IterationMetrics>,
}

impl<K: GameKit> Trainer<K> {
    /// A fresh trainer for `config`, or the one the newest checkpoint in `out` left.
    pub(crate) fn resume(config: &RunConfig<K>, out: &Path) -> Result<Trainer<K>, Error> {
        let encoder = K::encoder(&config.game);
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
        let mut trainer = Trainer {
            learner: Learner::new(&config.network, shape, &config.train, &device, config.seed),
            window: ReplayWindow::new(config.window.clone()),
            device,
            encoder,
            value_eval,
            done: 0,
            elapsed_before: 0.0,
            chunks: Vec::new(),
            lines: Vec::new(),
        };
        if let Some((path, state)) = checkpoint::latest::<K>(out)? {
            if state.shape != shape {
                return Err(Error::Checkpoint(format!(
                    "{} holds a network of shape {:?}, this build has {:?}",
                    path.display(),
                    state.shape,
                    shape
                )));
            }
            trainer.learner.load(&path)?;
            trainer.window = checkpoint::restore_window(out, &state)?;
            trainer.done = state.iteration;
            trainer.elapsed_before = state.elapsed_s;
            trainer.chunks = state.chunks;
        }
        trainer.lines = metrics::read(out, trainer.done)?;
        Ok(trainer)
    }

    /// Trains on the window, `train_ratio` samples per new position (none until the window is
    /// ready), batches drawn with `seed`.
    pub(crate) fn train(
        &mut self,
        config: &RunConfig<K>,
        new_positions: u64,
        seed: u64,
        bars: &Bars,
    ) -> Trained {
        let t = Instant::now();
        let steps = if self.window.is_ready() {
            (new_positions as f64 * config.train.train_ratio / config.train.batch_size as f64)
                .round() as u64
        } else {
            0
        };
        bars.start_phase("train", steps);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut out = Trained::default();
        for _ in 0..steps {
            let picked = self.window.draw(config.train.batch_size, &mut rng);
            if picked.is_empty() {
                break;
            }
            let samples: Vec<_> = picked.iter().map(|&i| self.window.get(i)).collect();
            let mut batch = Batch::build(&self.encoder, &samples, config.train.augment, &mut rng);
            if let Some(eval) = &self.value_eval {
                let scale = config.train.eval_scale.max(1.0);
                batch.blend_values(&samples, config.train.eval_target, |p| {
                    (eval.evaluate(p) as f32 / scale).tanh()
                });
            }
            let m = self.learner.step(&batch);
            let w = m.rows as f64;
            out.sums.policy_loss += m.policy_loss * w;
            out.sums.value_loss += m.value_loss * w;
            out.sums.value_accuracy += m.value_accuracy * w;
            out.sums.policy_entropy += m.policy_entropy * w;
            out.samples += m.rows as u64;
            out.steps += 1;
            bars.phase.inc(1);
        }
        out.seconds = t.elapsed().as_secs_f64();
        out
    }

    /// The judge's measure of the network after `iteration`, when an evaluation is due then
    /// (every `eval.every` iterations and at the last), with the seconds it took.
    pub(crate) fn evaluate(
        &self,
        judge: &Judge<K>,
        config: &RunConfig<K>,
        iteration: u32,
        bars: &Bars,
    ) -> (Option<Strength>, f64) {
        let t = Instant::now();
        let due = iteration == config.iterations
            || (config.eval.every > 0 && iteration.is_multiple_of(config.eval.every));
        if !due {
            return (None, 0.0);
        }
        bars.start_phase("eval", judge.units());
        let model = self.learner.model().valid();
        let tick = || bars.phase.inc(1);
        let strength = judge.measure(
            &model,
            &self.device,
            config,
            mix(config.seed, iteration, 0, 3),
            &tick,
        );
        (Some(strength), t.elapsed().as_secs_f64())
    }

    /// Ends an iteration: prints and appends its metrics line, redraws the plots and the report,
    /// and writes the checkpoint.
    pub(crate) fn finish_iteration(
        &mut self,
        config: &RunConfig<K>,
        options: &RunOptions,
        line: IterationMetrics,
        bars: &Bars,
    ) -> Result<(), Error> {
        let out = &options.out;
        bars.say(metrics::summary_line(&line, K::INFO.sides));
        metrics::append(out, &line)?;
        let iteration = line.iteration;
        let elapsed_s = line.elapsed_s;
        self.lines.push(line);
        metrics::plot(out, &self.lines)?;
        let report = out.join("training.md");
        std::fs::write(&report, crate::summary::training_report(&self.lines)).map_err(|cause| {
            Error::Io {
                path: report.display().to_string(),
                cause,
            }
        })?;
        self.checkpoint(config, options, iteration, elapsed_s)?;
        bars.main.set_position(u64::from(iteration));
        Ok(())
    }

    /// Writes the checkpoint of `iteration`.
    pub(crate) fn checkpoint(
        &self,
        config: &RunConfig<K>,
        options: &RunOptions,
        iteration: u32,
        elapsed_s: f64,
    ) -> Result<(), Error> {
        checkpoint::write(
            &options.out,
            &checkpoint::Snapshot {
                iteration,
                learner: &self.learner,
                window: &self.window,
                config,
                encoder: &self.encoder,
                elapsed_s,
                chunks: &self.chunks,
            },
            options.keep_checkpoints,
            options.keep_every,
        )
    }
}

/// The metrics line of an iteration from its parts.
#[allow(clippy::too_many_arguments)]
pub(crate) fn iteration_line<G: pjlab_core::Game>(
    iteration: u32,
    (selfplay_s, eval_s): (f64, f64),
    stats: SelfPlayStats,
    counters: &EvalCounters,
    window: &ReplayWindow<G>,
    trained: &Trained,
    strength: Option<Strength>,
    elapsed_s: f64,
) -> IterationMetrics {
    let mean = |x: f64| (trained.samples > 0).then(|| x / trained.samples as f64);
    IterationMetrics {
        iteration,
        selfplay_s,
        train_s: trained.seconds,
        eval_s,
        mean_length: stats.positions as f64 / stats.games.max(1) as f64,
        positions_per_s: stats.positions as f64 / selfplay_s.max(1e-9),
        cache_hit_rate: counters.cache_hits as f64 / counters.requests.max(1) as f64,
        selfplay: stats,
        window: window.len(),
        seen: window.seen(),
        train_steps: trained.steps,
        samples_trained: trained.samples,
        train_samples_per_s: trained.samples as f64 / trained.seconds.max(1e-9),
        policy_loss: mean(trained.sums.policy_loss),
        value_loss: mean(trained.sums.value_loss),
        value_accuracy: mean(trained.sums.value_accuracy),
        policy_entropy: mean(trained.sums.policy_entropy),
        strength,
        elapsed_s,
    }
}
