//! Policy-gradient learning for any game whose decisions come as a network input, the legal
//! actions and the action taken: REINFORCE with the network's own win/draw/loss head as
//! baseline, an entropy bonus and a win/draw/loss value loss, stepped by AdamW on a
//! [`Trainee`]. `pjlab-chifoumi-learn` trains the learned Chifoumi player with it; what a
//! decision's return is (a game's rules of scoring) stays with the game's learner.

use std::path::Path;

use burn::tensor::Device;
use burn::tensor::activation::log_softmax;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::{Error, NetConfig, NetShape, PolicyValueNet, Trainee};

/// Decisions for one step, flat and row-major.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PgBatch {
    /// Rows.
    pub rows: usize,
    /// `rows * input` inputs.
    pub inputs: Vec<f32>,
    /// `rows * actions`: 0 where legal, a large negative number elsewhere.
    pub mask: Vec<f32>,
    /// `rows * actions`: 1 at the action taken.
    pub taken: Vec<f32>,
    /// `rows` advantages (return minus baseline, normalised over the iteration).
    pub advantage: Vec<f32>,
    /// `rows * 3`: the game's result for the learner as win / draw / loss, one-hot.
    pub result: Vec<f32>,
}

/// What a step measured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PgMetrics {
    /// -mean(advantage * log p(action)).
    pub policy_loss: f64,
    /// Cross-entropy of the value head against the results.
    pub value_loss: f64,
    /// Mean entropy of the policy over the legal actions (nats).
    pub entropy: f64,
}

/// The step's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PgOptions {
    /// Adam step size.
    pub learning_rate: f64,
    /// Weight of the value (baseline) loss.
    pub value_weight: f32,
    /// Weight of the entropy bonus.
    pub entropy_weight: f32,
}

/// One decision as the learner sees it: the network's input, the legal actions, the action
/// taken and the network's value (P(win) - P(loss)) at the time, the baseline.
pub trait Decision {
    /// The network's input.
    fn input(&self) -> &[f32];
    /// Whether action index `action` was legal.
    fn is_legal(&self, action: usize) -> bool;
    /// The action index taken.
    fn action(&self) -> usize;
    /// The baseline.
    fn value(&self) -> f32;
}

/// Shuffled minibatches of `rows` (each a decision, its return, and the class of its game's
/// result: [`crate::WIN`], [`crate::DRAW`] or [`crate::LOSS`]), `epochs` passes of at most
/// `batch_size` rows each, over `actions` actions; the advantages (return minus baseline) are
/// normalised over all rows. One shuffle of `rng` a pass.
pub fn batches<D: Decision>(
    rows: &[(&D, f32, usize)],
    actions: usize,
    batch_size: usize,
    epochs: u32,
    rng: &mut ChaCha8Rng,
) -> Vec<PgBatch> {
    let n = rows.len().max(1) as f32;
    let adv: Vec<f32> = rows.iter().map(|r| r.1 - r.0.value()).collect();
    let mean = adv.iter().sum::<f32>() / n;
    let sd = (adv.iter().map(|a| (a - mean).powi(2)).sum::<f32>() / n)
        .sqrt()
        .max(1e-6);
    let mut order: Vec<usize> = (0..rows.len()).collect();
    let mut out = Vec::new();
    for _ in 0..epochs {
        order.shuffle(rng);
        for chunk in order.chunks(batch_size) {
            let mut b = PgBatch {
                rows: chunk.len(),
                ..PgBatch::default()
            };
            for &i in chunk {
                let (decision, _, class) = rows[i];
                b.inputs.extend_from_slice(decision.input());
                for a in 0..actions {
                    b.mask.push(if decision.is_legal(a) { 0.0 } else { -1e9 });
                    b.taken.push(if a == decision.action() { 1.0 } else { 0.0 });
                }
                b.advantage.push((adv[i] - mean) / sd);
                let mut r = [0.0; 3];
                r[class] = 1.0;
                b.result.extend_from_slice(&r);
            }
            out.push(b);
        }
    }
    out
}

/// The network under training (a [`Trainee`]: the model and its AdamW state) and the
/// policy-gradient losses.
pub struct PgLearner {
    trainee: Trainee,
    options: PgOptions,
}

impl PgLearner {
    /// A fresh network of `net` for inputs and actions of `shape`, its weights drawn from
    /// `seed`, with AdamW's decoupled `weight_decay`.
    pub fn new(
        net: &NetConfig,
        shape: NetShape,
        weight_decay: f32,
        seed: u64,
        options: PgOptions,
    ) -> PgLearner {
        PgLearner {
            trainee: Trainee::new(net, shape, weight_decay, &Device::default(), seed),
            options,
        }
    }

    /// The network.
    pub fn model(&self) -> &PolicyValueNet {
        self.trainee.model()
    }

