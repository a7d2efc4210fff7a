//! [`Network`]: the accumulator, the small dense layer after it, and its forward pass.

use serde::{Deserialize, Serialize};

/// The widest accumulator (per point of view) the forward pass takes on the stack.
pub const MAX_HIDDEN: usize = 256;
/// The widest second layer.
pub(crate) const MAX_L2: usize = 64;

/// A network over `inputs` sparse features: accumulator width `hidden` per point of view,
/// `l2` units after it, one output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Network {
    /// Number of features.
    pub inputs: usize,
    /// Accumulator width, per point of view.
    pub hidden: usize,
    /// Units of the second layer.
    pub l2: usize,
    /// First layer, one row of `hidden` weights per feature.
    pub w1: Vec<f32>,
    /// First layer's bias (`hidden`).
    pub b1: Vec<f32>,
    /// Second layer, one row of `2 * hidden` weights per unit (side to move's half first).
    pub w2: Vec<f32>,
    /// Second layer's bias (`l2`).
    pub b2: Vec<f32>,
    /// Output weights (`l2`).
    pub w3: Vec<f32>,
    /// Output bias.
    pub b3: f32,
}

impl Network {
    /// A network of these sizes with every weight zero.
    ///
    /// # Errors
    /// [`crate::Error::Inputs`] or [`crate::Error::Sizes`] when a size is 0 or above what the forward pass takes.
    pub fn zeros(inputs: usize, hidden: usize, l2: usize) -> Result<Network, crate::Error> {
        if inputs == 0 || inputs > usize::from(u16::MAX) + 1 {
            return Err(crate::Error::Inputs(inputs));
        }
        if hidden == 0 || hidden > MAX_HIDDEN || l2 == 0 || l2 > MAX_L2 {
            return Err(crate::Error::Sizes { hidden, l2 });
        }
        Ok(Network {
            inputs,
            hidden,
            l2,
            w1: vec![0.0; inputs * hidden],
            b1: vec![0.0; hidden],
            w2: vec![0.0; l2 * 2 * hidden],
            b2: vec![0.0; l2],
            w3: vec![0.0; l2],
            b3: 0.0,
        })
    }

    /// Whether every weight vector has the length the sizes say.
    pub fn is_consistent(&self) -> bool {
        self.inputs > 0
            && self.inputs <= usize::from(u16::MAX) + 1
            && (1..=MAX_HIDDEN).contains(&self.hidden)
            && (1..=MAX_L2).contains(&self.l2)
            && self.w1.len() == self.inputs * self.hidden
            && self.b1.len() == self.hidden
            && self.w2.len() == self.l2 * 2 * self.hidden
            && self.b2.len() == self.l2
            && self.w3.len() == self.l2
    }

    /// The accumulator of one point of view: the bias plus the rows of `features` (each below
    /// [`Network::inputs`]), into `acc` (`hidden` long).
    #[inline]
    pub fn accumulate(&self, features: &[u16], acc: &mut [f32]) {
        let h = self.hidden;
        acc.copy_from_slice(&self.b1);
        for &f in features {
            let row = &self.w1[usize::from(f) * h..][..h];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// The output (logit of the side to move's expected score) from the two accumulators.
    #[inline]
    pub fn output(&self, stm: &[f32], other: &[f32]) -> f32 {
        let h = self.hidden;
        let mut input = [0.0f32; 2 * MAX_HIDDEN];
        for (x, &a) in input[..h].iter_mut().zip(stm) {
            *x = a.clamp(0.0, 1.0);
        }
        for (x, &a) in input[h..2 * h].iter_mut().zip(other) {
            *x = a.clamp(0.0, 1.0);
        }
        self.dense(&input[..2 * h])
    }

    /// [`Network::output`] for accumulators of a width `W` known when compiling (the
    /// network's [`Network::hidden`]): the same value, without clearing a buffer of the widest
    /// accumulators first.
    #[inline]
    pub fn output_of<const W: usize>(&self, stm: &[f32; W], other: &[f32; W]) -> f32 {
        debug_assert_eq!(self.hidden, W);
        let mut input = [[0.0f32; W]; 2];
        for (x, &a) in input[0].iter_mut().zip(stm) {
            *x = a.clamp(0.0, 1.0);
        }
        for (x, &a) in input[1].iter_mut().zip(other) {
            *x = a.clamp(0.0, 1.0);
        }
        self.dense(input.as_flattened())
    }

    /// The second layer and the output on the clipped accumulators `input` (`2 * hidden`).
    #[inline]
    fn dense(&self, input: &[f32]) -> f32 {
        let n = input.len();
        let mut out = self.b3;
        for j in 0..self.l2 {
            let row = &self.w2[j * n..][..n];
            out += self.w3[j] * (self.b2[j] + dot(row, input)).clamp(0.0, 1.0);
        }
        out
    }

    /// The output for the features on from the side to move's and the other side's view.
    #[inline]
    pub fn forward(&self, stm: &[u16], other: &[u16]) -> f32 {
        let h = self.hidden;
        let mut a = [0.0f32; MAX_HIDDEN];
        let mut b = [0.0f32; MAX_HIDDEN];
        self.accumulate(stm, &mut a[..h]);
        self.accumulate(other, &mut b[..h]);
        self.output(&a[..h], &b[..h])
    }
}

/// A dot product in eight lanes, which the compiler keeps in vector registers.
#[inline]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            lanes[k] += x[k] * y[k];
        }
    }
    let mut sum: f32 = lanes.iter().sum();
    for (x, y) in ra.iter().zip(rb) {
        sum += x * y;
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`Network::output`] and [`Network::output_of`] equal a plain evaluation of the layers
    /// (one unit after the other, through [`dot`]) bit for bit, for second layers whose size
    /// is and is not a multiple of four.
    #[test]
    fn the_output_equals_one_unit_after_the_other() {
        let mut state = 3u64;
        let mut next = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            (state >> 40) as f32 / (1u64 << 24) as f32 - 0.5
        };
        for l2 in [1, 4, 7, 8, 13] {
            let mut net = Network::zeros(10, 16, l2).unwrap();
            for w in net.w2.iter_mut().chain(&mut net.b2).chain(&mut net.w3) {
                *w = next();
            }
            net.b3 = next();
            for _ in 0..20 {
                let stm: [f32; 16] = std::array::from_fn(|_| 2.0 * next() + 0.4);
                let other: [f32; 16] = std::array::from_fn(|_| 2.0 * next() + 0.4);
                let input: Vec<f32> = stm
                    .iter()
                    .chain(&other)
                    .map(|a| a.clamp(0.0, 1.0))
                    .collect();
                let mut want = net.b3;
                for j in 0..l2 {
                    let row = &net.w2[j * 32..][..32];
                    want += net.w3[j] * (net.b2[j] + dot(row, &input)).clamp(0.0, 1.0);
                }
                assert_eq!(
                    net.output(&stm, &other).to_bits(),
                    want.to_bits(),
                    "l2 {l2}"
                );
                assert_eq!(
                    net.output_of(&stm, &other).to_bits(),
                    want.to_bits(),
                    "l2 {l2}"
                );
            }
        }
    }
}
