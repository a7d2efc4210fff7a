//! `training.md` of a training run, from its `metrics.jsonl`.

use crate::IterationLog;

/// The heading of a Chifoumi run's `training.md`.
pub const TITLE: &str = "Chifoumi training";

/// The league's report ([`pjlab_league::report::training_report`]) headed [`TITLE`]: the run's
/// cost and its evaluations against each fixed opponent.
pub fn training_report(logs: &[IterationLog]) -> String {
    pjlab_league::report::training_report(TITLE, logs)
}
