//! The SIMD kernels of the packed network: the register-tiled dense layer, the sparse first
//! layer and the gather of selected policy logits, each a `pulp` `WithSimd` operation.

use pulp::{Arch, Simd, WithSimd};

use super::{BLOCK, CHUNK, Dense, Lanes, MAX_VECTORS, PackedNet, TILE, WIDE_TILE};
/// `out = input W + b` (ReLU'd when `relu`), `input` and `out` row-major.
pub(super) fn dense(arch: Arch, layer: &Dense, input: &[f32], out: &mut [f32], relu: bool) {
    arch.dispatch(DenseOp {
        layer,
        input,
        out,
        relu,
    });
}

pub(super) struct DenseOp<'a> {
    pub(super) layer: &'a Dense,
    pub(super) input: &'a [f32],
    pub(super) out: &'a mut [f32],
    pub(super) relu: bool,
}

impl WithSimd for DenseOp<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: Simd>(self, simd: S) {
        // A block of 16 outputs is one vector on AVX-512 (16 lanes): tiles of 16 positions keep
        // 16 accumulators in flight (of the 32 vector registers), and a batch of 32 (self-play's
        // games in flight) or a full chunk of 48 splits into whole tiles. Narrower sets keep 6
        // positions of two or more vectors a block.
        const {
            assert!(
                BLOCK.is_multiple_of(S::F32_LANES),
                "a block is whole vectors"
            )
        };
        if S::F32_LANES == BLOCK {
            self.tiles::<S, WIDE_TILE>(simd);
        } else {
            self.tiles::<S, TILE>(simd);
        }
    }
}

impl DenseOp<'_> {
    /// Every block of outputs, `R` positions a tile.
    #[inline(always)]
    fn tiles<S: Simd, const R: usize>(self, simd: S) {
        let DenseOp {
            layer,
            input,
            out,
            relu,
        } = self;
        let (k, m) = (layer.inputs, layer.outputs);
        for (x, y) in input.chunks(CHUNK * k).zip(out.chunks_mut(CHUNK * m)) {
            for (b, (weights, bias)) in layer.blocks().enumerate() {
                let block = Block {
                    weights,
                    bias,
                    first: b * BLOCK,
                    m,
                    relu,
                };
                let mut rows = x.chunks_exact(R * k);
                let mut outs = y.chunks_exact_mut(R * m);
                for (x, y) in (&mut rows).zip(&mut outs) {
                    tile::<S, R>(simd, block, x, y);
                }
                // The rest: tiles of 6 (none left when `R` is 6), then one of 1 to 5.
                let (x, y) = (rows.remainder(), outs.into_remainder());
                let mut rows = x.chunks_exact(TILE * k);
                let mut outs = y.chunks_exact_mut(TILE * m);
                for (x, y) in (&mut rows).zip(&mut outs) {
                    tile::<S, TILE>(simd, block, x, y);
                }
                let (x, y) = (rows.remainder(), outs.into_remainder());
                match x.len() / k {
                    0 => {}
                    1 => tile::<S, 1>(simd, block, x, y),
                    2 => tile::<S, 2>(simd, block, x, y),
                    3 => tile::<S, 3>(simd, block, x, y),
                    4 => tile::<S, 4>(simd, block, x, y),
                    _ => tile::<S, 5>(simd, block, x, y),
                }
            }
        }
    }
}

/// One block of a dense layer's outputs, as each of its tiles reads it.
#[derive(Clone, Copy)]
struct Block<'a> {
    /// The block's weight rows, one per input.
    weights: &'a [Lanes],
    /// The block's biases.
    bias: &'a Lanes,
    /// The block's first output.
    first: usize,
    /// The layer's outputs (the length of an output row).
    m: usize,
    /// Whether the outputs are ReLU'd.
    relu: bool,
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
fn tile<S: Simd, const R: usize>(simd: S, block: Block<'_>, x: &[f32], y: &mut [f32]) {
    let Block {
        weights,
        bias,
        first,
        m,
        relu,
    } = block;
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
pub(super) struct Sparse<'a> {
    pub(super) layer: &'a Dense,
    pub(super) input: &'a [f32],
    pub(super) out: &'a mut [f32],
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
pub(super) struct Gather<'a> {
    pub(super) net: &'a PackedNet,
    pub(super) hidden: &'a [f32],
    pub(super) selected: &'a [usize],
    pub(super) ends: &'a [usize],
    pub(super) logits: &'a mut [f32],
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
