//! Training end to end: a stopped run resumes to the same weights, bad settings are refused,
//! the learner's returns follow its games, and a trained network plays legal matches.

use std::sync::atomic::AtomicBool;

use pjlab_chifoumi::{Player, Rules, play_match};
use pjlab_chifoumi_learn::checkpoint::{load_packed, read_state, resolve};
use pjlab_chifoumi_learn::{LearnConfig, NetPlayer, read_metrics, train};

fn small() -> LearnConfig {
    LearnConfig {
        iterations: 4,
        matches_per_iteration: 6,
        games_per_match: 3,
        eval_every: 2,
        eval_matches: 2,
        snapshot_every: 1,
        pool_size: 2,
        opponents: vec!["random".into(), "observer".into()],
        ..LearnConfig::default()
    }
}

#[test]
fn a_stopped_run_resumes_to_the_same_weights() {
    let dir = tempfile::tempdir().unwrap();
    let (whole, parts) = (dir.path().join("whole"), dir.path().join("parts"));
    let stop = AtomicBool::new(false);
    let config = small();
    let s = train(&whole, &config, None, None, &stop, &mut |_| {}).unwrap();
    assert_eq!((s.iteration, s.done), (4, 4));
    let s = train(&parts, &config, None, Some(1), &stop, &mut |_| {}).unwrap();
    assert_eq!((s.iteration, s.done), (1, 1));
    let s = train(&parts, &config, None, None, &stop, &mut |_| {}).unwrap();
    assert_eq!((s.iteration, s.done), (4, 3));
    assert_eq!(
        load_packed(&whole).unwrap(),
        load_packed(&parts).unwrap(),
        "bit for bit"
    );
    let (a, b) = (read_metrics(&whole).unwrap(), read_metrics(&parts).unwrap());
    assert_eq!((a.len(), b.len()), (4, 4));
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(
            (x.decisions, x.env_steps, &x.eval),
            (y.decisions, y.env_steps, &y.eval)
        );
        assert_eq!(x.loss, y.loss);
    }
    assert_eq!(
        a[1].eval.len(),
        2,
        "evaluated at iteration 2 against both scripted players"
    );
    let state = read_state(&resolve(&parts).unwrap()).unwrap();
    assert_eq!(
        state.pool,
        vec![3, 4],
        "the pool keeps the newest snapshots"
    );
    assert!(parts.join("plots/eval.svg").exists() && parts.join("plots/training.svg").exists());
    // Only `iterations` may change on resume.
    let other = LearnConfig {
        iterations: 6,
        gamma: 0.9,
        ..small()
    };
    assert!(train(&parts, &other, None, None, &stop, &mut |_| {}).is_err());
}

#[test]
fn bad_settings_are_refused() {
    for text in [
        "bogus = 1",
        "gamma = 1.5",
        "matches_per_iteration = 0",
        "opponents = [\"nobody\"]",
        "opponents = [\"net:temp=1\"]",
        "self_play_share = 2",
        "[network]\nhidden = 0",
    ] {
        assert!(LearnConfig::parse(text).is_err(), "{text}");
    }
    assert_eq!(LearnConfig::parse("").unwrap(), LearnConfig::default());
    let shipped = std::fs::read_to_string(
        pjlab_conformance::package_dir(env!("CARGO_MANIFEST_DIR"))
            .join("../../configs/chifoumi.toml"),
    )
    .unwrap();
    assert_eq!(
        LearnConfig::parse(&shipped).unwrap(),
        LearnConfig::default(),
        "the shipped config states the defaults"
    );
}

#[test]
fn a_trained_network_plays_legal_matches_from_its_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let config = LearnConfig {
        iterations: 2,
        ..small()
    };
    train(
        dir.path(),
        &config,
        None,
        None,
        &AtomicBool::new(false),
        &mut |_| {},
    )
    .unwrap();
    let rules = Rules::default();
    for temperature in [0.0, 1.0] {
        let mut net = NetPlayer::load(dir.path(), &rules, temperature, "net".into()).unwrap();
        let mut other = pjlab_chifoumi::parse_player("greedy").unwrap();
        let players: [&mut dyn Player; 2] = [&mut net, other.as_mut()];
        let result = play_match(&rules, &mut { players }, 3).unwrap();
        assert_eq!(result.games.len(), 10);
    }
    let wider = Rules {
        radius: 3,
        ..Rules::default()
    };
    assert!(
        NetPlayer::load(dir.path(), &wider, 1.0, "net".into()).is_err(),
        "another radius, another input"
    );
}

