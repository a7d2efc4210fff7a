//! One training step: batches built from replay samples, the policy and value losses, AdamW.

use burn::tensor::Device;
use burn::tensor::activation::log_softmax;
use pjlab_core::{Encoder, Game};
use pjlab_selfplay::Sample;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::Error;
use pjlab_nn::{DRAW, LOSS, NetConfig, NetShape, PolicyValueNet, Trainee, WIN};

/// Optimiser and loss settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TrainConfig {
    /// Samples per training step.
    pub batch_size: usize,
    /// AdamW step size.
    pub learning_rate: f64,
    /// AdamW decoupled weight decay (per step, times the learning rate).
    pub weight_decay: f32,
    /// Weight of the value loss against the policy loss.
    pub value_weight: f32,
    /// Samples trained per new self-play sample (sets the steps per iteration).
    pub train_ratio: f64,
    /// Train on the board's proven symmetries (the encoder's: the Pijersi mirror, Abalone's 12),
    /// drawn at random per sample.
    pub augment: bool,
    /// Share (0 to 1) of each value target taken from an evaluation of the position (the one
    /// `eval_source` names, at `eval_depth`) instead of the game's result: 0 trains on results
    /// only. A warm start for games
    /// whose early self-play rarely ends (Abalone's draws by the no-ejection rule).
    pub eval_target: f32,
    /// Evaluation (centi-units) that maps to an expected score of tanh(1) = 0.76 in that share.
    pub eval_scale: f32,
    /// The evaluation of that share: `"game"` (the game's hand-written one) or `"nnue:PATH"` (a
    /// learned one from `pjlab nnue train`, PATH relative to the working directory).
    pub eval_source: String,
    /// Plies of alpha-beta search (with quiescence) behind the evaluation's share; 0 takes the
    /// static evaluation of the position.
    pub eval_depth: u32,
    /// Share (0 to 1, with `eval_target` at most 1 in all) of each value target taken from the
    /// self-play search's value of the position instead of the game's result.
    pub search_target: f32,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            batch_size: 256,
            learning_rate: 1e-3,
            weight_decay: 1e-4,
            value_weight: 1.0,
            train_ratio: 2.0,
            augment: true,
            eval_target: 0.0,
            eval_scale: 200.0,
            eval_source: "game".to_string(),
            eval_depth: 0,
            search_target: 0.0,
        }
    }
}

/// Network inputs and targets for one step, flat and row-major.
#[derive(Clone, Debug, Default)]
pub struct Batch {
    /// Rows.
    pub rows: usize,
    /// `[rows, input]` encoded positions.
    pub inputs: Vec<f32>,
    /// `[rows, actions]` policy targets (zero off the search policy's support).
    pub policy: Vec<f32>,
    /// `[rows, actions]` 0 on legal moves, a large negative number elsewhere.
    pub mask: Vec<f32>,
    /// `[rows]` 1 for policy targets, 0 for cheap searches.
    pub policy_weight: Vec<f32>,
    /// `[rows, 3]` one-hot final result (win, draw, loss for the side to move).
    pub value: Vec<f32>,
}

/// Added to the logits of illegal moves.
const ILLEGAL: f32 = -1.0e9;

impl Batch {
    /// Encodes `samples`, each under a random symmetry of `encoder` when `augment` is set.
    pub fn build<G: Game, E: Encoder<G>>(
        encoder: &E,
        samples: &[&Sample<G>],
        augment: bool,
        rng: &mut ChaCha8Rng,
    ) -> Batch {
        let (input, actions) = (encoder.input_len(), encoder.num_actions());
        let rows = samples.len();
        let mut b = Batch {
            rows,
            inputs: vec![0.0; rows * input],
            policy: vec![0.0; rows * actions],
            mask: vec![ILLEGAL; rows * actions],
            policy_weight: vec![0.0; rows],
            value: vec![0.0; rows * 3],
        };
        let mut moves = Vec::new();
        for (r, s) in samples.iter().enumerate() {
            let k = if augment && encoder.symmetries() > 1 {
                rng.random_range(0..encoder.symmetries())
            } else {
                0
            };
            let position = encoder.transform(&s.position, k);
            encoder.encode(&position, &mut b.inputs[r * input..(r + 1) * input]);
            position.legal_moves(&mut moves);
            let row = r * actions;
            for &mv in &moves {
                b.mask[row + encoder.policy_index(&position, position.action_index(mv))] = 0.0;
            }
            for &(a, p) in &s.policy {
                let a = encoder.transform_action(a as usize, k);
                b.policy[row + encoder.policy_index(&position, a)] = p;
            }
            b.policy_weight[r] = if s.policy_target { 1.0 } else { 0.0 };
            let class = if s.result > 0.5 {
                WIN
            } else if s.result < -0.5 {
                LOSS
            } else {
                DRAW
            };
            b.value[r * 3 + class] = 1.0;
        }
        b
    }
}

