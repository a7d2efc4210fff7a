//! The training loop behind `pjlab train`: self-play, training and evaluation in iterations,
//! everything written into one run directory, resumable from its last checkpoint.
//!
//! Run directory:
//!
//! ```text
//! config.toml                 the configuration the run was started with
//! games/iter-0001.parquet     self-play games of each iteration (schema games/1)
//! positions/iter-0001.parquet their positions (schema positions/1)
//! checkpoints/iter-0001/      model.bpk, optimizer.bpk, state.json (written to a temporary
//!                             directory, then renamed); checkpoints/latest names the newest
//! metrics.jsonl               one JSON object per iteration
//! plots/*.svg                 losses, strength, games
//! ```

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use burn::module::Module;
use burn::tensor::Device;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use pjlab_chomp::Chomp;
use pjlab_core::Game;
use pjlab_mcts::Decisive;
use pjlab_pijersi::{Position, Variant};
use pjlab_selfplay::{
    ChompEncoder, ChompSetups, Encoder, FinishedGame, PijersiEncoder, PijersiSetups, ReplayWindow,
    SelfPlayStats, Setups, read_positions, write_games,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::config::{GameKind, RunConfig};
use crate::evaluator::{EvalCounters, NetEvaluator};
use crate::learner::{Batch, Learner, StepMetrics};
use crate::net::{NetShape, PolicyValueNet};
use crate::strength::{Strength, VersusAlphaBeta, chomp_optimal_share, versus_alphabeta};
use pjlab_stats::plot::{Series, line_chart};

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
}

impl RunOptions {
    /// Defaults for a run directory: progress bars, no early stop, 3 checkpoints kept.
    pub fn new(out: impl Into<PathBuf>) -> RunOptions {
        RunOptions {
            out: out.into(),
            progress: true,
            stop_after: None,
            keep_checkpoints: 3,
        }
    }
}

/// One line of `metrics.jsonl`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct IterationMetrics {
    /// Iteration, from 1.
    pub iteration: u32,
    /// Wall time of self-play, training and evaluation in this iteration, in seconds.
    pub selfplay_s: f64,
    /// See `selfplay_s`.
    pub train_s: f64,
    /// See `selfplay_s`.
    pub eval_s: f64,
    /// Self-play counters of this iteration.
    pub selfplay: SelfPlayStats,
    /// Mean game length in plies.
    pub mean_length: f64,
    /// Self-play positions per second (all workers).
    pub positions_per_s: f64,
    /// Share of evaluator requests answered by the cache.
    pub cache_hit_rate: f64,
    /// Samples in the replay window after self-play, and pushed since the start.
    pub window: usize,
    /// See `window`.
    pub seen: u64,
    /// Training steps run and samples trained.
    pub train_steps: u64,
    /// See `train_steps`.
    pub samples_trained: u64,
    /// Training samples per second.
    pub train_samples_per_s: f64,
    /// Mean losses, value accuracy and policy entropy over the iteration's steps.
    pub policy_loss: Option<f64>,
    /// See `policy_loss`.
    pub value_loss: Option<f64>,
    /// See `policy_loss`.
    pub value_accuracy: Option<f64>,
    /// See `policy_loss`.
    pub policy_entropy: Option<f64>,
    /// Strength measured after this iteration's training, when due.
    pub strength: Option<Strength>,
    /// Seconds since the run started (all invocations).
    pub elapsed_s: f64,
}

/// What a checkpoint's `state.json` holds besides the weights and optimiser.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct CheckpointState {
    iteration: u32,
    encoder: pjlab_selfplay::EncoderId,
    shape: NetShape,
    config: RunConfig,
    window_len: usize,
    window_seen: u64,
    window_uses: Vec<u8>,
    elapsed_s: f64,
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

