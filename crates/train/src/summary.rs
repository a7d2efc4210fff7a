//! A training run's report, `training.md`, written from its `metrics.jsonl` alone: what the run
//! cost, its in-run evaluations pooled by blocks of iterations, and a sample of single
//! evaluations with the losses. Every figure of a training experiment's README is quoted from
//! it, so a check can write it again and compare.

use std::fmt::Write as _;
use std::path::Path;

use pjlab_stats::stats::wilson;

use crate::Error;
use crate::metrics::IterationMetrics;

/// The metrics lines of a `metrics.jsonl` file, read-only, under the one reading policy of
/// [`pjlab_run::dir::MetricsLog`] (an iteration's last line, a line cut short at the end
/// ignored).
///
/// # Errors
/// When the file cannot be read or a line does not parse.
pub fn read_metrics(path: &Path) -> Result<Vec<IterationMetrics>, Error> {
    if !path.exists() {
        return Err(Error::Io {
            path: path.display().to_string(),
            cause: std::io::Error::from(std::io::ErrorKind::NotFound),
        });
    }
    Ok(pjlab_run::dir::MetricsLog::new(path).read()?)
}

/// Iterations per block of the pooled table: 100 for runs of 300 iterations or more, a tenth of
/// the run rounded up to a multiple of 10 from 100, a sixth rounded up to a multiple of 5 below.
fn block_size(iterations: u32) -> u32 {
    match iterations {
        n if n >= 300 => 100,
        n if n >= 100 => (n / 10).div_ceil(10) * 10,
        n => ((n / 6).div_ceil(5) * 5).max(1),
    }
}

fn percent(x: f64) -> String {
    format!("{:.1}", 100.0 * x)
}

