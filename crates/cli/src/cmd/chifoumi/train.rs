//! `pjlab chifoumi train`: the learned player's training run, with a progress bar.

use std::path::Path;

use anyhow::{Context, Result};

use crate::Verbosity;

pub(super) fn run_train(
    config: Option<&Path>,
    out: &Path,
    iterations: Option<u32>,
    verbosity: Verbosity,
) -> Result<()> {
    use pjlab_chifoumi_learn::LearnConfig;
    let read = |path: &Path| -> Result<LearnConfig> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        LearnConfig::parse(&text).with_context(|| format!("{}", path.display()))
    };
    let config = match config {
        Some(path) => read(path)?,
        None if out.join("config.toml").exists() => read(&out.join("config.toml"))?,
        None => LearnConfig::default(),
    };
    let start = pjlab_chifoumi_learn::checkpoint::latest(out)
        .and_then(|dir| pjlab_chifoumi_learn::checkpoint::read_state(&dir).ok())
        .map_or(0, |s| s.iteration);
    let bar = crate::bars::counter(
        "train",
        "iterations",
        u64::from(config.iterations),
        u64::from(start),
        verbosity == Verbosity::Quiet,
    );
    let provenance = crate::cmd::provenance();
    crate::cmd::install_stop_signal("matches in progress finish, finished ones are kept");
    let summary = pjlab_chifoumi_learn::train(
        out,
        &config,
        Some(&provenance),
        iterations,
        &crate::cmd::STOP,
        &mut |log| {
            bar.set_position(u64::from(log.iteration));
            let mut msg = format!(
                "{:.0} env steps/s, entropy {:.2}",
                log.env_steps_per_s, log.loss.entropy
            );
            if let Some(s) = log.score_fixed {
                msg.push_str(&format!(", vs fixed opponents {:.0}%", 100.0 * s));
            }
            if !log.eval.is_empty() {
                let mean = log.eval.iter().map(|e| e.1).sum::<f64>() / log.eval.len() as f64;
                msg.push_str(&format!(", eval {:.0}%", 100.0 * mean));
                if verbosity != Verbosity::Quiet {
                    bar.println(format!(
                        "iteration {}: {}",
                        log.iteration,
                        log.eval
                            .iter()
                            .map(|(n, s)| format!("{n} {:.0}%", 100.0 * s))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
            }
            bar.set_message(msg);
        },
    )?;
    bar.finish_and_clear();
    if verbosity != Verbosity::Quiet {
        eprintln!(
            "{} iterations done ({} this session); checkpoints, metrics.jsonl and plots in {}",
            summary.iteration,
            summary.done,
            out.display()
        );
    }
    println!(
        "{}",
        out.join("checkpoints")
            .join(format!("iter-{:04}", summary.iteration))
            .display()
    );
    Ok(())
}
