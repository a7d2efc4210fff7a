//! The network as the search's evaluator: one forward pass per lock-step step, with a cache of
//! evaluations keyed by the position hash.

use std::collections::HashMap;
use std::marker::PhantomData;

use burn::module::Module;

use burn::tensor::{Device, Tensor, TensorData};
use pjlab_core::{Encoder, Game};
use pjlab_mcts::{Evaluation, Evaluator, Request, Value};

use crate::net::{DRAW, LOSS, PolicyValueNet, WIN};

/// Counters of an evaluator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvalCounters {
    /// Positions asked for.
    pub requests: u64,
    /// Of those, answered from the cache.
    pub cache_hits: u64,
    /// Forward passes.
    pub batches: u64,
}

struct Cached {
    priors: Vec<f32>,
    value: f32,
}

/// Evaluates positions with a [`PolicyValueNet`] on a non-autodiff device.
///
/// Priors are the policy softmax over the legal moves only; the value is `P(win) - P(loss)`
/// for the side to move.
pub struct NetEvaluator<G: Game, E: Encoder<G>> {
    model: PolicyValueNet,
    device: Device,
    encoder: E,
    cache: HashMap<u64, Cached>,
    cache_capacity: usize,
    counters: EvalCounters,
    _game: PhantomData<fn(&G)>,
}

impl<G: Game, E: Encoder<G>> NetEvaluator<G, E> {
    /// An evaluator for `model` (moved to `device` without gradients), caching up to
    /// `cache_capacity` positions (0 disables the cache; the cache is emptied when full).
    pub fn new(model: &PolicyValueNet, device: &Device, encoder: E, cache_capacity: usize) -> Self {
        NetEvaluator {
            model: model.valid().to_device(device),
            device: device.clone(),
            encoder,
            cache: HashMap::new(),
            cache_capacity,
            counters: EvalCounters::default(),
            _game: PhantomData,
        }
    }

    /// Counters so far.
    pub fn counters(&self) -> EvalCounters {
        self.counters
    }

    /// Raw network outputs for `positions`: policy logits (`[n * actions]`, network order) and
    /// value logits (`[n * 3]`).
    pub fn forward(&mut self, positions: &[&G]) -> (Vec<f32>, Vec<f32>) {
        let len = self.encoder.input_len();
        let mut inputs = vec![0.0; positions.len() * len];
        for (p, chunk) in positions.iter().zip(inputs.chunks_mut(len)) {
            self.encoder.encode(p, chunk);
        }
        let input = Tensor::<2>::from_data(
            TensorData::new(inputs, [positions.len(), len]),
            &self.device,
        );
        let (policy, value) = self.model.forward(input);
        self.counters.batches += 1;
        let policy = policy.into_data().try_into_vec::<f32>().unwrap_or_default();
        let value = value.into_data().try_into_vec::<f32>().unwrap_or_default();
        (policy, value)
    }
}

/// Softmax of `logits` in place.
pub fn softmax_in_place(logits: &mut [f32]) {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut total = 0.0;
    for x in logits.iter_mut() {
        *x = (*x - max).exp();
        total += *x;
    }
    if total > 0.0 && total.is_finite() {
        for x in logits.iter_mut() {
            *x /= total;
        }
    } else {
        let n = logits.len() as f32;
        logits.fill(1.0 / n);
    }
}

/// `P(win) - P(loss)` from win/draw/loss logits.
pub fn wdl_value(logits: &[f32]) -> f32 {
    let mut p = [logits[WIN], logits[DRAW], logits[LOSS]];
    softmax_in_place(&mut p);
    p[WIN] - p[LOSS]
}

impl<G: Game, E: Encoder<G>> Evaluator<G> for NetEvaluator<G, E> {
    fn evaluate(&mut self, requests: &[Request<'_, G>], out: &mut [Evaluation]) {
        self.counters.requests += requests.len() as u64;
        let mut todo: Vec<usize> = Vec::new();
        for (i, r) in requests.iter().enumerate() {
            match self.cache.get(&r.position.hash()) {
                Some(c) if c.priors.len() == r.moves.len() => {
                    out[i].priors.clear();
                    out[i].priors.extend_from_slice(&c.priors);
                    out[i].value = Value::new(r.position.side_to_move(), c.value);
                    self.counters.cache_hits += 1;
                }
                _ => todo.push(i),
            }
        }
        if todo.is_empty() {
            return;
        }
        let positions: Vec<&G> = todo.iter().map(|&i| requests[i].position).collect();
        let (policy, value) = self.forward(&positions);
        let actions = self.encoder.num_actions();
        if self.cache_capacity > 0 && self.cache.len() + todo.len() > self.cache_capacity {
            self.cache.clear();
        }
        for (k, &i) in todo.iter().enumerate() {
            let r = &requests[i];
            let logits = &policy[k * actions..(k + 1) * actions];
            let priors = &mut out[i].priors;
            priors.clear();
            priors.extend(r.moves.iter().map(|&mv| {
                let index = self
                    .encoder
                    .policy_index(r.position, r.position.action_index(mv));
                logits[index]
            }));
            softmax_in_place(priors);
            let v = wdl_value(&value[k * 3..k * 3 + 3]);
            out[i].value = Value::new(r.position.side_to_move(), v);
            if self.cache_capacity > 0 {
                self.cache.insert(
                    r.position.hash(),
                    Cached {
                        priors: priors.clone(),
                        value: v,
                    },
                );
            }
        }
    }
}
