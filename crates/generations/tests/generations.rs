//! A small generations run on Pijersi: every generation's files, the ledger consistent with
//! its gates, the best player handed on, a resume that goes on without redoing, a stopped run
//! that resumes to the ledger of one uninterrupted, and the refusals.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use pjlab_arena::record;
use pjlab_core::Provenance;
use pjlab_generations::{Error, Event, Generation, Outcome, Spec, Step, run};
use pjlab_pijersi::PijersiKit;
use pjlab_run::dir::{Manifest, MetricsLog, RunKind};

const SPEC: &str = r#"
game = "pijersi"
generations = 2
seed = 3

[data]
games = 4
depth = 1
variants = ["classic", "half-random"]
opening = [2, 6]
max_plies = 40
window = 2

[train.options]
hidden = 16
l2 = 8
epochs = 2

[gate]
player = "alphabeta:depth=1"
games = 6
variants = ["classic", "half-random"]
max_plies = 40
elo1 = 200
"#;

fn spec(generations: u32) -> Spec {
    let mut spec = Spec::parse(SPEC).unwrap();
    spec.generations = generations;
    spec
}

fn go(dir: &Path, spec: &Spec, stop: &AtomicBool) -> Result<Outcome, Error> {
    go_with(dir, spec, 2, stop)
}

fn go_with(dir: &Path, spec: &Spec, workers: usize, stop: &AtomicBool) -> Result<Outcome, Error> {
    run::<PijersiKit>(
        dir,
        spec,
        workers,
        &Provenance::default(),
        stop,
        &mut |_| (),
    )
}

fn ledger(dir: &Path) -> Vec<Generation> {
    MetricsLog::<Generation>::new(dir.join("generations.jsonl"))
        .read()
        .unwrap()
}

/// The ledger without the CPU times, which differ from run to run.
fn figures(dir: &Path) -> Vec<Generation> {
    let mut lines = ledger(dir);
    for g in &mut lines {
        g.data.cpu_seconds = 0.0;
        g.train.cpu_seconds = 0.0;
        g.gate.cpu_seconds = 0.0;
    }
    lines
}

#[test]
fn a_run_writes_each_generation_and_hands_the_best_on() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    let stop = AtomicBool::new(false);
    assert_eq!(go(&dir, &spec(2), &stop).unwrap(), Outcome::Finished);

    assert_eq!(
        Manifest::read(&dir).unwrap().unwrap(),
        Manifest::new(RunKind::NnueGenerations, "pijersi")
    );
    assert_eq!(
        Spec::parse(&std::fs::read_to_string(dir.join("config.toml")).unwrap()).unwrap(),
        spec(2)
    );
    let lines = ledger(&dir);
    assert_eq!(lines.len(), 2);
    let mut best = 0;
    for (i, g) in lines.iter().enumerate() {
        let n = i as u32 + 1;
        assert_eq!(g.generation, n);
        assert_eq!(g.best, best, "generation {n} starts from the last promoted");
        let here = dir.join(format!("gen-{n:03}"));
        assert_eq!(g.data.games, 4);
        let rows = pjlab_nnue::data::read_rows(&here.join("data")).unwrap();
        assert_eq!(rows.len(), g.data.positions);
        // Trained on this generation's positions and the one before's (window 2).
        let before = if n > 1 {
            lines[i - 1].data.positions
        } else {
            0
        };
        assert_eq!(g.train.positions, g.data.positions + before);
        let (card, network) = pjlab_nnue::file::load(&here.join("net.nnue")).unwrap();
        assert_eq!((card.game.as_str(), network.hidden), ("pijersi", 16));
        assert!(!card.residual);

        // The gate: the candidate first, the best second, its figures those of its games.
        let (match_spec, played) =
            record::load::<PijersiKit>(&here.join("gate/games.parquet")).unwrap();
        assert_eq!(played.len(), g.gate.games);
        // At most the cap (an SPRT stop may leave the last pair half played).
        assert!(played.len() <= 6);
        let candidate = &match_spec.players[0].spec;
        assert!(
            candidate.ends_with(&format!("gen-{n:03}/net.nnue")),
            "{candidate}"
        );
        let opponent = &match_spec.players[1].spec;
        if best == 0 {
            assert_eq!(opponent, "alphabeta:depth=1");
        } else {
            assert!(opponent.ends_with(&format!("gen-{best:03}/net.nnue")));
        }
        let points: f64 = played
            .iter()
            .map(|p| {
                let r = if p.spec.first == 0 {
                    p.result
                } else {
                    -p.result
                };
                (f64::from(r) + 1.0) / 2.0
            })
            .sum();
        assert!((g.gate.score[0] - points / played.len() as f64).abs() < 1e-12);
        assert_eq!(g.gate.wdl.iter().sum::<u64>() as usize, played.len());
        assert!(["H1", "H0", "cap"].contains(&g.gate.decision.as_str()));
        assert_eq!(g.promoted, g.gate.decision == "H1");
        assert!(g.gate.decision != "cap" || played.len() == 6);
        // The gate's report says why it stopped: its SPRT, or the games cap (not "partial").
        let report = std::fs::read_to_string(here.join("gate/report.md")).unwrap();
        let said = format!(
            "**Stopped by its SPRT after {} of 6 games: {} accepted.**",
            played.len(),
            g.gate.decision
        );
        assert_eq!(report.contains(&said), g.gate.decision != "cap", "{report}");
        assert!(!report.contains("Partial report"), "{report}");
        // And it is the report its records give, as `pjlab report` rewrites it.
        let (spec, games) = record::load::<PijersiKit>(&here.join("gate/games.parquet")).unwrap();
        let again = tempfile::tempdir().unwrap();
        let scheduled = spec.shard_schedule::<PijersiKit>().unwrap().len();
        let rewritten =
            pjlab_arena::report::write::<PijersiKit>(again.path(), &spec, &games, scheduled)
                .unwrap();
        assert_eq!(report, rewritten);
        if g.promoted {
            best = n;
        }
    }
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert_eq!(
        report.matches("\n| 1 | hand-written |").count(),
        1,
        "{report}"
    );
    assert!(dir.join("plots/elo.svg").exists());
}

