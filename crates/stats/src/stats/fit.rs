//! How well fitted ratings account for the games: Pearson's statistic over the pairings' scores,
//! and the ratings' intervals widened by the spread the one-rating model leaves unexplained.
//!
//! A rating list fits one number per player; when players are not transitive (A beats B, B
//! beats C, C holds A), the pairings' scores spread more than the model allows and the
//! model's intervals, which assume it holds, are too narrow. The usual remedy for such
//! overdispersion (quasi-likelihood: McCullagh and Nelder, *Generalized Linear Models*, 2nd ed.,
//! section 4.5) scales the covariance by the dispersion, the statistic over its degrees of
//! freedom, where that is above 1.

use statrs::distribution::{ChiSquared, ContinuousCDF};

use super::{ChiSquare, Ratings, Z95, model_probabilities};

/// Pearson's statistic of the pairings' scores under fitted ratings.
///
/// For each pair of players that met, the first one's points (a win 1, a draw 1/2) are compared
/// with what the fitted model expects of the same games (each with its colours), over the
/// model's variance of those points. Its degrees of freedom are the pairings less the ratings
/// fitted (every one but one): the advantage and the draw parameter move a pairing's expected
/// points hardly at all where colours are balanced (they are fitted to how the points come, by
/// colour and as draws), so they are not subtracted; a simulated list that the model holds
/// for then gives a statistic whose mean is its degrees of freedom (tested). `None` when no
/// degree of freedom is left (two players: the model fits any score).
pub fn goodness_of_fit(
    players: usize,
    games: &[(usize, usize, i8)],
    ratings: &Ratings,
) -> Option<ChiSquare> {
    // Per unordered pairing (low, high): observed points of `low`, expected, variance.
    let mut sums = vec![[0.0f64; 3]; players * players];
    let mut met = vec![false; players * players];
    for &(w, b, result) in games {
        if w == b {
            continue;
        }
        let (low, high) = (w.min(b), w.max(b));
        let p = model_probabilities(
            ratings.elo[w] - ratings.elo[b],
            ratings.advantage,
            ratings.draw_elo,
        );
        // White's points: mean p_w + p_d / 2, second moment p_w + p_d / 4.
        let mean = p[0] + p[1] / 2.0;
        let variance = p[0] + p[1] / 4.0 - mean * mean;
        let white_points = (f64::from(result.signum()) + 1.0) / 2.0;
        let (observed, expected) = if w == low {
            (white_points, mean)
        } else {
            (1.0 - white_points, 1.0 - mean)
        };
        let cell = &mut sums[low * players + high];
        cell[0] += observed;
        cell[1] += expected;
        cell[2] += variance;
        met[low * players + high] = true;
    }
    let mut statistic = 0.0;
    let mut pairings = 0usize;
    for (cell, &m) in sums.iter().zip(&met) {
        if m && cell[2] > 0.0 {
            statistic += (cell[0] - cell[1]).powi(2) / cell[2];
            pairings += 1;
        }
    }
    let df = pairings.checked_sub(players - 1).filter(|&d| d > 0)?;
    let p_value = ChiSquared::new(df as f64).ok()?.sf(statistic);
    Some(ChiSquare {
        statistic,
        df,
        p_value,
    })
}

/// The dispersion of a fit: the statistic over its degrees of freedom (about 1 when the model
/// holds, higher when the pairings' scores spread more than it allows).
pub fn dispersion(fit: &ChiSquare) -> f64 {
    fit.statistic / fit.df as f64
}

