//! `pjlab report --pool`: a match's replicates reported as one run, each distinct game counted
//! once across them, and what is not a set of replicates refused.

mod common;

use std::collections::HashSet;
use std::path::Path;

use common::{assert_success, assert_usage_error, pjlab};
use pjlab_pijersi::PijersiKit;

/// Plays the replicate of seed `seed` (6 games, or `games`) into `out`; expects success.
fn replicate(out: &Path, seed: u64, games: u32) {
    let (seed, games) = (seed.to_string(), games.to_string());
    let args: &[&str] = &[
        "-q",
        "match",
        "--a",
        "alphabeta:depth=1",
        "--b",
        "greedy",
        "--games",
        &games,
        "--variants",
        "classic,half-random",
        "--max-plies",
        "120",
        "--workers",
        "1",
        "--seed",
        &seed,
        "--out",
        out.to_str().unwrap(),
    ];
    assert_success(&pjlab(args), args);
}

/// The games of the runs in `dirs`, each told apart by what the players did (side, variant,
/// start, moves, result) and not by its id or replicate.
fn distinct_across(dirs: &[&Path]) -> usize {
    let mut seen = HashSet::new();
    for dir in dirs {
        let (_, games) =
            pjlab_arena::record::load::<PijersiKit>(&dir.join("games.parquet")).unwrap();
        for g in games {
            seen.insert(format!(
                "{} {} {} {:?} {:?} {}",
                g.spec.variant, g.spec.first, g.spec.second, g.start, g.moves, g.result
            ));
        }
    }
    seen.len()
}

#[test]
fn replicates_pool_into_one_report_that_counts_each_game_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name);
    let arg = |name: &str| path(name).display().to_string();
    replicate(&path("r1"), 1, 6);
    replicate(&path("r2"), 2, 6);
    let args: &[&str] = &[
        "report",
        "--pool",
        &arg("r1"),
        &arg("r2"),
        "--out",
        &arg("p"),
    ];
    assert_success(&pjlab(args), args);
    let report = std::fs::read_to_string(path("p/report.md")).unwrap();
    assert!(
        report.contains("| seeds | 1, 2: a pool of 2 replicates"),
        "{report}"
    );
    let distinct = distinct_across(&[&path("r1"), &path("r2")]);
    assert!(
        report.contains(&format!("| games | 12 played of 12; {distinct} distinct")),
        "{distinct} distinct expected: {report}"
    );
    // Every invocation of both replicates, in order.
    let spec = pjlab_arena::record::load_spec(&path("p/games.parquet")).unwrap();
    let seeds: Vec<bool> = spec
        .sessions
        .iter()
        .map(|s| s.command.contains("--seed 1"))
        .collect();
    assert_eq!(seeds, [true, false]);
    assert!(spec.command.contains("--pool"), "{}", spec.command);

    // The pool's report writes again the same from its own directory; it does not resume.
    let args: &[&str] = &["report", &arg("p"), "--out", &arg("again")];
    assert_success(&pjlab(args), args);
    let read = |d: &str| std::fs::read_to_string(path(d).join("report.md")).unwrap();
    assert_eq!(read("p"), read("again"));
    let resume = pjlab(&["match", "--out", &arg("p"), "--resume"]);
    assert_usage_error(&resume, "is a pool of replicates");
}

#[test]
fn what_is_not_a_set_of_replicates_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name);
    let arg = |name: &str| path(name).display().to_string();
    replicate(&path("r1"), 1, 4);
    replicate(&path("r2"), 2, 4);
    replicate(&path("other"), 3, 6);
    let pool = |dirs: &[&str], into: &str| {
        let mut args = vec!["report".to_string(), "--pool".into()];
        args.extend(dirs.iter().map(|d| arg(d)));
        args.extend(["--out".into(), arg(into)]);
        pjlab(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    assert_usage_error(&pool(&["r1", "r1"], "p"), "seed 1 is pooled twice");
    assert_usage_error(&pool(&["r1", "other"], "p"), "their games differ");
    assert_usage_error(&pool(&["r1", "nowhere"], "p"), "nowhere");
    assert!(!path("p").exists());
    assert_usage_error(&pool(&["r1", "r2"], "r2"), "already holds games");
    // One directory is not a pool.
    let one = pjlab(&["report", "--pool", &arg("r1"), "--out", &arg("p")]);
    assert!(!one.status.success());
    assert!(!path("p").exists());
}
