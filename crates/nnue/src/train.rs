//! A small trainer for [`Network`]: binary cross-entropy between the output's sigmoid and a
//! target that blends the game's result with the search's score, minibatch Adam.
//!
//! Written by hand rather than with Burn (`pjlab-nn`): the input is ~30 features on out of
//! ~1,800, so the first layer's forward and backward passes are sums over a handful of rows,
//! which a dense tensor library would do as a full matrix product; the whole network is three
//! loops each way, trains on the lab's 2-core machines in seconds a pass, and keeps this crate
//! (and alpha-beta players built on it) free of Burn. The test `gradients_match_differences`
//! holds the gradients against finite differences of the loss.

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use pjlab_core::{Game, SparseFeatures};

use crate::data::Sample;
use crate::{Error, MAX_HIDDEN, Network};

/// Training settings (in a TOML or JSON file, every key optional: the defaults fill in).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TrainOptions {
    /// Accumulator width per point of view.
    pub hidden: usize,
    /// Second layer's units.
    pub l2: usize,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions a step.
    pub batch: usize,
    /// Adam's learning rate.
    pub lr: f32,
    /// Weight of the game's result in the target (the rest: the search's score).
    pub lambda: f32,
    /// Centi-units of the search's score per unit of logit: the score's target is
    /// `sigmoid(score / label_scale)`; also the evaluation's scale in alpha-beta.
    pub label_scale: f32,
    /// Share of the positions held out to measure the loss on.
    pub validation: f32,
    /// Seed of the initial weights, the split and the order.
    pub seed: u64,
    /// Whether the network learns a correction to the hand-written evaluation (its output
    /// added to `reference / label_scale`) rather than the whole evaluation; its output weights
    /// then start at zero, so that training starts from the hand-written evaluation.
    pub residual: bool,
    /// Decoupled weight decay (AdamW) on every weight: it pulls a residual network's
    /// correction towards none where the data do not support one.
    pub weight_decay: f32,
    /// Whether to train the feature set's factors too ([`SparseFeatures::factor`]: one kind
    /// of piece on any cell, say), folded into the features' weights when training ends; only
    /// with [`train_features`], and only for a feature set that has factors.
    pub factorise: bool,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            hidden: 64,
            l2: 16,
            epochs: 20,
            batch: 256,
            lr: 1e-3,
            lambda: 0.5,
            label_scale: 200.0,
            validation: 0.05,
            seed: 1,
            residual: false,
            weight_decay: 0.0,
            factorise: false,
        }
    }
}

/// The losses after one pass.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EpochLoss {
    /// The pass, from 1.
    pub epoch: usize,
    /// Mean loss over the pass's training positions (as they were met).
    pub train: f64,
    /// Mean loss over the held-out positions after the pass.
    pub validation: f64,
    /// Mean loss over the held-out positions of the hand-written evaluation alone
    /// (`sigmoid(reference / label_scale)`), for comparison.
    pub reference: f64,
}

/// What the network's output is added to for a sample: the hand-written evaluation in logit
/// units when training a residual, else 0.
pub fn base(sample: &Sample, options: &TrainOptions) -> f32 {
    if options.residual {
        sample.reference as f32 / options.label_scale
    } else {
        0.0
    }
}

/// The target of a sample: `lambda * result + (1 - lambda) * sigmoid(score / label_scale)`.
pub fn target(sample: &Sample, options: &TrainOptions) -> f32 {
    let score = sample.score.clamp(-20_000, 20_000) as f32;
    let from_score = sigmoid(score / options.label_scale);
    options.lambda * sample.result + (1.0 - options.lambda) * from_score
}

#[inline]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

fn bce(logit: f32, target: f32) -> f64 {
    // -(t ln p + (1 - t) ln (1 - p)) written on the logit, stable for large |logit|.
    let l = f64::from(logit);
    let t = f64::from(target);
    l.max(0.0) - l * t + (-l.abs()).exp().ln_1p()
}

/// A network of the options' sizes with random weights.
///
/// # Errors
/// [`Error::Inputs`] or [`Error::Sizes`] on sizes out of range.
pub fn init(inputs: usize, options: &TrainOptions) -> Result<Network, Error> {
    let mut net = Network::zeros(inputs, options.hidden, options.l2)?;
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let mut fill = |v: &mut [f32], a: f32| {
        for x in v {
            *x = rng.random_range(-a..a);
        }
    };
    fill(&mut net.w1, 0.1);
    net.b1.fill(0.5);
    fill(&mut net.w2, (1.0 / (2 * options.hidden) as f32).sqrt());
    if !options.residual {
        fill(&mut net.w3, (1.0 / options.l2 as f32).sqrt());
    }
    Ok(net)
}

/// Gradients of the mean loss, shaped as the network.
struct Grads(Network);

impl Grads {
    fn zero(&mut self) {
        let g = &mut self.0;
        for v in [&mut g.w1, &mut g.b1, &mut g.w2, &mut g.b2, &mut g.w3] {
            v.fill(0.0);
        }
        g.b3 = 0.0;
    }
}