/// Game-specific parts of the loop.
trait Domain: Sync {
    type G: Game;
    type E: Encoder<Self::G> + Clone + 'static;
    fn encoder(&self) -> Self::E;
    fn setups(&self) -> &dyn Setups<Self::G>;
    /// Units of work of one evaluation (for the progress bar).
    fn eval_units(&self, config: &RunConfig) -> u64;
    fn strength(
        &self,
        model: &PolicyValueNet,
        device: &Device,
        config: &RunConfig,
        seed: u64,
        tick: &(dyn Fn() + Sync),
    ) -> Strength;
}

struct PijersiDomain {
    setups: PijersiSetups,
    variant: Variant,
}

impl Domain for PijersiDomain {
    type G = Position;
    type E = PijersiEncoder;
    fn encoder(&self) -> PijersiEncoder {
        PijersiEncoder
    }
    fn setups(&self) -> &dyn Setups<Position> {
        &self.setups
    }
    fn eval_units(&self, config: &RunConfig) -> u64 {
        2 * config.eval.pairs as u64
    }
    fn strength(
        &self,
        model: &PolicyValueNet,
        device: &Device,
        config: &RunConfig,
        seed: u64,
        tick: &(dyn Fn() + Sync),
    ) -> Strength {
        let settings = VersusAlphaBeta {
            pairs: config.eval.pairs,
            depth: config.eval.depth,
            simulations: config.eval.simulations,
            decisive: config.selfplay.decisive,
            variant: self.variant,
            max_plies: config.eval.max_plies,
            workers: config.workers,
        };
        versus_alphabeta(model, device, &settings, seed, tick)
    }
}

struct ChompDomain {
    setups: ChompSetups,
    rows: usize,
    cols: usize,
}

impl Domain for ChompDomain {
    type G = Chomp;
    type E = ChompEncoder;
    fn encoder(&self) -> ChompEncoder {
        ChompEncoder::new(self.rows, self.cols)
    }
    fn setups(&self) -> &dyn Setups<Chomp> {
        &self.setups
    }
    fn eval_units(&self, _config: &RunConfig) -> u64 {
        1
    }
    fn strength(
        &self,
        model: &PolicyValueNet,
        device: &Device,
        _config: &RunConfig,
        _seed: u64,
        tick: &(dyn Fn() + Sync),
    ) -> Strength {
        let s = chomp_optimal_share(model, device, self.rows, self.cols);
        tick();
        s
    }
}

/// Runs (or resumes) the training run described by `config` in `options.out`.
///
/// # Errors
/// Bad configuration, a run directory holding another configuration, or I/O failures.
pub fn train(config: &RunConfig, options: &RunOptions) -> Result<RunSummary, Error> {
    config.validate()?;
    match config.game {
        GameKind::Pijersi => {
            let domain = PijersiDomain {
                setups: PijersiSetups::parse(&config.pijersi.setups).map_err(Error::Config)?,
                variant: config
                    .eval
                    .variant
                    .parse()
                    .map_err(|e| Error::Config(format!("eval.variant: {e}")))?,
            };
            run_domain(&domain, config, options)
        }
        GameKind::Chomp => {
            let c = &config.chomp;
            let domain = ChompDomain {
                setups: ChompSetups::new(c.rows, c.cols, c.random_share)
                    .map_err(|e| Error::Config(e.to_string()))?,
                rows: c.rows,
                cols: c.cols,
            };
            run_domain(&domain, config, options)
        }
    }
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

fn io_err(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |source| Error::Io {
        path: path.display().to_string(),
        source,
    }
}

/// Writes `text` to `path` atomically.
fn write_atomic(path: &Path, text: &str) -> Result<(), Error> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text).map_err(io_err(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io_err(path))
}

fn iter_name(iteration: u32) -> String {
    format!("iter-{iteration:04}")
}

