//! The training loop end to end: Chomp learns to play perfectly by the exact solver's judgement,
//! a killed run resumes exactly, and the run directory holds what the documentation promises.

use std::path::Path;

use burn::tensor::Device;
use pjlab_core::Game;
use pjlab_pijersi::Variant;
use pjlab_selfplay::{PijersiEncoder, read_games, read_positions};
use pjlab_train::run::load_checkpoint;
use pjlab_train::{IterationMetrics, NetEvaluator, RunConfig, RunOptions, train};

fn quiet(out: &Path) -> RunOptions {
    let mut o = RunOptions::new(out);
    o.progress = false;
    o
}

#[test]
fn chomp_5x6_from_scratch_plays_at_least_95_percent_optimal_moves() {
    // The committed configuration, as `pjlab train --config configs/chomp.toml` runs it.
    let text = include_str!("../../../configs/chomp.toml");
    let config = RunConfig::from_toml(text).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let summary = train(&config, &quiet(dir.path())).unwrap();
    let strength = summary
        .strength
        .expect("evaluated after the last iteration");
    assert_eq!(strength.metric, "optimal_move_share");
    assert_eq!(strength.count, 426, "winning diagrams of the 5 x 6 bar");
    assert!(strength.score >= 0.95, "{strength:?}");
    // And it was learnt: the first evaluation was far from it.
    let first = summary
        .metrics
        .iter()
        .find_map(|m| m.strength.clone())
        .unwrap();
    assert!(first.score < 0.5, "{first:?}");
}

fn tiny_pijersi() -> RunConfig {
    let mut c = RunConfig::from_toml(
        r#"
        game = "pijersi"
        seed = 3
        iterations = 3
        games_per_iteration = 6
        workers = 2
        [network]
        hidden = 16
        layers = 1
        [selfplay]
        simulations = 8
        cheap_simulations = 2
        games_in_flight = 3
        max_plies = 60
        [window]
        min_size = 50
        [train]
        batch_size = 32
        [eval]
        every = 2
        pairs = 1
        simulations = 4
        depth = 1
        max_plies = 40
        "#,
    )
    .unwrap();
    c.cache_positions = 1_000;
    c
}

/// A metrics line without its timings (which differ between runs).
fn untimed(m: &IterationMetrics) -> IterationMetrics {
    IterationMetrics {
        selfplay_s: 0.0,
        train_s: 0.0,
        eval_s: 0.0,
        positions_per_s: 0.0,
        train_samples_per_s: 0.0,
        elapsed_s: 0.0,
        ..m.clone()
    }
}

fn outputs(run: &Path) -> (Vec<f32>, Vec<f32>) {
    let device = Device::default();
    let (model, _) = load_checkpoint(run, &device).unwrap();
    let mut e = NetEvaluator::new(&model, &device, PijersiEncoder, 0);
    let positions: Vec<_> = (0..8).map(|s| Variant::FullRandom.setup(s)).collect();
    e.forward(&positions.iter().collect::<Vec<_>>())
}

#[test]
fn a_stopped_run_resumes_exactly() {
    let config = tiny_pijersi();
    let straight = tempfile::tempdir().unwrap();
    let a = train(&config, &quiet(straight.path())).unwrap();
    assert_eq!(a.iterations, 3);

    let resumed = tempfile::tempdir().unwrap();
    let mut options = quiet(resumed.path());
    options.stop_after = Some(1);
    assert_eq!(train(&config, &options).unwrap().iterations, 1);
    // A half-written later iteration (as a kill leaves it) is redone.
    std::fs::write(
        resumed.path().join("metrics.jsonl"),
        std::fs::read_to_string(resumed.path().join("metrics.jsonl")).unwrap()
            + "{\"iteration\": 2, \"trunc",
    )
    .unwrap();
    options.stop_after = None;
    let b = train(&config, &options).unwrap();
    assert_eq!(b.iterations, 3);

    let strip = |m: &[IterationMetrics]| m.iter().map(untimed).collect::<Vec<_>>();
    assert_eq!(strip(&a.metrics), strip(&b.metrics));
    assert!(
        a.metrics.iter().any(|m| m.train_steps > 0),
        "the test must train"
    );
    // The same weights, bit for bit (the files differ in parameter ids, which are per process).
    assert_eq!(outputs(straight.path()), outputs(resumed.path()));
    for name in ["iter-0001", "iter-0002", "iter-0003"] {
        let file = format!("{name}.parquet");
        assert_eq!(
            read_positions(&straight.path().join("positions").join(&file)).unwrap(),
            read_positions(&resumed.path().join("positions").join(&file)).unwrap()
        );
    }
}