/// Adds the gradient of `weight` times the loss of one sample to `grads`; returns its loss.
fn backward(
    net: &Network,
    sample: &Sample,
    base: f32,
    target: f32,
    weight: f32,
    grads: &mut Network,
) -> f64 {
    let h = net.hidden;
    let mut acc = [0.0f32; 2 * MAX_HIDDEN];
    net.accumulate(&sample.stm, &mut acc[..h]);
    net.accumulate(&sample.other, &mut acc[h..2 * h]);
    let acc = &acc[..2 * h];
    let x: Vec<f32> = acc.iter().map(|a| a.clamp(0.0, 1.0)).collect();
    let mut z2 = vec![0.0f32; net.l2];
    let mut out = net.b3 + base;
    for (j, z) in z2.iter_mut().enumerate() {
        let row = &net.w2[j * 2 * h..][..2 * h];
        *z = net.b2[j] + row.iter().zip(&x).map(|(w, x)| w * x).sum::<f32>();
        out += net.w3[j] * z.clamp(0.0, 1.0);
    }
    let loss = bce(out, target);
    let d = (sigmoid(out) - target) * weight;
    grads.b3 += d;
    let mut dx = vec![0.0f32; 2 * h];
    for (j, &z) in z2.iter().enumerate() {
        grads.w3[j] += d * z.clamp(0.0, 1.0);
        if z <= 0.0 || z >= 1.0 {
            continue;
        }
        let d2 = d * net.w3[j];
        grads.b2[j] += d2;
        let row = &net.w2[j * 2 * h..][..2 * h];
        let grow = &mut grads.w2[j * 2 * h..][..2 * h];
        for k in 0..2 * h {
            grow[k] += d2 * x[k];
            dx[k] += d2 * row[k];
        }
    }
    for (k, d) in dx.iter_mut().enumerate() {
        if acc[k] <= 0.0 || acc[k] >= 1.0 {
            *d = 0.0;
        }
    }
    for k in 0..h {
        grads.b1[k] += dx[k] + dx[h + k];
    }
    for (features, half) in [(&sample.stm, &dx[..h]), (&sample.other, &dx[h..])] {
        for &f in features.iter() {
            let row = &mut grads.w1[usize::from(f) * h..][..h];
            for (g, d) in row.iter_mut().zip(half) {
                *g += d;
            }
        }
    }
    loss
}

