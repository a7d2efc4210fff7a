//! One policy-gradient step in Burn: REINFORCE with the network's value as baseline, an
//! entropy bonus, and a win/draw/loss value loss; AdamW.

use burn::tensor::Device;
use burn::tensor::activation::log_softmax;
use pjlab_nn::{NetShape, PolicyValueNet, Trainee};
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::config::LearnConfig;

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

/// The network under training (a [`Trainee`]: the model and its AdamW state) and the
/// policy-gradient losses.
pub struct PgLearner {
    trainee: Trainee,
    config: LearnConfig,
}

impl PgLearner {
    /// A fresh network of `config.network` for inputs and actions of `shape`, its weights
    /// drawn from `config.seed`.
    pub fn new(config: &LearnConfig, shape: NetShape) -> PgLearner {
        PgLearner {
            trainee: Trainee::new(
                &config.network,
                shape,
                config.weight_decay,
                &Device::default(),
                config.seed,
            ),
            config: config.clone(),
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
        let loss = policy_loss.clone() + value_loss.clone() * self.config.value_weight
            - entropy.clone() * self.config.entropy_weight;
        let grads = self.trainee.gradients(loss);
        let metrics = PgMetrics {
            policy_loss: f64::from(policy_loss.into_scalar::<f32>()),
            value_loss: f64::from(value_loss.into_scalar::<f32>()),
            entropy: f64::from(entropy.into_scalar::<f32>()),
        };
        self.trainee.update(self.config.learning_rate, grads);
        metrics
    }

    /// Saves `model.bpk` and `optimizer.bpk` into `dir`.
    ///
    /// # Errors
    /// When a file cannot be written.
    pub fn save(&self, dir: &std::path::Path) -> Result<(), Error> {
        Ok(self.trainee.save(dir)?)
    }

    /// Takes the weights of the checkpoint in `dir` (its optimiser state stays fresh).
    ///
    /// # Errors
    /// When the weights file is missing, unreadable or of another shape.
    pub fn load_weights(&mut self, dir: &std::path::Path) -> Result<(), Error> {
        Ok(self.trainee.load_weights(dir)?)
    }

    /// Loads what [`PgLearner::save`] wrote.
    ///
    /// # Errors
    /// When a file is missing, unreadable or of another shape.
    pub fn load(&mut self, dir: &std::path::Path) -> Result<(), Error> {
        Ok(self.trainee.load(dir)?)
    }
}
