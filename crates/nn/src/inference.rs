//! The network's forward pass for search: a trained [`PolicyValueNet`]'s weights copied into
//! layouts made for one CPU thread at the batch sizes of search (1 to a few hundred positions).
//!
//! Burn stays the training path; [`PackedNet`] computes the same function, `relu(x W + b)`
//! through the trunk and `x W + b` for the heads, as the evaluator's forward pass:
//!
//! - Every layer runs through one register-tiled kernel: the weights are packed once into
//!   blocks of 16 outputs (`[block][input][16]`, each 16-float row 64-byte aligned), and a tile
//!   computes 6 positions x 16 outputs in registers (on AVX2: 12 accumulators, 2 weight loads
//!   and 6 broadcasts per input), starting from the bias and applying ReLU on the way out.
//!   Positions go 48 at a time, so each weight is read from memory once per 48 positions.
//! - The first layer reads only the nonzero inputs when at most a quarter of a batch's inputs
//!   are nonzero (the encoders write one-hot planes: 28 of Pijersi's 721 inputs are set at the
//!   classic start). Its accumulation order is the dense kernel's with the zero terms left out, so both
//!   give the same bits.
//! - [`PackedNet::forward_selected`] computes only the policy logits asked for (a search needs
//!   the legal moves' logits: 175 of Pijersi's 3,748 on average over random-game positions),
//!   each a dot product with that action's column of the policy weights, stored contiguous.
//!
//! SIMD comes from `pulp`, which picks the widest instruction set it supports on the CPU at run
//! time (AVX2 and FMA on x86-64 since about 2013; plain code elsewhere) and keeps the code safe.
//! [`PackedNet::scalar`] forces the plain code, so that path is tested and measured on any CPU.
//! Within a position, the result does not depend on the batch it is computed in.

use pulp::{Arch, Simd, WithSimd};

use crate::net::{LayerWeights, PolicyValueNet};

/// Outputs per packed block: two AVX2 vectors.
const BLOCK: usize = 16;
/// Positions per tile of the dense kernel: with 16 outputs, 12 AVX2 accumulators.
const TILE: usize = 6;
/// Positions per pass over a layer's weights.
const CHUNK: usize = 8 * TILE;
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

    fn blocks(&self) -> impl Iterator<Item = (&[Lanes], &Lanes)> {
        self.weights.chunks_exact(self.inputs).zip(&self.bias)
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
    /// Whether to run the one-lane kernels whatever the CPU offers (see
    /// [`scalar`](Self::scalar)).
    scalar: bool,
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
            scalar: false,
        }
    }

    /// The same network on the one-lane (scalar) kernels, as on a CPU without AVX2: to test that
    /// path on any machine and to measure it (`pjlab bench`, `net_scalar_batch*`).
    pub fn scalar(mut self) -> PackedNet {
        self.scalar = true;
        self
    }

    /// The instruction set the kernels run on.
    fn arch(&self) -> Arch {
        if self.scalar {
            Arch::Scalar
        } else {
            Arch::new()
        }
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

/// `out = input W + b` (ReLU'd when `relu`), `input` and `out` row-major.
fn dense(arch: Arch, layer: &Dense, input: &[f32], out: &mut [f32], relu: bool) {
    arch.dispatch(DenseOp {
        layer,
        input,
        out,
        relu,
    });
}

struct DenseOp<'a> {
    layer: &'a Dense,
    input: &'a [f32],
    out: &'a mut [f32],
    relu: bool,
}

impl WithSimd for DenseOp<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: Simd>(self, simd: S) {
        let DenseOp {
            layer,
            input,
            out,
            relu,
        } = self;
        let (k, m) = (layer.inputs, layer.outputs);
        for (x, y) in input.chunks(CHUNK * k).zip(out.chunks_mut(CHUNK * m)) {
            for (b, (weights, bias)) in layer.blocks().enumerate() {
                let mut rows = x.chunks_exact(TILE * k);
                let mut outs = y.chunks_exact_mut(TILE * m);
                for (x, y) in (&mut rows).zip(&mut outs) {
                    tile::<S, TILE>(simd, weights, bias, x, y, b * BLOCK, m, relu);
                }
                let (x, y) = (rows.remainder(), outs.into_remainder());
                match x.len() / k {
                    0 => {}
                    1 => tile::<S, 1>(simd, weights, bias, x, y, b * BLOCK, m, relu),
                    2 => tile::<S, 2>(simd, weights, bias, x, y, b * BLOCK, m, relu),
                    3 => tile::<S, 3>(simd, weights, bias, x, y, b * BLOCK, m, relu),
                    4 => tile::<S, 4>(simd, weights, bias, x, y, b * BLOCK, m, relu),
                    _ => tile::<S, 5>(simd, weights, bias, x, y, b * BLOCK, m, relu),
                }
            }
        }
    }
}

