//! `--shard K/N` and `pjlab report --merge`: a run played in shards and merged gives the report
//! of the same run played in one piece, and bad shards or merges are refused.
//!
//! The unsharded run and every shard run from directories of their own with the same relative
//! `--out`, so that their command lines differ only in `--shard` (which the merge drops): the
//! report's `Command:` line is then compared like the rest.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{assert_success, assert_usage_error, pjlab, pjlab_in};

/// `args` with `--shard k/n` after them.
fn with_shard(args: &[&str], k: u32, n: u32) -> Vec<String> {
    let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    args.extend(["--shard".into(), format!("{k}/{n}")]);
    args
}

/// Plays `args` (whose `--out` is `run`) unsharded in `root/whole` and as `n` shards in
/// `root/s1`, ... `root/sn`, merges the shards into `root/merged`; returns the directories of the
/// unsharded run and of the merge.
fn play_both_ways(root: &Path, args: &[&str], n: u32) -> (std::path::PathBuf, std::path::PathBuf) {
    let whole = root.join("whole");
    pjlab_in(&whole, args);
    let mut merge = vec!["report".to_string(), "--merge".into()];
    for k in 1..=n {
        let cwd = root.join(format!("s{k}"));
        let args = with_shard(args, k, n);
        pjlab_in(&cwd, &args.iter().map(String::as_str).collect::<Vec<_>>());
        let report = std::fs::read_to_string(cwd.join("run/report.md")).unwrap();
        assert!(report.contains(&format!("| shard | {k}/{n}: ")), "{report}");
        merge.push(cwd.join("run").display().to_string());
    }
    let merged = root.join("merged");
    merge.extend(["--out".into(), merged.display().to_string()]);
    pjlab_in(root, &merge.iter().map(String::as_str).collect::<Vec<_>>());
    (whole.join("run"), merged)
}

/// The report files of a run directory as text, by path: everything but the games file, less
/// what two runs of the same games cannot share. Those are, in `report.md`, the lines naming the
/// invocations (`| run by` and `| resumed by`: machine, start time and command line of each)
/// and the "Time per move" section (wall-clock times), and in `games.csv` the last two columns
/// (each side's mean time a move).
fn report_files(dir: &Path) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    for sub in ["", "plots"] {
        for entry in std::fs::read_dir(dir.join(sub)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.strip_prefix(dir).unwrap().display().to_string();
            // The games file is binary, and the run lock (held while a run plays) no report.
            if path.is_dir() || name == "games.parquet" || name == pjlab_run::dir::LOCK_FILE {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let text = match name.as_str() {
                "report.md" => without_invocations_and_times(&text),
                "games.csv" => text
                    .lines()
                    .map(|l| l.rsplitn(3, ',').nth(2).unwrap_or(l).to_string() + "\n")
                    .collect(),
                _ => text,
            };
            files.insert(name, text);
        }
    }
    files
}

fn without_invocations_and_times(report: &str) -> String {
    let mut kept = String::new();
    let mut in_times = false;
    for line in report.lines() {
        if line.starts_with("## ") {
            in_times = line == "## Time per move";
        }
        if !in_times && !line.starts_with("| run by") && !line.starts_with("| resumed by") {
            kept.push_str(line);
            kept.push('\n');
        }
    }
    kept
}

/// The merged run's report equals the unsharded run's, file by file.
fn assert_same_reports(whole: &Path, merged: &Path, expected: &[&str]) {
    let (a, b) = (report_files(whole), report_files(merged));
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for name in expected {
        assert!(a.contains_key(*name), "{name} missing");
    }
    for (name, text) in &a {
        assert_eq!(text, &b[name], "{name} differs");
    }
}