/// A best response: a second run whose only opponent is the first run's network.
#[test]
fn a_run_can_train_against_a_fixed_network() {
    let dir = tempfile::tempdir().unwrap();
    let stop = AtomicBool::new(false);
    let target = dir.path().join("target");
    let first = LearnConfig {
        iterations: 1,
        ..small()
    };
    train(&target, &first, None, None, &stop, &mut |_| {}).unwrap();
    let spec = format!("net:checkpoint={},temp=0.5", target.display());
    let response = LearnConfig {
        iterations: 2,
        opponents: vec![spec.clone()],
        self_play_share: 0.0,
        ..small()
    };
    let out = dir.path().join("response");
    train(&out, &response, None, None, &stop, &mut |_| {}).unwrap();
    let logs = read_metrics(&out).unwrap();
    assert_eq!(logs[1].eval.len(), 1);
    assert_eq!(logs[1].eval[0].0, spec);
    assert!(
        logs.iter()
            .all(|l| l.score_self.is_none() && l.score_fixed.is_some())
    );
    let missing = LearnConfig {
        opponents: vec![format!(
            "net:checkpoint={}",
            dir.path().join("none").display()
        )],
        ..response
    };
    assert!(
        train(
            &dir.path().join("x"),
            &missing,
            None,
            None,
            &stop,
            &mut |_| {}
        )
        .is_err()
    );
}

#[test]
fn a_run_can_start_from_another_runs_network() {
    let dir = tempfile::tempdir().unwrap();
    let stop = AtomicBool::new(false);
    let first = dir.path().join("first");
    train(&first, &small(), None, Some(2), &stop, &mut |_| {}).unwrap();
    // A step too small to move an f32 weight: the network is the one it started from.
    let from = LearnConfig {
        iterations: 1,
        seed: 9,
        learning_rate: 1e-30,
        weight_decay: 0.0,
        init: Some(first.to_str().unwrap().into()),
        ..small()
    };
    let second = dir.path().join("second");
    train(&second, &from, None, None, &stop, &mut |_| {}).unwrap();
    assert_eq!(load_packed(&second).unwrap(), load_packed(&first).unwrap());
    // Without `init`, the same run starts from weights drawn from its seed.
    let fresh = dir.path().join("fresh");
    let drawn = LearnConfig { init: None, ..from };
    train(&fresh, &drawn, None, None, &stop, &mut |_| {}).unwrap();
    assert_ne!(load_packed(&fresh).unwrap(), load_packed(&first).unwrap());
}

#[test]
fn a_run_opens_the_one_way_every_run_opens() {
    use pjlab_run::dir::{Manifest, PROVENANCE_FILE, RunKind};
    let dir = tempfile::tempdir().unwrap();
    let stop = AtomicBool::new(false);
    let config = LearnConfig {
        iterations: 1,
        ..small()
    };

    // A directory that holds another kind of run is refused, and nothing of a training run is
    // written into it.
    let other = dir.path().join("match");
    std::fs::create_dir_all(&other).unwrap();
    Manifest::new(RunKind::Match, "chifoumi")
        .write(&other)
        .unwrap();
    let err = train(&other, &config, None, None, &stop, &mut |_| {}).unwrap_err();
    assert!(err.to_string().contains("holds a match run"), "{err}");
    assert!(!other.join("config.toml").exists());
    assert!(!other.join(PROVENANCE_FILE).exists());

    // A given provenance lands once per session, after the directory is opened.
    let run = dir.path().join("run");
    let provenance = pjlab_core::Provenance {
        command: "pjlab chifoumi train --test".into(),
        ..pjlab_core::Provenance::default()
    };
    train(&run, &config, Some(&provenance), None, &stop, &mut |_| {}).unwrap();
    let more = LearnConfig {
        iterations: 2,
        ..config.clone()
    };
    train(&run, &more, Some(&provenance), None, &stop, &mut |_| {}).unwrap();
    let lines = std::fs::read_to_string(run.join(PROVENANCE_FILE)).unwrap();
    assert_eq!(lines.lines().count(), 2, "{lines}");
    assert!(
        lines
            .lines()
            .all(|l| l.contains("pjlab chifoumi train --test"))
    );
    let manifest = Manifest::read(&run).unwrap().unwrap();
    assert_eq!(
        (manifest.kind, manifest.game.as_str()),
        (RunKind::Training, "chifoumi")
    );
}