impl Batch {
    /// Blends each row's value target with an expected score: `label(sample)` gives a share
    /// and `v` in -1..1 for the side to move, and that share of the target becomes
    /// `(1 + v) / 2` win and `(1 - v) / 2` loss; `samples` are the ones the batch was built
    /// from.
    pub fn blend_values<G: Game>(
        &mut self,
        samples: &[&Sample<G>],
        mut label: impl FnMut(&Sample<G>) -> (f32, f32),
    ) {
        for (r, s) in samples.iter().enumerate().take(self.rows) {
            let (share, v) = label(s);
            let (share, v) = (share.clamp(0.0, 1.0), v.clamp(-1.0, 1.0));
            let row = &mut self.value[r * 3..r * 3 + 3];
            for x in row.iter_mut() {
                *x *= 1.0 - share;
            }
            row[WIN] += share * (1.0 + v) / 2.0;
            row[LOSS] += share * (1.0 - v) / 2.0;
        }
    }
}

/// What one step measured (before its update).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StepMetrics {
    /// Cross-entropy of the policy against the search policy, over policy targets.
    pub policy_loss: f64,
    /// Cross-entropy of the win/draw/loss head against the result.
    pub value_loss: f64,
    /// Share of rows whose most likely result class is the actual one.
    pub value_accuracy: f64,
    /// Mean entropy of the network's policy over the legal moves, in nats.
    pub policy_entropy: f64,
    /// Rows in the step.
    pub rows: usize,
}

/// The network being trained (a [`Trainee`]: the model and its AdamW state) and the AlphaZero
/// losses.
pub struct Learner {
    trainee: Trainee,
    config: TrainConfig,
}

impl Learner {
    /// A fresh network (weights from `seed`) with a fresh AdamW state, trained on `device`
    /// (which gets autodiff).
    pub fn new(
        net: &NetConfig,
        shape: NetShape,
        config: &TrainConfig,
        device: &Device,
        seed: u64,
    ) -> Learner {
        Learner {
            trainee: Trainee::new(net, shape, config.weight_decay, device, seed),
            config: config.clone(),
        }
    }

    /// The network (with gradients enabled; use [`burn::module::Module::valid`] for
    /// inference).
    pub fn model(&self) -> &PolicyValueNet {
        self.trainee.model()
    }

    /// Input and output sizes.
    pub fn shape(&self) -> NetShape {
        self.trainee.shape()
    }

    /// One AdamW step on `batch`.
    pub fn step(&mut self, batch: &Batch) -> StepMetrics {
        let n = batch.rows;
        let shape = self.trainee.shape();
        let tensor = |data: &[f32], cols: usize| self.trainee.tensor(data, n, cols);
        let inputs = tensor(&batch.inputs, shape.input);
        let (policy_logits, value_logits) = self.trainee.model().forward(inputs);
        let logp = log_softmax(policy_logits + tensor(&batch.mask, shape.actions), 1);
        let weight = tensor(&batch.policy_weight, 1);
        let weight_sum: f32 = batch.policy_weight.iter().sum();
        let per_row = (logp.clone() * tensor(&batch.policy, shape.actions)).sum_dim(1);
        let policy_loss = (per_row * weight).sum().neg() / f64::from(weight_sum.max(1.0));
        let logv = log_softmax(value_logits, 1);
        let value_loss = (logv.clone() * tensor(&batch.value, 3))
            .sum_dim(1)
            .mean()
            .neg();
        let entropy = (logp.clone().exp() * logp).sum_dim(1).mean().neg();
        let loss = policy_loss.clone() + value_loss.clone() * self.config.value_weight;
        let grads = self.trainee.gradients(loss);
        let logv = logv.into_data().try_into_vec::<f32>().unwrap_or_default();
        let correct = (0..n)
            .filter(|&r| {
                let row = &logv[r * 3..r * 3 + 3];
                let best = (0..3)
                    .max_by(|&a, &b| row[a].total_cmp(&row[b]))
                    .unwrap_or(0);
                batch.value[r * 3 + best] > 0.5
            })
            .count();
        let metrics = StepMetrics {
            policy_loss: f64::from(policy_loss.into_scalar::<f32>()),
            value_loss: f64::from(value_loss.into_scalar::<f32>()),
            value_accuracy: correct as f64 / n.max(1) as f64,
            policy_entropy: f64::from(entropy.into_scalar::<f32>()),
            rows: n,
        };
        self.trainee.update(self.config.learning_rate, grads);
        metrics
    }

    /// Saves the weights and the optimiser state into the checkpoint directory `dir`.
    ///
    /// # Errors
    /// When a file cannot be written.
    pub fn save(&self, dir: &std::path::Path) -> Result<(), Error> {
        Ok(self.trainee.save(dir)?)
    }

    /// Loads what [`Learner::save`] wrote into this learner (same network shape). The files are
    /// read whole into memory, so the checkpoint may be removed afterwards.
    ///
    /// # Errors
    /// When a file is missing, unreadable or of another shape.
    pub fn load(&mut self, dir: &std::path::Path) -> Result<(), Error> {
        Ok(self.trainee.load(dir)?)
    }
}