/// Loads 16 floats from an aligned row.
#[inline(always)]
fn load<S: Simd>(row: &Lanes, into: &mut [S::f32s; MAX_VECTORS]) {
    // The copy out of the aligned struct keeps the loads aligned.
    let raw: [f32; BLOCK] = row.0;
    let (vectors, _) = S::as_simd_f32s(&raw);
    into[..vectors.len()].copy_from_slice(vectors);
}

/// Stores the first `out.len()` (at most 16) lanes of `acc`, ReLU'd when `relu`.
#[inline(always)]
fn store<S: Simd>(simd: S, acc: &[S::f32s; MAX_VECTORS], out: &mut [f32], relu: bool) {
    let vectors = BLOCK / S::F32_LANES;
    let zero = simd.splat_f32s(0.0);
    let mut lanes = [0.0f32; BLOCK];
    {
        let (dst, _) = S::as_mut_simd_f32s(&mut lanes);
        for v in 0..vectors {
            dst[v] = if relu {
                simd.max_f32s(acc[v], zero)
            } else {
                acc[v]
            };
        }
    }
    out.copy_from_slice(&lanes[..out.len()]);
}

/// Outputs `first .. first + 16` of `R` positions: `x` holds their inputs, `y` their output
/// rows (of `m`).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn tile<S: Simd, const R: usize>(
    simd: S,
    weights: &[Lanes],
    bias: &Lanes,
    x: &[f32],
    y: &mut [f32],
    first: usize,
    m: usize,
    relu: bool,
) {
    let vectors = BLOCK / S::F32_LANES;
    let k = weights.len();
    let zero = simd.splat_f32s(0.0);
    let mut start = [zero; MAX_VECTORS];
    load::<S>(bias, &mut start);
    let mut acc = [start; R];
    let rows: [&[f32]; R] = std::array::from_fn(|r| &x[r * k..(r + 1) * k]);
    let mut w = [zero; MAX_VECTORS];
    for (i, row) in weights.iter().enumerate() {
        load::<S>(row, &mut w);
        for r in 0..R {
            let xi = simd.splat_f32s(rows[r][i]);
            for v in 0..vectors {
                acc[r][v] = simd.mul_add_e_f32s(xi, w[v], acc[r][v]);
            }
        }
    }
    let count = BLOCK.min(m - first);
    for (r, acc) in acc.iter().enumerate() {
        let out = &mut y[r * m + first..r * m + first + count];
        if count == BLOCK {
            let (dst, _) = S::as_mut_simd_f32s(out);
            for v in 0..vectors {
                dst[v] = if relu {
                    simd.max_f32s(acc[v], zero)
                } else {
                    acc[v]
                };
            }
        } else {
            store::<S>(simd, acc, out, relu);
        }
    }
}

/// The first layer from the nonzero inputs only, ReLU'd.
struct Sparse<'a> {
    layer: &'a Dense,
    input: &'a [f32],
    out: &'a mut [f32],
}

impl WithSimd for Sparse<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: Simd>(self, simd: S) {
        let Sparse { layer, input, out } = self;
        let (k, m) = (layer.inputs, layer.outputs);
        let blocks = m.div_ceil(BLOCK);
        let mut nonzero: Vec<(usize, f32)> = Vec::with_capacity(k);
        for (x, y) in input.chunks_exact(k).zip(out.chunks_exact_mut(m)) {
            nonzero.clear();
            // 16 inputs at a time: most groups of one-hot planes are all zero (the shift drops
            // the sign bit, so -0.0 counts as zero, as it does for `!=`).
            for (g, group) in x.chunks(16).enumerate() {
                if group.iter().fold(0, |bits, v| bits | (v.to_bits() << 1)) == 0 {
                    continue;
                }
                for (j, &v) in group.iter().enumerate() {
                    if v != 0.0 {
                        nonzero.push((16 * g + j, v));
                    }
                }
            }
            // Four blocks at a time: independent accumulators hide the FMA latency.
            for b in (0..blocks).step_by(4) {
                match blocks - b {
                    1 => sparse_blocks::<S, 1>(simd, layer, b, &nonzero, y),
                    2 => sparse_blocks::<S, 2>(simd, layer, b, &nonzero, y),
                    3 => sparse_blocks::<S, 3>(simd, layer, b, &nonzero, y),
                    _ => sparse_blocks::<S, 4>(simd, layer, b, &nonzero, y),
                }
            }
        }
    }
}

