//! Tests on mean scores (a win 1, a draw 1/2, a loss 0) across groups of games: do setup
//! variants, or the setups of one variant, give the first side the same expected score, and how
//! large a difference between two groups do the games exclude?
//!
//! These test the quantity a balance study asks about, the score, rather than the full
//! win/draw/loss distribution: a contingency test on (win, draw, loss) spends degrees of freedom
//! on sparse draw cells and loses power on the score.

use statrs::distribution::{ContinuousCDF, FisherSnedecor, Normal};

use crate::stats::Wdl;

/// One-way analysis of variance of the per-game score across groups.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ScoreTest {
    /// The F statistic: the between-group mean square over the pooled within-group one.
    pub f: f64,
    /// Numerator degrees of freedom: groups with games, less one.
    pub df_groups: usize,
    /// Denominator degrees of freedom: games less groups.
    pub df_games: usize,
    /// The probability of an F at least this large if every group has the same mean score.
    pub p_value: f64,
}

/// Mean and sum of squared deviations of the per-game scores of one tally.
fn moments(w: &Wdl) -> (f64, f64) {
    let mean = w.score();
    let ss = w.wins as f64 * (1.0 - mean).powi(2)
        + w.draws as f64 * (0.5 - mean).powi(2)
        + w.losses as f64 * mean.powi(2);
    (mean, ss)
}

/// The F test that every group's games have one mean score. Groups with no games are left out;
/// `None` when fewer than two groups remain, when there are no more games than groups, or when
/// every game has the same score (no variance to compare against).
pub fn score_homogeneity(groups: &[Wdl]) -> Option<ScoreTest> {
    let groups: Vec<&Wdl> = groups.iter().filter(|w| w.games() > 0).collect();
    let k = groups.len();
    let n: u64 = groups.iter().map(|w| w.games()).sum();
    if k < 2 || n <= k as u64 {
        return None;
    }
    let grand = groups.iter().map(|w| w.points()).sum::<f64>() / n as f64;
    let between: f64 = groups
        .iter()
        .map(|w| w.games() as f64 * (w.score() - grand).powi(2))
        .sum();
    let within: f64 = groups.iter().map(|w| moments(w).1).sum();
    let (df_groups, df_games) = (k - 1, (n - k as u64) as usize);
    if within <= 0.0 {
        return None;
    }
    let f = (between / df_groups as f64) / (within / df_games as f64);
    let p_value = FisherSnedecor::new(df_groups as f64, df_games as f64)
        .ok()?
        .sf(f);
    Some(ScoreTest {
        f,
        df_groups,
        df_games,
        p_value,
    })
}

/// The largest difference in mean score between two groups that the games do not exclude: every
/// pair's difference has a normal-approximation interval (each group's own variance) at a
/// family-wise 95% level over all pairs (Bonferroni), and this is the largest absolute end of
/// those intervals. A true difference larger than this between any two groups is excluded at
/// the 95% level. `None` with fewer than two groups of at least two games.
pub fn largest_difference_not_excluded(groups: &[Wdl]) -> Option<f64> {
    let groups: Vec<(f64, f64)> = groups
        .iter()
        .filter(|w| w.games() >= 2)
        .map(|w| {
            let (mean, ss) = moments(w);
            let n = w.games() as f64;
            (mean, ss / (n - 1.0) / n)
        })
        .collect();
    let k = groups.len();
    if k < 2 {
        return None;
    }
    let pairs = (k * (k - 1) / 2) as f64;
    let z = Normal::standard().inverse_cdf(1.0 - 0.025 / pairs);
    let mut largest: f64 = 0.0;
    for (i, &(mi, vi)) in groups.iter().enumerate() {
        for &(mj, vj) in &groups[i + 1..] {
            largest = largest.max((mi - mj).abs() + z * (vi + vj).sqrt());
        }
    }
    Some(largest)
}

/// The difference between two groups' mean scores, with its z test.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Difference {
    /// The first group's mean score less the second's.
    pub difference: f64,
    /// Its standard error, from each group's own per-game variance.
    pub standard_error: f64,
    /// The difference over its standard error.
    pub z: f64,
    /// The two-sided normal p-value.
    pub p_value: f64,
}

/// The two-sample z test of `a`'s mean score against `b`'s. `None` when a group has fewer than
/// two games or both have no variance.
pub fn score_difference(a: &Wdl, b: &Wdl) -> Option<Difference> {
    if a.games() < 2 || b.games() < 2 {
        return None;
    }
    let variance_of_mean = |w: &Wdl| {
        let n = w.games() as f64;
        moments(w).1 / (n - 1.0) / n
    };
    let standard_error = (variance_of_mean(a) + variance_of_mean(b)).sqrt();
    if standard_error <= 0.0 {
        return None;
    }
    let difference = a.score() - b.score();
    let z = difference / standard_error;
    let p_value = 2.0 * Normal::standard().sf(z.abs());
    Some(Difference {
        difference,
        standard_error,
        z,
        p_value,
    })
}

