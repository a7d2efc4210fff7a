//! The sequential probability ratio test of an Elo difference.

use super::elo_to_score;

/// A sequential probability ratio test of "the candidate is `elo1` Elo better than the baseline"
/// against "it is `elo0` better" (logistic Elo), with error rates `alpha` (accepting H1 when H0
/// holds) and `beta` (the reverse).
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sprt {
    /// Elo difference under H0.
    pub elo0: f64,
    /// Elo difference under H1.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// The log-likelihood ratio crossed the upper bound: accept H1 (the candidate is better).
    H1,
    /// It crossed the lower bound: accept H0.
    H0,
    /// Neither yet.
    Continue,
}

/// The state of an SPRT after some games.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SprtState {
    /// The log-likelihood ratio of H1 against H0.
    pub llr: f64,
    /// The bound below which H0 is accepted.
    pub lower: f64,
    /// The bound above which H1 is accepted.
    pub upper: f64,
    /// The decision.
    pub decision: SprtDecision,
}

impl Sprt {
    /// The test of "better by at least `elo` Elo": H0 at 0, H1 at `elo`, 5% error rates.
    pub fn better_by(elo: f64) -> Sprt {
        Sprt {
            elo0: 0.0,
            elo1: elo,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    /// The log-likelihood ratio bounds `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The test on independent units' scores in `[0, 1]`: single games (0, 1/2, 1) or, for
    /// colour-paired games, each pair's mean score (the pentanomial test, which is what paired
    /// openings call for). The log-likelihood ratio is the generalised one in its normal
    /// approximation, `N (s1 - s0) (2 m - s0 - s1) / (2 v)`, with `m` and `v` the units' mean
    /// and variance and `s0`, `s1` the scores the two hypotheses predict. With no variance yet
    /// the test continues.
    pub fn test(&self, units: &[f64]) -> SprtState {
        let (lower, upper) = self.bounds();
        let n = units.len() as f64;
        let mean = units.iter().sum::<f64>() / n.max(1.0);
        let variance = units.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n.max(1.0);
        let (s0, s1) = (elo_to_score(self.elo0), elo_to_score(self.elo1));
        let llr = if units.len() < 2 || variance < 1e-12 {
            0.0
        } else {
            n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
        };
        let decision = if llr >= upper {
            SprtDecision::H1
        } else if llr <= lower {
            SprtDecision::H0
        } else {
            SprtDecision::Continue
        };
        SprtState {
            llr,
            lower,
            upper,
            decision,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    /// The generalised SPRT's exact log-likelihood ratio for a multinomial over the distinct unit
    /// scores: the likelihoods maximised under mean s1 and under mean s0, where the constrained
    /// maximum puts p_j = q_j / (1 + lambda (x_j - s)) with lambda found by bisection.
    fn exact_llr(units: &[f64], s0: f64, s1: f64) -> f64 {
        let mut values: Vec<(f64, f64)> = Vec::new();
        for &u in units {
            match values.iter_mut().find(|(x, _)| (*x - u).abs() < 1e-12) {
                Some((_, c)) => *c += 1.0,
                None => values.push((u, 1.0)),
            }
        }
        let n = units.len() as f64;
        let constrained = |s: f64| -> Vec<f64> {
            let g = |lambda: f64| -> f64 {
                values
                    .iter()
                    .map(|&(x, c)| c / n * (x - s) / (1.0 + lambda * (x - s)))
                    .sum()
            };
            // 1 + lambda d > 0 for every d: above -1/d for d > 0, below -1/d for d < 0.
            let deltas = values.iter().map(|&(x, _)| x - s);
            let lo = deltas
                .clone()
                .filter(|&d| d > 0.0)
                .map(|d| -1.0 / d)
                .fold(-1e9, f64::max);
            let hi = deltas
                .filter(|&d| d < 0.0)
                .map(|d| -1.0 / d)
                .fold(1e9, f64::min);
            let (mut lo, mut hi) = (lo + 1e-12, hi - 1e-12);
            for _ in 0..200 {
                let mid = 0.5 * (lo + hi);
                if g(mid) > 0.0 { lo = mid } else { hi = mid }
            }
            let lambda = 0.5 * (lo + hi);
            values
                .iter()
                .map(|&(x, c)| c / n / (1.0 + lambda * (x - s)))
                .collect()
        };
        let (p0, p1) = (constrained(s0), constrained(s1));
        values
            .iter()
            .enumerate()
            .map(|(j, &(_, c))| c * (p1[j] / p0[j]).ln())
            .sum()
    }

    #[test]
    fn sprt_llr_agrees_with_the_exact_generalised_ratio() {
        let sprt = Sprt::better_by(10.0);
        let (s0, s1) = (elo_to_score(0.0), elo_to_score(10.0));
        // Trinomial units: 430 wins, 250 draws, 320 losses; pentanomial units: pair means. (The
        // approximation is local: it holds for means near the hypotheses' scores.)
        let mut games = vec![1.0; 430];
        games.extend(vec![0.5; 250]);
        games.extend(vec![0.0; 320]);
        let mut pairs = vec![1.0; 40];
        pairs.extend(vec![0.75; 130]);
        pairs.extend(vec![0.5; 180]);
        pairs.extend(vec![0.25; 120]);
        pairs.extend(vec![0.0; 30]);
        for units in [games, pairs] {
            let approx = sprt.test(&units).llr;
            let exact = exact_llr(&units, s0, s1);
            assert!(
                (approx - exact).abs() < 0.02 * exact.abs().max(1.0),
                "{approx} vs {exact}"
            );
        }
        let (lower, upper) = sprt.bounds();
        assert!((upper - 19f64.ln()).abs() < 1e-12 && (lower + 19f64.ln()).abs() < 1e-12);
        // A clearly better candidate is accepted, a clearly worse one rejected.
        let strong: Vec<f64> = (0..400).map(|k| [1.0, 1.0, 0.5, 0.0][k % 4]).collect();
        assert_eq!(sprt.test(&strong).decision, SprtDecision::H1);
        let weak: Vec<f64> = (0..400).map(|k| [0.0, 0.0, 0.5, 1.0][k % 4]).collect();
        assert_eq!(sprt.test(&weak).decision, SprtDecision::H0);
        assert_eq!(sprt.test(&[1.0]).decision, SprtDecision::Continue);
    }
}
