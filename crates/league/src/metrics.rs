//! `metrics.jsonl` of a league run (one [`IterationLog`] per iteration, read under the run
//! directory's one policy) and its plots.

use std::path::Path;

use pjlab_run::dir::{MetricsLine, RunDir};
use pjlab_stats::plot::{Series, line_chart};
use serde::{Deserialize, Serialize};

use crate::Error;
use pjlab_nn::pg::PgMetrics;

/// One iteration's line of `metrics.jsonl`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct IterationLog {
    /// The iteration (1-based).
    pub iteration: u32,
    /// Matches played.
    pub matches: u32,
    /// The learner's decisions trained on.
    pub decisions: usize,
    /// Turns played by both sides (environment steps).
    pub env_steps: u64,
    /// Seconds playing.
    pub play_s: f64,
    /// Seconds training.
    pub train_s: f64,
    /// Environment steps a second while playing (both sides' turns, all threads).
    pub env_steps_per_s: f64,
    /// Mean of the step losses and entropy.
    pub loss: PgMetrics,
    /// Mean discounted return of the learner's decisions.
    pub mean_return: f64,
    /// Match score (wins + draws / 2) against past selves this iteration, if any were met.
    pub score_self: Option<f64>,
    /// Match score against the fixed opponents this iteration, if any were met.
    pub score_fixed: Option<f64>,
    /// At evaluations: match score against each fixed opponent.
    pub eval: Vec<(String, f64)>,
}

impl MetricsLine for IterationLog {
    fn iteration(&self) -> u32 {
        self.iteration
    }
}

/// Reads `metrics.jsonl` under the run directory's one reading policy
/// ([`pjlab_run::dir::MetricsLog`]: an iteration's last line, a line cut short at the end
/// ignored).
///
/// # Errors
/// When the file cannot be read or a line does not parse.
pub fn read_metrics(dir: &Path) -> Result<Vec<IterationLog>, Error> {
    let path = dir.join(pjlab_run::dir::METRICS_FILE);
    if !path.exists() {
        return Err(Error::Missing {
            path,
            what: "metrics",
        });
    }
    Ok(RunDir::at(dir).metrics().read()?)
}

/// Draws `dir/plots/eval.svg` (match score against each fixed opponent and their mean, by
/// iteration) and `dir/plots/training.svg` (training scores, entropy) from `logs` (a run's
/// [`read_metrics`]).
///
/// # Errors
/// When `dir/plots` cannot be made or a plot cannot be written.
pub fn plot(dir: &Path, logs: &[IterationLog]) -> Result<(), Error> {
    let plots = RunDir::at(dir).plots()?;
    let evals: Vec<&IterationLog> = logs.iter().filter(|l| !l.eval.is_empty()).collect();
    if let Some(first) = evals.first() {
        let names: Vec<String> = first.eval.iter().map(|e| e.0.clone()).collect();
        let mut series: Vec<Series> = names
            .iter()
            .enumerate()
            .map(|(k, name)| {
                Series::new(
                    name,
                    evals
                        .iter()
                        .filter_map(|l| {
                            l.eval.get(k).map(|e| (f64::from(l.iteration), 100.0 * e.1))
                        })
                        .collect(),
                )
            })
            .collect();
        series.push(Series::new(
            "mean",
            evals
                .iter()
                .map(|l| {
                    let m = l.eval.iter().map(|e| e.1).sum::<f64>() / l.eval.len() as f64;
                    (f64::from(l.iteration), 100.0 * m)
                })
                .collect(),
        ));
        line_chart(
            &plots.join("eval.svg"),
            "Match score against the fixed opponents",
            "iteration",
            "match score %",
            &series,
        )?;
    }
    let pick = |f: &dyn Fn(&IterationLog) -> Option<f64>| -> Vec<(f64, f64)> {
        logs.iter()
            .filter_map(|l| f(l).map(|v| (f64::from(l.iteration), v)))
            .collect()
    };
    let series = [
        Series::new(
            "score vs fixed opponents %",
            pick(&|l| l.score_fixed.map(|s| 100.0 * s)),
        ),
        Series::new(
            "score vs past selves %",
            pick(&|l| l.score_self.map(|s| 100.0 * s)),
        ),
        Series::new(
            "policy entropy x 100",
            pick(&|l| Some(100.0 * l.loss.entropy)),
        ),
    ];
    line_chart(
        &plots.join("training.svg"),
        "Training",
        "iteration",
        "",
        &series,
    )?;
    Ok(())
}
