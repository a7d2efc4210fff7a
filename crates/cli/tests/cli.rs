//! End-to-end tests of the `pjlab` binary: the exact command forms outside checks call, and
//! bad input giving a one-line error with exit code 2.

mod common;

use common::{assert_success, assert_usage_error, build_id, last_line, pjlab, pjlab_stdin, stdout};

const START: &str = "s-p-r-s-p-r-/p-r-s-wwr-s-p-/6/7/6/P-S-R-WWS-R-P-/R-P-S-R-P-S- w 0 1";

#[test]
fn perft_prints_the_count_last() {
    let out = pjlab(&["perft", "--psn", START, "--depth", "2"]);
    assert!(out.status.success());
    assert_eq!(last_line(&out), "34054");

    let out = pjlab(&["perft", "--psn", START, "--depth", "2", "--divide"]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 187);
    assert!(lines.contains(&"b1c1: 186"));
    let sum: u64 = lines[..186]
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum.to_string(), lines[186]);

    let out = pjlab(&[
        "perft",
        "--psn",
        "6/2WR4/6/p-5s-/6/7/6 w 0 1",
        "--depth",
        "2",
        "--pass-through",
    ]);
    assert_eq!(last_line(&out), "289");
}

#[test]
fn setup_prints_psn_and_lists_small_variants() {
    let out = pjlab(&["setup", "--variant", "classic", "--seed", "3"]);
    assert_eq!(stdout(&out).trim(), START);
    let a = pjlab(&["setup", "--variant", "half-random", "--seed", "9"]);
    let b = pjlab(&["setup", "--variant", "half-random", "--seed", "9"]);
    assert_eq!(stdout(&a), stdout(&b));
    let all = pjlab(&["setup", "--variant", "pijersi-36", "--all"]);
    let lines: Vec<String> = stdout(&all).lines().map(String::from).collect();
    assert_eq!(lines.len(), 36);
    assert!(lines.iter().any(|l| l == START));
    let all = pjlab(&["setup", "--variant", "pijersi-24", "--all"]);
    assert_eq!(stdout(&all).lines().count(), 24);
    assert!(!stdout(&all).contains(START));
}

