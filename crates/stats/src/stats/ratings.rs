//! Maximum-likelihood ratings under the BayesElo model (draws and a first-mover advantage),
//! with intervals from the whole observed information (every parameter fitted jointly).

use super::{Z95, elo_to_score};

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
    /// Covariance of the centred ratings (Elo squared), from the whole observed information
    /// (the advantage and the draw parameter fitted jointly, not held fixed).
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
/// the whole observed information (the log-likelihood's curvature in every parameter, the
/// advantage and the draw parameter included) at the optimum.
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
    // Intervals from the whole observed information: the ratings' covariance is their block of
    // its inverse, so the uncertainty of the advantage and the draw parameter is carried into
    // the ratings' intervals (holding them fixed at their estimates, as BayesElo does, narrows
    // the intervals most when draws are common and the scores lopsided). Where the whole
    // information is singular (a parameter at the edge of its range: no draws at all, say), the
    // parameters it cannot place are held at their estimates.
    let (_, hessian) = derivatives(&log_likelihood, &theta);
    let inverse_of = |ids: &[usize]| -> Option<Vec<Vec<f64>>> {
        let m: Vec<Vec<f64>> = ids
            .iter()
            .map(|&i| ids.iter().map(|&j| -hessian[i][j]).collect())
            .collect();
        invert(&m).filter(|inv| (0..ids.len()).all(|i| inv[i][i] >= 0.0))
    };
    let all: Vec<usize> = (0..dim).collect();
    let without_draw: Vec<usize> = (0..draw_index).collect();
    let ratings_only: Vec<usize> = (0..n_ratings).collect();
    let full = [&all, &without_draw, &ratings_only]
        .into_iter()
        .find_map(|ids| inverse_of(ids))
        .unwrap_or_else(|| vec![vec![0.0; dim]; dim]);
    let inverse: Vec<Vec<f64>> = (0..n_ratings)
        .map(|i| full[i][..n_ratings].to_vec())
        .collect();
    let advantage_variance = adv_index
        .and_then(|i| full.get(i).map(|row| row[i]))
        .or_else(|| adv_index.and_then(|i| inverse_of(&[i]).map(|m| m[0][0])))
        .unwrap_or(0.0);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Player 0 against player 1, `count` games of each `result` (player 0's view), colours
    /// alternating.
    fn alternating(results: &[(i8, usize)]) -> Vec<(usize, usize, i8)> {
        let mut games = Vec::new();
        for &(result, count) in results {
            for k in 0..count {
                if k % 2 == 0 {
                    games.push((0, 1, result));
                } else {
                    games.push((1, 0, -result));
                }
            }
        }
        games
    }

    /// The delta method's 95% half-width of d = 200 (logit10(w) - logit10(l)) from the
    /// observed win and loss rates of a multinomial sample of n games:
    /// Var(d) = (200 / ln 10)^2 / n [1/(w(1-w)) + 1/(l(1-l)) + 2/((1-w)(1-l))].
    fn delta_half_width(w: f64, l: f64, n: f64) -> f64 {
        let c = 200.0 / std::f64::consts::LN_10;
        let variance = c * c / n
            * (1.0 / (w * (1.0 - w)) + 1.0 / (l * (1.0 - l)) + 2.0 / ((1.0 - w) * (1.0 - l)));
        Z95 * variance.sqrt()
    }
    #[test]
    fn two_player_ratings_match_the_closed_form() {
        // Without a colour term the two-player model is saturated: F(d - D) and F(-d - D) equal
        // the observed win and loss rates, so d = 200 (logit10(w) - logit10(l)).
        // Colours alternate; the model without a colour term ignores them.
        let games = alternating(&[(1, 55), (0, 30), (-1, 15)]);
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
        // Saturated, the fit's variance of d is the delta method's for d as a function of the
        // observed rates (w, l).
        let (w, l, n) = (0.55, 0.15, 100.0);
        let expected = delta_half_width(w, l, n);
        let got = r.difference_half_width(0, 1);
        assert!(
            (got - expected).abs() < 0.01 * expected,
            "{got} vs {expected}"
        );
    }

    #[test]
    fn the_draw_parameter_uncertainty_widens_a_lopsided_match_with_many_draws() {
        // 60 wins, 35 draws, 5 losses: the draw parameter and the difference are strongly
        // correlated, and the joint interval is the delta method's for the saturated model.
        let games = alternating(&[(1, 60), (0, 35), (-1, 5)]);
        let model = RatingModel {
            fit_advantage: true,
            prior_draws: 0.0,
        };
        let r = fit_ratings(2, &games, &model);
        let (w, l, n) = (0.60, 0.05, 100.0);
        let expected = delta_half_width(w, l, n);
        let got = r.difference_half_width(0, 1);
        assert!(
            (got - expected).abs() < 0.02 * expected,
            "{got} vs {expected}"
        );
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
}
