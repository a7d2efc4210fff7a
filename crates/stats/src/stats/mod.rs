//! The statistics of game results: Wilson intervals, maximum-likelihood ratings with draws and a
//! White advantage (the BayesElo model), the sequential probability ratio test, and the
//! chi-square test of homogeneity used to ask whether setup variants differ.

mod chi;
mod fit;
mod multiple;
mod ratings;
mod sprt;

pub use chi::{ChiSquare, homogeneity};
pub use fit::{dispersion, goodness_of_fit, widened_half_width};
pub use multiple::holm;
pub use ratings::{RatingModel, Ratings, fit_ratings, model_probabilities};
pub use sprt::{Sprt, SprtDecision, SprtState};

/// The two-sided 95% normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wilson score interval (95%) for `successes` out of `n` trials; `(0, 1)` when `n` is 0. Half
/// points (draws) may be counted as successes of one half.
pub fn wilson(successes: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z2 = Z95 * Z95;
    let p = successes / n;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The difference of two independent proportions, `a` less `b` (each as successes and trials,
/// half points allowed), with Newcombe's hybrid score interval (95%): the two Wilson intervals
/// combined, `d - sqrt((p_a - l_a)^2 + (u_b - p_b)^2)` to `d + sqrt((u_a - p_a)^2 + (p_b -
/// l_b)^2)` (Newcombe 1998, method 10). Returns `(d, low, high)`.
pub fn difference_interval(a: (f64, f64), b: (f64, f64)) -> (f64, f64, f64) {
    let share = |(s, n): (f64, f64)| if n > 0.0 { s / n } else { 0.0 };
    let (pa, pb) = (share(a), share(b));
    let ((la, ua), (lb, ub)) = (wilson(a.0, a.1), wilson(b.0, b.1));
    let d = pa - pb;
    (
        d,
        d - ((pa - la).powi(2) + (ub - pb).powi(2)).sqrt(),
        d + ((ua - pa).powi(2) + (pb - lb).powi(2)).sqrt(),
    )
}

/// The expected score of a side `elo` Elo stronger (logistic Elo).
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that gives expected score `score` (infinite at 0 and 1).
pub fn score_to_elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Wins, draws and losses, from one side's view.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl std::ops::AddAssign for Wdl {
    fn add_assign(&mut self, other: Wdl) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}

/// `wins-draws-losses`, as report tables write it.
impl std::fmt::Display for Wdl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}-{}", self.wins, self.draws, self.losses)
    }
}

impl Wdl {
    /// Counts one result: 1 a win, 0 a draw, -1 a loss.
    pub fn add(&mut self, result: i8) {
        match result.signum() {
            1 => self.wins += 1,
            0 => self.draws += 1,
            _ => self.losses += 1,
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw one half.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Mean score in `[0, 1]` (one half when empty).
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            0.5
        } else {
            self.points() / self.games() as f64
        }
    }

    /// The Wilson 95% interval of the score.
    pub fn interval(&self) -> (f64, f64) {
        wilson(self.points(), self.games() as f64)
    }

    /// The counts as a contingency-table row: wins, draws, losses.
    pub fn row(&self) -> Vec<f64> {
        vec![self.wins as f64, self.draws as f64, self.losses as f64]
    }

    /// Share of draws.
    pub fn draw_rate(&self) -> f64 {
        if self.games() == 0 {
            0.0
        } else {
            self.draws as f64 / self.games() as f64
        }
    }

    /// The counts and the score as seven CSV fields, as the lab's tables write them: wins,
    /// draws, losses, then the score, the ends of its Wilson interval and the draw rate to four
    /// places.
    pub fn csv_fields(&self) -> String {
        let (low, high) = self.interval();
        format!(
            "{},{},{},{:.4},{low:.4},{high:.4},{:.4}",
            self.wins,
            self.draws,
            self.losses,
            self.score(),
            self.draw_rate()
        )
    }
}

/// The median of `values` (the mean of the middle two for an even count), sorting them in
/// place; `None` when empty.
pub fn median(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    Some(if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    })
}

/// The mean of `values` and its normal 95% interval (1.96 standard errors, the sample's
/// variance with n - 1): `(mean, low, high)`; zeros when empty, no width for one value.
pub fn mean_interval(values: &[f64]) -> (f64, f64, f64) {
    let n = values.len() as f64;
    if n == 0.0 {
        return (0.0, 0.0, 0.0);
    }
    let mean = values.iter().sum::<f64>() / n;
    let var = if n > 1.0 {
        values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    let half = 1.96 * (var / n).sqrt();
    (mean, mean - half, mean + half)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn the_mean_interval_is_the_normal_one() {
        // 1, 2, 3, 4: mean 2.5, sample variance 5/3, standard error sqrt(5/12).
        let (m, lo, hi) = mean_interval(&[1.0, 2.0, 3.0, 4.0]);
        let half = 1.96 * (5.0f64 / 12.0).sqrt();
        assert_eq!(m, 2.5);
        assert!((lo - (2.5 - half)).abs() < 1e-12 && (hi - (2.5 + half)).abs() < 1e-12);
        assert_eq!(mean_interval(&[]), (0.0, 0.0, 0.0));
        assert_eq!(mean_interval(&[7.0]), (7.0, 7.0, 7.0));
    }

    #[test]
    fn the_difference_interval_is_newcombes() {
        // Newcombe (1998), Statistics in Medicine 17, 873-890, Table II, example (a):
        // 56/70 - 48/80 = 0.2000, method 10 (hybrid score): 0.0524 to 0.3339.
        let (d, lo, hi) = difference_interval((56.0, 70.0), (48.0, 80.0));
        assert!((d - 0.2).abs() < 1e-12);
        assert!((lo - 0.0524).abs() < 5e-5, "{lo}");
        assert!((hi - 0.3339).abs() < 5e-5, "{hi}");
    }

    #[test]
    fn wilson_matches_a_hand_computation() {
        // 8 of 10: centre (0.8 + 1.9208/10) / 1.38415 = 0.71674, half-width 0.22658.
        let (lo, hi) = wilson(8.0, 10.0);
        assert!(
            (lo - 0.4902).abs() < 1e-3 && (hi - 0.9433).abs() < 1e-3,
            "{lo} {hi}"
        );
        assert_eq!(wilson(0.0, 0.0), (0.0, 1.0));
    }

    #[test]
    fn the_median_is_the_middle_value_or_the_mean_of_the_middle_two() {
        assert_eq!(median(&mut []), None);
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), Some(2.5));
    }
}
