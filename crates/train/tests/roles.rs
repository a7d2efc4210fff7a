//! The distributed roles in one process: actors and a learner that talk only through the run
//! directory. A learner resumed from a checkpoint equals one run straight through and takes
//! every chunk once; actors and a learner running side by side lose no game and count none
//! twice.

mod common;

use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use common::{outputs, untimed};
use pjlab_pijersi::PijersiKit;
use pjlab_selfplay::{read_games, read_positions};
use pjlab_train::roles::actor::{ActorOptions, Stopped, self_play_actor};
use pjlab_train::roles::chunks::{Chunk, committed, parse_chunk_name};
use pjlab_train::roles::learner::learn;
use pjlab_train::{IterationMetrics, RunOptions};

type RunConfig = pjlab_train::RunConfig<PijersiKit>;

fn tiny() -> RunConfig {
    RunConfig::from_toml(
        r#"
        game = "pijersi"
        seed = 5
        iterations = 3
        games_per_iteration = 8
        workers = 1
        [network]
        hidden = 16
        layers = 1
        [selfplay]
        simulations = 8
        cheap_simulations = 2
        games_in_flight = 4
        max_plies = 40
        [window]
        min_size = 50
        [train]
        batch_size = 32
        [eval]
        every = 0
        pairs = 1
        simulations = 4
        depth = 1
        max_plies = 20
        "#,
    )
    .unwrap()
}

fn quiet(out: &Path) -> RunOptions {
    RunOptions::new(out)
}

fn actor(run: &Path, actor: u32, batches: Option<u64>) -> ActorOptions {
    ActorOptions {
        run: run.to_path_buf(),
        actor,
        games: Some(4),
        workers: Some(1),
        batches,
        max_pending: None,
        wait: Duration::from_secs(60),
        progress: Default::default(),
        provenance: pjlab_core::Provenance::default(),
    }
}

