//! The policy/value network: an MLP trunk with a policy head over the game's dense action space
//! and a win/draw/loss value head.

use burn::module::{Module, Param};
use burn::nn::Linear;
use burn::tensor::activation::relu;
use burn::tensor::{Device, Tensor, TensorData};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Shape of the network. The default (3 hidden layers of 128) was chosen by measurement for CPU
/// self-play: see the crate documentation and `pjlab bench`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NetConfig {
    /// Width of each hidden layer, in units.
    pub hidden: usize,
    /// Number of hidden layers (at least 1).
    pub layers: usize,
}

impl Default for NetConfig {
    fn default() -> Self {
        NetConfig {
            hidden: 128,
            layers: 3,
        }
    }
}

/// Input and output sizes, fixed by the encoder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetShape {
    /// Length of one input.
    pub input: usize,
    /// Policy outputs (the action space).
    pub actions: usize,
}

/// Index of the win, draw and loss logits in the value head (for the side to move).
pub const WIN: usize = 0;
/// See [`WIN`].
pub const DRAW: usize = 1;
/// See [`WIN`].
pub const LOSS: usize = 2;

/// Policy logits and value (win/draw/loss) logits, one row per position.
#[derive(Module, Debug)]
pub struct PolicyValueNet {
    trunk: Vec<Linear>,
    policy: Linear,
    value: Linear,
}

/// A linear layer with weights and biases drawn from `U(-k, k)`, `k = 1 / sqrt(d_input)`
/// (Burn's default for `Linear`), from our own generator: Burn's is shared by the process and
/// draws lazily, so concurrent networks would not be reproducible.
fn linear(d_input: usize, d_output: usize, rng: &mut ChaCha8Rng, device: &Device) -> Linear {
    let k = (1.0 / d_input as f64).sqrt() as f32;
    let mut draw = |n: usize| -> Vec<f32> { (0..n).map(|_| rng.random_range(-k..k)).collect() };
    let weight = draw(d_input * d_output);
    let bias = draw(d_output);
    Linear {
        weight: Param::from_tensor(Tensor::from_data(
            TensorData::new(weight, [d_input, d_output]),
            device,
        )),
        bias: Some(Param::from_tensor(Tensor::from_data(
            TensorData::new(bias, [d_output]),
            device,
        ))),
    }
}

/// One linear layer's parameters, for export: `y = x W + b` with `W` of `[inputs, outputs]` in
/// row-major order.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerWeights {
    /// Input width.
    pub inputs: usize,
    /// Output width.
    pub outputs: usize,
    /// `inputs * outputs` weights, row-major.
    pub weight: Vec<f32>,
    /// `outputs` biases.
    pub bias: Vec<f32>,
}

fn weights_of(layer: &Linear) -> LayerWeights {
    let w = layer.weight.val();
    let [inputs, outputs] = w.dims();
    let weight = w.into_data().try_into_vec::<f32>().unwrap_or_default();
    let bias = layer
        .bias
        .as_ref()
        .map(|b| {
            b.val()
                .into_data()
                .try_into_vec::<f32>()
                .unwrap_or_default()
        })
        .unwrap_or_else(|| vec![0.0; outputs]);
    LayerWeights {
        inputs,
        outputs,
        weight,
        bias,
    }
}

impl PolicyValueNet {
    /// Every layer's parameters in order: the trunk, then the policy head, then the value head.
    pub fn layers(&self) -> Vec<LayerWeights> {
        self.trunk
            .iter()
            .chain([&self.policy, &self.value])
            .map(weights_of)
            .collect()
    }

    /// A freshly initialised network on `device`, its weights drawn from `seed`.
    pub fn new(config: &NetConfig, shape: NetShape, device: &Device, seed: u64) -> PolicyValueNet {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let hidden = config.hidden.max(1);
        let mut trunk = Vec::new();
        let mut width = shape.input;
        for _ in 0..config.layers.max(1) {
            trunk.push(linear(width, hidden, &mut rng, device));
            width = hidden;
        }
        PolicyValueNet {
            trunk,
            policy: linear(width, shape.actions, &mut rng, device),
            value: linear(width, 3, &mut rng, device),
        }
    }

    /// `input` is `[batch, input]`; returns policy logits `[batch, actions]` and value logits
    /// `[batch, 3]` (win, draw, loss for the side to move).
    pub fn forward(&self, input: Tensor<2>) -> (Tensor<2>, Tensor<2>) {
        let mut x = input;
        for layer in &self.trunk {
            x = relu(layer.forward(x));
        }
        (self.policy.forward(x.clone()), self.value.forward(x))
    }
}
