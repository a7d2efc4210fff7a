//! `training.md` of a training run, from its `metrics.jsonl`.

use crate::IterationLog;

/// The league's report ([`pjlab_league::report::training_report`]) headed "Chifoumi training":
/// the run's cost and its evaluations against each fixed opponent.
pub fn training_report(logs: &[IterationLog]) -> String {
    pjlab_league::report::training_report("Chifoumi training", logs)
}
