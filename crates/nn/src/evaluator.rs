//! The network as the search's evaluator: one forward pass per lock-step step, with a cache of
//! evaluations keyed by the position hash.
//!
//! On the CPU the evaluator runs a [`PackedNet`] (one thread), and a search's evaluations
//! compute only the legal moves' policy logits; on another device it runs Burn.

use std::collections::HashMap;
use std::marker::PhantomData;

use burn::module::Module;

use burn::tensor::{Device, Tensor, TensorData};
use pjlab_core::{Encoder, Game};
use pjlab_mcts::{Evaluation, Evaluator, Request, Value};

use crate::inference::PackedNet;
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

/// Where the forward pass runs.
enum Backend {
    /// The CPU: the packed copy of the weights.
    Packed(PackedNet),
    /// Another device (a GPU build's): Burn.
    Burn {
        model: Box<PolicyValueNet>,
        device: Device,
    },
}

/// Evaluates positions with a [`PolicyValueNet`] on a non-autodiff device.
///
/// Priors are the policy softmax over the legal moves only; the value is `P(win) - P(loss)`
/// for the side to move.
pub struct NetEvaluator<G: Game, E: Encoder<G>> {
    backend: Backend,
    encoder: E,
    /// The last batch's encoded positions (kept to reuse the allocation).
    inputs: Vec<f32>,
    cache: HashMap<u64, Cached>,
    cache_capacity: usize,
    counters: EvalCounters,
    _game: PhantomData<fn(&G)>,
}

impl<G: Game, E: Encoder<G>> NetEvaluator<G, E> {
    /// An evaluator for `model` (moved to `device` without gradients), caching up to
    /// `cache_capacity` positions (0 disables the cache; the cache is emptied when full).
    ///
    /// On the CPU device (`flex`, the default) the weights are copied into a [`PackedNet`]:
    /// later training of `model` does not reach the evaluator.
    pub fn new(model: &PolicyValueNet, device: &Device, encoder: E, cache_capacity: usize) -> Self {
        let backend = if *device == Device::flex() {
            Backend::Packed(PackedNet::new(model))
        } else {
            Backend::Burn {
                model: Box::new(model.valid().to_device(device)),
                device: device.clone(),
            }
        };
        Self::with_backend(backend, encoder, cache_capacity)
    }

    /// An evaluator for a network already packed for the CPU (a loaded checkpoint's,
    /// [`crate::Model::Packed`]), caching as [`NetEvaluator::new`] does.
    pub fn packed(net: PackedNet, encoder: E, cache_capacity: usize) -> Self {
        Self::with_backend(Backend::Packed(net), encoder, cache_capacity)
    }

    fn with_backend(backend: Backend, encoder: E, cache_capacity: usize) -> Self {
        NetEvaluator {
            backend,
            encoder,
            inputs: Vec::new(),
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

    /// Whether the forward pass runs on the CPU's [`PackedNet`] (else on Burn).
    pub fn is_packed(&self) -> bool {
        matches!(self.backend, Backend::Packed(_))
    }

    /// Encodes `positions` into `self.inputs`.
    fn encode(&mut self, positions: &[&G]) {
        let len = self.encoder.input_len();
        self.inputs.clear();
        self.inputs.resize(positions.len() * len, 0.0);
        for (p, chunk) in positions.iter().zip(self.inputs.chunks_mut(len)) {
            self.encoder.encode(p, chunk);
        }
    }

    /// Raw network outputs for `positions`: policy logits (`[n * actions]`, network order) and
    /// value logits (`[n * 3]`).
    pub fn forward(&mut self, positions: &[&G]) -> (Vec<f32>, Vec<f32>) {
        self.encode(positions);
        self.counters.batches += 1;
        match &self.backend {
            Backend::Packed(net) => {
                let mut policy = vec![0.0; positions.len() * net.actions()];
                let mut value = vec![0.0; positions.len() * 3];
                net.forward(&self.inputs, &mut policy, &mut value);
                (policy, value)
            }
            Backend::Burn { model, device } => {
                let len = self.encoder.input_len();
                let input = Tensor::<2>::from_data(
                    TensorData::new(self.inputs.clone(), [positions.len(), len]),
                    device,
                );
                let (policy, value) = model.forward(input);
                let policy = policy.into_data().try_into_vec::<f32>().unwrap_or_default();
                let value = value.into_data().try_into_vec::<f32>().unwrap_or_default();
                (policy, value)
            }
        }
    }

    /// The legal moves' policy logits, request after request in move order, and the value
    /// logits (`[n * 3]`) of `requests`.
    fn legal_logits(&mut self, requests: &[&Request<'_, G>]) -> (Vec<f32>, Vec<f32>) {
        let positions: Vec<&G> = requests.iter().map(|r| r.position).collect();
        let mut selected = Vec::new();
        let mut ends = Vec::with_capacity(requests.len());
        for r in requests {
            for &mv in r.moves {
                let action = r.position.action_index(mv);
                selected.push(self.encoder.policy_index(r.position, action));
            }
            ends.push(selected.len());
        }
        if !self.is_packed() {
            let (policy, value) = self.forward(&positions);
            let actions = self.encoder.num_actions();
            let mut logits = Vec::with_capacity(selected.len());
            let mut start = 0;
            for (row, &end) in policy.chunks_exact(actions).zip(&ends) {
                logits.extend(selected[start..end].iter().map(|&i| row[i]));
                start = end;
            }
            return (logits, value);
        }
        self.encode(&positions);
        self.counters.batches += 1;
        let mut logits = vec![0.0; selected.len()];
        let mut value = vec![0.0; requests.len() * 3];
        if let Backend::Packed(net) = &self.backend {
            net.forward_selected(&self.inputs, &selected, &ends, &mut logits, &mut value);
        }
        (logits, value)
    }
}

/// Softmax of `logits` in place (the search's own [`pjlab_mcts::gumbel::softmax`]: the one
/// softmax of the lab).
pub fn softmax_in_place(logits: &mut [f32]) {
    pjlab_mcts::gumbel::softmax(logits);
}

/// Win, draw and loss probabilities from win/draw/loss logits (indexed by [`WIN`], [`DRAW`],
/// [`LOSS`]).
pub fn wdl_probabilities(logits: &[f32]) -> [f32; 3] {
    let mut p = [logits[WIN], logits[DRAW], logits[LOSS]];
    softmax_in_place(&mut p);
    p
}

/// `P(win) - P(loss)` from win/draw/loss logits.
pub fn wdl_value(logits: &[f32]) -> f32 {
    let p = wdl_probabilities(logits);
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
        let pending: Vec<&Request<'_, G>> = todo.iter().map(|&i| &requests[i]).collect();
        let (logits, value) = self.legal_logits(&pending);
        if self.cache_capacity > 0 && self.cache.len() + todo.len() > self.cache_capacity {
            self.cache.clear();
        }
        let mut start = 0;
        for (k, &i) in todo.iter().enumerate() {
            let r = &requests[i];
            let end = start + r.moves.len();
            let priors = &mut out[i].priors;
            priors.clear();
            priors.extend_from_slice(&logits[start..end]);
            start = end;
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
