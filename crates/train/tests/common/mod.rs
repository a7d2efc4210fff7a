//! Helpers shared by the training tests: comparing runs without their timings, and a network's
//! outputs on fixed positions (the weights' fingerprint: checkpoint files differ in parameter
//! ids, which are per process).

use std::path::Path;

use burn::tensor::Device;
use pjlab_nn::NetEvaluator;
use pjlab_pijersi::{PijersiEncoder, PijersiKit, Variant};
use pjlab_train::{IterationMetrics, checkpoint};

/// A metrics line without its timings (which differ between runs).
pub fn untimed(m: &IterationMetrics) -> IterationMetrics {
    IterationMetrics {
        selfplay_s: 0.0,
        train_s: 0.0,
        eval_s: 0.0,
        positions_per_s: 0.0,
        train_samples_per_s: 0.0,
        elapsed_s: 0.0,
        ..m.clone()
    }
}

/// The policy and value outputs of the Pijersi network in `run` (a checkpoint or run directory)
/// on eight fixed full-random setups.
pub fn outputs(run: &Path) -> (Vec<f32>, Vec<f32>) {
    let device = Device::default();
    let (model, _) = checkpoint::load::<PijersiKit>(run, &device).unwrap();
    let mut e = NetEvaluator::new(&model, &device, PijersiEncoder, 0);
    let positions: Vec<_> = (0..8).map(|s| Variant::FullRandom.setup(s)).collect();
    e.forward(&positions.iter().collect::<Vec<_>>())
}
