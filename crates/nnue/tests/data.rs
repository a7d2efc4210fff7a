//! Training positions on Pijersi: a small data run written as a table, read back by the
//! trainer's reader, the same for the same seed whatever the number of workers; the text files
//! of earlier builds still read.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use pjlab_alphabeta::MATE;
use pjlab_core::{GameKit, Provenance};
use pjlab_nnue::Error;
use pjlab_nnue::data::{
    CPU_KEY, DataOptions, DataRun, DataSummary, Filter, OPTIONS_KEY, POSITIONS, Row, generate,
    read, read_rows,
};
use pjlab_pijersi::{PijersiEval, PijersiFeatures, PijersiKit};
use pjlab_run::dir::{Manifest, PROVENANCE_KEY, RunKind};
use pjlab_run::table::{SCHEMA_KEY, TableBuilder, read_metadata};

fn options(seed: u64, workers: usize) -> DataOptions {
    DataOptions {
        games: 4,
        depth: 1,
        opening_plies: (2, 6),
        random_moves: 0.2,
        seed,
        workers,
        max_plies: 40,
        pv_leaf: false,
    }
}

fn run(dir: &Path, options: &DataOptions) -> (DataSummary, Vec<Row>) {
    let variants = [
        PijersiKit::variant("classic").unwrap(),
        PijersiKit::variant("half-random").unwrap(),
    ];
    let data = DataRun::open::<PijersiKit>(dir, &Provenance::default(), false).unwrap();
    let stop = AtomicBool::new(false);
    let mut done = Vec::new();
    let eval = PijersiKit::evaluation(None).unwrap();
    let summary = generate::<PijersiKit, _>(&eval, &variants, options, &data, &stop, &mut |n| {
        done.push(n)
    })
    .unwrap();
    assert_eq!(done, (1..=options.games).collect::<Vec<_>>());
    (summary, read_rows(dir).unwrap())
}

fn samples(path: &Path) -> Vec<pjlab_nnue::data::Sample> {
    let eval = PijersiKit::evaluation(None).unwrap();
    read(path, &PijersiFeatures, &eval, Filter::default()).unwrap()
}

#[test]
fn a_data_run_writes_a_table_the_trainer_reads_the_same_for_any_number_of_workers() {
    let tmp = tempfile::tempdir().unwrap();
    let first = tmp.path().join("first");
    let (summary, rows) = run(&first, &options(7, 1));
    assert_eq!(summary.games, 4);
    assert_eq!(summary.results.iter().sum::<usize>(), 4);
    assert!(summary.positions > 0);
    assert_eq!(rows.len(), summary.positions);

    // The trainer's reader takes the directory or the table, one sample a row.
    let from_dir = samples(&first);
    assert_eq!(from_dir.len(), summary.positions);
    assert_eq!(samples(&first.join("positions.parquet")), from_dir);
    for (sample, row) in from_dir.iter().zip(&rows) {
        assert!(sample.score.abs() <= MATE, "{}", sample.score);
        assert!(
            [0.0, 0.5, 1.0].contains(&sample.result),
            "{}",
            sample.result
        );
        assert_eq!((sample.score, sample.result), (row.score, row.result));
        assert!(!sample.stm.is_empty());
    }
    // Rows in game order, each game from its variant in turn, plies rising within a game.
    assert!(
        rows.windows(2)
            .all(|w| (w[0].game, w[0].ply) < (w[1].game, w[1].ply))
    );
    for row in &rows {
        let expected = if row.game % 2 == 0 {
            "classic"
        } else {
            "half-random"
        };
        assert_eq!(row.variant, expected);
        assert!(row.ply >= 2, "positions after the opening only");
    }

    // A run directory: manifest, provenance, and both in the table's footer.
    let manifest = Manifest::read(&first).unwrap().unwrap();
    assert_eq!(manifest, Manifest::new(RunKind::NnueData, "pijersi"));
    assert!(first.join("provenance.jsonl").exists());
    let footer = read_metadata(&first.join("positions.parquet")).unwrap();
    let key = |k: &str| {
        footer
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
    };
    assert_eq!(key(SCHEMA_KEY).as_deref(), Some(POSITIONS.name));
    assert!(key(PROVENANCE_KEY).is_some());
    assert!(key(OPTIONS_KEY).unwrap().contains("\"depth\":1"));

    // The same seed gives the same table, with one worker or two; another seed another one.
    let (again, rows_again) = run(&tmp.path().join("again"), &options(7, 1));
    assert_eq!((&again, &rows_again), (&summary, &rows));
    let (two, rows_two) = run(&tmp.path().join("two"), &options(7, 2));
    assert_eq!((&two, &rows_two), (&summary, &rows));
    let (_, other) = run(&tmp.path().join("other"), &options(8, 2));
    assert_ne!(other, rows);
}

