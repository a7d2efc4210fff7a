//! One policy-gradient step in Burn: REINFORCE with the network's value as baseline, an
//! entropy bonus, and a win/draw/loss value loss; AdamW.

use burn::module::Module;
use burn::optim::{AdamWConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::activation::log_softmax;
use burn::tensor::{Bytes, Device, Tensor, TensorData};
use pjlab_train::net::{NetConfig, NetShape, PolicyValueNet};
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

/// The network under training and its optimiser.
pub struct PgLearner {
    model: PolicyValueNet,
    optim: ModuleOptimizer,
    device: Device,
    shape: NetShape,
    config: LearnConfig,
}

fn optimizer(config: &LearnConfig) -> ModuleOptimizer {
    AdamWConfig::new()
        .with_weight_decay(config.weight_decay)
        .init()
}

impl PgLearner {
    /// A fresh network of `config.network` for inputs and actions of `shape`, its weights
    /// drawn from `config.seed`.
    pub fn new(config: &LearnConfig, shape: NetShape) -> PgLearner {
        let device = Device::default().autodiff();
        PgLearner {
            model: PolicyValueNet::new(&config.network, shape, &device, config.seed),
            optim: optimizer(config),
            device,
            shape,
            config: config.clone(),
        }
    }

    /// The network.
    pub fn model(&self) -> &PolicyValueNet {
        &self.model
    }

    /// One AdamW step on `batch`.
    pub fn step(&mut self, batch: &PgBatch) -> PgMetrics {
        let n = batch.rows;
        let actions = self.shape.actions;
        let tensor = |data: &[f32], cols: usize| {
            Tensor::<2>::from_data(TensorData::new(data.to_vec(), [n, cols]), &self.device)
        };
        let (logits, value_logits) = self.model.forward(tensor(&batch.inputs, self.shape.input));
        let logp = log_softmax(logits + tensor(&batch.mask, actions), 1);
        let taken = (logp.clone() * tensor(&batch.taken, actions)).sum_dim(1);
        let policy_loss = (taken * tensor(&batch.advantage, 1)).mean().neg();
        let entropy = (logp.clone().exp() * logp).sum_dim(1).mean().neg();
        let value_loss = (log_softmax(value_logits, 1) * tensor(&batch.result, 3))
            .sum_dim(1)
            .mean()
            .neg();
        let loss = policy_loss.clone() + value_loss.clone() * self.config.value_weight
            - entropy.clone() * self.config.entropy_weight;
        let grads = GradientsParams::from_grads(loss.backward(), &self.model);
        let metrics = PgMetrics {
            policy_loss: f64::from(policy_loss.into_scalar::<f32>()),
            value_loss: f64::from(value_loss.into_scalar::<f32>()),
            entropy: f64::from(entropy.into_scalar::<f32>()),
        };
        let model = self.model.clone();
        self.model = self.optim.step(self.config.learning_rate, model, grads);
        metrics
    }

    /// Saves `model.bpk` and `optimizer.bpk` into `dir`.
    ///
    /// # Errors
    /// [`Error::Checkpoint`] when a file cannot be written.
    pub fn save(&self, dir: &std::path::Path) -> Result<(), Error> {
        let err =
            |e: burn::store::RecordError| Error::Checkpoint(format!("{}: {e}", dir.display()));
        self.model
            .clone()
            .into_record()
            .save(dir.join("model.bpk"))
            .map_err(err)?;
        self.optim.save(dir.join("optimizer.bpk")).map_err(err)
    }

    /// Loads what [`PgLearner::save`] wrote.
    ///
    /// # Errors
    /// [`Error::Checkpoint`] when a file is missing, unreadable or of another shape.
    pub fn load(&mut self, dir: &std::path::Path) -> Result<(), Error> {
        self.model = pjlab_train::load_model(dir, &self.config.network, self.shape, &self.device)
            .map_err(|e| Error::Checkpoint(e.to_string()))?;
        let bytes = read_bytes(&dir.join("optimizer.bpk"))?;
        self.optim = optimizer(&self.config)
            .from_bytes(bytes)
            .map_err(|e| Error::Checkpoint(format!("{}: {e}", dir.display())))?;
        Ok(())
    }
}

fn read_bytes(path: &std::path::Path) -> Result<Bytes, Error> {
    let data =
        std::fs::read(path).map_err(|e| Error::Checkpoint(format!("{}: {e}", path.display())))?;
    Ok(Bytes::from_bytes_vec(data))
}

/// The weights of `model.bpk` in `dir`, in a network of `net` and `shape`, for inference.
///
/// # Errors
/// [`Error::Checkpoint`] when the file is missing, unreadable or of another shape.
pub fn load_model(
    dir: &std::path::Path,
    net: &NetConfig,
    shape: NetShape,
) -> Result<PolicyValueNet, Error> {
    pjlab_train::load_model(dir, net, shape, &Device::default())
        .map_err(|e| Error::Checkpoint(e.to_string()))
}