#[test]
fn the_run_directory_holds_config_games_checkpoints_metrics_and_plots() {
    let config = tiny_pijersi();
    let dir = tempfile::tempdir().unwrap();
    let summary = train(&config, &quiet(dir.path())).unwrap();
    let d = dir.path();
    assert_eq!(
        RunConfig::from_file(&d.join("config.toml")).unwrap(),
        config
    );
    let games = read_games(&d.join("games/iter-0002.parquet")).unwrap();
    assert_eq!(games.len(), 6);
    assert!(games.iter().all(|g| g.network == "iter-0001"));
    for g in &games {
        let mut p = pjlab_pijersi::Position::from_text(&g.start).unwrap();
        for m in &g.moves {
            p.play(p.parse_move(m).unwrap()).unwrap();
        }
    }
    let lines = std::fs::read_to_string(d.join("metrics.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), 3);
    let last: IterationMetrics = serde_json::from_str(lines.lines().last().unwrap()).unwrap();
    assert_eq!(last, summary.metrics[2]);
    let strength = last.strength.expect("evaluated after the last iteration");
    assert_eq!(strength.count, 2, "one colour-paired setup");
    assert_eq!(strength.wins + strength.draws + strength.losses, 2);
    for plot in ["losses", "strength", "games"] {
        let svg = std::fs::read_to_string(d.join(format!("plots/{plot}.svg"))).unwrap();
        assert!(svg.starts_with("<svg"), "{plot}");
    }
    assert_eq!(
        std::fs::read_to_string(d.join("checkpoints/latest")).unwrap(),
        "iter-0003"
    );
    assert!(d.join("checkpoints/iter-0003/model.bpk").exists());
}

#[test]
fn bad_configs_and_foreign_run_directories_are_refused() {
    assert!(RunConfig::from_toml("nosuch = 1").is_err());
    assert!(RunConfig::from_toml("[train]\nbatch_size = 0").is_err());
    assert!(RunConfig::from_toml("[pijersi]\nsetups = \"classic:-1\"").is_err());
    assert!(RunConfig::from_toml("game = \"chess\"").is_err());
    let dir = tempfile::tempdir().unwrap();
    let mut config = tiny_pijersi();
    config.iterations = 1;
    train(&config, &quiet(dir.path())).unwrap();
    let mut other = config.clone();
    other.seed = 4;
    let err = train(&other, &quiet(dir.path())).unwrap_err().to_string();
    assert!(err.contains("another configuration"), "{err}");
    // Extending the same run is allowed.
    config.iterations = 2;
    assert_eq!(train(&config, &quiet(dir.path())).unwrap().iterations, 2);
}

#[test]
fn every_committed_training_config_parses() {
    for (name, text) in [
        ("quick", include_str!("../../../configs/quick.toml")),
        ("chomp", include_str!("../../../configs/chomp.toml")),
        ("pijersi", include_str!("../../../configs/pijersi.toml")),
    ] {
        let config = RunConfig::from_toml(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        // A round trip through the run directory's copy keeps it.
        assert_eq!(
            RunConfig::from_toml(&config.to_toml()).unwrap(),
            config,
            "{name}"
        );
    }
}