/// Adam's moments of one weight vector.
struct Moments {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Moments {
    fn new(n: usize) -> Moments {
        Moments {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    fn step(&mut self, params: &mut [f32], grads: &[f32], lr: f32, decay: f32, t: i32) {
        let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        let c1 = 1.0 - b1.powi(t);
        let c2 = 1.0 - b2.powi(t);
        for i in 0..params.len() {
            let g = grads[i];
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * g;
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * g * g;
            params[i] -=
                lr * ((self.m[i] / c1) / ((self.v[i] / c2).sqrt() + eps) + decay * params[i]);
        }
    }
}

/// The mean loss of `net` on `samples`.
pub fn loss(net: &Network, samples: &[Sample], options: &TrainOptions) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .map(|s| {
            bce(
                net.forward(&s.stm, &s.other) + base(s, options),
                target(s, options),
            )
        })
        .sum();
    total / samples.len() as f64
}

/// The mean loss of the hand-written evaluation alone on `samples`.
pub fn reference_loss(samples: &[Sample], options: &TrainOptions) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .map(|s| bce(s.reference as f32 / options.label_scale, target(s, options)))
        .sum();
    total / samples.len() as f64
}

/// Trains a network of `inputs` features on `samples` (the last share held out), calling
/// `progress` after each pass; returns the network of the pass with the lowest held-out loss
/// (the last pass's when nothing is held out) and every pass's losses.
///
/// # Errors
/// [`Error::TrainOptions`] on bad options, [`Error::FeatureBeyond`] for a sample with a
/// feature beyond `inputs`.
pub fn train(
    inputs: usize,
    samples: &[Sample],
    options: &TrainOptions,
    progress: &mut dyn FnMut(&EpochLoss),
) -> Result<(Network, Vec<EpochLoss>), Error> {
    let positive = |x: f32| x.is_finite() && x > 0.0;
    let valid = options.batch > 0
        && positive(options.lr)
        && positive(options.label_scale)
        && (0.0..=1.0).contains(&options.lambda)
        && (0.0..1.0).contains(&options.validation)
        && options.weight_decay >= 0.0
        && options.weight_decay.is_finite();
    if !valid {
        return Err(Error::TrainOptions);
    }
    if samples.iter().any(|s| {
        s.stm
            .iter()
            .chain(&s.other)
            .any(|&f| usize::from(f) >= inputs)
    }) {
        return Err(Error::FeatureBeyond { inputs });
    }
    let mut net = init(inputs, options)?;
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed ^ 0x5EED);
    let order: Vec<usize> = (0..samples.len()).collect();
    // The last positions are held out, not a random share: positions of one game share its
    // result (and its setup), so a random split lets the network recognise held-out games.
    // Data files are in game order, so this holds out the last games (one game may straddle).
    let held = (samples.len() as f32 * options.validation) as usize;
    let split = samples.len() - held;
    let validation: Vec<Sample> = order[split..].iter().map(|&i| samples[i].clone()).collect();
    let mut train_idx = order[..split].to_vec();
    let mut grads = Grads(Network::zeros(inputs, options.hidden, options.l2)?);
    let mut moments = [
        Moments::new(net.w1.len()),
        Moments::new(net.b1.len()),
        Moments::new(net.w2.len()),
        Moments::new(net.b2.len()),
        Moments::new(net.w3.len()),
        Moments::new(1),
    ];
    let mut t = 0;
    let wd = options.weight_decay;
    let mut history = Vec::new();
    let mut best: Option<(Network, f64)> = None;
    for epoch in 1..=options.epochs {
        train_idx.shuffle(&mut rng);
        let mut total = 0.0;
        for batch in train_idx.chunks(options.batch) {
            grads.zero();
            let weight = 1.0 / batch.len() as f32;
            for &i in batch {
                let s = &samples[i];
                let (b, t) = (base(s, options), target(s, options));
                total += backward(&net, s, b, t, weight, &mut grads.0);
            }
            t += 1;
            let g = &grads.0;
            moments[0].step(&mut net.w1, &g.w1, options.lr, wd, t);
            moments[1].step(&mut net.b1, &g.b1, options.lr, wd, t);
            moments[2].step(&mut net.w2, &g.w2, options.lr, wd, t);
            moments[3].step(&mut net.b2, &g.b2, options.lr, wd, t);
            moments[4].step(&mut net.w3, &g.w3, options.lr, wd, t);
            let mut b3 = [net.b3];
            moments[5].step(&mut b3, &[g.b3], options.lr, wd, t);
            net.b3 = b3[0];
        }
        let record = EpochLoss {
            epoch,
            train: total / train_idx.len().max(1) as f64,
            validation: loss(&net, &validation, options),
            reference: reference_loss(&validation, options),
        };
        progress(&record);
        if held == 0
            || best
                .as_ref()
                .is_none_or(|(_, loss)| record.validation < *loss)
        {
            best = Some((net.clone(), record.validation));
        }
        history.push(record);
    }
    Ok((best.map_or(net, |(net, _)| net), history))
}

/// [`train`] on the inputs of `features`, with its factors when `options.factorise`: each
/// sample also switches on the factor of each of its features (inputs past the features'),
/// and when training ends each factor's weights are added to its features' and the factors
/// dropped, so that the network returned computes what the trained one did on the features
/// alone.
///
/// # Errors
/// As [`train`]; [`Error::NoFactors`] for `factorise` with a feature set that has no factors.
pub fn train_features<G: Game>(
    features: &dyn SparseFeatures<G>,
    samples: &[Sample],
    options: &TrainOptions,
    progress: &mut dyn FnMut(&EpochLoss),
) -> Result<(Network, Vec<EpochLoss>), Error> {
    let inputs = features.num_features();
    if !options.factorise {
        return train(inputs, samples, options, progress);
    }
    let factors = features.num_factors();
    if factors == 0 {
        return Err(Error::NoFactors(features.id().name));
    }
    let factor = |f: u16| {
        features
            .factor(usize::from(f))
            .filter(|&c| c < factors)
            .map(|c| (inputs + c) as u16)
    };
    let with_factors = |list: &[u16]| -> Vec<u16> {
        let mut out = list.to_vec();
        out.extend(list.iter().filter_map(|&f| factor(f)));
        out
    };
    let factored: Vec<Sample> = samples
        .iter()
        .map(|s| Sample {
            stm: with_factors(&s.stm),
            other: with_factors(&s.other),
            ..s.clone()
        })
        .collect();
    let (mut net, history) = train(inputs + factors, &factored, options, progress)?;
    fold(&mut net, inputs, |f| {
        features.factor(f).filter(|&c| c < factors)
    });
    Ok((net, history))
}

/// Adds each factor's first-layer row (rows `inputs..`) to the rows of its features and drops
/// the factors' rows.
fn fold(net: &mut Network, inputs: usize, factor: impl Fn(usize) -> Option<usize>) {
    let h = net.hidden;
    for f in 0..inputs {
        if let Some(c) = factor(f) {
            let (rows, extra) = net.w1.split_at_mut(inputs * h);
            let source = &extra[c * h..][..h];
            for (w, v) in rows[f * h..][..h].iter_mut().zip(source) {
                *w += v;
            }
        }
    }
    net.w1.truncate(inputs * h);
    net.inputs = inputs;
}

#[cfg(test)]
mod tests;
