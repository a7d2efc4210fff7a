//! The training loop end to end over three games: Chomp learns to play perfectly by the exact
//! solver's judgement, a killed Pijersi run resumes exactly, an Abalone run (two players and
//! doubles) is judged against alpha-beta and resumes, and the run directory holds what the
//! documentation promises.

mod common;

use std::path::Path;

use burn::tensor::Device;
use common::{outputs, untimed};
use pjlab_abalone::AbaloneKit;
use pjlab_agents::Agent;
use pjlab_chomp::ChompKit;
use pjlab_core::{Game, GameKit};
use pjlab_pijersi::PijersiKit;
use pjlab_selfplay::{read_games, read_positions};
use pjlab_train::checkpoint;
use pjlab_train::{IterationMetrics, RunOptions, train};

/// Pijersi runs, the default game's.
type RunConfig = pjlab_train::RunConfig<PijersiKit>;

fn quiet(out: &Path) -> RunOptions {
    RunOptions::new(out)
}

#[test]
fn chomp_5x6_from_scratch_plays_at_least_95_percent_optimal_moves() {
    // The committed configuration, as `pjlab train --config configs/chomp.toml` runs it.
    let text = include_str!("../../../configs/chomp.toml");
    let config = pjlab_train::RunConfig::<ChompKit>::from_toml(text).unwrap();
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
fn a_run_carried_without_its_positions_resumes_only_when_asked_and_refills_its_window() {
    let config = tiny_pijersi();
    let straight = tempfile::tempdir().unwrap();
    let a = train(&config, &quiet(straight.path())).unwrap();

    let carried = tempfile::tempdir().unwrap();
    let mut options = quiet(carried.path());
    options.stop_after = Some(2);
    train(&config, &options).unwrap();
    std::fs::remove_dir_all(carried.path().join("positions")).unwrap();
    options.stop_after = None;
    let refused = train(&config, &options).unwrap_err().to_string();
    assert!(refused.contains("iter-0002.parquet"), "{refused}");

    options.refill_window = true;
    let b = train(&config, &options).unwrap();
    assert_eq!(b.iterations, 3);
    let strip = |m: &[IterationMetrics]| m.iter().map(untimed).collect::<Vec<_>>();
    assert_eq!(strip(&a.metrics[..2]), strip(&b.metrics[..2]));
    // The third iteration plays with the same weights, so the same games; its window holds
    // only its own positions (fewer than the capacity the run had reached, which it keeps).
    assert_eq!(a.metrics[2].selfplay, b.metrics[2].selfplay);
    let third = read_positions(&carried.path().join("positions/iter-0003.parquet")).unwrap();
    assert!(third.len() < a.metrics[2].window, "{}", third.len());
    assert_eq!(b.metrics[2].window, third.len());
    assert_eq!(b.metrics[2].seen, a.metrics[2].seen);
}

#[test]
fn the_run_directory_holds_config_games_checkpoints_metrics_and_plots() {
    let config = tiny_pijersi();
    let dir = tempfile::tempdir().unwrap();
    let mut options = quiet(dir.path());
    options.keep_checkpoints = 1;
    options.keep_every = Some(2);
    let summary = train(&config, &options).unwrap();
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
    // The newest checkpoint, and every second one for good.
    assert!(d.join("checkpoints/iter-0002/model.bpk").exists());
    assert!(!d.join("checkpoints/iter-0001").exists());
    // The run's report, written from its metrics.
    let report = std::fs::read_to_string(d.join("training.md")).unwrap();
    assert!(report.contains("| iterations | 3 |"), "{report}");
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
    /// Parses `text` as a run of `K`, and checks that the run directory's copy keeps it.
    fn parses<K: GameKit>(name: &str, text: &str) -> pjlab_train::RunConfig<K> {
        let config =
            pjlab_train::RunConfig::<K>::from_toml(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        // A round trip through the run directory's copy keeps it.
        assert_eq!(
            pjlab_train::RunConfig::<K>::from_toml(&config.to_toml()).unwrap(),
            config,
            "{name}"
        );
        config
    }
    parses::<PijersiKit>("quick", include_str!("../../../configs/quick.toml"));
    let chomp = parses::<ChompKit>("chomp", include_str!("../../../configs/chomp.toml"));
    let pijersi = parses::<PijersiKit>("pijersi", include_str!("../../../configs/pijersi.toml"));
    parses::<AbaloneKit>("abalone", include_str!("../../../configs/abalone.toml"));
    // The committed run directories, written when every run held both games' tables, resume
    // with the configs that made them (only `iterations` differs).
    let run = parses::<ChompKit>(
        "chomp-5x6",
        include_str!("../../../experiments/chomp-5x6/config.toml"),
    );
    assert_eq!(run, chomp);
    let mut run = parses::<PijersiKit>(
        "pijersi-vs-alphabeta",
        include_str!("../../../experiments/pijersi-vs-alphabeta/config.toml"),
    );
    run.iterations = pijersi.iterations;
    assert_eq!(run, pijersi);
}

#[test]
fn configs_name_their_game_and_refuse_tables_of_others() {
    let abalone = "game = \"abalone\"\n[abalone]\nsetups = \"doubles:1\"\n";
    let config = pjlab_train::RunConfig::<AbaloneKit>::from_toml(abalone).unwrap();
    assert_eq!(config.game.setups, "doubles:1");
    assert!(config.to_toml().contains("[abalone]"));
    // Another game's configuration, or its table, is refused by name.
    let err = RunConfig::from_toml(abalone).unwrap_err().to_string();
    assert!(err.contains("abalone"), "{err}");
    let err = RunConfig::from_toml("[abalone]\nsetups = \"doubles\"")
        .unwrap_err()
        .to_string();
    assert!(err.contains("`abalone`"), "{err}");
    let err = pjlab_train::RunConfig::<AbaloneKit>::from_toml("[abalone]\nsetup = \"x\"")
        .unwrap_err()
        .to_string();
    assert!(err.contains("setup"), "{err}");
    let err = pjlab_train::RunConfig::<AbaloneKit>::from_toml("[abalone]\nsetups = \"classic\"")
        .unwrap_err()
        .to_string();
    assert!(err.contains("abalone"), "{err}");
    // The evaluation variant is the game's.
    let dir = tempfile::tempdir().unwrap();
    let config = pjlab_train::RunConfig::<AbaloneKit>::from_toml(abalone).unwrap();
    let err = train(&config, &quiet(dir.path())).unwrap_err().to_string();
    assert!(err.contains("eval.variant"), "{err}");
    // The game a text names, before the kit is known.
    assert_eq!(
        pjlab_train::config::game_name(abalone).unwrap().as_deref(),
        Some("abalone")
    );
    assert_eq!(pjlab_train::config::game_name("seed = 2").unwrap(), None);
}

fn tiny_abalone() -> pjlab_train::RunConfig<AbaloneKit> {
    pjlab_train::RunConfig::from_toml(
        r#"
        game = "abalone"
        seed = 5
        iterations = 2
        games_per_iteration = 4
        workers = 2
        cache_positions = 1000
        [abalone]
        setups = "belgian-daisy:1,doubles:1"
        [network]
        hidden = 16
        layers = 1
        [selfplay]
        simulations = 8
        cheap_simulations = 2
        games_in_flight = 2
        max_plies = 40
        [window]
        min_size = 50
        [train]
        batch_size = 32
        [eval]
        every = 1
        pairs = 1
        simulations = 4
        depth = 2
        variant = "belgian-daisy"
        max_plies = 30
        "#,
    )
    .unwrap()
}

#[test]
fn an_abalone_run_plays_trains_judges_against_alphabeta_and_resumes() {
    let config = tiny_abalone();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut options = quiet(d);
    options.stop_after = Some(1);
    assert_eq!(train(&config, &options).unwrap().iterations, 1);
    options.stop_after = None;
    let summary = train(&config, &options).unwrap();
    assert_eq!(summary.iterations, 2);
    assert_eq!(
        pjlab_train::RunConfig::<AbaloneKit>::from_file(&d.join("config.toml")).unwrap(),
        config
    );
    // Every recorded game replays under the rules, doubles included.
    let mut variants = std::collections::BTreeSet::new();
    for iteration in ["iter-0001", "iter-0002"] {
        let games = read_games(&d.join(format!("games/{iteration}.parquet"))).unwrap();
        assert_eq!(games.len(), 4);
        let positions = read_positions(&d.join(format!("positions/{iteration}.parquet"))).unwrap();
        assert_eq!(
            positions.len(),
            games.iter().map(|g| g.moves.len()).sum::<usize>()
        );
        for g in &games {
            assert_eq!(g.game, "abalone");
            variants.insert(g.variant.clone());
            let mut p = pjlab_abalone::Position::from_text(&g.start).unwrap();
            for m in &g.moves {
                p.play(p.parse_move(m).unwrap()).unwrap();
            }
        }
    }
    assert!(variants.contains("doubles"), "{variants:?}");
    // One metrics line per iteration, each judged against alpha-beta depth 2.
    let lines = std::fs::read_to_string(d.join("metrics.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), 2);
    let last: IterationMetrics = serde_json::from_str(lines.lines().last().unwrap()).unwrap();
    assert_eq!(last, summary.metrics[1]);
    assert!(summary.metrics.iter().any(|m| m.train_steps > 0));
    let strength = last.strength.expect("evaluated every iteration");
    assert_eq!(strength.metric, "score_vs_alphabeta_d2");
    assert_eq!(strength.count, 2, "one colour-paired setup");
    assert_eq!(strength.wins + strength.draws + strength.losses, 2);
    for plot in ["losses", "strength", "games"] {
        assert!(d.join(format!("plots/{plot}.svg")).exists(), "{plot}");
    }
    assert_eq!(
        std::fs::read_to_string(d.join("checkpoints/latest")).unwrap(),
        "iter-0002"
    );
    // The checkpoint is a player of its own game only.
    let spec = format!("net:checkpoint={},sims=4", d.display());
    let mut agent = pjlab_players::net_agent::<AbaloneKit>(&spec, 1).unwrap();
    let start = AbaloneKit::variant("doubles").unwrap();
    let position = pjlab_core::SetupVariant::start(start, 0);
    let mut legal = Vec::new();
    position.legal_moves(&mut legal);
    assert!(legal.contains(&agent.decide(&position).best_move.unwrap()));
    let err = pjlab_players::net_agent::<PijersiKit>(&spec, 1)
        .err()
        .expect("refused")
        .to_string();
    assert!(err.contains("a network for abalone, not pijersi"), "{err}");
    assert_eq!(checkpoint::game(d).unwrap(), "abalone");
}

#[test]
fn the_committed_pijersi_checkpoint_loads_for_pijersi_only() {
    let path = pjlab_conformance::package_dir(env!("CARGO_MANIFEST_DIR"))
        .join("../../experiments/pijersi-vs-alphabeta/checkpoint");
    let (_, config) = checkpoint::load::<PijersiKit>(&path, &Device::default()).unwrap();
    assert_eq!(config.iterations, 640);
    let err = checkpoint::load::<ChompKit>(&path, &Device::default())
        .expect_err("refused")
        .to_string();
    assert!(err.contains("a network for pijersi, not chomp"), "{err}");
}
