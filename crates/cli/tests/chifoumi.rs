//! `pjlab chifoumi`: runs that write their records and report, refuse to overwrite, keep their
//! matches on Ctrl-C; a game drawn as HTML; bad input as one `error:` line with exit code 2.

mod common;

use std::process::{Command, Stdio};

use common::{assert_success, assert_usage_error, pjlab, stdout};
use pjlab_chifoumi_eval::record::Records;

#[test]
fn bad_input_is_a_one_line_error_with_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let out = out.to_str().unwrap();
    assert_usage_error(
        &pjlab(&[
            "chifoumi", "match", "--a", "random", "--b", "bogus", "--out", out,
        ]),
        "unknown player",
    );
    assert!(
        !dir.path().join("run").exists(),
        "nothing written for a bad run"
    );
    let map = dir.path().join("broken.map");
    std::fs::write(&map, "..#\n.x.\n").unwrap();
    assert_usage_error(
        &pjlab(&[
            "chifoumi",
            "tournament",
            "--players",
            "random,greedy",
            "--map",
            map.to_str().unwrap(),
            "--out",
            out,
        ]),
        "line 2, column 2",
    );
    assert_usage_error(
        &pjlab(&[
            "chifoumi", "match", "--a", "random", "--b", "greedy", "--radius", "9", "--out", out,
        ]),
        "radius",
    );
    assert_usage_error(
        &pjlab(&[
            "chifoumi",
            "match",
            "--a",
            "focused:Q",
            "--b",
            "greedy",
            "--out",
            out,
        ]),
        "F, P or C",
    );
    assert_usage_error(
        &pjlab(&["chifoumi", "match", "--a", "random", "--out", out]),
        "--b",
    );
    assert_usage_error(
        &pjlab(&["chifoumi", "arena", "--players", "random", "--out", out]),
        "2 to 8",
    );
    assert_usage_error(
        &pjlab(&["chifoumi", "match", "--out", out, "--resume"]),
        "cannot resume",
    );
    let not_a_run = dir.path().to_str().unwrap();
    assert_usage_error(
        &pjlab(&["chifoumi", "show", "--from", not_a_run, "--out", out]),
        "no matches.parquet",
    );
}

#[test]
fn a_tournament_writes_its_report_refuses_to_overwrite_and_shows_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let out = out.to_str().unwrap();
    let args = [
        "chifoumi",
        "tournament",
        "--players",
        "random,greedy,avoider",
        "--matches",
        "4",
        "--games",
        "3",
        "--out",
        out,
    ];
    let run = pjlab(&args);
    assert_success(&run, &[]);
    assert!(stdout(&run).contains("| avoider | 8 |"), "{}", stdout(&run));
    let records = Records::read(dir.path().join("t").as_path()).unwrap();
    assert_eq!(records.matches.len(), 3 * 4);
    assert!(records.matches.iter().all(|m| m.result.games.len() == 3));
    assert!(dir.path().join("t/scores.svg").exists());
    let report = std::fs::read_to_string(dir.path().join("t/report.md")).unwrap();
    assert!(report.contains("## Cross table") && report.contains("session 1: pjlab"));
    assert_usage_error(&pjlab(&args), "already holds a run");
    let html = dir.path().join("g.html");
    let shown = pjlab(&[
        "chifoumi",
        "show",
        "--from",
        out,
        "--match-id",
        "5",
        "--game",
        "1",
        "--out",
        html.to_str().unwrap(),
    ]);
    assert_success(&shown, &[]);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("game 1") && page.contains("<svg"));
}

#[test]
fn players_with_options_are_split_between_specs_not_inside_them() {
    let dir = tempfile::tempdir().unwrap();
    for (command, count) in [("tournament", "--matches"), ("arena", "--arenas")] {
        let out = dir.path().join(command);
        let run = pjlab(
            &[
                "chifoumi",
                command,
                "--players",
                "ismcts:sims=20,c=0.7,greedy",
                "--players",
                "random",
                count,
                "2",
                "--games",
                "1",
                "--turns",
                "40",
                "--out",
                out.to_str().unwrap(),
            ]
            .into_iter()
            .filter(|a| command == "arena" || !["--turns", "40"].contains(a))
            .collect::<Vec<_>>(),
        );
        assert_success(&run, &[command]);
        let report = std::fs::read_to_string(out.join("report.md")).unwrap();
        for player in ["ismcts:sims=20,c=0.7", "greedy", "random"] {
            assert!(report.contains(player), "{command}: {player} in\n{report}");
        }
        assert!(
            !report.contains("| c=0.7"),
            "{command}: an option taken for a player"
        );
    }
}