/// The Markdown report of a run's metrics (see the module's docs).
pub fn training_report(rows: &[IterationMetrics]) -> String {
    let mut md = String::from("# Training run\n\n");
    let Some(last) = rows.last() else {
        return md + "No iteration recorded.\n";
    };
    let sum = |f: &dyn Fn(&IterationMetrics) -> f64| rows.iter().map(f).sum::<f64>();
    let (selfplay, train, eval) = (
        sum(&|m| m.selfplay_s),
        sum(&|m| m.train_s),
        sum(&|m| m.eval_s),
    );
    let busy = (selfplay + train + eval).max(f64::MIN_POSITIVE);
    let games = sum(&|m| m.selfplay.games as f64);
    let positions = sum(&|m| m.selfplay.positions as f64);
    let minutes = last.elapsed_s / 60.0;
    let _ = writeln!(md, "| | |\n|---|---|");
    let _ = writeln!(md, "| iterations | {} |", last.iteration);
    let wall = if minutes >= 10.0 {
        format!("{minutes:.1} min")
    } else {
        format!("{:.1} s", last.elapsed_s)
    };
    let _ = writeln!(
        md,
        "| wall time | {wall}: self-play {}%, training {}%, evaluation {}% |",
        percent(selfplay / busy),
        percent(train / busy),
        percent(eval / busy)
    );
    let _ = writeln!(
        md,
        "| self-play | {games:.0} games, {positions:.0} positions, {:.0} positions/s |",
        positions / selfplay.max(f64::MIN_POSITIVE)
    );
    let _ = writeln!(
        md,
        "| training | {:.0} samples in {:.0} steps |",
        sum(&|m| m.samples_trained as f64),
        sum(&|m| m.train_steps as f64)
    );
    let evaluations: Vec<&IterationMetrics> =
        rows.iter().filter(|m| m.strength.is_some()).collect();
    let Some(metric) = evaluations
        .first()
        .and_then(|m| m.strength.as_ref())
        .map(|s| s.metric.clone())
    else {
        return md + "\nNo evaluation during the run.\n";
    };
    let games_measured = !metric.starts_with("optimal");
    let unit = if games_measured { "games" } else { "positions" };
    let _ = writeln!(md, "| in-run evaluation | `{metric}` |\n");

    let size = block_size(last.iteration);
    let _ = writeln!(
        md,
        "## Strength by blocks of {size} iterations\n\nEvery evaluation of the block pooled: \
         the {unit} added up, the score with its 95% Wilson interval.\n"
    );
    let _ = writeln!(
        md,
        "| iterations | evaluations | {unit} | W-D-L | score % | 95% Wilson |\n|---|---|---|---|---|---|"
    );
    let mut start = 1;
    while start <= last.iteration {
        let end = (start + size - 1).min(last.iteration);
        let block: Vec<_> = evaluations
            .iter()
            .filter(|m| (start..=end).contains(&m.iteration))
            .filter_map(|m| m.strength.as_ref())
            .collect();
        if !block.is_empty() {
            let count: u64 = block.iter().map(|s| s.count).sum();
            let points: f64 = block.iter().map(|s| s.score * s.count as f64).sum();
            let (low, high) = wilson(points, count as f64);
            let wdl = if games_measured {
                let (w, d, l) = block.iter().fold((0, 0, 0), |(w, d, l), s| {
                    (w + s.wins, d + s.draws, l + s.losses)
                });
                format!("{w}-{d}-{l}")
            } else {
                "-".to_string()
            };
            let _ = writeln!(
                md,
                "| {start}-{end} | {} | {count} | {wdl} | {} | {}-{} |",
                block.len(),
                percent(points / count.max(1) as f64),
                percent(low),
                percent(high)
            );
        }
        start = end + 1;
    }

    // At most about 20 single evaluations: every k-th, and always the last.
    let every = evaluations.len().div_ceil(20).max(1);
    let long = minutes >= 10.0;
    let which = match every {
        1 => "Every evaluation".to_string(),
        2 => "Every 2nd evaluation, and the last".to_string(),
        3 => "Every 3rd evaluation, and the last".to_string(),
        k => format!("Every {k}th evaluation, and the last"),
    };
    let _ = writeln!(
        md,
        "\n## Evaluations\n\n{which}; losses are the iteration's training means.\n"
    );
    let _ = writeln!(
        md,
        "| iteration | elapsed ({}) | {unit} | W-D-L | score % | 95% Wilson | mean plies | policy loss | value loss |\n|---|---|---|---|---|---|---|---|---|",
        if long { "min" } else { "s" }
    );
    let loss = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{v:.3}"));
    for (i, m) in evaluations.iter().enumerate() {
        if (i + 1) % every != 0 && i + 1 != evaluations.len() {
            continue;
        }
        let Some(s) = &m.strength else { continue };
        let elapsed = if long {
            m.elapsed_s / 60.0
        } else {
            m.elapsed_s
        };
        let _ = writeln!(
            md,
            "| {} | {elapsed:.1} | {} | {} | {} | {}-{} | {:.1} | {} | {} |",
            m.iteration,
            s.count,
            if games_measured {
                format!("{}-{}-{}", s.wins, s.draws, s.losses)
            } else {
                "-".to_string()
            },
            percent(s.score),
            percent(s.low),
            percent(s.high),
            m.mean_length,
            loss(m.policy_loss),
            loss(m.value_loss)
        );
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strength::Strength;

    fn row(iteration: u32, wins: u64, draws: u64, losses: u64) -> IterationMetrics {
        let count = wins + draws + losses;
        let score = (wins as f64 + 0.5 * draws as f64) / count as f64;
        let (low, high) = wilson(score * count as f64, count as f64);
        IterationMetrics {
            iteration,
            selfplay_s: 3.0,
            train_s: 1.0,
            elapsed_s: 4.0 * f64::from(iteration),
            strength: Some(Strength {
                metric: "score_vs_alphabeta_d2".into(),
                score,
                low,
                high,
                count,
                wins,
                draws,
                losses,
            }),
            ..IterationMetrics::default()
        }
    }

    #[test]
    fn blocks_pool_their_evaluations() {
        // 12 iterations, blocks of 5: iterations 1-5 pool 1-1-2, 2-1-2, 3-1-2, 0-1-2 and 1-1-2
        // into 7-5-10 (9.5 points of 22 games, 43.2%).
        let rows: Vec<_> = (1..=12).map(|i| row(i, i as u64 % 4, 1, 2)).collect();
        let md = training_report(&rows);
        assert!(md.contains("## Strength by blocks of 5 iterations"), "{md}");
        let (low, high) = wilson(9.5, 22.0);
        let line = format!(
            "| 1-5 | 5 | 22 | 7-5-10 | 43.2 | {}-{} |",
            percent(low),
            percent(high)
        );
        assert!(md.contains(&line), "{line}\n{md}");
        // The last evaluation is listed; time splits 75% / 25%.
        assert!(md.contains("| 12 | 48.0 | 3 | 0-1-2 |"), "{md}");
        assert!(md.contains("self-play 75.0%, training 25.0%"), "{md}");
    }

    #[test]
    fn the_rise_compares_the_first_and_last_evaluations_of_one_metric() {
        let mut rows = vec![row(10, 22, 0, 42), row(20, 30, 0, 34), row(30, 48, 0, 16)];
        // An evaluation of another metric first is not the baseline.
        let mut other = row(5, 60, 0, 4);
        other.strength.as_mut().unwrap().metric = "score_vs_random".into();
        rows.insert(0, other);
        rows.push(IterationMetrics {
            iteration: 31,
            ..IterationMetrics::default()
        });
        let rise = strength_rise(&rows).expect("two evaluations");
        assert_eq!((rise.first_iteration, rise.last_iteration), (10, 30));
        // 22/64 = 34.375% -> 48/64 = 75%: 40.625 points; Newcombe's interval by hand from the
        // two Wilson intervals.
        assert!((rise.difference - 0.40625).abs() < 1e-12);
        let ((l1, u1), (l2, u2)) = (wilson(22.0, 64.0), wilson(48.0, 64.0));
        let (p1, p2) = (22.0 / 64.0, 48.0 / 64.0);
        let low = 0.40625 - ((p2 - l2).powi(2) + (u1 - p1).powi(2)).sqrt();
        let high = 0.40625 + ((u2 - p2).powi(2) + (p1 - l1).powi(2)).sqrt();
        assert!((rise.low - low).abs() < 1e-12, "{} vs {low}", rise.low);
        assert!((rise.high - high).abs() < 1e-12, "{} vs {high}", rise.high);
        let line = rise.line();
        assert!(
            line.starts_with("score_vs_alphabeta_d2 rose by 40.6 points: 34.4% at iteration 10"),
            "{line}"
        );
        assert!(!line.contains("not separated"), "{line}");
        // One evaluation: no rise.
        assert_eq!(strength_rise(&rows[..2]), None);
        // A fall within noise says so.
        let fall = strength_rise(&[row(1, 33, 0, 31), row(2, 31, 0, 33)]).unwrap();
        assert!(
            fall.line().contains("fell by 3.1 points"),
            "{}",
            fall.line()
        );
        assert!(fall.line().contains("not separated"), "{}", fall.line());
    }

    #[test]
    fn block_sizes_follow_the_run_length() {
        assert_eq!(block_size(640), 100);
        assert_eq!(block_size(200), 20);
        assert_eq!(block_size(60), 10);
        assert_eq!(block_size(40), 10);
        assert_eq!(block_size(5), 1);
    }
}

/// How a run's measured strength moved: its first and last evaluations of one metric (the
/// last's metric), with the difference's 95% interval (Newcombe's hybrid score interval).
#[derive(Clone, Debug, PartialEq)]
pub struct Rise {
    /// The metric compared.
    pub metric: String,
    /// Iteration of the first evaluation.
    pub first_iteration: u32,
    /// The first evaluation.
    pub first: crate::Strength,
    /// Iteration of the last evaluation.
    pub last_iteration: u32,
    /// The last evaluation.
    pub last: crate::Strength,
    /// The last score less the first.
    pub difference: f64,
    /// 95% interval of the difference: low end.
    pub low: f64,
    /// See `low`.
    pub high: f64,
}

/// The rise from the run's first evaluation to its last of the same metric; `None` with fewer
/// than two.
pub fn strength_rise(rows: &[IterationMetrics]) -> Option<Rise> {
    let (last_iteration, last) = rows
        .iter()
        .rev()
        .find_map(|m| m.strength.as_ref().map(|s| (m.iteration, s)))?;
    let (first_iteration, first) = rows
        .iter()
        .filter_map(|m| m.strength.as_ref().map(|s| (m.iteration, s)))
        .find(|(_, s)| s.metric == last.metric)?;
    if first_iteration == last_iteration {
        return None;
    }
    let points = |s: &crate::Strength| (s.score * s.count as f64, s.count as f64);
    let (difference, low, high) =
        pjlab_stats::stats::difference_interval(points(last), points(first));
    Some(Rise {
        metric: last.metric.clone(),
        first_iteration,
        first: first.clone(),
        last_iteration,
        last: last.clone(),
        difference,
        low,
        high,
    })
}

impl Rise {
    /// One line: `score_vs_greedy rose by 40.6 points: 34.4% at iteration 20 -> 75.0% at
    /// iteration 120 (64 games each; the rise's 95% interval 24.3 to 53.5 points)`.
    pub fn line(&self) -> String {
        let verb = if self.difference >= 0.0 {
            "rose"
        } else {
            "fell"
        };
        let unit = if self.metric.starts_with("score") {
            "games"
        } else {
            "positions"
        };
        let separated = if self.low > 0.0 || self.high < 0.0 {
            ""
        } else {
            "; not separated from no change"
        };
        format!(
            "{} {verb} by {:.1} points: {:.1}% at iteration {} -> {:.1}% at iteration {} \
             ({} and {} {unit}; the change's 95% interval {:+.1} to {:+.1} points{separated})",
            self.metric,
            100.0 * self.difference.abs(),
            100.0 * self.first.score,
            self.first_iteration,
            100.0 * self.last.score,
            self.last_iteration,
            self.first.count,
            self.last.count,
            100.0 * self.low,
            100.0 * self.high,
        )
    }
}
