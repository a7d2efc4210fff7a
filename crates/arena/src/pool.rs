//! The pool of a match's replicates (`pjlab report --pool`): the same match played again with
//! other seeds, reported as one run in which each distinct game counts once, whichever
//! replicate played it. Deterministic players can repeat a game across replicates as they do
//! within one (the same setup and opening plies), so the sum of the replicates' distinct
//! counts can overstate the pool's; the pool's report is the figure to quote.

use std::collections::HashSet;

use pjlab_core::GameKit;

use crate::Error;
use crate::fault::PoolFault;
use crate::merge::{ShardRun, bare, differences};
use crate::runner::Played;
use crate::schedule::RunSpec;

/// Joins finished replicates of one match (each as read from its directory, with no shard)
/// into one run: the first replicate's options with [`RunSpec::pooled_seeds`] naming every
/// replicate's seed, every replicate's sessions, and every game, the replicates' games one
/// after another (ids and colour pairs numbered on from the previous replicate's).
///
/// # Errors
/// [`Error::Pool`] with fewer than two replicates, for a shard, an unfinished replicate or a
/// pool, for two replicates of one seed, and when their options differ in anything but their
/// seed, command and sessions.
pub fn pool<K: GameKit>(runs: Vec<ShardRun<K>>) -> Result<(RunSpec, Vec<Played<K>>), Error> {
    let Some(first) = runs.first() else {
        return Err(PoolFault::TooFew { only: None }.into());
    };
    if runs.len() < 2 {
        return Err(PoolFault::TooFew {
            only: Some(first.source.clone()),
        }
        .into());
    }
    let seedless = |spec: &RunSpec| RunSpec {
        seed: 0,
        ..spec.clone()
    };
    let mut seeds: Vec<u64> = Vec::with_capacity(runs.len());
    let mut lengths: Vec<usize> = Vec::with_capacity(runs.len());
    for run in &runs {
        lengths.push(check_replicate(run)?);
        let differ = differences(&seedless(&first.spec), &seedless(&run.spec))?;
        if !differ.is_empty() {
            return Err(PoolFault::NotReplicates {
                first: first.source.clone(),
                other: run.source.clone(),
                differ,
            }
            .into());
        }
        if seeds.contains(&run.spec.seed) {
            return Err(PoolFault::SeedTwice {
                seed: run.spec.seed,
                source_dir: run.source.clone(),
            }
            .into());
        }
        seeds.push(run.spec.seed);
    }
    let mut spec = bare(&first.spec);
    spec.pooled_seeds = seeds;
    spec.sessions = runs
        .iter()
        .flat_map(|r| r.spec.sessions.iter().cloned())
        .collect();
    // The pool's schedule numbers the replicates' games one after another: each game takes the
    // place it has there.
    let schedule = spec.schedule::<K>()?;
    let mut games = Vec::with_capacity(schedule.len());
    let mut offset = 0;
    for (run, length) in runs.iter().zip(lengths) {
        let mut played = run.games.clone();
        played.sort_by_key(|g| g.spec.id);
        for mut game in played {
            game.spec = schedule[offset + game.spec.id as usize].clone();
            games.push(game);
        }
        offset += length;
    }
    Ok((spec, games))
}

/// A replicate is a whole run, finished, and not itself a pool. Returns the number of games
/// its schedule holds.
fn check_replicate<K: GameKit>(run: &ShardRun<K>) -> Result<usize, Error> {
    if let Some(shard) = run.spec.shard {
        return Err(PoolFault::Shard {
            source_dir: run.source.clone(),
            shard,
        }
        .into());
    }
    if !run.spec.pooled_seeds.is_empty() {
        return Err(PoolFault::AlreadyPool(run.source.clone()).into());
    }
    let scheduled = run.spec.schedule::<K>()?.len();
    let ids: HashSet<u64> = run.games.iter().map(|g| g.spec.id).collect();
    if ids.len() < scheduled {
        return Err(PoolFault::Unfinished {
            source_dir: run.source.clone(),
            played: ids.len(),
            scheduled,
        }
        .into());
    }
    Ok(scheduled)
}

#[cfg(test)]
mod tests {
    use pjlab_pijersi::PijersiKit;