/// The newest complete checkpoint, if any.
fn latest_checkpoint(dir: &Path) -> Result<Option<(PathBuf, CheckpointState)>, Error> {
    let latest = dir.join("checkpoints").join("latest");
    if !latest.exists() {
        return Ok(None);
    }
    let name = std::fs::read_to_string(&latest).map_err(io_err(&latest))?;
    let path = dir.join("checkpoints").join(name.trim());
    let state_path = path.join("state.json");
    let text = std::fs::read_to_string(&state_path).map_err(io_err(&state_path))?;
    let state: CheckpointState = serde_json::from_str(&text)
        .map_err(|e| Error::Checkpoint(format!("{}: {e}", state_path.display())))?;
    Ok(Some((path, state)))
}

/// The network of a checkpoint, for inference: `path` is a checkpoint directory or a run
/// directory (its latest checkpoint is taken). Returns the model and the run's configuration.
///
/// # Errors
/// [`Error::Checkpoint`] when no checkpoint is found or it does not load.
pub fn load_checkpoint(path: &Path, device: &Device) -> Result<(PolicyValueNet, RunConfig), Error> {
    let (dir, state) = read_state(path)?;
    let model = crate::learner::load_model(&dir, &state.config.network, state.shape, device)?;
    Ok((model, state.config))
}

/// The checkpoint directory `path` names (itself, or a run's latest) and its `state.json`.
fn read_state(path: &Path) -> Result<(PathBuf, CheckpointState), Error> {
    let dir = if path.join("state.json").exists() {
        path.to_path_buf()
    } else if let Some((dir, _)) = latest_checkpoint(path)? {
        dir
    } else {
        return Err(Error::Checkpoint(format!(
            "{}: neither a checkpoint (state.json) nor a run directory with one",
            path.display()
        )));
    };
    let state_path = dir.join("state.json");
    let text = std::fs::read_to_string(&state_path).map_err(io_err(&state_path))?;
    let state: CheckpointState = serde_json::from_str(&text)
        .map_err(|e| Error::Checkpoint(format!("{}: {e}", state_path.display())))?;
    Ok((dir, state))
}

/// A checkpoint's training summary for model cards: iteration, training time, samples seen, the
/// encoder and the run's configuration. `path` is a checkpoint or a run directory.
///
/// # Errors
/// As [`load_checkpoint`].
pub fn checkpoint_summary(path: &Path) -> Result<serde_json::Value, Error> {
    let (dir, state) = read_state(path)?;
    Ok(serde_json::json!({
        "checkpoint": dir.display().to_string(),
        "iteration": state.iteration,
        "training_seconds": state.elapsed_s,
        "samples_seen": state.window_seen,
        "encoder": state.encoder,
        "config": state.config,
    }))
}