#[test]
fn a_data_run_refuses_a_directory_with_positions_or_another_run() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("data");
    run(&dir, &options(1, 1));
    let again = DataRun::open::<PijersiKit>(&dir, &Provenance::default(), false);
    assert!(
        matches!(&again, Err(e @ Error::HoldsPositions(_)) if e.to_string().contains("positions.parquet") && e.to_string().contains("--resume"))
    );
    let other = tmp.path().join("match");
    std::fs::create_dir_all(&other).unwrap();
    Manifest::new(RunKind::Match, "pijersi")
        .write(&other)
        .unwrap();
    let refused = DataRun::open::<PijersiKit>(&other, &Provenance::default(), false);
    assert!(
        matches!(&refused, Err(e @ Error::Run(pjlab_run::Error::OtherRun { .. })) if e.to_string().contains("match"))
    );
}

#[test]
fn a_resumed_run_continues_to_the_table_of_one_run_and_refuses_other_options() {
    let tmp = tempfile::tempdir().unwrap();
    let (whole, whole_rows) = run(&tmp.path().join("whole"), &options(5, 1));
    let dir = tmp.path().join("resumed");
    let variants = [
        PijersiKit::variant("classic").unwrap(),
        PijersiKit::variant("half-random").unwrap(),
    ];
    let eval = PijersiKit::evaluation(None).unwrap();
    let stop = AtomicBool::new(false);
    let first_half = DataOptions {
        games: 2,
        ..options(5, 1)
    };
    let data = DataRun::open::<PijersiKit>(&dir, &Provenance::default(), false).unwrap();
    generate::<PijersiKit, _>(&eval, &variants, &first_half, &data, &stop, &mut |_| ()).unwrap();
    drop(data);
    assert!(read_rows(&dir).unwrap().iter().all(|r| r.game < 2));

    // Other options than the games' and workers' are refused; then the rest is played.
    let data = DataRun::open::<PijersiKit>(&dir, &Provenance::default(), true).unwrap();
    assert_eq!(data.games_done(), 2);
    let deeper = DataOptions {
        depth: 2,
        ..options(5, 2)
    };
    let refused = generate::<PijersiKit, _>(&eval, &variants, &deeper, &data, &stop, &mut |_| ());
    assert!(
        matches!(&refused, Err(e @ Error::OtherOptions(_)) if e.to_string().contains("other options"))
    );
    let mut counts = Vec::new();
    let summary =
        generate::<PijersiKit, _>(&eval, &variants, &options(5, 2), &data, &stop, &mut |n| {
            counts.push(n)
        })
        .unwrap();
    assert_eq!(counts, [3, 4]);
    assert_eq!(
        (summary.games, summary.positions),
        (whole.games, whole.positions)
    );
    assert_eq!(read_rows(&dir).unwrap(), whole_rows);
}

#[test]
fn text_files_of_earlier_builds_still_read() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("data");
    let (_, rows) = run(&dir, &options(3, 1));
    let text: String = rows
        .iter()
        .map(|r| format!("{}\t{}\t{}\n", r.position, r.score, r.result))
        .collect();
    let file = tmp.path().join("old.txt");
    std::fs::write(&file, text).unwrap();
    assert_eq!(samples(&file), samples(&dir));

    let eval: PijersiEval = PijersiKit::evaluation(None).unwrap();
    std::fs::write(&file, format!("{}\t12\t2\n", rows[0].position)).unwrap();
    let bad = read(&file, &PijersiFeatures, &eval, Filter::default());
    assert!(matches!(bad, Err(Error::Data { line: 1, .. })), "{bad:?}");
}

#[test]
fn the_committed_text_data_of_earlier_experiments_reads() {
    let file = pjlab_conformance::package_dir(env!("CARGO_MANIFEST_DIR"))
        .join("../../experiments/nnue-first/data/d4-r25-s3.txt");
    let lines = std::fs::read_to_string(&file).unwrap().lines().count();
    let read = samples(&file);
    assert_eq!(read.len(), lines);
    assert!(read.iter().all(|s| [0.0, 0.5, 1.0].contains(&s.result)));
}