/// Games per group needed to detect a difference `delta` in mean score between two groups with a
/// two-sided 5% test at the given power, when a game's score has standard deviation `sd` (about
/// 0.5 when draws are rare).
pub fn games_for_difference(delta: f64, sd: f64, power: f64) -> f64 {
    let normal = Normal::standard();
    let z = normal.inverse_cdf(0.975) + normal.inverse_cdf(power);
    2.0 * (z * sd / delta).powi(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wdl(wins: u64, draws: u64, losses: u64) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    /// The per-game scores of a tally, written out.
    fn scores(w: &Wdl) -> Vec<f64> {
        let mut s = vec![1.0; w.wins as usize];
        s.extend(std::iter::repeat_n(0.5, w.draws as usize));
        s.extend(std::iter::repeat_n(0.0, w.losses as usize));
        s
    }

    #[test]
    fn two_groups_give_the_square_of_the_pooled_t_statistic() {
        // With two groups the one-way F is the pooled two-sample t squared, computed here from
        // the written-out scores.
        let (a, b) = (wdl(30, 5, 15), wdl(20, 10, 25));
        let (xa, xb) = (scores(&a), scores(&b));
        let mean = |x: &[f64]| x.iter().sum::<f64>() / x.len() as f64;
        let ss = |x: &[f64]| {
            let m = mean(x);
            x.iter().map(|v| (v - m).powi(2)).sum::<f64>()
        };
        let (na, nb) = (xa.len() as f64, xb.len() as f64);
        let pooled = (ss(&xa) + ss(&xb)) / (na + nb - 2.0);
        let t = (mean(&xa) - mean(&xb)) / (pooled * (1.0 / na + 1.0 / nb)).sqrt();
        let test = score_homogeneity(&[a, b]).unwrap();
        assert_eq!((test.df_groups, test.df_games), (1, 103));
        assert!((test.f - t * t).abs() < 1e-9, "{} {}", test.f, t * t);
        assert!(
            test.p_value > 0.0 && test.p_value < 0.05,
            "{}",
            test.p_value
        );
    }

    #[test]
    fn equal_scores_are_not_a_difference_and_degenerate_tables_are_no_test() {
        // Same mean score from different win/draw/loss mixes: F is 0, p is 1.
        let test = score_homogeneity(&[wdl(10, 0, 10), wdl(0, 20, 0), wdl(5, 10, 5)]).unwrap();
        assert!(test.f.abs() < 1e-12 && (test.p_value - 1.0).abs() < 1e-9);
        assert!(score_homogeneity(&[wdl(3, 2, 1)]).is_none());
        assert!(score_homogeneity(&[wdl(3, 0, 0), wdl(4, 0, 0)]).is_none());
        assert!(score_homogeneity(&[wdl(1, 0, 0), wdl(0, 0, 1)]).is_none());
    }

    #[test]
    fn the_excluded_difference_matches_a_hand_computation() {
        // Two groups (one pair, z = 1.95996): 60-0-40 and 50-0-50. Sums of squares 24 and 25,
        // so the means' variances are 24 / (99 * 100) and 25 / (99 * 100).
        let bound = largest_difference_not_excluded(&[wdl(60, 0, 40), wdl(50, 0, 50)]).unwrap();
        let expected = 0.1 + 1.959_964 * ((24.0 + 25.0) / 9900.0f64).sqrt();
        assert!((bound - expected).abs() < 1e-5, "{bound} {expected}");
        // Three groups widen each pair's interval (Bonferroni over 3 pairs).
        let three =
            largest_difference_not_excluded(&[wdl(60, 0, 40), wdl(50, 0, 50), wdl(55, 0, 45)])
                .unwrap();
        assert!(three > bound);
    }

    #[test]
    fn a_difference_of_scores_matches_a_hand_computation() {
        // 60-0-40 against 50-0-50: difference 0.1, standard error sqrt(49 / 9900) = 0.070353,
        // z = 1.42141, two-sided p = 0.15520.
        let d = score_difference(&wdl(60, 0, 40), &wdl(50, 0, 50)).unwrap();
        assert!((d.difference - 0.1).abs() < 1e-12);
        assert!((d.standard_error - 0.070_353).abs() < 1e-6, "{d:?}");
        assert!((d.z - 1.421_41).abs() < 1e-4, "{d:?}");
        assert!((d.p_value - 0.155_20).abs() < 1e-4, "{d:?}");
        assert!(score_difference(&wdl(3, 0, 0), &wdl(4, 0, 0)).is_none());
    }

    #[test]
    fn about_4300_games_detect_three_points_at_80_percent_power() {
        let n = games_for_difference(0.03, 0.5, 0.8);
        assert!((n - 4360.0).abs() < 5.0, "{n}");
    }
}
