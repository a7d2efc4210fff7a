//! End-to-end tests of `pjlab train` and of what uses its runs (network players, `encode`,
//! `export`), with bad input giving a one-line error with exit code 2.

mod common;

use std::path::Path;

use common::{assert_success, assert_usage_error, build_id, pjlab, pjlab_stdin, stdout};

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
    assert_success(&out, &[]);
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
    assert_success(&out, &[]);
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
    assert_success(&out, &[]);
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
    assert_success(&out, &[]);
    assert!(std::fs::metadata(&model).unwrap().len() > 1000);
    let card: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("model.json")).unwrap())
            .unwrap();
    assert_eq!(card["actions"].as_array().unwrap().len(), 3748);
    assert_eq!(card["training"]["iteration"], 3);
    assert_eq!(card["encoder"]["name"], "pijersi-planes");
    // A checkpoint kept as its weights and model file alone (a carried run's older ones)
    // exports the same graph, its card saying the training state is not there.
    let latest = std::fs::read_to_string(Path::new(run).join("checkpoints/latest")).unwrap();
    let bare = dir.path().join("bare");
    std::fs::create_dir_all(&bare).unwrap();
    for file in ["model.bpk", "network.json"] {
        let from = Path::new(run)
            .join("checkpoints")
            .join(latest.trim())
            .join(file);
        std::fs::copy(from, bare.join(file)).unwrap();
    }
    let bare_model = dir.path().join("bare.onnx");
    let out = pjlab(&[
        "export",
        "--checkpoint",
        bare.to_str().unwrap(),
        "--out",
        bare_model.to_str().unwrap(),
    ]);
    assert_success(&out, &[]);
    assert_eq!(
        std::fs::read(&bare_model).unwrap(),
        std::fs::read(&model).unwrap()
    );
    let bare_card: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("bare.json")).unwrap())
            .unwrap();
    assert_eq!(bare_card["actions"], card["actions"]);
    assert!(
        bare_card["training"]["note"]
            .as_str()
            .unwrap()
            .contains("state.json")
    );
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
    assert_success(&out, &[]);
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
    assert_success(&out, &[]);
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
    assert_success(&out, &[]);
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
    assert_success(&out, &[]);
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
    assert_success(&out, &[]);
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
        assert_success(&out, &[]);
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
    assert_success(&out, &[]);
}

/// A run started the way a shell starts a background job (SIGINT ignored) still stops on
/// Ctrl-C after the iteration in progress, keeps its checkpoint and resumes from it.
#[test]
fn train_stops_on_ctrl_c_even_as_a_background_job() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().expect("a temporary folder");
    let config = dir.path().join("tiny.toml");
    std::fs::write(
        &config,
        TINY_RUN.replace("iterations = 2", "iterations = 100000"),
    )
    .unwrap();
    let out = dir.path().join("run");
    // `sh` ignores SIGINT and the `exec`ed pjlab inherits that, as `nohup pjlab ... &` does.
    let mut child = Command::new("sh")
        .args([
            "-c",
            "trap '' INT; exec \"$0\" \"$@\"",
            env!("CARGO_BIN_EXE_pjlab"),
        ])
        .args(["-q", "train", "--config", config.to_str().unwrap()])
        .args(["--out", out.to_str().unwrap()])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs pjlab");
    let metrics = out.join("metrics.jsonl");
    let started = Instant::now();
    while std::fs::read_to_string(&metrics).map_or(0, |t| t.lines().count()) < 2 {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no iteration finished"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("runs kill");
    assert!(kill.success());
    // Bounded: a run that ignores the signal would train on for hours.
    let asked = Instant::now();
    while child.try_wait().expect("a status").is_none() {
        if asked.elapsed() > Duration::from_secs(120) {
            child.kill().ok();
            panic!("pjlab train went on after SIGINT");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let done = child.wait_with_output().expect("pjlab ends");
    assert_success(&done, &["train (interrupted)"]);
    let text = stdout(&done);
    let line = text
        .lines()
        .find(|l| l.starts_with("iterations: "))
        .expect(&text);
    let (did, all) = line["iterations: ".len()..].split_once('/').expect(line);
    let did: u32 = did.parse().unwrap();
    assert!(did >= 2 && all == "100000", "{line}");
    assert_eq!(
        std::fs::read_to_string(&metrics).unwrap().lines().count(),
        did as usize
    );
    // It resumes from there.
    let next = (did + 1).to_string();
    let again = pjlab(&[
        "-q",
        "train",
        "--out",
        out.to_str().unwrap(),
        "--iterations",
        &next,
    ]);
    assert_success(&again, &["train (resumed)"]);
    assert!(stdout(&again).contains(&format!("iterations: {next}/{next}")));
}
