//! Gumbel root search ("Policy improvement by planning with Gumbel", Danihelka et al., ICLR
//! 2022), as pure functions over a root's statistics so that each piece can be checked by hand.
//!
//! - [`considered_visits`]: the sequential-halving schedule. Simulation `i` visits, among the
//!   considered actions whose visit count equals `schedule[i]`, the one with the best
//!   [`gumbel score`](score); the first round's candidates are all unvisited, so the `k` actions
//!   with the largest `g + logit` are the ones considered.
//! - [`Children::completed_q`]: Q of visited actions, the mixed value estimate for the others
//!   (eq. 33).
//! - [`Children::transformed_q`]: completed Q min-max rescaled to `[0, 1]` and scaled by
//!   `sigma = (c_visit + max N) * c_scale`.
//! - [`Children::improved_policy`]: `softmax(logit + sigma(completed Q))`, the training target.

/// Smallest prior whose logarithm is taken (a zero prior would give minus infinity).
const MIN_PRIOR: f32 = 1e-12;

/// Parameters of the Gumbel root search.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct GumbelConfig {
    /// Number of root actions sampled without replacement (`k`, paper default 16).
    pub considered: usize,
    /// `c_visit` of `sigma`, in visits (paper: 50).
    pub c_visit: f32,
    /// `c_scale` of `sigma`, dimensionless (paper: 1.0).
    pub c_scale: f32,
}

impl Default for GumbelConfig {
    fn default() -> Self {
        GumbelConfig {
            considered: 16,
            c_visit: 50.0,
            c_scale: 1.0,
        }
    }
}

/// The visit count the action chosen by each of `simulations` root simulations must have, when
/// `k` actions are considered: rounds of sequential halving, each giving every remaining action
/// `max(1, n / (ceil(log2 k) * remaining))` more visits, halving down to 2 actions.
pub fn considered_visits(k: usize, simulations: usize) -> Vec<u32> {
    if k <= 1 {
        return (0..simulations as u32).collect();
    }
    let log2k = (k as f64).log2().ceil() as usize;
    let mut schedule = Vec::with_capacity(simulations);
    let mut visits = vec![0u32; k];
    let mut remaining = k;
    while schedule.len() < simulations {
        let extra = (simulations / (log2k * remaining)).max(1);
        for _ in 0..extra {
            schedule.extend_from_slice(&visits[..remaining]);
            for v in &mut visits[..remaining] {
                *v += 1;
            }
        }
        remaining = (remaining / 2).max(2);
    }
    schedule.truncate(simulations);
    schedule
}

/// A node's children as Gumbel's formulas read them, all from the node's side to move: each
/// child's mean value (`q`, read where it was visited), visits and prior, and the node's own
/// raw value from the evaluator.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Children {
    /// Each child's mean value.
    pub q: Vec<f32>,
    /// Each child's visits.
    pub visits: Vec<u32>,
    /// Each child's prior.
    pub priors: Vec<f32>,
    /// The node's value from the evaluator.
    pub raw_value: f32,
}

impl Children {
    /// Completed Q-values: `q[a]` where `visits[a] > 0`, else the mixed value
    /// `(raw_value + N * sum_visited(p q) / sum_visited(p)) / (1 + N)`, `N` the total visits.
    pub fn completed_q(&self) -> Vec<f32> {
        let total: u32 = self.visits.iter().sum();
        let (mut pq, mut p) = (0.0f64, 0.0f64);
        for ((&q, &n), &prior) in self.q.iter().zip(&self.visits).zip(&self.priors) {
            if n > 0 {
                pq += f64::from(prior) * f64::from(q);
                p += f64::from(prior);
            }
        }
        let raw = self.raw_value;
        let mixed = if total == 0 || p <= 0.0 {
            raw
        } else {
            ((f64::from(raw) + f64::from(total) * pq / p) / (1.0 + f64::from(total))) as f32
        };
        self.q
            .iter()
            .zip(&self.visits)
            .map(|(&q, &n)| if n > 0 { q } else { mixed })
            .collect()
    }

    /// `sigma(completed Q)`: completed Q rescaled to `[0, 1]` by its own minimum and maximum
    /// (all zero when they are equal), times `(c_visit + max visits) * c_scale`.
    pub fn transformed_q(&self, config: &GumbelConfig) -> Vec<f32> {
        let mut completed = self.completed_q();
        let (min, max) = completed
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &x| {
                (lo.min(x), hi.max(x))
            });
        let range = (max - min).max(1e-8);
        let max_visits = self.visits.iter().copied().max().unwrap_or(0) as f32;
        let scale = (config.c_visit + max_visits) * config.c_scale;
        for x in &mut completed {
            *x = (*x - min) / range * scale;
        }
        completed
    }

    /// The improved policy `softmax(logit(prior) + sigma(completed Q))`, one entry per child.
    pub fn improved_policy(&self, config: &GumbelConfig) -> Vec<f32> {
        let sigma = self.transformed_q(config);
        let mut out: Vec<f32> = self
            .priors
            .iter()
            .zip(&sigma)
            .map(|(&p, &s)| logit(p) + s)
            .collect();
        softmax(&mut out);
        out
    }
}