/// Blocks `first .. first + G` of one position's first-layer outputs `y` from its `nonzero`
/// inputs, in input order, ReLU'd.
#[inline(always)]
fn sparse_blocks<S: Simd, const G: usize>(
    simd: S,
    layer: &Dense,
    first: usize,
    nonzero: &[(usize, f32)],
    y: &mut [f32],
) {
    let vectors = BLOCK / S::F32_LANES;
    let k = layer.inputs;
    let zero = simd.splat_f32s(0.0);
    let mut acc = [[zero; MAX_VECTORS]; G];
    for (g, acc) in acc.iter_mut().enumerate() {
        load::<S>(&layer.bias[first + g], acc);
    }
    let weights: [&[Lanes]; G] =
        std::array::from_fn(|g| &layer.weights[(first + g) * k..(first + g + 1) * k]);
    let mut w = [zero; MAX_VECTORS];
    for &(i, xi) in nonzero {
        let xi = simd.splat_f32s(xi);
        for g in 0..G {
            load::<S>(&weights[g][i], &mut w);
            for v in 0..vectors {
                acc[g][v] = simd.mul_add_e_f32s(xi, w[v], acc[g][v]);
            }
        }
    }
    for (g, acc) in acc.iter().enumerate() {
        let start = (first + g) * BLOCK;
        let end = y.len().min(start + BLOCK);
        store::<S>(simd, acc, &mut y[start..end], true);
    }
}

/// Selected policy logits: dot products of the trunk's output with action columns.
struct Gather<'a> {
    net: &'a PackedNet,
    hidden: &'a [f32],
    selected: &'a [usize],
    ends: &'a [usize],
    logits: &'a mut [f32],
}

impl WithSimd for Gather<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: Simd>(self, simd: S) {
        let Gather {
            net,
            hidden,
            selected,
            ends,
            logits,
        } = self;
        let width = net.hidden();
        let rows = width.div_ceil(BLOCK);
        let mut h = vec![Lanes([0.0; BLOCK]); rows];
        let mut start = 0;
        for (x, &end) in hidden.chunks_exact(width).zip(ends) {
            for (i, &v) in x.iter().enumerate() {
                h[i / BLOCK].0[i % BLOCK] = v;
            }
            let mut actions = selected[start..end].chunks_exact(4);
            let mut out = logits[start..end].chunks_exact_mut(4);
            for (a, out) in (&mut actions).zip(&mut out) {
                dots::<S, 4>(simd, net, &h, a, out);
            }
            let (a, out) = (actions.remainder(), out.into_remainder());
            match a.len() {
                0 => {}
                1 => dots::<S, 1>(simd, net, &h, a, out),
                2 => dots::<S, 2>(simd, net, &h, a, out),
                _ => dots::<S, 3>(simd, net, &h, a, out),
            }
            start = end;
        }
    }
}

/// The logits of `A` actions from the trunk's output `h`.
#[inline(always)]
fn dots<S: Simd, const A: usize>(
    simd: S,
    net: &PackedNet,
    h: &[Lanes],
    actions: &[usize],
    out: &mut [f32],
) {
    let vectors = BLOCK / S::F32_LANES;
    let rows = h.len();
    let zero = simd.splat_f32s(0.0);
    let columns: [&[Lanes]; A] =
        std::array::from_fn(|j| &net.policy_columns[actions[j] * rows..(actions[j] + 1) * rows]);
    let mut acc = [[zero; MAX_VECTORS]; A];
    let (mut hv, mut w) = ([zero; MAX_VECTORS], [zero; MAX_VECTORS]);
    for (r, h) in h.iter().enumerate() {
        load::<S>(h, &mut hv);
        for j in 0..A {
            load::<S>(&columns[j][r], &mut w);
            for v in 0..vectors {
                acc[j][v] = simd.mul_add_e_f32s(hv[v], w[v], acc[j][v]);
            }
        }
    }
    for ((acc, &a), out) in acc.iter().zip(actions).zip(out) {
        let sum = acc[1..vectors]
            .iter()
            .fold(acc[0], |sum, &v| simd.add_f32s(sum, v));
        *out = net.policy.bias[a / BLOCK].0[a % BLOCK] + simd.reduce_sum_f32s(sum);
    }
}
