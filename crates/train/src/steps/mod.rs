//! The steps of a training iteration, shared by the single-process loop ([`crate::run`]) and the
//! distributed roles ([`crate::roles`]): opening a run directory ([`open`]), self-play in
//! lock-step batches ([`selfplay`]), training on the replay window and the checkpoint
//! ([`trainer`]), evaluation ([`judge`]), and the iteration's metrics line. Each step takes the
//! configuration's section it needs, and reports progress through [`crate::Progress`].

mod judge;
mod labels;
mod open;
mod selfplay;
mod trainer;

pub(crate) use judge::Judge;
pub use labels::EvalSource;
pub(crate) use open::open_run;
pub(crate) use selfplay::{SelfPlayStep, self_play};
pub(crate) use trainer::{Trained, Trainer};

use pjlab_nn::EvalCounters;
use pjlab_selfplay::{ReplayWindow, SelfPlayStats};

use crate::metrics::IterationMetrics;
use crate::strength::Strength;

/// A seed for one purpose of one iteration, mixed from the run's seed (SplitMix64).
pub(crate) fn mix(seed: u64, iteration: u32, worker: u64, tag: u64) -> u64 {
    pjlab_core::seed::mix3(seed, u64::from(iteration), worker, tag)
}

/// The metrics line of an iteration from its parts.
#[allow(clippy::too_many_arguments)]
pub(crate) fn iteration_line<G: pjlab_core::Game>(
    iteration: u32,
    (selfplay_s, eval_s): (f64, f64),
    stats: SelfPlayStats,
    counters: &EvalCounters,
    window: &ReplayWindow<G>,
    trained: &Trained,
    strength: Option<Strength>,
    elapsed_s: f64,
) -> IterationMetrics {
    let mean = |x: f64| (trained.samples > 0).then(|| x / trained.samples as f64);
    IterationMetrics {
        iteration,
        selfplay_s,
        train_s: trained.seconds,
        eval_s,
        mean_length: stats.positions as f64 / stats.games.max(1) as f64,
        positions_per_s: stats.positions as f64 / selfplay_s.max(1e-9),
        cache_hit_rate: counters.cache_hits as f64 / counters.requests.max(1) as f64,
        selfplay: stats,
        window: window.len(),
        seen: window.seen(),
        train_steps: trained.steps,
        samples_trained: trained.samples,
        train_samples_per_s: trained.samples as f64 / trained.seconds.max(1e-9),
        policy_loss: mean(trained.sums.policy_loss),
        value_loss: mean(trained.sums.value_loss),
        value_accuracy: mean(trained.sums.value_accuracy),
        policy_entropy: mean(trained.sums.policy_entropy),
        strength,
        elapsed_s,
    }
}
