//! The statistics of game results: Wilson intervals, maximum-likelihood ratings with draws and a
//! White advantage (the BayesElo model), the sequential probability ratio test, and the
//! chi-square test of homogeneity used to ask whether setup variants differ.

use statrs::distribution::{ChiSquared, ContinuousCDF};

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
}

/// How ratings are fitted.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RatingModel {
    /// Fit a White advantage (Elo added to White's rating); off, it is held at 0.
    pub fit_advantage: bool,
    /// Virtual draws added between every pair of players that met (half with each colour), as
    /// BayesElo's prior: they keep ratings finite when one side won every game. 0 is pure
    /// maximum likelihood.
    pub prior_draws: f64,
}

impl Default for RatingModel {
    fn default() -> RatingModel {
        RatingModel {
            fit_advantage: true,
            prior_draws: 2.0,
        }
    }
}

/// Fitted ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// Elo of each player, centred on a mean of 0.
    pub elo: Vec<f64>,
    /// Covariance of the centred ratings (Elo squared), from the observed information.
    pub covariance: Vec<Vec<f64>>,
    /// White's advantage in Elo.
    pub advantage: f64,
    /// Half-width of the advantage's 95% interval.
    pub advantage_half_width: f64,
    /// The draw parameter in Elo: the larger, the more draws between equal players.
    pub draw_elo: f64,
    /// Log-likelihood at the optimum.
    pub log_likelihood: f64,
}

impl Ratings {
    /// Half-width of the 95% interval of player `i`'s rating (relative to the mean).
    pub fn half_width(&self, i: usize) -> f64 {
        Z95 * self.covariance[i][i].max(0.0).sqrt()
    }

    /// Half-width of the 95% interval of `elo[i] - elo[j]`.
    pub fn difference_half_width(&self, i: usize, j: usize) -> f64 {
        let c = &self.covariance;
        Z95 * (c[i][i] + c[j][j] - 2.0 * c[i][j]).max(0.0).sqrt()
    }
}

/// The largest draw parameter the fit considers, in Elo.
pub const MAX_DRAW_ELO: f64 = 800.0;

/// The model's probabilities of a White win, a draw and a Black win.
pub fn model_probabilities(white_minus_black: f64, advantage: f64, draw_elo: f64) -> [f64; 3] {
    let white = elo_to_score(white_minus_black + advantage - draw_elo);
    let black = elo_to_score(-white_minus_black - advantage - draw_elo);
    [white, 1.0 - white - black, black]
}