#[test]
fn replay_reads_files_and_stdin() {
    let game = "g16:sprspr f13:prs f4:ww f57:rsp\nb13:PSR b4:WW b57:SRP a16:RPSRPS\n\n\
        1 a4-b5=c4 2 f4=d5-d4\n3 a1-b2=c2 4 f1-f2=d3\n";
    let out = pjlab_stdin(&["replay", "-"], game);
    assert_success(&out, &[]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[lines.len() - 1], "ongoing");
    let mut position = pjlab_pijersi::Position::default();
    for m in ["a4b5c4", "f4d5d4", "a1b2c2", "f1f2d3"] {
        position.play(position.parse_ugi(m).unwrap()).unwrap();
    }
    assert_eq!(lines[lines.len() - 2], position.to_string());

    let dir = std::env::temp_dir().join(format!("pjlab-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("win.txt");
    // A prologue for that board, and White's winning stack move.
    std::fs::write(&file, "g1:p g3:p e3:RW\n1 e3=g2\n").unwrap();
    let out = pjlab(&["replay", file.to_str().unwrap()]);
    assert_eq!(last_line(&out), "white");
}

#[test]
fn bad_input_is_a_one_line_error_with_exit_code_2() {
    assert_usage_error(
        &pjlab(&["perft", "--psn", "not a psn", "--depth", "1"]),
        "invalid psn",
    );
    assert_usage_error(
        &pjlab(&[
            "perft",
            "--psn",
            "s-p-r-s-p-r-/p-r-s-wwr-s-p-/6/7/6/P-S-R-WWS-R-P-/R-P-S-R-P-S-X w 0 1",
            "--depth",
            "1",
        ]),
        "row a",
    );
    assert_usage_error(
        &pjlab(&["setup", "--variant", "pijersi-25"]),
        "unknown variant",
    );
    assert_usage_error(
        &pjlab(&["setup", "--variant", "half-random", "--all"]),
        "enumerable",
    );
    assert_usage_error(
        &pjlab_stdin(&["replay", "-"], "1 a4-b5=c4\n2 a1-a2\n"),
        "line 2",
    );
    assert_usage_error(&pjlab_stdin(&["replay", "-"], "b56:RPS\n"), "b56:RPS");
    assert_usage_error(&pjlab(&["replay", "/nonexistent/game.txt"]), "cannot read");
    assert_eq!(pjlab(&["perft", "--depth", "x"]).status.code(), Some(2));
    assert_eq!(pjlab(&["frobnicate"]).status.code(), Some(2));
}

#[test]
fn demo_plays_a_whole_game() {
    let out = pjlab(&["demo", "--variant", "pijersi-36", "--seed", "5"]);
    assert!(out.status.success());
    let result = last_line(&out);
    assert!(
        ["white", "black", "draw"].contains(&result.as_str()),
        "{result}"
    );
}

#[test]
fn bench_prints_json_figures() {
    let out = pjlab(&[
        "bench",
        "--json",
        "--no-perft",
        "--no-chomp",
        "--repeat",
        "1",
        "--budget-moves",
        "4",
        "--budget-ms",
        "10",
    ]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["move_bytes"], 4.0);
    for key in [
        "movegen_moves_per_second",
        "mcts_uniform_sims_per_second",
        "alphabeta_nodes_per_second",
        "alphabeta_depth4_nodes",
        "net_batch1_positions_per_second",
        "net_batch128_positions_per_second",
        "selfplay64_games_per_hour",
        "train_samples_per_second",
        "abalone_movegen_moves_per_second",
        "abalone_play_moves_per_second",
        "budget_alphabeta_mean_ms",
        "budget_mcts_max_ms",
        "budget_net_p99_ms",
        "chifoumi_random_steps_per_second",
        "net_avx2_batch32_positions_per_second",
        "net_scalar_batch32_positions_per_second",
        "net_mcts800_sims_per_second",
        "net_mcts800_hybrid_sims_per_second",
        "net_mcts800_moves_signature",
    ] {
        assert!(v[key].as_f64().unwrap_or(0.0) > 0.0, "{key}");
    }
    // The packed network's instruction set is named, with its lanes.
    let kernel = v["net_kernel"].as_str().unwrap_or_default();
    assert!(kernel.ends_with(" x f32"), "net_kernel: {kernel:?}");
    // Over-budget moves are counted (how many depends on the machine's load) and the margin is
    // the arena's: 10 ms a move has the 5 ms floor.
    assert!(v["budget_net_overruns"].as_f64().is_some_and(|n| n <= 4.0));
    assert_eq!(v["budget_margin_ms"], 5.0);
    // Abalone perft(4) signatures: the spec's reference counts.
    assert_eq!(v["abalone_perft4_standard_leaves"], 5_045_110.0);
    assert_eq!(v["abalone_perft4_belgian_leaves"], 8_270_666.0);
    assert_eq!(v["abalone_perft4_german_leaves"], 38_240_570.0);
}

#[test]
fn chomp_solve_prints_json() {
    let out = pjlab(&["chomp", "solve", "9x10", "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["rows"], 9);
    assert_eq!(v["cols"], 10);
    assert_eq!(v["positions"], 92378);
    // The reference table (../shared/vectors/chomp/rect_table.md): two winning moves.
    assert_eq!(v["winning_moves"], serde_json::json!([[7, 8], [9, 5]]));
    assert_usage_error(&pjlab(&["chomp", "solve", "17x3"]), "outside");
    assert_usage_error(&pjlab(&["chomp", "solve", "3by4"]), "not <rows>x<cols>");
}

#[test]
fn play_prints_a_replayable_game_and_its_result() {
    let out = pjlab(&[
        "play",
        "--white",
        "alphabeta:depth=2",
        "--black",
        "greedy",
        "--variant",
        "half-random",
        "--seed",
        "4",
    ]);
    assert_success(&out, &[]);
    let text = stdout(&out);
    let result = last_line(&out);
    assert!(
        ["white", "black", "draw"].contains(&result.as_str()),
        "{text}"
    );
    // The printed game (prologue and turns, without the header, PSN and result lines) replays
    // to the same result with our own rules.
    let lines: Vec<&str> = text.lines().collect();
    let body_start = lines.iter().position(|l| l.is_empty()).expect("blank line") + 1;
    let game = lines[body_start..lines.len() - 2].join("\n");
    let replay = pjlab_stdin(&["replay", "-"], &game);
    assert_success(&replay, &[]);
    assert!(
        stdout(&replay).contains(lines[lines.len() - 2]),
        "same final position"
    );
}

#[test]
fn analyse_finds_the_winning_move_and_prints_json() {
    for agent in ["alphabeta:depth=3", "mcts:sims=300,eval=uniform"] {
        let out = pjlab(&[
            "analyse",
            "--psn",
            "6/R-6/6/r-6/6/7/6 w 0 1",
            "--agent",
            agent,
            "--json",
        ]);
        assert!(out.status.success(), "{agent}");
        let value: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
        assert_eq!(value["best_move"], "f1g1", "{agent}");
        assert_eq!(value["score_kind"], "mate_plies", "{agent}");
        assert_eq!(value["score"], 1, "{agent}");
    }
}

#[test]
fn bad_agents_are_usage_errors() {
    for (args, needle) in [
        (
            vec!["play", "--white", "minimax", "--black", "random"],
            "unknown agent",
        ),
        (
            vec!["play", "--white", "random", "--black", "alphabeta:depth=0"],
            "depth",
        ),
        (
            vec!["play", "--white", "random", "--black", "mcts:sims=ten"],
            "sims",
        ),
        (
            vec![
                "play",
                "--white",
                "alphabeta:colour=red",
                "--black",
                "random",
            ],
            "no option",
        ),
        (
            vec!["analyse", "--agent", "alphabeta:time=soon"],
            "duration",
        ),
        (vec!["analyse", "--psn", "not a psn"], "psn"),
    ] {
        assert_usage_error(&pjlab(&args), needle);
    }
}

#[test]
fn version_names_the_commit() {
    let out = pjlab(&["--version"]);
    let text = stdout(&out);
    assert!(
        text.contains(&format!("(commit {}, release)", build_id()))
            || text.contains(&format!("(commit {}, debug)", build_id())),
        "{text}"
    );
}
