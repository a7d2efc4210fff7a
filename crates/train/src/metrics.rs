//! What each iteration measured: one JSON line of `metrics.jsonl` per iteration, the summary
//! line printed as it ends, and the SVG plots redrawn from all lines.

use std::path::Path;

use pjlab_selfplay::SelfPlayStats;
use pjlab_stats::plot::{Series, line_chart};
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::strength::Strength;

/// One line of `metrics.jsonl`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct IterationMetrics {
    /// Iteration, from 1.
    pub iteration: u32,
    /// Wall time of self-play, training and evaluation in this iteration, in seconds.
    pub selfplay_s: f64,
    /// See `selfplay_s`.
    pub train_s: f64,
    /// See `selfplay_s`.
    pub eval_s: f64,
    /// Self-play counters of this iteration.
    pub selfplay: SelfPlayStats,
    /// Mean game length in plies.
    pub mean_length: f64,
    /// Self-play positions per second (all workers).
    pub positions_per_s: f64,
    /// Share of evaluator requests answered by the cache.
    pub cache_hit_rate: f64,
    /// Samples in the replay window after self-play, and pushed since the start.
    pub window: usize,
    /// See `window`.
    pub seen: u64,
    /// Training steps run and samples trained.
    pub train_steps: u64,
    /// See `train_steps`.
    pub samples_trained: u64,
    /// Training samples per second.
    pub train_samples_per_s: f64,
    /// Mean losses, value accuracy and policy entropy over the iteration's steps.
    pub policy_loss: Option<f64>,
    /// See `policy_loss`.
    pub value_loss: Option<f64>,
    /// See `policy_loss`.
    pub value_accuracy: Option<f64>,
    /// See `policy_loss`.
    pub policy_entropy: Option<f64>,
    /// Strength measured after this iteration's training, when due.
    pub strength: Option<Strength>,
    /// Seconds since the run started (all invocations).
    pub elapsed_s: f64,
}

impl pjlab_run::dir::MetricsLine for IterationMetrics {
    fn iteration(&self) -> u32 {
        self.iteration
    }
}

/// The line printed as an iteration ends; `sides` names the first and second side (wins of
/// the first side, draws, wins of the second side).
pub(crate) fn summary_line(m: &IterationMetrics, sides: [&str; 2]) -> String {
    let s = &m.selfplay;
    let initial = |side: &str| side.chars().next().unwrap_or('?').to_ascii_uppercase();
    let mut line = format!(
        "iter {:>3}: {} games ({:.0} plies, {}/D/{} {}/{}/{}), {:.0} pos/s, {} steps",
        m.iteration,
        s.games,
        m.mean_length,
        initial(sides[0]),
        initial(sides[1]),
        s.first_wins,
        s.draws,
        s.second_wins,
        m.positions_per_s,
        m.train_steps
    );
    if let (Some(p), Some(v)) = (m.policy_loss, m.value_loss) {
        line += &format!(", loss p {p:.3} v {v:.3}");
    }
    if let Some(st) = &m.strength {
        line += &format!(
            ", {} {:.3} [{:.3}, {:.3}] over {}",
            st.metric, st.score, st.low, st.high, st.count
        );
    }
    line
}

/// Redraws `run/plots/{losses,strength,games}.svg` from every line so far.
///
/// # Errors
/// When `run/plots` cannot be made or a plot cannot be written.
pub fn plot(run: &Path, metrics: &[IterationMetrics]) -> Result<(), Error> {
    let dir = pjlab_run::dir::RunDir::at(run).plots()?;
    let series = |name: &'static str, f: &dyn Fn(&IterationMetrics) -> Option<f64>| {
        Series::new(
            name,
            metrics
                .iter()
                .filter_map(|m| f(m).map(|y| (f64::from(m.iteration), y)))
                .collect(),
        )
    };
    let band: Vec<(f64, f64, f64)> = metrics
        .iter()
        .filter_map(|m| {
            let s = m.strength.as_ref()?;
            Some((f64::from(m.iteration), s.low, s.high))
        })
        .collect();
    line_chart(
        &dir.join("losses.svg"),
        "Training losses",
        "iteration",
        "cross-entropy (nats)",
        &[
            series("policy loss", &|m| m.policy_loss),
            series("value loss", &|m| m.value_loss),
            series("policy entropy", &|m| m.policy_entropy),
        ],
    )?;
    line_chart(
        &dir.join("strength.svg"),
        "Strength",
        "iteration",
        "score (0..1)",
        &[
            series("score (shaded: 95% interval)", &|m| {
                m.strength.as_ref().map(|s| s.score)
            })
            .with_band(band),
            series("value accuracy", &|m| m.value_accuracy),
        ],
    )?;
    line_chart(
        &dir.join("games.svg"),
        "Self-play games",
        "iteration",
        "share of games / plies / 100",
        &[
            series("first side wins", &|m| {
                Some(m.selfplay.first_wins as f64 / m.selfplay.games.max(1) as f64)
            }),
            series("draws", &|m| {
                Some(m.selfplay.draws as f64 / m.selfplay.games.max(1) as f64)
            }),
            series("mean length / 100", &|m| Some(m.mean_length / 100.0)),
        ],
    )?;
    Ok(())
}