#[test]
fn a_resumed_run_goes_on_and_a_stopped_one_ends_as_one_uninterrupted() {
    // One worker: with more, the games that finish after an SPRT decides vary by a game or
    // two from run to run.
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    let go_on = AtomicBool::new(false);
    go_with(&whole, &spec(2), 1, &go_on).unwrap();

    // Stopped inside the first gate, then inside the second generation's data.
    let stopped = tmp.path().join("stopped");
    for (step, at) in [(Step::Gate, 2), (Step::Data, 2)] {
        let stop = AtomicBool::new(false);
        let outcome = run::<PijersiKit>(
            &stopped,
            &spec(2),
            1,
            &Provenance::default(),
            &stop,
            &mut |e| {
                if let Event::Progress { step: s, done, .. } = e
                    && s == step
                    && done >= at
                {
                    stop.store(true, Ordering::SeqCst);
                }
            },
        )
        .unwrap();
        assert_eq!(outcome, Outcome::Stopped);
    }
    assert!(ledger(&stopped).len() < 2);
    assert_eq!(
        go_with(&stopped, &spec(2), 1, &go_on).unwrap(),
        Outcome::Finished
    );
    assert_eq!(figures(&stopped), figures(&whole));

    // More generations: the decided ones stay, one more is played.
    let before = ledger(&whole);
    go(&whole, &spec(3), &go_on).unwrap();
    let after = ledger(&whole);
    assert_eq!(after.len(), 3);
    assert_eq!(after[..2], before[..]);
}

#[test]
fn a_run_refuses_another_spec_game_or_kind() {
    let tmp = tempfile::tempdir().unwrap();
    let stop = AtomicBool::new(false);
    let dir = tmp.path().join("run");
    let mut one = spec(1);
    one.data.games = 2;
    one.gate.games = 2;
    go(&dir, &one, &stop).unwrap();
    let mut deeper = one.clone();
    deeper.data.depth = 2;
    let refused = go(&dir, &deeper, &stop).unwrap_err().to_string();
    assert!(refused.contains("another configuration"), "{refused}");

    let mut abalone = one.clone();
    abalone.game = "abalone".into();
    let refused = go(&tmp.path().join("other"), &abalone, &stop).unwrap_err();
    assert!(refused.to_string().contains("not pijersi"), "{refused}");

    let matches = tmp.path().join("match");
    std::fs::create_dir_all(&matches).unwrap();
    Manifest::new(RunKind::Match, "pijersi")
        .write(&matches)
        .unwrap();
    let refused = go(&matches, &one, &stop).unwrap_err().to_string();
    assert!(refused.contains("holds a match run"), "{refused}");

    for (text, says) in [
        (SPEC.replace("games = 6", "games = 5"), "even"),
        (SPEC.replace("depth=1\"", "depth=1,eval=x\""), "eval="),
        (SPEC.replace("elo1 = 200", "elo1 = -5"), "elo0 < elo1"),
        (SPEC.replace("window = 2", "windows = 2"), "unknown field"),
    ] {
        let err = Spec::parse(&text).unwrap_err().to_string();
        assert!(err.contains(says), "{says}: {err}");
    }
    let mut unknown = one.clone();
    unknown.data.variants = vec!["no-such".into()];
    assert!(go(&tmp.path().join("v"), &unknown, &stop).is_err());
}