/// Fits ratings to `games`, each `(white, black, result)` with players numbered below `players`
/// and the result from White's view (1, 0, -1), by maximum likelihood under the BayesElo model:
/// P(White wins) = F(r_w - r_b + advantage - draw), P(Black wins) = F(r_b - r_w - advantage -
/// draw), the rest a draw, where F is the logistic Elo curve. Intervals come from the inverse of
/// the observed information (the log-likelihood's curvature) at the optimum.
#[allow(clippy::needless_range_loop)] // matrix algebra reads best with indices
pub fn fit_ratings(players: usize, games: &[(usize, usize, i8)], model: &RatingModel) -> Ratings {
    assert!(players > 0, "ratings need a player");
    let mut counts = vec![[0.0f64; 3]; players * players];
    let mut met = vec![false; players * players];
    for &(w, b, result) in games {
        let k = match result.signum() {
            1 => 0,
            0 => 1,
            _ => 2,
        };
        counts[w * players + b][k] += 1.0;
        met[w.min(b) * players + w.max(b)] = true;
    }
    for i in 0..players {
        for j in i + 1..players {
            if met[i * players + j] {
                counts[i * players + j][1] += model.prior_draws / 2.0;
                counts[j * players + i][1] += model.prior_draws / 2.0;
            }
        }
    }
    if players == 1 && model.prior_draws > 0.0 && counts[0].iter().sum::<f64>() > 0.0 {
        counts[0][1] += model.prior_draws;
    }
    // Parameters: ratings of players 1.. (player 0 is held at 0), then the advantage if fitted,
    // then the draw parameter through a logistic map onto (0, MAX_DRAW_ELO), which keeps it
    // positive and bounded: with no losses (or no wins) at all an unbounded draw parameter would
    // let the ratings run off to infinity together with it.
    let n_ratings = players - 1;
    let adv_index = model.fit_advantage.then_some(n_ratings);
    let draw_index = n_ratings + usize::from(model.fit_advantage);
    let unpack = |theta: &[f64]| {
        let mut r = vec![0.0; players];
        r[1..].copy_from_slice(&theta[..n_ratings]);
        let adv = adv_index.map_or(0.0, |i| theta[i]);
        (r, adv, MAX_DRAW_ELO / (1.0 + (-theta[draw_index]).exp()))
    };
    let log_likelihood = |theta: &[f64]| -> f64 {
        let (r, adv, draw) = unpack(theta);
        let mut total = 0.0;
        for w in 0..players {
            for b in 0..players {
                let c = &counts[w * players + b];
                if c.iter().all(|&x| x == 0.0) {
                    continue;
                }
                let p = model_probabilities(r[w] - r[b], adv, draw);
                for k in 0..3 {
                    if c[k] > 0.0 {
                        total += c[k] * p[k].max(1e-300).ln();
                    }
                }
            }
        }
        total
    };
    let dim = draw_index + 1;
    let mut theta = vec![0.0; dim];
    theta[draw_index] = (100.0 / (MAX_DRAW_ELO - 100.0)).ln();
    let mut current = log_likelihood(&theta);
    for _ in 0..200 {
        let (gradient, hessian) = derivatives(&log_likelihood, &theta);
        let negative: Vec<Vec<f64>> = hessian
            .iter()
            .map(|row| row.iter().map(|x| -x).collect())
            .collect();
        let step = solve(&negative, &gradient)
            .filter(|s| s.iter().zip(&gradient).map(|(a, b)| a * b).sum::<f64>() > 0.0)
            .unwrap_or_else(|| gradient.iter().map(|g| g * 1e-2).collect());
        let mut scale = 1.0;
        let mut improved = false;
        while scale > 1e-8 {
            let trial: Vec<f64> = theta
                .iter()
                .zip(&step)
                .map(|(t, s)| t + scale * s)
                .collect();
            let value = log_likelihood(&trial);
            if value.is_finite() && value >= current - 1e-12 {
                let gain = value - current;
                theta = trial;
                current = value;
                improved = gain > 1e-10;
                break;
            }
            scale /= 2.0;
        }
        let size = step.iter().map(|s| (s * scale).abs()).fold(0.0, f64::max);
        if !improved || size < 1e-7 {
            break;
        }
    }
    // Intervals as BayesElo gives them: the ratings' covariance with the advantage and the draw
    // parameter held at their estimates (the rating block of the information), and the
    // advantage's from its own curvature.
    let (_, hessian) = derivatives(&log_likelihood, &theta);
    let block = |ids: &[usize]| -> Vec<Vec<f64>> {
        let m: Vec<Vec<f64>> = ids
            .iter()
            .map(|&i| ids.iter().map(|&j| -hessian[i][j]).collect())
            .collect();
        invert(&m).unwrap_or_else(|| vec![vec![0.0; ids.len()]; ids.len()])
    };
    let inverse = block(&(0..n_ratings).collect::<Vec<_>>());
    let advantage_variance = adv_index.map_or(0.0, |i| block(&[i])[0][0]);
    // Centred ratings: r' = A theta_r with A = (I - 11'/n) E, E putting theta_r into r[1..].
    let a = |i: usize, k: usize| -> f64 {
        let e = if i == k + 1 { 1.0 } else { 0.0 };
        e - 1.0 / players as f64
    };
    let mut covariance = vec![vec![0.0; players]; players];
    for (i, row) in covariance.iter_mut().enumerate() {
        for (j, cell) in row.iter_mut().enumerate() {
            let mut s = 0.0;
            for k in 0..n_ratings {
                for l in 0..n_ratings {
                    s += a(i, k) * inverse[k][l] * a(j, l);
                }
            }
            *cell = s;
        }
    }
    let (r, advantage, draw_elo) = unpack(&theta);
    let mean = r.iter().sum::<f64>() / players as f64;
    Ratings {
        elo: r.iter().map(|x| x - mean).collect(),
        covariance,
        advantage,
        advantage_half_width: Z95 * advantage_variance.max(0.0).sqrt(),
        draw_elo,
        log_likelihood: current,
    }
}

