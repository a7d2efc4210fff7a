//! [`QuantisedNetwork`]: a [`Network`] in integers, for a faster forward pass whose values are
//! close to the float network's, not equal to them.
//!
//! - The first layer's weights and bias are multiples of `1 / acc_scale` stored as `i16`, so
//!   that the accumulators are `i16` too: half the bytes of `f32` to copy, add and load. The
//!   scale is the largest power of two for which no accumulator can leave the `i16` range:
//!   the bias plus the largest weights of as many features as can be on at once, column by
//!   column. Clipping to `[0, 1]` becomes clipping to `[0, acc_scale]`.
//! - The second layer's weights are multiples of `1 / w2_scale` in `i16`, its sums `i32`, exact
//!   (the scale is the largest power of two for which no sum can overflow), its bias in the
//!   sums' units; clipping to `[0, 1]` becomes clipping to `[0, acc_scale * w2_scale]`.
//! - The eight or so output weights stay `f32`, divided by both scales (powers of two: exact).
//!
//! Every sum in integers is exact, so the output depends on the weights alone, not on the
//! order in which the accumulators were updated.

use serde::{Deserialize, Serialize};
use wide::{i16x8, i32x4};

use crate::{Error, MAX_HIDDEN, Network};

/// A [`Network`] with integer first and second layers (see the module's documentation).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QuantisedNetwork {
    /// Number of features.
    pub inputs: usize,
    /// Accumulator width, per point of view.
    pub hidden: usize,
    /// Units of the second layer.
    pub l2: usize,
    /// Units of the first layer per unit of the float network (a power of two).
    pub acc_scale: i32,
    /// Units of the second layer's weights per unit of the float network (a power of two).
    pub w2_scale: i32,
    /// First layer, one row of `hidden` per feature.
    pub w1: Vec<i16>,
    /// First layer's bias.
    pub b1: Vec<i16>,
    /// Second layer, one row of `2 * hidden` per unit (side to move's half first).
    pub w2: Vec<i16>,
    /// Second layer's bias, in units of `1 / (acc_scale * w2_scale)`.
    pub b2: Vec<i32>,
    /// Output weights, divided by `acc_scale * w2_scale`.
    pub w3: Vec<f32>,
    /// Output bias.
    pub b3: f32,
}

impl QuantisedNetwork {
    /// `network` in integers, for positions with at most `max_active` features on.
    ///
    /// # Errors
    /// [`Error::Inconsistent`], [`Error::AccumulatorRange`] or [`Error::SecondLayerRange`] when
    /// the network is inconsistent or its weights are too large for
    /// `i16` accumulators or second-layer weights at 64 units per unit or more.
    pub fn new(network: &Network, max_active: usize) -> Result<QuantisedNetwork, Error> {
        if !network.is_consistent() {
            return Err(Error::Inconsistent);
        }
        let (h, n) = (network.hidden, 2 * network.hidden);
        // The largest accumulator in size, column by column: the bias and the largest weights
        // of `max_active` features.
        let mut bound = 0.0f64;
        let mut column = Vec::with_capacity(network.inputs);
        for c in 0..h {
            column.clear();
            column.extend((0..network.inputs).map(|f| f64::from(network.w1[f * h + c].abs())));
            column.sort_unstable_by(|a, b| b.total_cmp(a));
            let top: f64 = column.iter().take(max_active).sum();
            bound = bound.max(f64::from(network.b1[c].abs()) + top);
        }
        // Room for the rounding: each weight moves by at most half a unit.
        let room = |scale: f64| bound * scale + 0.5 * (max_active + 1) as f64;
        // At most 2^14, so that the clipping's top fits an `i16`; at least `MIN_SCALE`.
        let acc_scale = largest_power_of_two(14, |s| room(s) <= f64::from(i16::MAX))
            .ok_or(Error::AccumulatorRange(bound))?;
        let w2_max = network
            .w2
            .iter()
            .fold(0.0f64, |m, w| m.max(f64::from(w.abs())));
        let b2_max = network
            .b2
            .iter()
            .fold(0.0f64, |m, w| m.max(f64::from(w.abs())));
        let a = f64::from(acc_scale);
        // Every second-layer sum: at most `n` products of an input up to `acc_scale` and a
        // weight up to `w2_max * w2_scale + 1/2`, plus the bias.
        let fits = |s: f64| {
            let w = w2_max * s + 0.5;
            w <= f64::from(i16::MAX)
                && n as f64 * a * w + b2_max * a * s + 0.5 <= f64::from(i32::MAX)
        };
        let w2_scale = largest_power_of_two(16, fits).ok_or(Error::SecondLayerRange(w2_max))?;
        let s1 = f64::from(acc_scale);
        let s12 = s1 * f64::from(w2_scale);
        let q16 = |w: f32, s: f64| (f64::from(w) * s).round() as i16;
        Ok(QuantisedNetwork {
            inputs: network.inputs,
            hidden: h,
            l2: network.l2,
            acc_scale,
            w2_scale,
            w1: network.w1.iter().map(|&w| q16(w, s1)).collect(),
            b1: network.b1.iter().map(|&w| q16(w, s1)).collect(),
            w2: network
                .w2
                .iter()
                .map(|&w| q16(w, f64::from(w2_scale)))
                .collect(),
            b2: network
                .b2
                .iter()
                .map(|&w| (f64::from(w) * s12).round() as i32)
                .collect(),
            w3: network
                .w3
                .iter()
                .map(|&w| (f64::from(w) / s12) as f32)
                .collect(),
            b3: network.b3,
        })
    }