#[test]
fn a_run_trains_on_prior_data_too_before_its_window() {
    let tmp = tempfile::tempdir().unwrap();
    let stop = AtomicBool::new(false);
    let mut one = spec(1);
    one.data.games = 2;
    one.gate.games = 2;
    // An earlier run's positions, and a run with another seed, trained alone and then with
    // them: the candidate's positions are the two counts' sum, the earlier data read first.
    let earlier = tmp.path().join("earlier");
    go(&earlier, &one, &stop).unwrap();
    let mut alone = one.clone();
    alone.seed = 4;
    go(&tmp.path().join("alone"), &alone, &stop).unwrap();
    let mut with = alone.clone();
    let prior = earlier.join("gen-001").join("data");
    with.train.prior_data = vec![prior.clone()];
    let dir = tmp.path().join("with");
    go(&dir, &with, &stop).unwrap();
    let (earlier_n, alone_n, with_n) = (
        ledger(&earlier)[0].train.positions,
        ledger(&tmp.path().join("alone"))[0].train.positions,
        ledger(&dir)[0].train.positions,
    );
    assert!(earlier_n > 0 && alone_n > 0);
    assert_eq!(with_n, earlier_n + alone_n);
    let (card, _) = pjlab_nnue::file::load(&dir.join("gen-001").join("net.nnue")).unwrap();
    let data: Vec<String> = serde_json::from_value(card.training["data"].clone()).unwrap();
    assert_eq!(data.len(), 2);
    assert_eq!(data[0], prior.display().to_string());
    assert!(data[1].ends_with("data") && data[1].starts_with(&dir.display().to_string()));
    // The spec as written keeps them; a run without them writes none.
    let kept = Spec::parse(&std::fs::read_to_string(dir.join("config.toml")).unwrap()).unwrap();
    assert_eq!(kept.train.prior_data, vec![prior]);
    let plain = std::fs::read_to_string(tmp.path().join("alone").join("config.toml")).unwrap();
    assert!(!plain.contains("prior_data"), "{plain}");

    let mut missing = alone.clone();
    missing.train.prior_data = vec![tmp.path().join("no-such")];
    let refused = go(&tmp.path().join("m"), &missing, &stop)
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("train.prior_data") && refused.contains("no-such"),
        "{refused}"
    );
    assert!(!tmp.path().join("m").join("gen-001").exists());
}

#[test]
fn the_committed_specs_parse_and_name_their_games_variants_and_files() {
    use pjlab_core::GameKit;
    let configs = pjlab_conformance::package_dir(env!("CARGO_MANIFEST_DIR")).join("../../configs");
    let mut seen = Vec::new();
    for entry in std::fs::read_dir(&configs).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.starts_with("generations-") {
            continue;
        }
        let spec = Spec::parse(&std::fs::read_to_string(&path).unwrap())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        // The files it names (paths from the repository's root) are committed.
        for file in spec.start.iter().chain(&spec.train.prior_data) {
            assert!(
                configs.join("..").join(file).exists(),
                "{name}: {}",
                file.display()
            );
        }
        let variants = spec.data.variants.iter().chain(&spec.gate.variants);
        match spec.game.as_str() {
            "pijersi" => variants.for_each(|v| assert!(PijersiKit::variant(v).is_ok(), "{v}")),
            "abalone" => variants.for_each(|v| {
                assert!(pjlab_abalone::AbaloneKit::variant(v).is_ok(), "{v}");
            }),
            other => panic!("{name}: {other}"),
        }
        seen.push(spec.game);
    }
    seen.sort();
    seen.dedup();
    assert_eq!(seen, ["abalone", "pijersi"]);
}