/// The chunks the run's newest checkpoint has taken, from its state.
fn taken(run: &Path) -> Vec<String> {
    let latest = std::fs::read_to_string(run.join("checkpoints/latest")).unwrap();
    let state = std::fs::read_to_string(
        run.join("checkpoints")
            .join(latest.trim())
            .join("state.json"),
    )
    .unwrap();
    let state: serde_json::Value = serde_json::from_str(&state).unwrap();
    serde_json::from_value(state["chunks"].clone()).unwrap()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Games in the named chunks, read from their files.
fn games_in(run: &Path, chunks: &[String]) -> u64 {
    chunks
        .iter()
        .map(|c| Chunk::read(run, c).unwrap().games.len() as u64)
        .sum()
}

#[test]
fn a_resumed_learner_equals_one_run_straight_and_takes_every_chunk_once() {
    let config = tiny();
    let run = tempfile::tempdir().unwrap();
    // The learner starts the run (configuration and initial checkpoint) and is stopped at once.
    let stop = AtomicBool::new(true);
    assert_eq!(
        learn(&config, &quiet(run.path()), &stop)
            .unwrap()
            .iterations,
        0
    );
    // Six chunks of four games: three iterations' worth.
    let go = AtomicBool::new(false);
    let mut ahead = actor(run.path(), 1, Some(6));
    ahead.max_pending = Some(24);
    let played = self_play_actor::<PijersiKit>(&ahead, &go).unwrap();
    assert_eq!((played.batches, played.games), (6, 24));
    assert_eq!(played.stopped, Stopped::Batches);
    let copy = tempfile::tempdir().unwrap();
    copy_dir(run.path(), copy.path());

    let straight = learn(&config, &quiet(run.path()), &go).unwrap();
    assert_eq!(straight.iterations, 3);
    let mut options = quiet(copy.path());
    options.stop_after = Some(1);
    assert_eq!(learn(&config, &options, &go).unwrap().iterations, 1);
    assert_eq!(
        taken(copy.path()).len(),
        2,
        "one iteration takes two chunks"
    );
    options.stop_after = None;
    let resumed = learn(&config, &options, &go).unwrap();
    assert_eq!(resumed.iterations, 3);

    let strip = |m: &[IterationMetrics]| m.iter().map(untimed).collect::<Vec<_>>();
    assert_eq!(strip(&straight.metrics), strip(&resumed.metrics));
    assert!(
        straight.metrics.iter().any(|m| m.train_steps > 0),
        "the test must train"
    );
    assert_eq!(outputs(run.path()), outputs(copy.path()));
    // Every chunk taken once, in the order of their numbers, each iteration's games from them.
    let chunks = taken(copy.path());
    assert_eq!(chunks, taken(run.path()));
    assert_eq!(chunks, committed(copy.path()).unwrap());
    let per_iteration: Vec<u64> = resumed.metrics.iter().map(|m| m.selfplay.games).collect();
    assert_eq!(per_iteration, vec![8, 8, 8]);
    let positions: u64 = resumed.metrics.iter().map(|m| m.selfplay.positions).sum();
    let rows: usize = chunks
        .iter()
        .map(|c| {
            read_positions(&copy.path().join(format!("positions/{c}.parquet")))
                .unwrap()
                .len()
        })
        .sum();
    assert_eq!(positions, rows as u64);
}

#[test]
fn actors_beside_a_learner_lose_no_game_and_count_none_twice() {
    let config = tiny();
    let run = tempfile::tempdir().unwrap();
    let stop = AtomicBool::new(false);
    let (summary, actors) = std::thread::scope(|s| {
        let learner = s.spawn(|| learn(&config, &quiet(run.path()), &stop).unwrap());
        let actors: Vec<_> = (1..=2)
            .map(|k| {
                let options = actor(run.path(), k, None);
                let stop = &stop;
                s.spawn(move || self_play_actor::<PijersiKit>(&options, stop).unwrap())
            })
            .collect();
        let summary = learner.join().unwrap();
        let actors: Vec<_> = actors.into_iter().map(|a| a.join().unwrap()).collect();
        (summary, actors)
    });
    assert_eq!(summary.iterations, 3);
    for a in &actors {
        assert_eq!(a.stopped, Stopped::RunFinished);
        // No actor runs more than an iteration's games ahead of the learner, so both play.
        assert!(a.batches >= 1, "{actors:?}");
    }
    // Every chunk is whole: its games file, its positions, and ids unique across the run.
    let all = committed(run.path()).unwrap();
    let written: u64 = actors.iter().map(|a| a.batches).sum();
    assert_eq!(all.len() as u64, written);
    let mut ids = HashSet::new();
    for name in &all {
        let chunk = Chunk::read(run.path(), name).unwrap();
        assert_eq!(chunk.games.len(), 4);
        for g in &chunk.games {
            assert!(ids.insert(g.game_id), "game id {} twice", g.game_id);
        }
        let in_games: HashSet<u64> = chunk.games.iter().map(|g| g.game_id).collect();
        assert!(
            chunk
                .positions
                .iter()
                .all(|p| in_games.contains(&p.game_id))
        );
        let plies: u32 = chunk.games.iter().map(|g| g.length).sum();
        assert_eq!(chunk.positions.len() as u32, plies, "{name}");
    }
    // Each actor numbered its chunks 1, 2, 3, ...
    for k in 1..=2u32 {
        let mut seqs: Vec<u64> = all
            .iter()
            .filter_map(|n| parse_chunk_name(n))
            .filter(|&(a, _)| a == k)
            .map(|(_, s)| s)
            .collect();
        seqs.sort();
        assert_eq!(seqs, (1..=seqs.len() as u64).collect::<Vec<_>>());
    }
    // The learner took chunks once each, and its iterations' games are theirs.
    let chunks = taken(run.path());
    let unique: HashSet<&String> = chunks.iter().collect();
    assert_eq!(unique.len(), chunks.len());
    assert!(chunks.iter().all(|c| all.contains(c)));
    let counted: u64 = summary.metrics.iter().map(|m| m.selfplay.games).sum();
    assert_eq!(counted, games_in(run.path(), &chunks));
    // Games are played by the checkpoints the learner wrote.
    for name in &all {
        let rows = read_games(&run.path().join(format!("games/{name}.parquet"))).unwrap();
        assert!(
            rows.iter().all(|g| g.network.starts_with("iter-000")),
            "{}",
            rows[0].network
        );
    }
}
