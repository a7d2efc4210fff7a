//! End-to-end tests of `pjlab match`, `tournament` and `balance`: reports, refusals, resumes and
//! time per move.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

use common::{assert_success, assert_usage_error, build_id, pjlab, stdout};

#[test]
fn match_tournament_and_balance_write_reports_and_refuse_to_overwrite() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("m");
    let out_dir = out_dir.to_str().unwrap();
    let args = [
        "-q",
        "match",
        "--a",
        "alphabeta:depth=1",
        "--b",
        "random",
        "--games",
        "6",
        "--variants",
        "classic,pijersi-24",
        "--out",
        out_dir,
    ];
    let out = pjlab(&args);
    assert_success(&out, &[]);
    let table = stdout(&out);
    assert!(table.contains("| 1 | `alphabeta:depth=1` |"), "{table}");
    for file in [
        "games.parquet",
        "report.md",
        "games.csv",
        "summary.csv",
        "games.txt",
    ] {
        assert!(dir.path().join("m").join(file).exists(), "{file}");
    }
    assert_usage_error(&pjlab(&args), "--resume");
    // Resuming a finished run plays nothing and rewrites the same report.
    let out = pjlab(&["match", "--out", out_dir, "--resume"]);
    assert_success(&out, &[]);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(err.contains("6 games (0 this session"), "{err}");

    let t_dir = dir.path().join("t");
    let out = pjlab(&[
        "-q",
        "tournament",
        "--agents",
        "alphabeta:depth=1,tt=1,greedy,random",
        "--games",
        "2",
        "--out",
        t_dir.to_str().unwrap(),
    ]);
    assert_success(&out, &[]);
    let report = std::fs::read_to_string(t_dir.join("report.md")).unwrap();
    assert!(report.contains("Cross table"), "{report}");
    assert_eq!(stdout(&out).lines().count(), 2 + 3, "{}", stdout(&out));

    for (args, needle) in [
        (
            vec!["match", "--a", "random", "--b", "minimax"],
            "unknown agent",
        ),
        (
            vec![
                "match",
                "--a",
                "random",
                "--b",
                "random",
                "--variants",
                "tiny",
            ],
            "tiny",
        ),
        (
            vec!["match", "--a", "random", "--b", "random", "--games", "0"],
            "positive",
        ),
        (vec!["tournament", "--agents", "random"], "two agents"),
        (
            vec!["balance", "--out", "/nonexistent/x", "--resume"],
            "resume",
        ),
    ] {
        assert_usage_error(&pjlab(&args), needle);
    }
    assert_eq!(pjlab(&["match", "--a", "random"]).status.code(), Some(2));
    // A refused run leaves no directory behind.
    let refused = dir.path().join("refused");
    let refused = refused.to_str().unwrap();
    let args = ["match", "--a", "random", "--b", "minimax", "--out", refused];
    assert_usage_error(&pjlab(&args), "unknown agent");
    assert!(
        !Path::new(refused).exists(),
        "{refused} was made for a refused run"
    );
}

