//! End-to-end tests of `pjlab atlas`: a small Chomp atlas (Chomp is the exact control: a level
//! that searches to the end must reproduce the solver's answer), played in two invocations,
//! reported, and refused where its directory holds another atlas.

mod common;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use common::{assert_success, assert_usage_error, pjlab, stdout};
use pjlab_arena::{record, session};
use pjlab_atlas::Atlas;
use pjlab_chomp::{Chomp, ChompKit, Solver};
use pjlab_core::{Game, Outcome, Side};

const ATLAS: &str = r#"
game = "chomp"
seed = 5
[[levels]]
name = "d1"
agent = "alphabeta:depth=1"
[[levels]]
name = "exact"
agent = "alphabeta:depth=30"
about = "searches to the end of every game: perfect play"
[[protocols]]
name = "none"
[[protocols.runs]]
variants = ["3x4", "4x5"]
games_per_variant = 4
opening_plies = 0
[[protocols]]
name = "random"
[[protocols.runs]]
variants = ["3x4", "4x5"]
games_per_variant = 30
opening_plies = 2
[ladder]
games_per_pair = 6
variants = ["3x4"]
opening_plies = 0
"#;

/// `atlas.csv`'s first-side score of a level, protocol and variant.
fn csv_score(dir: &Path, level: &str, protocol: &str, variant: &str) -> f64 {
    let csv = std::fs::read_to_string(dir.join("atlas.csv")).unwrap();
    let row = csv
        .lines()
        .find(|l| l.starts_with(&format!("{level},{protocol},{variant},")))
        .unwrap_or_else(|| panic!("no row {level} {protocol} {variant} in\n{csv}"));
    row.split(',').nth(8).unwrap().parse().unwrap()
}

/// The first side's score under perfect play after each distinct game's opening plies, by the
/// solver: the side to move after them wins.
fn solver_score(cell: &Path, variant: &str, plies: usize) -> f64 {
    let rows = pjlab_selfplay::read_games(&cell.join("games.parquet")).unwrap();
    let mut seen = HashSet::new();
    let mut points = 0.0;
    for row in rows.iter().filter(|r| r.variant == variant) {
        if !seen.insert(row.moves.clone()) {
            continue;
        }
        let mut position = Chomp::from_text(&row.start).unwrap();
        for text in &row.moves[..plies] {
            let mv = position.parse_move(text).unwrap();
            position.play(mv).unwrap();
        }
        let winner = match position.outcome() {
            Some(Outcome::Win(side)) => side,
            Some(Outcome::Draw) => unreachable!("chomp has no draws"),
            None => {
                let solver = Solver::new(position.rows(), position.cols()).unwrap();
                if solver.is_p(&position.lengths()) {
                    position.side_to_move().other()
                } else {
                    position.side_to_move()
                }
            }
        };
        if winner == Side::First {
            points += 1.0;
        }
    }
    points / seen.len() as f64
}

/// Writes the atlas file into `dir` and plays its weak level only into `dir/atlas`, the
/// directory it returns.
fn play_weak_level(dir: &Path) -> PathBuf {
    let spec = dir.join("atlas.toml");
    std::fs::write(&spec, ATLAS).unwrap();
    let out = dir.join("atlas");
    let first = pjlab(&[
        "-q",
        "atlas",
        "run",
        "--spec",
        spec.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--only",
        "d1",
    ]);
    assert_success(&first, &[]);
    out
}