#[test]
fn a_balance_run_in_three_shards_merges_into_the_unsharded_report() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "-q",
        "balance",
        "--agent",
        "alphabeta:depth=1",
        "--variants",
        "classic,pijersi-24",
        "--games-per-variant",
        "15",
        "--max-plies",
        "200",
        "--workers",
        "1",
        "--out",
        "run",
    ];
    let (whole, merged) = play_both_ways(dir.path(), &args, 3);
    assert_same_reports(
        &whole,
        &merged,
        &["report.md", "games.csv", "summary.csv", "games.txt"],
    );
    let report = std::fs::read_to_string(merged.join("report.md")).unwrap();
    assert!(report.contains("| games | 30 played of 30;"), "{report}");
    // The invocations are every shard's, in shard order.
    let spec = pjlab_arena::record::load_spec(&merged.join("games.parquet")).unwrap();
    let unsharded = pjlab_arena::record::load_spec(&whole.join("games.parquet")).unwrap();
    let commands: Vec<&str> = spec.sessions.iter().map(|s| s.command.as_str()).collect();
    assert_eq!(commands.len(), 3);
    for (k, command) in commands.iter().enumerate() {
        assert!(
            command.ends_with(&format!("--shard {}/3", k + 1)),
            "{command}"
        );
    }
    assert_eq!(spec.shard, None);
    assert_eq!(spec.command, unsharded.command);

    // The merged directory is a finished run: its report writes again the same, and a resume
    // plays nothing.
    let again = dir.path().join("again");
    pjlab_in(
        dir.path(),
        &[
            "report",
            merged.to_str().unwrap(),
            "--out",
            again.to_str().unwrap(),
        ],
    );
    let read = |d: &Path| std::fs::read_to_string(d.join("report.md")).unwrap();
    assert_eq!(read(&merged), read(&again));
    let merged = merged.to_str().unwrap();
    let out = pjlab_in(dir.path(), &["balance", "--out", merged, "--resume"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("30 games (0 this session"), "{err}");
}

#[test]
fn a_match_in_two_shards_merges_into_the_unsharded_report() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "-q",
        "match",
        "--a",
        "alphabeta:depth=1",
        "--b",
        "greedy",
        "--games",
        "10",
        "--variants",
        "classic,half-random",
        "--max-plies",
        "200",
        "--workers",
        "1",
        "--out",
        "run",
    ];
    let (whole, merged) = play_both_ways(dir.path(), &args, 2);
    assert_same_reports(
        &whole,
        &merged,
        &["report.md", "games.csv", "summary.csv", "games.txt"],
    );
}

#[test]
fn bad_shards_and_merges_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = |name: &str| dir.path().join(name).display().to_string();
    let run = |shard: &str, out: &str| {
        pjlab(&[
            "-q",
            "match",
            "--a",
            "random",
            "--b",
            "random",
            "--games",
            "6",
            "--max-plies",
            "20",
            "--workers",
            "1",
            "--shard",
            shard,
            "--out",
            out,
        ])
    };
    for bad in ["0/3", "4/3", "x", "1/0"] {
        assert_usage_error(&run(bad, &out("bad")), "invalid shard");
    }
    assert!(!dir.path().join("bad").exists());
    // 6 games are 3 colour pairs, at most 3 shards.
    assert_usage_error(&run("1/4", &out("bad")), "at most 3 shards");
    let sprt = pjlab(&[
        "match",
        "--a",
        "random",
        "--b",
        "random",
        "--sprt-elo",
        "10",
        "--shard",
        "1/2",
        "--out",
        &out("bad"),
    ]);
    assert_usage_error(&sprt, "--sprt-elo");

    for k in 1..=3 {
        let shard = format!("{k}/3");
        let done = run(&shard, &out(&format!("s{k}")));
        assert_success(&done, &["match", "--shard", &shard]);
    }
    // A resume keeps the run's shard; another is refused.
    let resume = pjlab(&["match", "--out", &out("s1"), "--resume", "--shard", "2/3"]);
    assert_usage_error(&resume, "holds shard 1/3, not shard 2/3");
    let merge = |dirs: &[&str], into: &str| {
        let mut args = vec!["report".to_string(), "--merge".into()];
        args.extend(dirs.iter().map(|d| out(d)));
        args.extend(["--out".into(), out(into)]);
        pjlab(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    assert_usage_error(&merge(&["s1", "s3"], "m"), "shard 2/3 missing");
    assert_usage_error(
        &merge(&["s1", "s2", "s1", "s3"], "m"),
        "shard 1/3 is given twice",
    );
    assert_usage_error(&merge(&["s1", "s2", "nowhere"], "m"), "nowhere");
    assert!(!dir.path().join("m").exists());
    let merged = merge(&["s3", "s1", "s2"], "m");
    assert_success(&merged, &["report", "--merge", "s3", "s1", "s2"]);
    // A merged run is not a shard, and a merge does not overwrite games.
    assert_usage_error(&merge(&["s1", "s2", "m"], "m2"), "is not a shard");
    assert_usage_error(&merge(&["s1", "s2", "s3"], "s1"), "already holds games");
}