#[test]
fn an_interrupted_balance_run_keeps_its_games_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("b");
    let out_dir = out_dir.to_str().unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_pjlab"))
        .args([
            "-q",
            "balance",
            "--agent",
            "alphabeta:depth=1",
            "--variants",
            "classic,pijersi-24",
            "--games-per-variant",
            "1000",
            "--workers",
            "2",
            "--out",
            out_dir,
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    assert_success(&out, &[]);
    let text = stdout(&out);
    assert!(
        text.contains("interrupted:") && text.contains("--resume"),
        "{text}"
    );
    let report = std::fs::read_to_string(dir.path().join("b/report.md")).unwrap();
    assert!(report.contains("Partial report"), "{report}");

    let out = pjlab(&["-q", "balance", "--out", out_dir, "--resume"]);
    assert_success(&out, &[]);
    assert!(!stdout(&out).contains("interrupted"));
    let csv = std::fs::read_to_string(dir.path().join("b/games.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 2000);
    let report = std::fs::read_to_string(dir.path().join("b/report.md")).unwrap();
    assert!(!report.contains("Partial report"));
    assert!(report.contains("| pijersi-24 | 1000 |"), "{report}");
    // Both invocations are named, with the build they ran.
    let build = build_id();
    let spec = pjlab_arena::record::load_spec(&dir.path().join("b/games.parquet")).unwrap();
    assert_eq!(spec.sessions.len(), 2);
    assert!(spec.sessions[1].command.ends_with("--resume"));
    for session in &spec.sessions {
        assert_eq!(session.build_id(), build);
        assert!(session.cores >= 1 && !session.cpu.is_empty());
    }
    assert!(
        report.contains("| run by |") && report.contains("| resumed by |"),
        "{report}"
    );
}

#[test]
fn a_time_per_move_goes_to_every_agent_and_the_report_counts_overruns() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("m");
    let out_dir = out_dir.to_str().unwrap();
    let out = pjlab(&[
        "-q",
        "match",
        "--game",
        "abalone",
        "--a",
        "alphabeta",
        "--b",
        "mcts:eval=heuristic",
        "--time-per-move",
        "30ms",
        "--games",
        "2",
        "--max-plies",
        "12",
        "--workers",
        "1",
        "--out",
        out_dir,
    ]);
    assert_success(&out, &[]);
    let spec = pjlab_arena::record::load_spec(&dir.path().join("m/games.parquet")).unwrap();
    assert_eq!(spec.time_per_move_ms, Some(30.0));
    let specs: Vec<&str> = spec.players.iter().map(|p| p.spec.as_str()).collect();
    assert_eq!(
        specs,
        ["alphabeta:time=30ms", "mcts:eval=heuristic,time=30ms"]
    );
    let report = std::fs::read_to_string(dir.path().join("m/report.md")).unwrap();
    assert!(
        report.contains("Every agent had 30 ms a move; a move over 35 ms is an overrun."),
        "{report}"
    );
    assert!(report.contains("| overruns |"), "{report}");
    // A spec with a limit of its own is refused.
    assert_usage_error(
        &pjlab(&[
            "match",
            "--a",
            "alphabeta:depth=3",
            "--b",
            "random",
            "--time-per-move",
            "30ms",
            "--out",
            out_dir,
        ]),
        "depth",
    );
}

#[test]
fn resuming_a_run_stopped_before_its_first_save_starts_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m");
    // What a run killed before its first save leaves: its directory, no games.
    std::fs::create_dir_all(&out).unwrap();
    let out = out.to_str().unwrap();
    let bare = pjlab(&["match", "--resume", "--out", out]);
    assert_usage_error(&bare, "holds no games yet");
    let args = [
        "-q", "match", "--resume", "--a", "random", "--b", "greedy", "--games", "4", "--out", out,
    ];
    let started = pjlab(&args);
    assert_success(&started, &args);
    assert!(
        stdout(&started).contains("`greedy`"),
        "{}",
        stdout(&started)
    );
    assert!(dir.path().join("m/games.parquet").exists());
}

#[test]
fn a_second_process_on_a_run_directory_refuses() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m");
    std::fs::create_dir_all(&out).unwrap();
    // This test holds the lock, as a running match would.
    let _held = pjlab_run::dir::RunLock::acquire(&out, "a test").unwrap();
    let out = out.to_str().unwrap();
    for args in [
        vec![
            "match", "--a", "random", "--b", "greedy", "--games", "2", "--out", out,
        ],
        vec![
            "tournament",
            "--agents",
            "random,greedy",
            "--games",
            "2",
            "--out",
            out,
        ],
        vec![
            "chifoumi",
            "tournament",
            "--players",
            "random,greedy",
            "--out",
            out,
        ],
    ] {
        assert_usage_error(&pjlab(&args), "is in use by process");
    }
}

#[test]
fn named_agents_are_labelled_by_their_names_and_built_from_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("named");
    let args = [
        "-q",
        "tournament",
        "--agents",
        "alphabeta:name=ab1,random:name=rnd,greedy",
        "--games",
        "2",
        "--time-per-move",
        "5ms",
        "--out",
        out.to_str().unwrap(),
    ];
    assert_success(&pjlab(&args), &[]);
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    for label in ["`ab1`", "`rnd`", "`greedy`"] {
        assert!(report.contains(label), "{label} in {report}");
    }
    // Each player's row gives its label and the spec it was built from, without the name and
    // with the time per move.
    for row in [
        "| player 1 | `ab1` = `alphabeta:time=5ms` |",
        "| player 2 | `rnd` = `random` |",
    ] {
        assert!(report.contains(row), "{row} in {report}");
    }
    let bad = pjlab(&[
        "match",
        "--a",
        "random:name=",
        "--b",
        "greedy",
        "--out",
        dir.path().join("bad").to_str().unwrap(),
    ]);
    assert_usage_error(&bad, "`name=` needs a name");
}
