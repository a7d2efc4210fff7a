//! The network's forward pass for search: a trained [`PolicyValueNet`]'s weights copied into
//! layouts made for one CPU thread at the batch sizes of search (1 to a few hundred positions).
//!
//! Burn stays the training path; [`PackedNet`] computes the same function, `relu(x W + b)`
//! through the trunk and `x W + b` for the heads, as the evaluator's forward pass:
//!
//! - Every layer runs through one register-tiled kernel: the weights are packed once into
//!   blocks of 16 outputs (`[block][input][16]`, each 16-float row 64-byte aligned), and a tile
//!   computes R positions x 16 outputs in registers, starting from the bias and applying ReLU on
//!   the way out. On AVX2 a block is two vectors and R = 6 (12 accumulators, 2 weight loads and
//!   6 broadcasts per input); on AVX-512 a block is one vector and R = 16 (16 accumulators of
//!   the 32 registers). Positions go 48 at a time, so each weight is read from memory once per
//!   48 positions; the rest of a chunk goes in tiles of 6, then one tile of 1 to 5.
//! - The first layer reads only the nonzero inputs when at most a quarter of a batch's inputs
//!   are nonzero (the encoders write one-hot planes: 28 of Pijersi's 721 inputs are set at the
//!   classic start). Its accumulation order is the dense kernel's with the zero terms left out, so both
//!   give the same bits.
//! - [`PackedNet::forward_selected`] computes only the policy logits asked for (a search needs
//!   the legal moves' logits: 175 of Pijersi's 3,748 on average over random-game positions),
//!   each a dot product with that action's column of the policy weights, stored contiguous.
//!
//! SIMD comes from `pulp`, which picks the widest instruction set it supports on the CPU at run
//! time (on x86-64: AVX-512 where present, else AVX2 and FMA, on CPUs since about 2013, else
//! plain one-lane code; NEON on aarch64) and keeps the code safe. [`Kernels`] forces a narrower
//! one, so that each path is tested and measured on any CPU that has it; [`Kernels::describe`]
//! names the one that runs. Within a position, the result does not depend on the batch it is
//! computed in. AVX-512 and AVX2 give the same bits: each output sums its inputs in the same
//! order, and a selected logit's 16 partial sums are reduced alike (pulp 0.22's AVX-512
//! horizontal sum adds its two 8-lane halves first, as the AVX2 path adds its two vectors).

use pulp::{Arch, Simd, WithSimd};

use crate::net::{LayerWeights, PolicyValueNet};

mod kernels;

use kernels::{Gather, Sparse, dense};

/// Outputs per packed block: two AVX2 vectors, one AVX-512 vector.
const BLOCK: usize = 16;
/// Positions per tile of the dense kernel: with 16 outputs, 12 AVX2 accumulators.
const TILE: usize = 6;
/// Positions per tile where one vector holds a block (AVX-512): 16 accumulators.
const WIDE_TILE: usize = 16;
/// Positions per pass over a layer's weights.
const CHUNK: usize = 8 * TILE;
// A chunk is whole tiles of either kind.
const _: () = assert!(CHUNK.is_multiple_of(TILE) && CHUNK.is_multiple_of(WIDE_TILE));
/// The most SIMD vectors a block spans (one-lane fallback: 16).
const MAX_VECTORS: usize = BLOCK;

/// 16 floats on a 64-byte boundary: the aligned loads matter (split unaligned 32-byte loads
/// cost about a fifth of the kernel's speed on x86-64).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(64))]
struct Lanes([f32; BLOCK]);

/// One linear layer, packed.
#[derive(Clone, Debug, PartialEq)]
struct Dense {
    inputs: usize,
    outputs: usize,
    /// `outputs.div_ceil(16)` blocks of `inputs` rows: row `i` of block `b` holds the weights
    /// from input `i` to outputs `16 b .. 16 b + 16` (zero past `outputs`).
    weights: Vec<Lanes>,
    /// The biases by block (zero past `outputs`).
    bias: Vec<Lanes>,
}

impl Dense {
    fn new(layer: &LayerWeights) -> Dense {
        let (inputs, outputs) = (layer.inputs, layer.outputs);
        assert_eq!(layer.weight.len(), inputs * outputs, "weights of a layer");
        assert_eq!(layer.bias.len(), outputs, "biases of a layer");
        let blocks = outputs.div_ceil(BLOCK);
        let mut weights = vec![Lanes([0.0; BLOCK]); blocks * inputs];
        for (i, row) in layer.weight.chunks_exact(outputs).enumerate() {
            for (o, &w) in row.iter().enumerate() {
                weights[(o / BLOCK) * inputs + i].0[o % BLOCK] = w;
            }
        }
        let mut bias = vec![Lanes([0.0; BLOCK]); blocks];
        for (o, &b) in layer.bias.iter().enumerate() {
            bias[o / BLOCK].0[o % BLOCK] = b;
        }
        Dense {
            inputs,
            outputs,
            weights,
            bias,
        }
    }