#[test]
fn a_stopped_run_writes_the_games_finished_and_none_after() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("stopped");
    let data = DataRun::open::<PijersiKit>(&dir, &Provenance::default(), false).unwrap();
    let stop = AtomicBool::new(true);
    let variants = [PijersiKit::variant("classic").unwrap()];
    let eval = PijersiKit::evaluation(None).unwrap();
    let summary =
        generate::<PijersiKit, _>(&eval, &variants, &options(1, 2), &data, &stop, &mut |_| ())
            .unwrap();
    assert_eq!((summary.games, summary.positions), (0, 0));
    assert!(read_rows(&dir).unwrap().is_empty());
}

/// The CPU seconds a run's table records ([`CPU_KEY`]), if it does.
fn cpu_recorded(dir: &Path) -> Option<f64> {
    let footer = read_metadata(&dir.join("positions.parquet")).unwrap();
    let (_, v) = footer.into_iter().find(|(k, _)| k == CPU_KEY)?;
    Some(v.parse().unwrap())
}

/// The games a run's table holds.
fn games_held(dir: &Path) -> usize {
    DataRun::open::<PijersiKit>(dir, &Provenance::default(), true)
        .unwrap()
        .games_done()
}

/// Writes a run's table again, its rows the same, with its CPU seconds set to `cpu` (`None`:
/// left out, as earlier builds wrote it).
fn set_cpu(dir: &Path, cpu: Option<f64>) {
    let path = dir.join("positions.parquet");
    let mut footer = read_metadata(&path).unwrap();
    footer.retain(|(k, _)| k != SCHEMA_KEY && k != CPU_KEY);
    footer.extend(cpu.map(|c| (CPU_KEY.to_string(), c.to_string())));
    let mut table = TableBuilder::new(&POSITIONS);
    for r in read_rows(dir).unwrap() {
        let values = [
            r.position.as_str().into(),
            r.score.into(),
            r.result.into(),
            r.game.into(),
            r.ply.into(),
            r.variant.as_str().into(),
        ];
        table.row(values).unwrap();
    }
    table.write(&path, &footer).unwrap();
}

#[test]
fn a_resumed_run_adds_its_cpu_to_the_earlier_invocations_and_an_unknown_share_stays_unknown() {
    let tmp = tempfile::tempdir().unwrap();
    let variants = [PijersiKit::variant("classic").unwrap()];
    let eval = PijersiKit::evaluation(None).unwrap();
    let stop = AtomicBool::new(false);
    let first_half = DataOptions {
        games: 2,
        ..options(9, 1)
    };
    let play_half = |dir: &Path| {
        let data = DataRun::open::<PijersiKit>(dir, &Provenance::default(), false).unwrap();
        assert_eq!(data.cpu_before(), Some(0.0), "a new run has spent nothing");
        generate::<PijersiKit, _>(&eval, &variants, &first_half, &data, &stop, &mut |_| ())
            .unwrap();
        assert!(cpu_recorded(dir).unwrap() >= 0.0);
    };
    // Resumes the run in `dir` to its 4 games; the process CPU seconds the call took.
    let resume = |dir: &Path| {
        let data = DataRun::open::<PijersiKit>(dir, &Provenance::default(), true).unwrap();
        let before = data.cpu_before();
        let start = pjlab_run::cpu_seconds().unwrap();
        generate::<PijersiKit, _>(&eval, &variants, &options(9, 1), &data, &stop, &mut |_| ())
            .unwrap();
        (before, pjlab_run::cpu_seconds().unwrap() - start)
    };

    // The earlier share, as the table records it (set far above any real one), is read back
    // and the resumed invocation adds its own: no more than the process spent meanwhile.
    let known = tmp.path().join("known");
    play_half(&known);
    set_cpu(&known, Some(1000.0));
    let (before, spent) = resume(&known);
    assert_eq!(before, Some(1000.0));
    let total = cpu_recorded(&known).unwrap();
    assert!(
        (1000.0..=1000.0 + spent + 0.02).contains(&total),
        "{total} after {spent} s"
    );
    assert_eq!(games_held(&known), 4);

    // A table of an earlier build does not say: its run's cost stays unknown, not undercounted.
    let unknown = tmp.path().join("unknown");
    play_half(&unknown);
    set_cpu(&unknown, None);
    let (before, _) = resume(&unknown);
    assert_eq!(before, None);
    assert_eq!(cpu_recorded(&unknown), None);
    assert_eq!(games_held(&unknown), 4);
}
