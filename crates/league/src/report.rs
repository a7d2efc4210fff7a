//! `training.md` of a league run, from its `metrics.jsonl`.

use std::fmt::Write as _;

use crate::IterationLog;

/// The report headed `title` (`Chifoumi training`): the run's cost (iterations, seconds
/// playing and training, environment steps a second) and its evaluations: the match score
/// against each fixed opponent at every evaluation, with their mean.
pub fn training_report(title: &str, logs: &[IterationLog]) -> String {
    let mut out = format!("# {title}\n\n");
    let play: f64 = logs.iter().map(|l| l.play_s).sum();
    let train: f64 = logs.iter().map(|l| l.train_s).sum();
    let steps: u64 = logs.iter().map(|l| l.env_steps).sum();
    let decisions: usize = logs.iter().map(|l| l.decisions).sum();
    let _ = writeln!(
        out,
        "| iterations | matches | decisions | env steps | play s | train s | env steps / s (whole run) |\n|---|---|---|---|---|---|---|\n| {} | {} | {} | {} | {:.0} | {:.0} | {:.0} |\n",
        logs.len(),
        logs.iter().map(|l| u64::from(l.matches)).sum::<u64>(),
        decisions,
        steps,
        play,
        train,
        steps as f64 / (play + train).max(1e-9),
    );
    let evals: Vec<&IterationLog> = logs.iter().filter(|l| !l.eval.is_empty()).collect();
    let Some(first) = evals.first() else {
        out.push_str("No evaluation.\n");
        return out;
    };
    out.push_str(
        "## Evaluations\n\nMatch score % against each fixed opponent (wins + draws / 2).\n\n",
    );
    let names: Vec<&str> = first.eval.iter().map(|e| e.0.as_str()).collect();
    let _ = writeln!(out, "| iteration | mean | {} |", names.join(" | "));
    let _ = writeln!(out, "|{}", "---|".repeat(names.len() + 2));
    for l in evals {
        let mean = l.eval.iter().map(|e| e.1).sum::<f64>() / l.eval.len() as f64;
        let cells: Vec<String> = l
            .eval
            .iter()
            .map(|e| format!("{:.1}", 100.0 * e.1))
            .collect();
        let _ = writeln!(
            out,
            "| {} | {:.1} | {} |",
            l.iteration,
            100.0 * mean,
            cells.join(" | ")
        );
    }
    out
}