    /// One AdamW step on `batch`.
    pub fn step(&mut self, batch: &PgBatch) -> PgMetrics {
        let n = batch.rows;
        let shape = self.trainee.shape();
        let tensor = |data: &[f32], cols: usize| self.trainee.tensor(data, n, cols);
        let (logits, value_logits) = self
            .trainee
            .model()
            .forward(tensor(&batch.inputs, shape.input));
        let logp = log_softmax(logits + tensor(&batch.mask, shape.actions), 1);
        let taken = (logp.clone() * tensor(&batch.taken, shape.actions)).sum_dim(1);
        let policy_loss = (taken * tensor(&batch.advantage, 1)).mean().neg();
        let entropy = (logp.clone().exp() * logp).sum_dim(1).mean().neg();
        let value_loss = (log_softmax(value_logits, 1) * tensor(&batch.result, 3))
            .sum_dim(1)
            .mean()
            .neg();
        let loss = policy_loss.clone() + value_loss.clone() * self.options.value_weight
            - entropy.clone() * self.options.entropy_weight;
        let grads = self.trainee.gradients(loss);
        let metrics = PgMetrics {
            policy_loss: f64::from(policy_loss.into_scalar::<f32>()),
            value_loss: f64::from(value_loss.into_scalar::<f32>()),
            entropy: f64::from(entropy.into_scalar::<f32>()),
        };
        self.trainee.update(self.options.learning_rate, grads);
        metrics
    }

    /// Saves `model.bpk` and `optimizer.bpk` into `dir`.
    ///
    /// # Errors
    /// When a file cannot be written.
    pub fn save(&self, dir: &Path) -> Result<(), Error> {
        self.trainee.save(dir)
    }

    /// Takes the weights of the checkpoint in `dir` (its optimiser state stays fresh).
    ///
    /// # Errors
    /// When the weights file is missing, unreadable or of another shape.
    pub fn load_weights(&mut self, dir: &Path) -> Result<(), Error> {
        self.trainee.load_weights(dir)
    }

    /// Loads what [`PgLearner::save`] wrote.
    ///
    /// # Errors
    /// When a file is missing, unreadable or of another shape.
    pub fn load(&mut self, dir: &Path) -> Result<(), Error> {
        self.trainee.load(dir)
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::{DRAW, LOSS, WIN};

    struct Row {
        input: [f32; 2],
        legal: [bool; 3],
        action: usize,
        value: f32,
    }

    impl Decision for Row {
        fn input(&self) -> &[f32] {
            &self.input
        }
        fn is_legal(&self, action: usize) -> bool {
            self.legal[action]
        }
        fn action(&self) -> usize {
            self.action
        }
        fn value(&self) -> f32 {
            self.value
        }
    }

    /// Every row lands once a pass with its own input, mask, action and result class; the
    /// advantages (return - value) come out with mean 0 and standard deviation 1.
    #[test]
    fn batches_hold_every_row_once_a_pass_with_normalised_advantages() {
        let rows: Vec<Row> = (0..5)
            .map(|i| Row {
                input: [i as f32, 10.0 + i as f32],
                legal: [true, i % 2 == 0, true],
                action: i % 3,
                value: 0.1 * i as f32,
            })
            .collect();
        let returns = [1.0, -1.0, 0.0, 1.0, 1.0];
        let classes = [WIN, LOSS, DRAW, WIN, WIN];
        let table: Vec<(&Row, f32, usize)> = rows
            .iter()
            .zip(returns)
            .zip(classes)
            .map(|((r, ret), class)| (r, ret, class))
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let out = batches(&table, 3, 2, 2, &mut rng);
        assert_eq!(
            out.iter().map(|b| b.rows).collect::<Vec<_>>(),
            [2, 2, 1, 2, 2, 1]
        );
        let mut seen = [0; 5];
        let mut advantages = Vec::new();
        for b in &out {
            for k in 0..b.rows {
                let i = b.inputs[2 * k] as usize;
                seen[i] += 1;
                let row = &rows[i];
                assert_eq!(b.inputs[2 * k + 1], 10.0 + i as f32);
                for a in 0..3 {
                    let mask = b.mask[3 * k + a];
                    assert_eq!(mask == 0.0, row.legal[a]);
                    assert_eq!(b.taken[3 * k + a] == 1.0, a == row.action);
                    assert_eq!(b.result[3 * k + a] == 1.0, a == classes[i]);
                }
                let raw: Vec<f32> = (0..5).map(|j| returns[j] - rows[j].value).collect();
                let mean = raw.iter().sum::<f32>() / 5.0;
                let sd = (raw.iter().map(|a| (a - mean).powi(2)).sum::<f32>() / 5.0).sqrt();
                assert!((b.advantage[k] - (raw[i] - mean) / sd).abs() < 1e-5);
                advantages.push(b.advantage[k]);
            }
        }
        assert_eq!(seen, [2; 5]);
        let mean = advantages.iter().sum::<f32>() / 10.0;
        let var = advantages.iter().map(|a| (a - mean).powi(2)).sum::<f32>() / 10.0;
        assert!(
            mean.abs() < 1e-5 && (var - 1.0).abs() < 1e-4,
            "{mean} {var}"
        );
    }
}