#[test]
fn an_atlas_resumes_reports_and_reproduces_the_solver_at_the_exact_level() {
    let dir = tempfile::tempdir().unwrap();
    // First invocation: the weak level only.
    let out = play_weak_level(dir.path());
    let out_s = out.to_str().unwrap();
    let status = stdout(&pjlab(&["atlas", "status", out_s]));
    assert!(status.contains("| d1/none | d1 | 8 | 8 |"), "{status}");
    assert!(
        status.contains("| exact/none | exact | 0 | 8 |"),
        "{status}"
    );
    assert!(
        status.contains("| ladder | d1, exact | 0 | 6 |"),
        "{status}"
    );
    // The report so far: a cell not played yet has no thinking time, and no difference or
    // time reads `-0.0`.
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        report.contains("| `exact/none` | 0 | 8 | 0.00 |"),
        "{report}"
    );
    assert!(!report.contains("-0.0"), "{report}");

    // Second invocation, without --spec: the atlas in --out goes on, the finished cells kept.
    let second = pjlab(&["-q", "atlas", "run", "--out", out_s]);
    assert_success(&second, &[]);
    assert!(
        stdout(&second).contains("all 5 cells finished"),
        "{}",
        stdout(&second)
    );
    let status = stdout(&pjlab(&["atlas", "status", out_s]));
    for row in [
        "| d1/none | d1 | 8 | 8 |",
        "| exact/random | exact | 60 | 60 |",
        "| ladder | d1, exact | 6 | 6 |",
    ] {
        assert!(status.contains(row), "{row} in {status}");
    }

    // Perfect play: the first player wins every full bar (strategy stealing, and the solver),
    // and after random plies the score is the solver's over the distinct openings.
    for variant in ["3x4", "4x5"] {
        let (rows, cols) = variant.split_once('x').unwrap();
        let solver = Solver::new(rows.parse().unwrap(), cols.parse().unwrap()).unwrap();
        assert!(!solver.is_p(&solver.full()), "{variant}");
        assert_eq!(csv_score(&out, "exact", "none", variant), 1.0, "{variant}");
        let expected = solver_score(&out.join("exact/random"), variant, 2);
        let measured = csv_score(&out, "exact", "random", variant);
        assert!(
            (measured - expected).abs() < 1e-4,
            "{variant}: {measured} vs {expected}"
        );
    }
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains("## The answer"), "{report}");
    assert!(
        report.contains("At the strongest level finished, `exact`"),
        "{report}"
    );
    for file in [
        "index.html",
        "plots/first-score-none.svg",
        "plots/first-score-random.svg",
        "plots/first-score-none-by-level.svg",
        "plots/first-score-random-by-level.svg",
        "ladder/report.md",
    ] {
        assert!(out.join(file).exists(), "{file}");
    }
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(
        page.contains("<table>") && page.contains("games/exact-none-3x4-0.html"),
        "{page}"
    );
    assert!(
        page.contains(r#"<img src="plots/first-score-random-by-level.svg""#),
        "{page}"
    );
    assert!(out.join("games/exact-none-3x4-0.html").exists());

    // Another atlas file for the same directory is refused, naming the way out.
    std::fs::write(
        dir.path().join("other.toml"),
        ATLAS.replace("seed = 5", "seed = 6"),
    )
    .unwrap();
    let other = dir.path().join("other.toml");
    let refused = pjlab(&[
        "atlas",
        "run",
        "--spec",
        other.to_str().unwrap(),
        "--out",
        out_s,
    ]);
    assert_usage_error(&refused, "holds another atlas");
}

/// A cell stopped after its run was created but before its first game was saved (its manifest
/// and an empty games file of its own options) goes on when the atlas is run again.
#[test]
fn a_cell_stopped_before_its_first_game_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let out = play_weak_level(dir.path());
    let out_s = out.to_str().unwrap();
    let cell = Atlas::parse(ATLAS)
        .unwrap()
        .cells()
        .into_iter()
        .find(|c| c.dir == Path::new("exact/none"))
        .unwrap();
    let cell_dir = out.join(&cell.dir);
    std::fs::create_dir_all(&cell_dir).unwrap();
    session::write_manifest(&cell_dir, &cell.spec).unwrap();
    record::save::<ChompKit>(&session::games_file(&cell_dir), &cell.spec, &[]).unwrap();
    let status = stdout(&pjlab(&["atlas", "status", out_s]));
    assert!(
        status.contains("| exact/none | exact | 0 | 8 |"),
        "{status}"
    );

    let again = pjlab(&["-q", "atlas", "run", "--out", out_s, "--only", "exact"]);
    assert_success(&again, &[]);
    let status = stdout(&pjlab(&["atlas", "status", out_s]));
    for row in [
        "| exact/none | exact | 8 | 8 |",
        "| exact/random | exact | 60 | 60 |",
    ] {
        assert!(status.contains(row), "{row} in {status}");
    }
    assert_eq!(csv_score(&out, "exact", "none", "3x4"), 1.0);
}