/// Gradient and Hessian of `f` at `x` by central differences.
fn derivatives(f: &dyn Fn(&[f64]) -> f64, x: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = x.len();
    let h: Vec<f64> = x.iter().map(|v| 1e-3 * v.abs().max(1.0)).collect();
    let at = |moves: &[(usize, f64)]| {
        let mut y = x.to_vec();
        for &(i, d) in moves {
            y[i] += d;
        }
        f(&y)
    };
    let f0 = f(x);
    let mut gradient = vec![0.0; n];
    let mut hessian = vec![vec![0.0; n]; n];
    for i in 0..n {
        let plus = at(&[(i, h[i])]);
        let minus = at(&[(i, -h[i])]);
        gradient[i] = (plus - minus) / (2.0 * h[i]);
        hessian[i][i] = (plus - 2.0 * f0 + minus) / (h[i] * h[i]);
        for j in 0..i {
            let v = (at(&[(i, h[i]), (j, h[j])])
                - at(&[(i, h[i]), (j, -h[j])])
                - at(&[(i, -h[i]), (j, h[j])])
                + at(&[(i, -h[i]), (j, -h[j])]))
                / (4.0 * h[i] * h[j]);
            hessian[i][j] = v;
            hessian[j][i] = v;
        }
    }
    (gradient, hessian)
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting (`None` when singular).
#[allow(clippy::needless_range_loop)] // matrix algebra reads best with indices
fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut m: Vec<Vec<f64>> = a
        .iter()
        .zip(b)
        .map(|(row, &bi)| {
            let mut r = row.clone();
            r.push(bi);
            r
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| m[i][col].abs().total_cmp(&m[j][col].abs()))?;
        if m[pivot][col].abs() < 1e-300 {
            return None;
        }
        m.swap(col, pivot);
        for row in 0..n {
            if row != col {
                let factor = m[row][col] / m[col][col];
                for k in col..=n {
                    m[row][k] -= factor * m[col][k];
                }
            }
        }
    }
    let x: Vec<f64> = (0..n).map(|i| m[i][n] / m[i][i]).collect();
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// The inverse of `a` (`None` when singular).
fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut columns = Vec::with_capacity(n);
    for i in 0..n {
        let mut e = vec![0.0; n];
        e[i] = 1.0;
        columns.push(solve(a, &e)?);
    }
    Some(
        (0..n)
            .map(|i| (0..n).map(|j| columns[j][i]).collect())
            .collect(),
    )
}

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

/// A chi-square test's result.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ChiSquare {
    /// The statistic.
    pub statistic: f64,
    /// Degrees of freedom.
    pub df: usize,
    /// The probability of a statistic at least this large if the rows do not differ.
    pub p_value: f64,
}

