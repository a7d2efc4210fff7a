//! The policy/value network: an MLP trunk with a policy head over the game's dense action space
//! and a win/draw/loss value head.

use burn::module::Module;
use burn::nn::{Linear, LinearConfig};
use burn::tensor::activation::relu;
use burn::tensor::{Device, Tensor};
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

impl PolicyValueNet {
    /// A freshly initialised network on `device` (seed the device for reproducible weights).
    pub fn new(config: &NetConfig, shape: NetShape, device: &Device) -> PolicyValueNet {
        let hidden = config.hidden.max(1);
        let mut trunk = Vec::new();
        let mut width = shape.input;
        for _ in 0..config.layers.max(1) {
            trunk.push(LinearConfig::new(width, hidden).init(device));
            width = hidden;
        }
        PolicyValueNet {
            trunk,
            policy: LinearConfig::new(width, shape.actions).init(device),
            value: LinearConfig::new(width, 3).init(device),
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
