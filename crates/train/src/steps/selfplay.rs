//! Self-play: a batch of games with the current network, on lock-step workers.

use burn::tensor::Device;
use pjlab_core::{GameKit, Setups};
use pjlab_mcts::Decisive;
use pjlab_nn::{EvalCounters, NetEvaluator, PolicyValueNet};
use pjlab_selfplay::{FinishedGame, SelfPlayConfig, SelfPlayStats};
use rayon::prelude::*;

use super::mix;
use crate::config::RunConfig;

/// What self-play takes from a run's configuration: the `[selfplay]` section, the workers and
/// the evaluator's cache size, and the game's encoder.
pub(crate) struct SelfPlayStep<'a, K: GameKit> {
    /// The `[selfplay]` section.
    pub(crate) selfplay: &'a SelfPlayConfig,
    /// Lock-step workers (threads), at most one per game.
    pub(crate) workers: usize,
    /// Positions each worker's evaluator caches.
    pub(crate) cache_positions: usize,
    /// The network's encoder.
    pub(crate) encoder: K::Encoder,
}

impl<'a, K: GameKit> SelfPlayStep<'a, K> {
    /// The self-play settings of `config`.
    pub(crate) fn of(config: &'a RunConfig<K>) -> SelfPlayStep<'a, K> {
        SelfPlayStep {
            selfplay: &config.selfplay,
            workers: config.workers,
            cache_positions: config.cache_positions,
            encoder: K::encoder(&config.game),
        }
    }
}

/// What one self-play worker brings back: its games, counters and evaluator counters.
type WorkerOutput<G> = (Vec<FinishedGame<G>>, SelfPlayStats, EvalCounters);

/// A batch of self-play games with `model`: `games` games split over `step.workers` lock-step
/// workers on `pool`, ids from `first_id`, worker `w` seeded with `mix(seed, round, w, 1)`;
/// `tick` after each game.
#[allow(clippy::too_many_arguments)]
pub(crate) fn self_play<K: GameKit>(
    pool: &rayon::ThreadPool,
    model: &PolicyValueNet,
    device: &Device,
    step: &SelfPlayStep<'_, K>,
    setups: &dyn Setups<K::Game>,
    games: usize,
    first_id: u64,
    (seed, round): (u64, u32),
    tick: &(dyn Fn() + Sync),
) -> (Vec<FinishedGame<K::Game>>, SelfPlayStats, EvalCounters) {
    let workers = step.workers.min(games).max(1);
    let per_worker: Vec<usize> = (0..workers)
        .map(|w| games / workers + usize::from(w < games % workers))
        .collect();
    let results: Vec<WorkerOutput<K::Game>> = pool.install(|| {
        (0..workers)
            .into_par_iter()
            .map(|w| {
                let mut evaluator = Decisive::new(NetEvaluator::new(
                    model,
                    device,
                    step.encoder.clone(),
                    step.cache_positions,
                ));
                evaluator.check = step.selfplay.decisive;
                let first = first_id + per_worker[..w].iter().sum::<usize>() as u64;
                let mut finished = Vec::new();
                let stats = pjlab_selfplay::play_games(
                    setups,
                    &mut evaluator,
                    step.selfplay,
                    per_worker[w],
                    first,
                    mix(seed, round, w as u64, 1),
                    |g| {
                        tick();
                        finished.push(g);
                    },
                );
                (finished, stats, evaluator.inner.counters())
            })
            .collect()
    });
    let mut finished = Vec::new();
    let mut stats = SelfPlayStats::default();
    let mut counters = EvalCounters::default();
    for (g, s, c) in results {
        finished.extend(g);
        stats.merge(&s);
        counters.requests += c.requests;
        counters.cache_hits += c.cache_hits;
        counters.batches += c.batches;
    }
    (finished, stats, counters)
}
