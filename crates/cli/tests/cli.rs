//! End-to-end tests of the `pjlab` binary: the exact command forms outside checks call, and
//! bad input giving a one-line error with exit code 2.

mod common;

use std::process::{Command, Stdio};

use common::{assert_usage_error, last_line, pjlab, pjlab_stdin, stdout};

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
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
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
    ] {
        assert!(v[key].as_f64().unwrap_or(0.0) > 0.0, "{key}");
    }
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
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
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
    assert!(
        replay.status.success(),
        "{}",
        String::from_utf8_lossy(&replay.stderr)
    );
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

const TINY_RUN: &str = r#"
game = "pijersi"
iterations = 2
games_per_iteration = 4
[network]
hidden = 16
layers = 1
[selfplay]
simulations = 8
cheap_simulations = 2
games_in_flight = 2
[window]
min_size = 20
[eval]
every = 0
pairs = 1
simulations = 8
depth = 1
"#;

#[test]
fn train_writes_a_run_that_play_and_analyse_can_use() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("tiny.toml");
    std::fs::write(&config, TINY_RUN).unwrap();
    let run = dir.path().join("run");
    let (config, run) = (config.to_str().unwrap(), run.to_str().unwrap());
    let out = pjlab(&["-q", "train", "--config", config, "--out", run]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert!(text.contains("iterations: 2/2"), "{text}");
    assert!(text.contains("score_vs_alphabeta_d1"), "{text}");
    // Extending the run resumes it.
    let out = pjlab(&[
        "-q",
        "train",
        "--config",
        config,
        "--out",
        run,
        "--iterations",
        "3",
    ]);
    assert!(stdout(&out).contains("iterations: 3/3"));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("run/metrics.jsonl"))
            .unwrap()
            .lines()
            .count(),
        3
    );
    let spec = format!("net:checkpoint={run},sims=16");
    let out = pjlab(&["analyse", "--agent", &spec, "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let best = v["best_move"].as_str().unwrap().to_string();
    let p = pjlab_pijersi::Position::default();
    assert!(p.parse_ugi(&best).is_ok(), "{best}");
    // The checkpoint plays a match through the evaluation harness.
    let out_dir = dir.path().join("match");
    let out = pjlab(&[
        "-q",
        "match",
        "--a",
        &spec,
        "--b",
        "random",
        "--games",
        "2",
        "--workers",
        "1",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout(&out).contains("| `random` |"), "{}", stdout(&out));
    // Export: the ONNX file and its card.
    let model = dir.path().join("model.onnx");
    let out = pjlab(&[
        "export",
        "--checkpoint",
        run,
        "--out",
        model.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(std::fs::metadata(&model).unwrap().len() > 1000);
    let card: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("model.json")).unwrap())
            .unwrap();
    assert_eq!(card["actions"].as_array().unwrap().len(), 3748);
    assert_eq!(card["training"]["iteration"], 3);
    assert_eq!(card["encoder"]["name"], "pijersi-planes");
    let out = pjlab(&["export", "--checkpoint", "/nonexistent", "--out", "x.onnx"]);
    assert_usage_error(&out, "checkpoint");
    // The exported file and the checkpoint both drive the UGI engine's MCTS.
    for source in [model.to_str().unwrap(), run] {
        let script = format!(
            "setoption name Engine value mcts\nsetoption name Checkpoint value {source}\n\
             position startpos moves a4b5c4\ngo nodes 16\nquit\n"
        );
        let out = pjlab_stdin(&["ugi"], &script);
        let text = stdout(&out);
        assert!(!text.contains("info error"), "{source}: {text}");
        let best = text
            .lines()
            .last()
            .unwrap()
            .strip_prefix("bestmove ")
            .unwrap();
        let after = pjlab_pijersi::Position::from_psn(
            "s-p-r-s-p-r-/p-r-s-wwr-s-p-/6/7/3SR2/P-S-R-WW1R-P-/R-P-S-1P-S- b 1 1",
        )
        .unwrap();
        assert!(after.is_legal(after.parse_ugi(best).unwrap()), "{best}");
    }
}

#[test]
fn encode_prints_the_network_input_and_the_legal_moves() {
    let out = pjlab(&["encode"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["input"].as_array().unwrap().len(), 721);
    let legal = v["legal"].as_array().unwrap();
    assert_eq!(legal.len(), 186);
    assert!(legal.iter().any(|m| m["move"] == "a4b5c4"));
    assert_usage_error(&pjlab(&["encode", "--psn", "nonsense"]), "");
}

#[test]
fn train_and_net_agents_refuse_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("bad.toml");
    std::fs::write(&config, "[train]\nbatch_sise = 3\n").unwrap();
    let out = pjlab(&["train", "--config", config.to_str().unwrap()]);
    assert_usage_error(&out, "batch_sise");
    let out = pjlab(&["train", "--config", "/nonexistent/x.toml"]);
    assert_usage_error(&out, "x.toml");
    let out = pjlab(&["analyse", "--agent", "net:checkpoint=/nonexistent"]);
    assert_usage_error(&out, "checkpoint");
    let out = pjlab(&["analyse", "--agent", "net:sims=0,checkpoint=x"]);
    assert_usage_error(&out, "sims");
    // An I/O failure names its cause once.
    let out = pjlab(&["train", "--config", "/nonexistent/x.toml"]);
    let text = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(text.matches("No such file").count(), 1, "{text}");
    // An unknown variant lists the known ones once.
    let out = pjlab(&["balance", "--agent", "random", "--variants", "foo"]);
    assert_usage_error(&out, "foo");
    let text = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(text.matches("half-random").count(), 1, "{text}");
    // A run directory in use by another process is refused, and free again once released.
    let run = dir.path().join("run");
    std::fs::create_dir_all(&run).unwrap();
    let lock = pjlab_run::dir::RunLock::acquire(&run, "pjlab train").unwrap();
    std::fs::write(&config, TINY_ABALONE_RUN).unwrap();
    let args = [
        "-q",
        "train",
        "--config",
        config.to_str().unwrap(),
        "--out",
        run.to_str().unwrap(),
    ];
    assert_usage_error(
        &pjlab(&args),
        &format!("in use by process {}", std::process::id()),
    );
    drop(lock);
    let out = pjlab(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

const TINY_ABALONE_RUN: &str = r#"
game = "abalone"
iterations = 1
games_per_iteration = 2
[abalone]
setups = "belgian-daisy:1,doubles:1"
[network]
hidden = 16
layers = 1
[selfplay]
simulations = 8
cheap_simulations = 2
games_in_flight = 2
max_plies = 30
[window]
min_size = 20
[eval]
pairs = 1
simulations = 4
depth = 2
variant = "belgian-daisy"
max_plies = 20
"#;

#[test]
fn abalone_trains_and_its_network_plays_exports_and_encodes() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("abalone.toml");
    std::fs::write(&config, TINY_ABALONE_RUN).unwrap();
    let run = dir.path().join("run");
    let (config, run) = (config.to_str().unwrap(), run.to_str().unwrap());
    let out = pjlab(&["-q", "train", "--config", config, "--out", run]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert!(text.contains("iterations: 1/1"), "{text}");
    assert!(text.contains("score_vs_alphabeta_d2"), "{text}");
    // Provenance: one line per invocation, and in the footers of the Parquet files it wrote.
    let lines = std::fs::read_to_string(format!("{run}/provenance.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), 1);
    let p: pjlab_core::Provenance = serde_json::from_str(lines.trim()).unwrap();
    assert_eq!(p.build_id(), build_id());
    assert!(p.command.contains("train"));
    let footer = pjlab_selfplay::read_metadata(std::path::Path::new(&format!(
        "{run}/games/iter-0001.parquet"
    )))
    .unwrap();
    assert!(
        footer
            .iter()
            .any(|(k, v)| k == "pjlab.provenance" && v.trim() == lines.trim()),
        "{footer:?}"
    );
    // The network plays its own game, and only that.
    let spec = format!("net:checkpoint={run},sims=8");
    let out = pjlab(&["analyse", "--game", "abalone", "--agent", &spec, "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert!(v["best_move"].is_string(), "{v}");
    assert_usage_error(
        &pjlab(&["analyse", "--agent", &spec]),
        "a network for abalone, not pijersi",
    );
    // Export: the card describes Abalone's encoder.
    let model = dir.path().join("abalone.onnx");
    let model = model.to_str().unwrap();
    let out = pjlab(&[
        "export",
        "--game",
        "abalone",
        "--checkpoint",
        run,
        "--out",
        model,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let card: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("abalone.json")).unwrap())
            .unwrap();
    assert_eq!(card["encoder"]["name"], "abalone-planes");
    assert_eq!(card["actions"].as_array().unwrap().len(), 1273);
    assert_eq!(card["input"]["cells"].as_array().unwrap().len(), 61);
    assert_usage_error(
        &pjlab(&["export", "--checkpoint", run, "--out", model]),
        "abalone",
    );
    // Encode: the input and the legal moves of any game's position.
    for (game, input) in [("abalone", 433), ("chomp", 30)] {
        let out = pjlab(&["encode", "--game", game]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
        assert_eq!(v["input"].as_array().unwrap().len(), input, "{game}");
        assert!(!v["legal"].as_array().unwrap().is_empty(), "{game}");
    }
    assert_usage_error(
        &pjlab(&["encode", "--game", "chomp", "--position", "3x4:4,4,4:1"]),
        "chomp-5x6",
    );
    // The UGI engine searches with the network, from the checkpoint and from the exported
    // model, and refuses another game's network.
    let after = "wwwww/wwwwww/2www2/8/9/3b4/2bbb2/bbbbbb/1bbbb w 0 0 1 1";
    let position = pjlab_abalone::Position::from_text(after).unwrap();
    for network in [run, model] {
        let session = format!(
            "setoption name Engine value mcts\nsetoption name Checkpoint value {network}\n\
             position startpos moves a1b2\ngo nodes 16\n"
        );
        let out = pjlab_stdin(&["ugi", "--game", "abalone"], &session);
        let text = stdout(&out);
        assert!(!text.contains("info error"), "{network}: {text}");
        let best = text
            .lines()
            .find_map(|l| l.strip_prefix("bestmove "))
            .unwrap_or_else(|| panic!("{network}: {text}"));
        assert!(position.parse_move(best).is_ok(), "{best} in {after}");
    }
    let session = format!("setoption name Engine value mcts\nsetoption Checkpoint {run}\n");
    let text = stdout(&pjlab_stdin(&["ugi"], &session));
    assert!(
        text.contains("info error") && text.contains("abalone"),
        "{text}"
    );
    // A network agent with a time per move.
    let spec = format!("net:checkpoint={run},time=50ms");
    let out = pjlab(&["analyse", "--game", "abalone", "--agent", &spec, "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

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
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
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
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
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
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
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
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert!(
        text.contains("interrupted:") && text.contains("--resume"),
        "{text}"
    );
    let report = std::fs::read_to_string(dir.path().join("b/report.md")).unwrap();
    assert!(report.contains("Partial report"), "{report}");

    let out = pjlab(&["-q", "balance", "--out", out_dir, "--resume"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
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

/// The checkout's commit as the build names it (`<commit>-dirty` with uncommitted changes to
/// tracked files), asked of git itself; `unknown` outside a git checkout.
fn build_id() -> String {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match git(&["rev-parse", "--short=12", "HEAD"]) {
        None => "unknown".into(),
        Some(commit) => {
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            if dirty {
                format!("{commit}-dirty")
            } else {
                commit
            }
        }
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
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
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