    /// The accumulator of one point of view: the bias plus the rows of `features` (each below
    /// [`QuantisedNetwork::inputs`]), into `acc` (`hidden` long).
    #[inline]
    pub fn accumulate(&self, features: &[u16], acc: &mut [i16]) {
        let h = self.hidden;
        acc.copy_from_slice(&self.b1);
        for &f in features {
            let row = &self.w1[usize::from(f) * h..][..h];
            for (a, &w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// The output (logit of the side to move's expected score) from the two accumulators.
    #[inline]
    pub fn output(&self, stm: &[i16], other: &[i16]) -> f32 {
        let h = self.hidden;
        let top = self.acc_scale as i16;
        let mut input = [0i16; 2 * MAX_HIDDEN];
        for (x, &a) in input[..h].iter_mut().zip(stm) {
            *x = a.clamp(0, top);
        }
        for (x, &a) in input[h..2 * h].iter_mut().zip(other) {
            *x = a.clamp(0, top);
        }
        self.dense(&input[..2 * h])
    }

    /// [`QuantisedNetwork::output`] for accumulators of a width `W` known when compiling.
    #[inline]
    pub fn output_of<const W: usize>(&self, stm: &[i16; W], other: &[i16; W]) -> f32 {
        debug_assert_eq!(self.hidden, W);
        let top = self.acc_scale as i16;
        let mut input = [[0i16; W]; 2];
        for (x, &a) in input[0].iter_mut().zip(stm) {
            *x = a.clamp(0, top);
        }
        for (x, &a) in input[1].iter_mut().zip(other) {
            *x = a.clamp(0, top);
        }
        self.dense(input.as_flattened())
    }

    /// The second layer in exact `i32` sums, the output in `f32`.
    #[inline]
    fn dense(&self, input: &[i16]) -> f32 {
        let n = input.len();
        let one = self.acc_scale * self.w2_scale;
        let mut out = self.b3;
        for j in 0..self.l2 {
            let row = &self.w2[j * n..][..n];
            let sum = dot(row, input);
            out += self.w3[j] * (self.b2[j] + sum).clamp(0, one) as f32;
        }
        out
    }

    /// The output for the features on from the side to move's and the other side's view.
    #[inline]
    pub fn forward(&self, stm: &[u16], other: &[u16]) -> f32 {
        let h = self.hidden;
        let mut a = [0i16; MAX_HIDDEN];
        let mut b = [0i16; MAX_HIDDEN];
        self.accumulate(stm, &mut a[..h]);
        self.accumulate(other, &mut b[..h]);
        self.output(&a[..h], &b[..h])
    }
}

/// The dot product of `a` and `b` in `i32` (exact: the scales keep it in range), eight
/// products at a time, neighbouring pairs added first (`pmaddwd` on x86).
#[inline]
fn dot(a: &[i16], b: &[i16]) -> i32 {
    let mut lanes = i32x4::ZERO;
    let (ca, ra) = a.as_chunks::<8>();
    let (cb, rb) = b.as_chunks::<8>();
    for (&x, &y) in ca.iter().zip(cb) {
        lanes += i16x8::new(x).dot(i16x8::new(y));
    }
    let mut sum = lanes.reduce_add();
    for (&x, &y) in ra.iter().zip(rb) {
        sum += i32::from(x) * i32::from(y);
    }
    sum
}

/// The coarsest scale taken (units per unit of the float network): below it the integer
/// network would hardly be the float one.
pub(crate) const MIN_SCALE: i32 = 64;

/// The largest power of two from `2^max` down to [`MIN_SCALE`] that `fits`.
fn largest_power_of_two(max: u32, fits: impl Fn(f64) -> bool) -> Option<i32> {
    (MIN_SCALE.trailing_zeros()..=max)
        .rev()
        .map(|k| 1i32 << k)
        .find(|&s| fits(f64::from(s)))
}