/// Pearson's chi-square test of homogeneity: do the rows of a contingency table (here: setup
/// variants, with columns White win / draw / Black win) come from one distribution? Rows and
/// columns with no counts are left out; `None` when fewer than two of either remain.
pub fn homogeneity(table: &[Vec<f64>]) -> Option<ChiSquare> {
    let rows: Vec<&Vec<f64>> = table
        .iter()
        .filter(|r| r.iter().sum::<f64>() > 0.0)
        .collect();
    let width = rows.first()?.len();
    let columns: Vec<usize> = (0..width)
        .filter(|&j| rows.iter().map(|r| r[j]).sum::<f64>() > 0.0)
        .collect();
    if rows.len() < 2 || columns.len() < 2 {
        return None;
    }
    let total: f64 = rows.iter().map(|r| r.iter().sum::<f64>()).sum();
    let mut statistic = 0.0;
    for r in &rows {
        let row_total: f64 = r.iter().sum();
        for &j in &columns {
            let column_total: f64 = rows.iter().map(|r| r[j]).sum();
            let expected = row_total * column_total / total;
            statistic += (r[j] - expected).powi(2) / expected;
        }
    }
    let df = (rows.len() - 1) * (columns.len() - 1);
    let p_value = ChiSquared::new(df as f64).ok()?.sf(statistic);
    Some(ChiSquare {
        statistic,
        df,
        p_value,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn chi_square_matches_hand_computation_and_closed_form() {
        // Rows (30, 10, 20) and (20, 10, 30): expected 25/10/25 each; statistic
        // 4 * 25 / 25 = 4 with 2 degrees of freedom, whose survival function is exp(-x / 2).
        let test = homogeneity(&[vec![30.0, 10.0, 20.0], vec![20.0, 10.0, 30.0]]).unwrap();
        assert_eq!(test.df, 2);
        assert!((test.statistic - 4.0).abs() < 1e-12);
        assert!(
            (test.p_value - (-2.0f64).exp()).abs() < 1e-9,
            "{}",
            test.p_value
        );
        // An empty column is left out (one degree of freedom then); one row is no test.
        let test = homogeneity(&[vec![5.0, 0.0, 5.0], vec![5.0, 0.0, 5.0]]).unwrap();
        assert_eq!(test.df, 1);
        assert!(test.statistic.abs() < 1e-12 && (test.p_value - 1.0).abs() < 1e-9);
        assert!(homogeneity(&[vec![1.0, 2.0, 3.0]]).is_none());
    }

    #[test]
    fn two_player_ratings_match_the_closed_form() {
        // Without a colour term the two-player model is saturated: F(d - D) and F(-d - D) equal
        // the observed win and loss rates, so d = 200 (logit10(w) - logit10(l)).
        let mut games = Vec::new();
        for (result, count) in [(1i8, 55), (0, 30), (-1, 15)] {
            for k in 0..count {
                // Alternate colours; the model ignores them.
                if k % 2 == 0 {
                    games.push((0, 1, result));
                } else {
                    games.push((1, 0, -result));
                }
            }
        }
        let model = RatingModel {
            fit_advantage: false,
            prior_draws: 0.0,
        };
        let r = fit_ratings(2, &games, &model);
        let logit10 = |p: f64| (p / (1.0 - p)).log10();
        let d = 200.0 * (logit10(0.55) - logit10(0.15));
        assert!((r.elo[0] - r.elo[1] - d).abs() < 1e-3, "{:?} vs {d}", r.elo);
        let draw = -200.0 * (logit10(0.55) + logit10(0.15));
        assert!((r.draw_elo - draw).abs() < 1e-3, "{} vs {draw}", r.draw_elo);
        // The difference's interval is about what the delta method gives for a score.
        assert!(r.difference_half_width(0, 1) > 40.0 && r.difference_half_width(0, 1) < 120.0);
    }

    #[test]
    fn ratings_recover_the_parameters_games_were_drawn_from() {
        use rand::{RngExt, SeedableRng};
        let truth = [150.0, 50.0, -50.0, -150.0];
        let (advantage, draw) = (40.0, 120.0);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut games = Vec::new();
        for _ in 0..1500 {
            for w in 0..4 {
                for b in 0..4 {
                    if w != b && rng.random::<f64>() < 0.5 {
                        let p = model_probabilities(truth[w] - truth[b], advantage, draw);
                        let u: f64 = rng.random();
                        let result = if u < p[0] {
                            1
                        } else if u < p[0] + p[1] {
                            0
                        } else {
                            -1
                        };
                        games.push((w, b, result));
                    }
                }
            }
        }
        let r = fit_ratings(4, &games, &RatingModel::default());
        for (i, t) in truth.iter().enumerate() {
            let error = (r.elo[i] - t).abs();
            assert!(error < r.half_width(i) * 1.5, "player {i}: {:?}", r.elo);
        }
        assert!(
            (r.advantage - advantage).abs() < 1.5 * r.advantage_half_width,
            "{r:?}"
        );
        assert!((r.draw_elo - draw).abs() < 10.0, "{}", r.draw_elo);
        assert!(r.elo.iter().sum::<f64>().abs() < 1e-6);
    }

    #[test]
    fn one_sided_results_keep_finite_ratings_under_the_prior() {
        let games: Vec<(usize, usize, i8)> = (0..20).map(|k| (k % 2, 1 - k % 2, 1)).collect();
        let r = fit_ratings(2, &games, &RatingModel::default());
        assert!(r.elo.iter().all(|e| e.is_finite()));
        let games: Vec<(usize, usize, i8)> = (0..20)
            .map(|k| if k % 2 == 0 { (0, 1, 1) } else { (1, 0, -1) })
            .collect();
        let r = fit_ratings(2, &games, &RatingModel::default());
        assert!(r.elo[0] > r.elo[1] + 100.0 && r.elo[0].is_finite());
    }

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