/// The configuration a run directory was started with, if any.
pub fn run_config(dir: &Path) -> Result<Option<RunConfig>, Error> {
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

fn run_domain<D: Domain>(
    domain: &D,
    config: &RunConfig,
    options: &RunOptions,
) -> Result<RunSummary, Error> {
    let out = &options.out;
    for sub in ["games", "positions", "checkpoints", "plots"] {
        let dir = out.join(sub);
        std::fs::create_dir_all(&dir).map_err(io_err(&dir))?;
    }
    if let Some(previous) = run_config(out)? {
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

    let encoder = domain.encoder();
    let shape = NetShape {
        input: encoder.input_len(),
        actions: encoder.num_actions(),
    };
    let device = Device::default();
    let mut learner = Learner::new(&config.network, shape, &config.train, &device, config.seed);
    let mut window: ReplayWindow<D::G> = ReplayWindow::new(config.window.clone());
    let mut done = 0u32;
    let mut elapsed_before = 0.0;
    if let Some((path, state)) = latest_checkpoint(out)? {
        if state.encoder != encoder.id() || state.shape != shape {
            return Err(Error::Checkpoint(format!(
                "{} was written for encoder {:?}, this build has {:?}",
                path.display(),
                state.encoder,
                encoder.id()
            )));
        }
        learner.load(&path)?;
        window = restore_window(out, &state, config)?;
        done = state.iteration;
        elapsed_before = state.elapsed_s;
    }
    let mut metrics = read_metrics(out, done)?;

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

        // Self-play, one lock-step worker per core.
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
        let results: Vec<WorkerOutput<D::G>> = pool.install(|| {
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
                        domain.setups(),
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
        )?;
        for g in games {
            for s in g.samples {
                window.push(s);
            }
        }
        let selfplay_s = t.elapsed().as_secs_f64();

        // Training.
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
            let batch = Batch::build(&encoder, &samples, config.train.augment, &mut rng);
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

        // Evaluation.
        let t = Instant::now();
        let due = iteration == config.iterations
            || (config.eval.every > 0 && iteration.is_multiple_of(config.eval.every));
        let strength = if due {
            phase.set_prefix("eval");
            phase.set_length(domain.eval_units(config));
            phase.set_position(0);
            let model = learner.model().valid();
            let tick = || phase.inc(1);
            Some(domain.strength(
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
        say(summary_line(&line));
        append_metrics(out, &line)?;
        metrics.push(line);
        plot_metrics(out, &metrics)?;
        write_checkpoint(
            out,
            &learner,
            &window,
            config,
            &encoder,
            &metrics[metrics.len() - 1],
            options,
        )?;
        main_bar.set_position(u64::from(iteration));
    }
    phase.finish_and_clear();
    main_bar.finish();
    Ok(RunSummary {
        iterations: iteration,
        strength: metrics.iter().rev().find_map(|m| m.strength.clone()),
        metrics,
    })
}

fn summary_line(m: &IterationMetrics) -> String {
    let s = &m.selfplay;
    let mut line = format!(
        "iter {:>3}: {} games ({:.0} plies, W/D/B {}/{}/{}), {:.0} pos/s, {} steps",
        m.iteration,
        s.games,
        m.mean_length,
        s.first_wins,
        s.draws,
        s.second_wins,
        m.positions_per_s,
        m.train_steps
    );
    if let (Some(p), Some(v)) = (m.policy_loss, m.value_loss) {
        line += &format!(", loss p {p:.3} v {v:.3}");
    }
    if let Some(st) = &m.strength {
        line += &format!(
            ", {} {:.3} [{:.3}, {:.3}] over {}",
            st.metric, st.score, st.low, st.high, st.count
        );
    }
    line
}

fn restore_window<G: Game>(
    out: &Path,
    state: &CheckpointState,
    config: &RunConfig,
) -> Result<ReplayWindow<G>, Error> {
    // Newest file first, until the window is covered; then oldest first, keeping only the
    // window's rows.
    let mut chunks = Vec::new();
    let mut found = 0;
    let mut iteration = state.iteration;
    while found < state.window_len && iteration > 0 {
        let path = out
            .join("positions")
            .join(format!("{}.parquet", iter_name(iteration)));
        let chunk = read_positions(&path)?;
        found += chunk.len();
        chunks.push(chunk);
        iteration -= 1;
    }
    let skip = found.saturating_sub(state.window_len);
    let rows: Vec<_> = chunks.into_iter().rev().flatten().skip(skip).collect();
    if rows.len() < state.window_len {
        return Err(Error::Checkpoint(format!(
            "the window needs {} positions, the run's files hold {}",
            state.window_len,
            rows.len()
        )));
    }
    Ok(ReplayWindow::restore(
        config.window.clone(),
        &rows,
        &state.window_uses,
        state.window_seen,
    )?)
}

fn read_metrics(out: &Path, done: u32) -> Result<Vec<IterationMetrics>, Error> {
    let path = out.join("metrics.jsonl");
    if !path.exists() {
        return Ok(Vec::new());
    }
    let text = std::fs::read_to_string(&path).map_err(io_err(&path))?;
    let mut kept = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        // A line may be cut short by a kill; lines past the checkpoint are redone.
        if let Ok(m) = serde_json::from_str::<IterationMetrics>(line)
            && m.iteration <= done
        {
            kept.push(m);
        }
    }
    let text: String = kept
        .iter()
        .map(|m| serde_json::to_string(m).unwrap_or_default() + "\n")
        .collect();
    write_atomic(&path, &text)?;
    Ok(kept)
}

fn append_metrics(out: &Path, line: &IterationMetrics) -> Result<(), Error> {
    let path = out.join("metrics.jsonl");
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(io_err(&path))?;
    let text = serde_json::to_string(line).unwrap_or_default();
    writeln!(file, "{text}").map_err(io_err(&path))
}

fn write_checkpoint<G: Game, E: Encoder<G>>(
    out: &Path,
    learner: &Learner,
    window: &ReplayWindow<G>,
    config: &RunConfig,
    encoder: &E,
    line: &IterationMetrics,
    options: &RunOptions,
) -> Result<(), Error> {
    let iteration = line.iteration;
    let dir = out.join("checkpoints");
    let name = iter_name(iteration);
    let tmp = dir.join(format!(".{name}.tmp"));
    if tmp.exists() {
        std::fs::remove_dir_all(&tmp).map_err(io_err(&tmp))?;
    }
    std::fs::create_dir_all(&tmp).map_err(io_err(&tmp))?;
    learner.save(&tmp)?;
    let state = CheckpointState {
        iteration,
        encoder: encoder.id(),
        shape: learner.shape(),
        config: config.clone(),
        window_len: window.len(),
        window_seen: window.seen(),
        window_uses: window.uses(),
        elapsed_s: line.elapsed_s,
    };
    let text = serde_json::to_string(&state).map_err(|e| Error::Checkpoint(e.to_string()))?;
    std::fs::write(tmp.join("state.json"), text).map_err(io_err(&tmp))?;
    let final_dir = dir.join(&name);
    if final_dir.exists() {
        std::fs::remove_dir_all(&final_dir).map_err(io_err(&final_dir))?;
    }
    std::fs::rename(&tmp, &final_dir).map_err(io_err(&final_dir))?;
    write_atomic(&dir.join("latest"), &name)?;
    // Keep the newest few.
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map_err(io_err(&dir))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("iter-"))
        .collect();
    names.sort();
    let keep = options.keep_checkpoints.max(1);
    if names.len() > keep {
        for old in &names[..names.len() - keep] {
            let path = dir.join(old);
            std::fs::remove_dir_all(&path).map_err(io_err(&path))?;
        }
    }
    Ok(())
}

fn plot_metrics(out: &Path, metrics: &[IterationMetrics]) -> Result<(), Error> {
    let dir = out.join("plots");
    let series = |name: &'static str, f: &dyn Fn(&IterationMetrics) -> Option<f64>| Series {
        name,
        points: metrics
            .iter()
            .filter_map(|m| f(m).map(|y| (f64::from(m.iteration), y)))
            .collect(),
    };
    line_chart(
        &dir.join("losses.svg"),
        "Training losses",
        "iteration",
        "cross-entropy (nats)",
        &[
            series("policy loss", &|m| m.policy_loss),
            series("value loss", &|m| m.value_loss),
            series("policy entropy", &|m| m.policy_entropy),
        ],
    )?;
    line_chart(
        &dir.join("strength.svg"),
        "Strength",
        "iteration",
        "score (0..1)",
        &[
            series("score", &|m| m.strength.as_ref().map(|s| s.score)),
            series("95% low", &|m| m.strength.as_ref().map(|s| s.low)),
            series("95% high", &|m| m.strength.as_ref().map(|s| s.high)),
            series("value accuracy", &|m| m.value_accuracy),
        ],
    )?;
    line_chart(
        &dir.join("games.svg"),
        "Self-play games",
        "iteration",
        "share of games / plies / 100",
        &[
            series("first side wins", &|m| {
                Some(m.selfplay.first_wins as f64 / m.selfplay.games.max(1) as f64)
            }),
            series("draws", &|m| {
                Some(m.selfplay.draws as f64 / m.selfplay.games.max(1) as f64)
            }),
            series("mean length / 100", &|m| Some(m.mean_length / 100.0)),
        ],
    )?;
    Ok(())
}