#[test]
fn ctrl_c_keeps_the_finished_matches() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m");
    let child = Command::new(env!("CARGO_BIN_EXE_pjlab"))
        .args([
            "chifoumi",
            "match",
            "--a",
            "observer",
            "--b",
            "counter",
            "--matches",
            "200000",
        ])
        .args(["--workers", "1", "--out", out.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The handler is installed before the first records are written: wait for them.
    let started = std::time::Instant::now();
    while !out.join("matches.parquet").exists() {
        assert!(started.elapsed().as_secs() < 60, "no records after 60 s");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let done = child.wait_with_output().unwrap();
    assert_success(&done, &[]);
    let text = stdout(&done);
    assert!(
        text.contains("interrupted:") && text.contains("--resume"),
        "{text}"
    );
    let records = Records::read(&out).unwrap();
    assert!(!records.matches.is_empty() && records.matches.len() < 200_000);
    assert!(
        text.contains(&format!("interrupted: {} of 200000", records.matches.len())),
        "{text}"
    );
}

#[test]
fn a_trained_player_resumes_and_plays_as_net() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("c.toml");
    std::fs::write(
        &config,
        "iterations = 3\nmatches_per_iteration = 4\ngames_per_match = 2\neval_every = 0\n",
    )
    .unwrap();
    let run = dir.path().join("run");
    let (config, run) = (config.to_str().unwrap(), run.to_str().unwrap());
    let first = pjlab(&[
        "-q",
        "chifoumi",
        "train",
        "--config",
        config,
        "--out",
        run,
        "--iterations",
        "2",
    ]);
    assert_success(&first, &[]);
    assert!(
        stdout(&first).trim().ends_with("iter-0002"),
        "{}",
        stdout(&first)
    );
    let again = pjlab(&["-q", "chifoumi", "train", "--out", run]);
    assert_success(&again, &[]);
    assert!(stdout(&again).trim().ends_with("iter-0003"));
    let provenance = std::fs::read_to_string(dir.path().join("run/provenance.jsonl")).unwrap();
    assert_eq!(provenance.lines().count(), 2, "one line per invocation");
    let spec = format!("net:checkpoint={run},temp=0.5");
    let out = dir.path().join("m");
    let played = pjlab(&[
        "chifoumi",
        "match",
        "--a",
        &spec,
        "--b",
        "random",
        "--matches",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_success(&played, &[]);
    assert!(
        stdout(&played).contains(&format!("| {spec} | 2 |")),
        "{}",
        stdout(&played)
    );
    let missing = format!("net:checkpoint={}", dir.path().join("nothing").display());
    assert_usage_error(
        &pjlab(&[
            "chifoumi",
            "match",
            "--a",
            &missing,
            "--b",
            "random",
            "--out",
            dir.path().join("x").to_str().unwrap(),
        ]),
        "neither a checkpoint",
    );
    assert_usage_error(
        &pjlab(&[
            "chifoumi",
            "match",
            "--a",
            "net:temp=1",
            "--b",
            "random",
            "--out",
            dir.path().join("x").to_str().unwrap(),
        ]),
        "checkpoint=DIR",
    );
}

#[test]
fn exploit_writes_a_report_ending_with_the_worst_line_that_report_writes_again() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("exploit");
    let o = out.to_str().unwrap();
    let small = [
        "--scripted-matches",
        "2",
        "--br-iterations",
        "1",
        "--br-matches",
        "2",
        "--ismcts-sims",
        "3",
        "--ismcts-matches",
        "2",
        "--workers",
        "1",
    ];
    let mut args = vec![
        "-q", "chifoumi", "exploit", "--player", "avoider", "--out", o,
    ];
    args.extend(small);
    let first = pjlab(&args);
    assert_success(&first, &args);
    let last = stdout(&first);
    assert!(last.starts_with("worst: "), "{last}");
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert_eq!(report.lines().last(), last.lines().next());
    // Finished: resuming plays nothing and keeps the figures.
    let resume = ["-q", "chifoumi", "exploit", "--out", o];
    assert_success(&pjlab(&resume), &resume);
    let again = std::fs::read_to_string(out.join("report.md")).unwrap();
    let table = |t: &str| {
        t.lines()
            .filter(|l| l.starts_with('|'))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(table(&again), table(&report));
    // Another player in the same directory is refused.
    let mut other = vec!["chifoumi", "exploit", "--player", "lurker", "--out", o];
    other.extend(small);
    assert!(!pjlab(&other).status.success());
    // `pjlab report` writes it again from the files alone.
    let rewritten = tmp.path().join("rewritten");
    let report_args = ["report", o, "--out", rewritten.to_str().unwrap()];
    assert_success(&pjlab(&report_args), &report_args);
    assert_eq!(
        std::fs::read_to_string(rewritten.join("report.md")).unwrap(),
        again
    );
}
