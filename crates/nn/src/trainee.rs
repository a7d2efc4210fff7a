//! A network under training: the model on an autodiff device and its AdamW state, with the
//! one way to save and resume both. The losses are the trainer's (`pjlab-train`'s AlphaZero
//! targets, `pjlab-chifoumi-learn`'s policy gradient); a step here is backward and update.

use std::path::Path;

use burn::module::Module;
use burn::optim::{AdamWConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::{Device, Tensor, TensorData};

use crate::Error;
use crate::checkpoint::{self, MODEL_FILE, OPTIMIZER_FILE};
use crate::net::{NetConfig, NetShape, PolicyValueNet};

/// A policy/value network being trained with AdamW.
pub struct Trainee {
    model: PolicyValueNet,
    optim: ModuleOptimizer,
    device: Device,
    shape: NetShape,
    weight_decay: f32,
}

fn adamw(weight_decay: f32) -> ModuleOptimizer {
    AdamWConfig::new().with_weight_decay(weight_decay).init()
}

impl Trainee {
    /// A fresh network of `net` for `shape` (weights drawn from `seed`) with a fresh AdamW
    /// state of decoupled weight decay `weight_decay` (per step, times the learning rate),
    /// trained on `device` (which gets autodiff).
    pub fn new(
        net: &NetConfig,
        shape: NetShape,
        weight_decay: f32,
        device: &Device,
        seed: u64,
    ) -> Trainee {
        let device = device.clone().autodiff();
        Trainee {
            model: PolicyValueNet::new(net, shape, &device, seed),
            optim: adamw(weight_decay),
            device,
            shape,
            weight_decay,
        }
    }

    /// The network (with gradients enabled; use [`Module::valid`] for inference).
    pub fn model(&self) -> &PolicyValueNet {
        &self.model
    }

    /// Input and output sizes.
    pub fn shape(&self) -> NetShape {
        self.shape
    }

    /// `data`, `rows` rows of `cols` values in row-major order, as a tensor on the training
    /// device.
    pub fn tensor(&self, data: &[f32], rows: usize, cols: usize) -> Tensor<2> {
        Tensor::<2>::from_data(TensorData::new(data.to_vec(), [rows, cols]), &self.device)
    }

    /// The gradients of the scalar `loss` with respect to the network's parameters.
    pub fn gradients(&self, loss: Tensor<1>) -> GradientsParams {
        GradientsParams::from_grads(loss.backward(), &self.model)
    }

    /// One AdamW update of step size `learning_rate` along `grads`.
    pub fn update(&mut self, learning_rate: f64, grads: GradientsParams) {
        let model = self.model.clone();
        self.model = self.optim.step(learning_rate, model, grads);
    }

    /// Saves the weights and the optimiser state into the checkpoint directory `dir`
    /// ([`MODEL_FILE`] and [`OPTIMIZER_FILE`]).
    ///
    /// # Errors
    /// [`Error::Record`] when a file cannot be written.
    pub fn save(&self, dir: &Path) -> Result<(), Error> {
        let model = dir.join(MODEL_FILE);
        let optimizer = dir.join(OPTIMIZER_FILE);
        self.model
            .clone()
            .into_record()
            .save(&model)
            .map_err(checkpoint::record_error(&model))?;
        self.optim
            .save(&optimizer)
            .map_err(checkpoint::record_error(&optimizer))
    }

    /// Loads the weights of a checkpoint ([`MODEL_FILE`], same network shape) and keeps this
    /// trainee's fresh AdamW state: training that starts from another run's network.
    ///
    /// # Errors
    /// [`Error::Io`] when the file is missing or unreadable, [`Error::Record`] when it is of
    /// another shape.
    pub fn load_weights(&mut self, dir: &Path) -> Result<(), Error> {
        self.model = self
            .model
            .clone()
            .load_record(checkpoint::read_record(&dir.join(MODEL_FILE))?);
        Ok(())
    }

    /// Loads what [`Trainee::save`] wrote into this trainee (same network shape), so that
    /// training continues exactly. The files are read whole into memory, so the checkpoint may
    /// be removed afterwards.
    ///
    /// # Errors
    /// [`Error::Io`] when a file is missing or unreadable, [`Error::Record`] when it is of
    /// another shape.
    pub fn load(&mut self, dir: &Path) -> Result<(), Error> {
        let path = dir.join(MODEL_FILE);
        self.model = self
            .model
            .clone()
            .try_load_record(checkpoint::read_record(&path)?)
            .map_err(checkpoint::record_error(&path))?;
        let optimizer = dir.join(OPTIMIZER_FILE);
        let bytes = checkpoint::read_bytes(&optimizer)?;
        self.optim = adamw(self.weight_decay)
            .from_bytes(bytes)
            .map_err(checkpoint::record_error(&optimizer))?;
        Ok(())
    }
}