    #[inline(always)]
    fn blocks(&self) -> impl Iterator<Item = (&[Lanes], &Lanes)> {
        self.weights.chunks_exact(self.inputs).zip(&self.bias)
    }
}

/// The instruction set a [`PackedNet`] may run on. Every choice computes the same function; a
/// narrower one is there to test and measure that path on a CPU that offers a wider one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Kernels {
    /// The widest the CPU offers at run time: on x86-64 AVX-512 (x86-64-v4), else AVX2 and FMA
    /// (x86-64-v3), else plain one-lane code; NEON on aarch64.
    #[default]
    Widest,
    /// AVX2 and FMA even where AVX-512 is present (plain code on an x86 CPU without them; the
    /// widest set off x86): to compare the two in one run (`pjlab bench`, `net_avx2_batch*`).
    Avx2,
    /// Plain one-lane code whatever the CPU offers.
    Scalar,
}

impl Kernels {
    /// The `pulp` instruction set this choice runs on this CPU.
    fn arch(self) -> Arch {
        match self {
            Kernels::Widest => Arch::new(),
            Kernels::Avx2 => avx2(),
            Kernels::Scalar => Arch::Scalar,
        }
    }

    /// The instruction set this choice runs on this CPU, in words, and its lanes of `f32`, e.g.
    /// `x86-64-v4 (AVX-512), 16 x f32`: what `pjlab bench` prints beside its figures.
    pub fn describe(self) -> String {
        let arch = self.arch();
        format!("{}, {} x f32", arch_name(arch), arch.dispatch(Lanes32))
    }
}

/// AVX2 and FMA where the CPU has them, else plain code.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
fn avx2() -> Arch {
    pulp::x86::V3::try_new().map_or(Arch::Scalar, Arch::V3)
}

/// Off x86 the widest set there is (NEON on aarch64): AVX2 does not exist.
#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
fn avx2() -> Arch {
    Arch::new()
}

/// The instruction set's name.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
fn arch_name(arch: Arch) -> String {
    match arch {
        Arch::Scalar => "scalar".into(),
        Arch::V3(_) => "x86-64-v3 (AVX2, FMA)".into(),
        Arch::V4(_) => "x86-64-v4 (AVX-512)".into(),
        // pulp's enum is non-exhaustive: a set added later is named as pulp names it.
        other => format!("{other:?}"),
    }
}

/// The instruction set's name, as pulp names it (`Scalar` is named like on x86).
#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
fn arch_name(arch: Arch) -> String {
    match arch {
        Arch::Scalar => "scalar".into(),
        other => format!("{other:?}"),
    }
}

/// The lanes of `f32` in one vector of the instruction set.
struct Lanes32;

impl WithSimd for Lanes32 {
    type Output = usize;

    #[inline(always)]
    fn with_simd<S: Simd>(self, _: S) -> usize {
        S::F32_LANES
    }
}

/// A [`PolicyValueNet`]'s weights packed for inference on one CPU thread.
///
/// ```
/// use burn::tensor::Device;
/// use pjlab_nn::{NetConfig, NetShape, PolicyValueNet, inference::PackedNet};
///
/// let shape = NetShape { input: 10, actions: 7 };
/// let net = PolicyValueNet::new(&NetConfig::default(), shape, &Device::default(), 1);
/// let packed = PackedNet::new(&net);
/// let input = [0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.5];
/// let (mut policy, mut value) = ([0.0; 7], [0.0; 3]);
/// packed.forward(&input, &mut policy, &mut value);
/// // Only the logits of actions 2 and 5: the same values.
/// let mut two = [0.0; 2];
/// packed.forward_selected(&input, &[2, 5], &[2], &mut two, &mut value);
/// assert!((two[0] - policy[2]).abs() < 1e-5 && (two[1] - policy[5]).abs() < 1e-5);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct PackedNet {
    trunk: Vec<Dense>,
    policy: Dense,
    /// The policy weights by action: each action's column of `hidden` weights, zero-padded to
    /// whole rows of 16.
    policy_columns: Vec<Lanes>,
    value: Dense,
    /// The instruction set the kernels may use (see [`with_kernels`](Self::with_kernels)).
    kernels: Kernels,
}

impl PackedNet {
    /// Packs `net`'s current weights (a copy: later training does not reach it).
    pub fn new(net: &PolicyValueNet) -> PackedNet {
        PackedNet::from_layers(&net.layers())
    }