/// The logarithm of a prior, floored.
#[inline]
pub fn logit(prior: f32) -> f32 {
    prior.max(MIN_PRIOR).ln()
}

/// The score by which the root picks among candidates: `gumbel + logit + sigma(q)`.
#[inline]
pub fn score(gumbel: f32, prior: f32, sigma_q: f32) -> f32 {
    gumbel + logit(prior) + sigma_q
}

/// In-place softmax; a uniform distribution when the logits do not give a finite positive
/// total (infinite or NaN logits).
pub fn softmax(x: &mut [f32]) {
    let max = x.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for v in x.iter_mut() {
        *v = (*v - max).exp();
        sum += *v;
    }
    if sum > 0.0 && sum.is_finite() {
        for v in x.iter_mut() {
            *v /= sum;
        }
    } else {
        let n = x.len() as f32;
        x.fill(1.0 / n);
    }
}

/// A standard Gumbel sample from a uniform `u` in `(0, 1)`.
#[inline]
pub fn gumbel_from_uniform(u: f64) -> f32 {
    let u = u.clamp(1e-12, 1.0 - 1e-12);
    (-(-u.ln()).ln()) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn children(q: &[f32], visits: &[u32], priors: &[f32], raw_value: f32) -> Children {
        Children {
            q: q.to_vec(),
            visits: visits.to_vec(),
            priors: priors.to_vec(),
            raw_value,
        }
    }

    fn close(a: &[f32], b: &[f32]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5)
    }

    #[test]
    fn schedule_by_hand() {
        // k = 4, n = 8: log2 k = 2. Round 1: 8 / (2 * 4) = 1 visit each -> 0 0 0 0.
        // Round 2: 2 actions, 8 / (2 * 2) = 2 visits each -> 1 1, 2 2.
        assert_eq!(considered_visits(4, 8), vec![0, 0, 0, 0, 1, 1, 2, 2]);
        // k = 2, n = 5: log2 k = 1, 5 / 2 = 2 visits each: 0 0 1 1, then again 2 actions:
        // 5 / 2 = 2 -> 2 2 (truncated to 5).
        assert_eq!(considered_visits(2, 5), vec![0, 0, 1, 1, 2]);
        assert_eq!(considered_visits(1, 3), vec![0, 1, 2]);
        // k = 3, n = 4: log2 k = 2, 4 / 6 = 0 -> 1 visit each: 0 0 0; then 2: 4 / 4 = 1: 1 1.
        assert_eq!(considered_visits(3, 4), vec![0, 0, 0, 1]);
    }

    #[test]
    fn completed_q_by_hand() {
        // Visited: a0 (p .5, q .2), a1 (p .25, q -.4); unvisited a2 (p .25). N = 3 + 1 = 4.
        // sum p q / sum p = (.1 - .1) / .75 = 0; mixed = (raw .3 + 4 * 0) / 5 = .06.
        let q = children(&[0.2, -0.4, 0.9], &[3, 1, 0], &[0.5, 0.25, 0.25], 0.3).completed_q();
        assert!(close(&q, &[0.2, -0.4, 0.06]), "{q:?}");
        // Nothing visited: every action gets the raw value.
        let q = children(&[0.0, 0.0], &[0, 0], &[0.5, 0.5], -0.7).completed_q();
        assert!(close(&q, &[-0.7, -0.7]));
    }

    #[test]
    fn improved_policy_by_hand() {
        let config = GumbelConfig {
            considered: 4,
            c_visit: 50.0,
            c_scale: 0.1,
        };
        // Completed q = [.2, -.4, .06] (as above); min -.4, max .2, range .6:
        // rescaled [1, 0, .46/.6]; sigma scale = (50 + 3) * .1 = 5.3.
        // logits + sigma: ln .5 + 5.3, ln .25 + 0, ln .25 + 5.3 * .766667.
        let p = children(&[0.2, -0.4, 0.9], &[3, 1, 0], &[0.5, 0.25, 0.25], 0.3)
            .improved_policy(&config);
        let z = [
            0.5f32.ln() + 5.3,
            0.25f32.ln(),
            0.25f32.ln() + 5.3 * (0.46 / 0.6),
        ];
        let e: Vec<f32> = z.iter().map(|x| x.exp()).collect();
        let s: f32 = e.iter().sum();
        let want: Vec<f32> = e.iter().map(|x| x / s).collect();
        assert!(close(&p, &want), "{p:?} vs {want:?}");
        // Written out: exp(4.6069) = 100.17, exp(-1.3863) = .25, exp(2.6770) = 14.54.
        assert!((p[0] - 100.17 / 114.96).abs() < 1e-3);
        // Equal completed values: sigma is 0 and the prior comes back.
        let p = children(&[0.1, 0.1], &[2, 2], &[0.7, 0.3], 0.1).improved_policy(&config);
        assert!(close(&p, &[0.7, 0.3]), "{p:?}");
    }
}
