//! The training side of a run: the learner and its replay window, resumed from the newest
//! checkpoint; training steps on the window; the iteration's end (metrics line, plots, report,
//! checkpoint).

use std::path::Path;
use std::time::Instant;

use burn::module::Module;
use burn::tensor::Device;
use pjlab_core::{Encoder, GameKit};
use pjlab_nn::NetShape;
use pjlab_run::dir::RunDir;
use pjlab_selfplay::ReplayWindow;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::Judge;
use super::labels::Labeller;
use crate::Error;
use crate::checkpoint;
use crate::config::RunConfig;
use crate::learner::{Batch, Learner, StepMetrics, TrainConfig};
use crate::metrics::{self, IterationMetrics};
use crate::options::RunOptions;
use crate::progress::Progress;
use crate::strength::Strength;

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
    /// The value labels blended into the results, when targets take a share from them.
    labels: Option<Labeller<K>>,
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
    /// Tells `progress` that the run starts under the name `what`: `iterations` in all, those
    /// done before this invocation done.
    pub(crate) fn begin(&self, progress: &dyn Progress, what: &str, iterations: u32) {
        progress.begin(
            what,
            "iteration",
            u64::from(iterations),
            u64::from(self.done),
        );
    }

    /// A fresh trainer for `config`, or the one the newest checkpoint in `out` left.
    ///
    /// With `refill`, a checkpoint whose window cannot be read back from the positions files
    /// (missing or unreadable) resumes with an empty window instead of failing; it keeps the
    /// count of samples seen, so its capacity is the one the run had reached.
    pub(crate) fn resume(
        config: &RunConfig<K>,
        out: &Path,
        refill: bool,
    ) -> Result<Trainer<K>, Error> {
        let encoder = K::encoder(&config.game);
        let labels = Labeller::new(&config.train)?;
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
            labels,
            done: 0,
            elapsed_before: 0.0,
            chunks: Vec::new(),
            lines: Vec::new(),
        };
        if let Some((path, state)) = checkpoint::latest::<K>(out)? {
            if state.shape != shape {
                return Err(Error::OtherShape {
                    path: path.display().to_string(),
                    found: state.shape,
                    expected: shape,
                });
            }
            trainer.learner.load(&path)?;
            trainer.window = match checkpoint::restore_window(out, &state) {
                Ok(window) => window,
                // Empty, but as large as the run had grown it: it counts the samples seen.
                Err(_) if refill => {
                    ReplayWindow::restore(config.window.clone(), &[], &[], state.window_seen)?
                }
                Err(e) => return Err(e),
            };
            trainer.done = state.iteration;
            trainer.elapsed_before = state.elapsed_s;
            trainer.chunks = state.chunks;
        }
        trainer.lines = RunDir::at(out).metrics().resume(trainer.done)?;
        Ok(trainer)
    }

    /// Trains on the window, `train_ratio` samples per new position (none until the window is
    /// ready), batches drawn with `seed`.
    pub(crate) fn train(
        &mut self,
        config: &TrainConfig,
        new_positions: u64,
        seed: u64,
        progress: &dyn Progress,
    ) -> Trained {
        let t = Instant::now();
        let steps = if self.window.is_ready() {
            (new_positions as f64 * config.train_ratio / config.batch_size as f64).round() as u64
        } else {
            0
        };
        progress.phase("train", steps, "");
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut out = Trained::default();
        for _ in 0..steps {
            let picked = self.window.draw(config.batch_size, &mut rng);
            if picked.is_empty() {
                break;
            }
            let samples: Vec<_> = picked.iter().map(|&i| self.window.get(i)).collect();
            let mut batch = Batch::build(&self.encoder, &samples, config.augment, &mut rng);
            if let Some(labels) = &mut self.labels {
                batch.blend_values(&samples, |s| labels.label(s));
            }
            let m = self.learner.step(&batch);
            let w = m.rows as f64;
            out.sums.policy_loss += m.policy_loss * w;
            out.sums.value_loss += m.value_loss * w;
            out.sums.value_accuracy += m.value_accuracy * w;
            out.sums.policy_entropy += m.policy_entropy * w;
            out.samples += m.rows as u64;
            out.steps += 1;
            progress.tick();
        }
        out.seconds = t.elapsed().as_secs_f64();
        out
    }

    /// Iteration `iteration`'s training on the window after `new_positions` new positions,
    /// then its evaluation when due, seeded from the run's `seed`: what was trained, the
    /// strength measured and the seconds the evaluation took.
    pub(crate) fn train_and_evaluate(
        &mut self,
        config: &RunConfig<K>,
        judge: &Judge<K>,
        iteration: u32,
        new_positions: u64,
        progress: &dyn Progress,
    ) -> (Trained, Option<Strength>, f64) {
        let trained = self.train(
            &config.train,
            new_positions,
            super::mix(config.seed, iteration, 0, 2),
            progress,
        );
        let (strength, eval_s) = self.evaluate(
            judge,
            iteration,
            super::mix(config.seed, iteration, 0, 3),
            progress,
        );
        (trained, strength, eval_s)
    }

    /// The judge's measure of the network after `iteration`, when an evaluation is due then,
    /// with the seconds it took; games seeded with `seed`.
    pub(crate) fn evaluate(
        &self,
        judge: &Judge<K>,
        iteration: u32,
        seed: u64,
        progress: &dyn Progress,
    ) -> (Option<Strength>, f64) {
        let t = Instant::now();
        if !judge.due(iteration) {
            return (None, 0.0);
        }
        progress.phase("eval", judge.units(), "");
        let model = self.learner.model().valid();
        let tick = || progress.tick();
        let strength = judge.measure(&model, &self.device, seed, &tick);
        (Some(strength), t.elapsed().as_secs_f64())
    }

    /// Ends an iteration: prints and appends its metrics line, redraws the plots and the report,
    /// and writes the checkpoint.
    pub(crate) fn finish_iteration(
        &mut self,
        config: &RunConfig<K>,
        options: &RunOptions,
        line: IterationMetrics,
        progress: &dyn Progress,
    ) -> Result<(), Error> {
        let out = &options.out;
        progress.say(&metrics::summary_line(&line, K::INFO.sides));
        RunDir::at(out).metrics().append(&line)?;
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
        progress.advance_to(u64::from(iteration));
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