/// Half-width of the 95% interval of player `i`'s rating, widened by the fit's dispersion where
/// it is above 1 (the model's half-width times its square root); the model's own half-width
/// where there is no fit to judge by.
pub fn widened_half_width(ratings: &Ratings, i: usize, fit: Option<&ChiSquare>) -> f64 {
    let scale = fit.map_or(1.0, |f| dispersion(f).max(1.0));
    Z95 * (ratings.covariance[i][i].max(0.0) * scale).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{RatingModel, fit_ratings};
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A round robin of `truth.len()` players, `games` games a pairing (colours alternating),
    /// drawn from the rating model with each pairing's difference moved by `effects[pairing]`.
    fn round_robin(
        truth: &[f64],
        effect: impl Fn(usize, usize) -> f64,
        games: usize,
        rng: &mut ChaCha8Rng,
    ) -> Vec<(usize, usize, i8)> {
        let (advantage, draw) = (30.0, 60.0);
        let mut out = Vec::new();
        for i in 0..truth.len() {
            for j in i + 1..truth.len() {
                let d = truth[i] - truth[j] + effect(i, j);
                for k in 0..games {
                    let (w, b, diff) = if k % 2 == 0 { (i, j, d) } else { (j, i, -d) };
                    let p = model_probabilities(diff, advantage, draw);
                    let u: f64 = rng.random();
                    let result = if u < p[0] {
                        1
                    } else if u < p[0] + p[1] {
                        0
                    } else {
                        -1
                    };
                    out.push((w, b, result));
                }
            }
        }
        out
    }

    /// A standard normal draw (Box-Muller).
    fn normal(rng: &mut ChaCha8Rng) -> f64 {
        let (u, v): (f64, f64) = (rng.random(), rng.random());
        (-2.0 * (1.0 - u).ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }

    #[test]
    fn a_model_that_holds_gives_a_statistic_near_its_degrees_of_freedom() {
        // Under the model the statistic is about chi-square with its degrees of freedom: over
        // many lists its mean over df is near 1 and its p-value about uniform.
        let truth = [120.0, 40.0, 0.0, -60.0, -100.0, 0.0];
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let model = RatingModel::default();
        let (mut ratio, mut small_p, lists) = (0.0, 0, 200);
        for _ in 0..lists {
            let games = round_robin(&truth, |_, _| 0.0, 60, &mut rng);
            let r = fit_ratings(truth.len(), &games, &model);
            let fit = goodness_of_fit(truth.len(), &games, &r).unwrap();
            // 15 pairings less 5 ratings.
            assert_eq!(fit.df, 10);
            ratio += dispersion(&fit) / lists as f64;
            small_p += usize::from(fit.p_value < 0.05);
        }
        assert!((ratio - 1.0).abs() < 0.15, "mean dispersion {ratio}");
        let rate = small_p as f64 / lists as f64;
        assert!(rate < 0.10, "p below 5% in {rate} of lists");
    }

    #[test]
    fn intransitive_pairings_are_found_and_the_widened_intervals_cover_the_ratings() {
        // Each pairing's difference moved by a random 40 Elo (sd), 100 games a pairing: the
        // model misfits about as much as a real list can (dispersion about 2.5), its own
        // intervals of the true ratings cover about 81%, the widened ones about 94%.
        let truth = [150.0, 60.0, 20.0, -30.0, -80.0, -120.0];
        let mean = truth.iter().sum::<f64>() / truth.len() as f64;
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let model = RatingModel::default();
        let (mut model_cover, mut widened_cover, mut total, mut dispersed) = (0, 0, 0, 0.0);
        let lists = 150;
        for _ in 0..lists {
            let n = truth.len();
            let mut effects = vec![0.0; n * n];
            for e in effects.iter_mut() {
                *e = 40.0 * normal(&mut rng);
            }
            // Uncentred: a player's opponents' effects move its fitted rating off the truth, the
            // spread the widened interval has to allow for.
            let games = round_robin(&truth, |i, j| effects[i * n + j], 100, &mut rng);
            let r = fit_ratings(n, &games, &model);
            let fit = goodness_of_fit(n, &games, &r).unwrap();
            dispersed += dispersion(&fit) / lists as f64;
            for (i, t) in truth.iter().enumerate() {
                let error = (r.elo[i] - (t - mean)).abs();
                model_cover += usize::from(error <= r.half_width(i));
                widened_cover += usize::from(error <= widened_half_width(&r, i, Some(&fit)));
                total += 1;
            }
        }
        let (m, w) = (
            model_cover as f64 / total as f64,
            widened_cover as f64 / total as f64,
        );
        assert!(dispersed > 1.8, "mean dispersion {dispersed}");
        assert!(m < 0.88, "model intervals cover {m}");
        assert!(
            w > 0.88 && w > m + 0.08,
            "widened intervals cover {w} (model {m})"
        );
    }

    #[test]
    fn two_players_leave_no_degree_of_freedom() {
        let games = vec![(0, 1, 1), (1, 0, 0), (0, 1, -1), (1, 0, -1)];
        let model = RatingModel::default();
        let r = fit_ratings(2, &games, &model);
        assert!(goodness_of_fit(2, &games, &r).is_none());
        assert_eq!(widened_half_width(&r, 0, None), r.half_width(0));
    }

    #[test]
    fn the_statistic_is_the_hand_sum_over_pairings() {
        // Five players at fixed ratings, no draws and no advantage: each pairing's term is the
        // binomial (wins - n p)^2 / (n p (1 - p)), whichever colour each game had.
        let elo = vec![100.0, 0.0, -100.0, 0.0, 50.0];
        let ratings = Ratings {
            covariance: vec![vec![0.0; 5]; 5],
            elo: elo.clone(),
            advantage: 0.0,
            advantage_half_width: 0.0,
            draw_elo: 0.0,
            log_likelihood: 0.0,
        };
        let pairings = [
            (0, 1, 3, 4),
            (0, 2, 4, 4),
            (1, 2, 1, 4),
            (3, 2, 0, 2),
            (4, 0, 1, 3),
            (4, 3, 2, 2),
        ];
        let mut games = Vec::new();
        for (a, b, wins, n) in pairings {
            for k in 0..n {
                // a's wins first; colours alternate.
                let a_wins = k < wins;
                let (w, b2, r) = if k % 2 == 0 { (a, b, 1) } else { (b, a, -1) };
                games.push((w, b2, if a_wins { r } else { -r }));
            }
        }
        let fit = goodness_of_fit(5, &games, &ratings).unwrap();
        let expected: f64 = pairings
            .iter()
            .map(|&(a, b, wins, n)| {
                let p = 1.0 / (1.0 + 10f64.powf(-(elo[a] - elo[b]) / 400.0));
                let n = n as f64;
                (wins as f64 - n * p).powi(2) / (n * p * (1.0 - p))
            })
            .sum();
        assert!(
            (fit.statistic - expected).abs() < 1e-9,
            "{} vs {expected}",
            fit.statistic
        );
        // Six pairings less four ratings.
        assert_eq!(fit.df, 2);
    }
}