#[test]
fn a_cell_killed_before_its_report_was_whole_gets_it_on_the_next_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = play_weak_level(dir.path());
    let cell = out.join("d1/none");
    let read = |name: &str| std::fs::read_to_string(cell.join(name)).unwrap();
    let (report, games) = (read("report.md"), read("games.csv"));
    // As a kill after the cell's last save leaves it: every game kept, the report's files
    // not yet (or partly) written.
    for name in ["report.md", "games.csv"] {
        std::fs::remove_file(cell.join(name)).unwrap();
    }
    let again = pjlab(&[
        "-q",
        "atlas",
        "run",
        "--out",
        out.to_str().unwrap(),
        "--only",
        "d1",
    ]);
    assert_success(&again, &[]);
    // Written again from the cell's records, as the uninterrupted run wrote them.
    assert_eq!(read("report.md"), report);
    assert_eq!(read("games.csv"), games);
}

#[test]
fn a_bad_atlas_is_refused_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("bad.toml");
    std::fs::write(
        &spec,
        ATLAS.replace("alphabeta:depth=1", "alphabeta:depht=1"),
    )
    .unwrap();
    let out = dir.path().join("atlas");
    let refused = pjlab(&[
        "atlas",
        "run",
        "--spec",
        spec.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_usage_error(&refused, "depht");
    let good = dir.path().join("good.toml");
    std::fs::write(&good, ATLAS).unwrap();
    let unknown = pjlab(&[
        "atlas",
        "run",
        "--spec",
        good.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--only",
        "d7",
    ]);
    assert_usage_error(&unknown, "--only d7: no such level");
    assert!(!out.join("d1").exists(), "no cell is started");
    assert!(!out.join("atlas.toml").exists(), "nor the atlas written");
}

#[test]
fn an_atlas_played_in_two_shards_merges_to_the_unsharded_one() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("atlas.toml");
    std::fs::write(&spec, ATLAS).unwrap();
    let spec = spec.to_str().unwrap();
    let whole = dir.path().join("whole");
    let run = |extra: &[&str], out: &Path| {
        let mut args = vec!["-q", "atlas", "run", "--spec", spec, "--out"];
        args.push(out.to_str().unwrap());
        args.extend_from_slice(extra);
        assert_success(&pjlab(&args), &args);
    };
    run(&[], &whole);
    let shards = [dir.path().join("s1"), dir.path().join("s2")];
    run(&["--shard", "1/2"], &shards[0]);
    // A merge before the second shard has started is refused: that shard holds no atlas yet.
    let merged = dir.path().join("merged");
    let merge_shards = || {
        pjlab(&[
            "atlas",
            "merge",
            shards[0].to_str().unwrap(),
            shards[1].to_str().unwrap(),
            "--out",
            merged.to_str().unwrap(),
        ])
    };
    let early = merge_shards();
    assert_usage_error(&early, "holds no atlas");
    assert!(!merged.exists(), "nothing written");
    run(&["--shard", "2/2"], &shards[1]);
    let merge = merge_shards();
    assert_success(&merge, &[]);
    assert!(
        stdout(&merge).contains("5 cells merged"),
        "{}",
        stdout(&merge)
    );
    let csv = |d: &Path| std::fs::read_to_string(d.join("atlas.csv")).unwrap();
    assert_eq!(csv(&merged), csv(&whole));
}

/// The committed Chomp atlas (`experiments/balance-atlas/chomp`): its exact level scores what
/// the solver says under both protocols, in every bar.
#[test]
fn the_committed_chomp_atlas_reproduces_the_solver_at_its_exact_level() {
    let atlas = pjlab_conformance::package_dir(env!("CARGO_MANIFEST_DIR"))
        .join("../../experiments/balance-atlas/chomp");
    let csv = std::fs::read_to_string(atlas.join("atlas.csv")).expect("the committed atlas");
    let mut checked = 0;
    for row in csv.lines().filter(|l| l.starts_with("exact,")) {
        let fields: Vec<&str> = row.split(',').collect();
        let (protocol, variant) = (fields[1], fields[2]);
        let plies = if protocol == "none" { 0 } else { 2 };
        let expected = solver_score(&atlas.join("exact").join(protocol), variant, plies);
        let measured = csv_score(&atlas, "exact", protocol, variant);
        assert!(
            (measured - expected).abs() < 1e-4,
            "{protocol} {variant}: {measured} vs the solver's {expected}"
        );
        checked += 1;
    }
    assert_eq!(checked, 8, "two protocols of four bars");
}