    use super::*;
    use crate::report::distinct_games;
    use crate::schedule::{Player, RunKind};
    use crate::shard::Shard;
    use crate::testing::play;

    /// A match of 4 colour pairs between quick agents, with `seed`.
    fn spec(seed: u64) -> RunSpec {
        RunSpec {
            game: "pijersi".into(),
            kind: RunKind::Match,
            players: ["greedy", "random"]
                .map(|s| Player {
                    label: s.into(),
                    spec: s.into(),
                })
                .into(),
            variants: vec!["classic".into(), "half-random".into()],
            games: 8,
            seed,
            opening_plies: 2,
            opening_margin: None,
            max_plies: 60,
            sprt: None,
            per_setup: false,
            time_per_move_ms: None,
            shard: None,
            command: format!("pjlab match --a greedy --b random --seed {seed}"),
            sessions: Vec::new(),
            pooled_seeds: Vec::new(),
        }
    }

    /// `spec`'s games, played on one worker.
    fn replicate(spec: RunSpec) -> ShardRun<PijersiKit> {
        ShardRun {
            source: format!("seed{}", spec.seed),
            games: play(&spec),
            spec,
        }
    }

    fn refusal(runs: Vec<ShardRun<PijersiKit>>) -> String {
        pool(runs).unwrap_err().to_string()
    }

    #[test]
    fn replicates_join_one_after_another_with_their_seeds() {
        let (a, b) = (replicate(spec(1)), replicate(spec(2)));
        let (pooled, games) = pool(vec![a.clone(), b.clone()]).unwrap();
        assert_eq!(pooled.pooled_seeds, [1, 2]);
        assert_eq!(games.len(), 16);
        // The pool's schedule is the replicates' with their seeds, numbered on: each game is
        // the one it schedules, so the pool's games file loads like any run's.
        let schedule = pooled.schedule::<PijersiKit>().unwrap();
        let specs: Vec<_> = games.iter().map(|g| g.spec.clone()).collect();
        assert_eq!(specs, schedule);
        let ids: Vec<u64> = games.iter().map(|g| g.spec.id).collect();
        assert_eq!(ids, (0..16).collect::<Vec<u64>>());
        // The second replicate's games follow the first's, moves and results unchanged.
        for (k, g) in games[8..].iter().enumerate() {
            let original = b.games.iter().find(|o| o.spec.id == k as u64).unwrap();
            assert_eq!((&g.moves, g.result), (&original.moves, original.result));
            assert_eq!(g.spec.pair, original.spec.pair + 4);
        }
    }

    #[test]
    fn a_game_repeated_across_replicates_counts_once() {
        let a = replicate(spec(1));
        // A second replicate whose games are the first's: what deterministic players would
        // play if the seeds gave the same setups and openings.
        let mut b = a.clone();
        b.spec.seed = 2;
        b.source = "copy".into();
        let alone = distinct_games(&a.games);
        let (_, games) = pool(vec![a, b]).unwrap();
        assert_eq!(games.len(), 16);
        assert_eq!(distinct_games(&games), alone);
    }

    #[test]
    fn what_is_not_a_set_of_replicates_is_refused() {
        let a = replicate(spec(1));
        assert!(refusal(vec![a.clone()]).contains("at least two"));
        assert!(refusal(vec![a.clone(), a.clone()]).contains("seed 1 is pooled twice"));
        let mut other = replicate(spec(2));
        other.spec.max_plies = 50;
        assert!(refusal(vec![a.clone(), other]).contains("their max_plies differ"));
        let mut short = replicate(spec(3));
        short.games.pop();
        assert!(refusal(vec![a.clone(), short]).contains("unfinished: 7 of its 8"));
        let mut part = replicate(spec(4));
        part.spec.shard = Some(Shard::new(1, 2).unwrap());
        assert!(refusal(vec![a.clone(), part]).contains("merge the run's shards first"));
        let (pooled, games) = pool(vec![a.clone(), replicate(spec(5))]).unwrap();
        let nested = ShardRun {
            source: "pool".into(),
            spec: pooled,
            games,
        };
        assert!(refusal(vec![a, nested]).contains("already a pool"));
    }
}