    /// Packs the layers of [`PolicyValueNet::layers`]: the trunk, then the policy head, then
    /// the value head.
    ///
    /// # Panics
    ///
    /// With fewer than 3 layers, or layers whose widths do not chain.
    pub fn from_layers(layers: &[LayerWeights]) -> PackedNet {
        assert!(layers.len() >= 3, "a trunk layer and two heads");
        let (trunk, heads) = layers.split_at(layers.len() - 2);
        for pair in layers[..layers.len() - 1].windows(2) {
            assert_eq!(pair[0].outputs, pair[1].inputs, "layer widths chain");
        }
        let hidden = trunk[trunk.len() - 1].outputs;
        assert_eq!(heads[1].inputs, hidden, "the value head reads the trunk");
        let policy = &heads[0];
        let rows = hidden.div_ceil(BLOCK);
        let mut policy_columns = vec![Lanes([0.0; BLOCK]); policy.outputs * rows];
        for (i, row) in policy.weight.chunks_exact(policy.outputs).enumerate() {
            for (a, &w) in row.iter().enumerate() {
                policy_columns[a * rows + i / BLOCK].0[i % BLOCK] = w;
            }
        }
        PackedNet {
            trunk: trunk.iter().map(Dense::new).collect(),
            policy: Dense::new(policy),
            policy_columns,
            value: Dense::new(&heads[1]),
            kernels: Kernels::Widest,
        }
    }

    /// The same network on the one-lane (scalar) kernels, as on a CPU without AVX2: to test that
    /// path on any machine and to measure it (`pjlab bench`, `net_scalar_batch*`).
    pub fn scalar(self) -> PackedNet {
        self.with_kernels(Kernels::Scalar)
    }

    /// The same network on the given kernels (by default [`Kernels::Widest`]).
    pub fn with_kernels(mut self, kernels: Kernels) -> PackedNet {
        self.kernels = kernels;
        self
    }

    /// The kernels this network was asked to run on.
    pub fn kernels(&self) -> Kernels {
        self.kernels
    }

    /// The instruction set the kernels run on.
    fn arch(&self) -> Arch {
        self.kernels.arch()
    }

    /// Length of one input.
    pub fn input_len(&self) -> usize {
        self.trunk[0].inputs
    }

    /// Policy outputs (the action space).
    pub fn actions(&self) -> usize {
        self.policy.outputs
    }

    /// Width of the trunk's last layer.
    fn hidden(&self) -> usize {
        self.policy.inputs
    }

    /// `input` holds `n` positions of [`input_len`](Self::input_len) floats; writes their
    /// policy logits (`n` rows of [`actions`](Self::actions)) and win/draw/loss logits (`n`
    /// rows of 3), as [`PolicyValueNet::forward`] computes them.
    ///
    /// # Panics
    ///
    /// When the lengths disagree.
    pub fn forward(&self, input: &[f32], policy: &mut [f32], value: &mut [f32]) {
        let n = self.batch(input, value);
        assert_eq!(policy.len(), n * self.actions(), "policy length");
        let hidden = self.trunk(input, n);
        dense(self.arch(), &self.policy, &hidden, policy, false);
        dense(self.arch(), &self.value, &hidden, value, false);
    }

    /// Like [`forward`](Self::forward), but writes only the policy logits of `selected`
    /// actions: position `k`'s are `selected[ends[k - 1]..ends[k]]` (from 0 for the first),
    /// and its logits go to the same places of `logits`. A search needs only the legal moves'.
    ///
    /// # Panics
    ///
    /// When the lengths disagree, `ends` is not increasing or an action is out of range.
    pub fn forward_selected(
        &self,
        input: &[f32],
        selected: &[usize],
        ends: &[usize],
        logits: &mut [f32],
        value: &mut [f32],
    ) {
        let n = self.batch(input, value);
        assert_eq!(ends.len(), n, "one end per position");
        assert_eq!(
            logits.len(),
            selected.len(),
            "one logit per selected action"
        );
        assert_eq!(ends.last().copied().unwrap_or(0), selected.len(), "ends");
        let hidden = self.trunk(input, n);
        dense(self.arch(), &self.value, &hidden, value, false);
        self.arch().dispatch(Gather {
            net: self,
            hidden: &hidden,
            selected,
            ends,
            logits,
        });
    }

    /// The number of positions in `input`, checked against `value`.
    fn batch(&self, input: &[f32], value: &[f32]) -> usize {
        let len = self.input_len();
        assert_eq!(input.len() % len, 0, "input length");
        let n = input.len() / len;
        assert_eq!(value.len(), n * 3, "value length");
        n
    }

    /// The trunk's last activations, `n` rows of `hidden`.
    fn trunk(&self, input: &[f32], n: usize) -> Vec<f32> {
        let first = &self.trunk[0];
        let mut x = vec![0.0; n * first.outputs];
        let nonzero = input.iter().filter(|&&v| v != 0.0).count();
        if nonzero * 4 <= input.len() {
            self.arch().dispatch(Sparse {
                layer: first,
                input,
                out: &mut x,
            });
        } else {
            dense(self.arch(), first, input, &mut x, true);
        }
        for layer in &self.trunk[1..] {
            let mut y = vec![0.0; n * layer.outputs];
            dense(self.arch(), layer, &x, &mut y, true);
            x = y;
        }
        x
    }
}
