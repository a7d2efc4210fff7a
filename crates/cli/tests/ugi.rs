//! Conformance of `pjlab ugi`: a scripted session over pipes, bad lines included, and whole
//! matches played through the lab's own UGI client.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use common::assert_success;
use pjlab_core::Game;
use pjlab_pijersi::Position;

const PJLAB: &str = env!("CARGO_BIN_EXE_pjlab");
const START: &str = "s-p-r-s-p-r-/p-r-s-wwr-s-p-/6/7/6/P-S-R-WWS-R-P-/R-P-S-R-P-S- w 0 1";
const AFTER_A4B5C4: &str = "s-p-r-s-p-r-/p-r-s-wwr-s-p-/6/7/3SR2/P-S-R-WW1R-P-/R-P-S-1P-S- b 1 1";

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(PJLAB)
            .arg("ugi")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("starts pjlab ugi");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix` (10 s at most).
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(10))
                .unwrap_or_else(|_| panic!("no `{prefix}` line; got {seen:?}"));
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    /// `query` answers `response <x>`: returns x.
    fn query(&mut self, what: &str) -> String {
        self.send(&format!("query {what}"));
        let last = self.until("response").pop().unwrap();
        last.strip_prefix("response ").unwrap().to_string()
    }
}

#[test]
fn a_scripted_session_with_bad_lines() {
    let mut e = Engine::start();
    e.send("ugi");
    let hello = e.until("ugiok");
    assert!(hello[0].starts_with("id name pjlab"), "{hello:?}");
    assert!(hello.iter().any(|l| l == "id author pjlab"));
    assert!(
        hello
            .iter()
            .any(|l| l.starts_with("option name Engine type combo"))
    );
    e.send("isready");
    e.until("readyok");
    e.send("uginewgame");
    assert_eq!(e.query("fen"), START);
    assert_eq!(e.query("p1turn"), "true");
    assert_eq!(e.query("gameover"), "false");
    assert_eq!(e.query("result"), "none");
    assert_eq!(e.query("islegal a4b5c4"), "true");
    assert_eq!(e.query("islegal a4a4"), "false");

    e.send("position startpos moves a4b5c4");
    assert_eq!(e.query("fen"), AFTER_A4B5C4);
    assert_eq!(e.query("p1turn"), "false");
    // Bad lines answer `info error` and leave the state as it was.
    for bad in [
        "position startpos moves a4b5c4 a1a1",
        "position fen not-a-psn w 0 1",
        "position sideways",
        "frobnicate",
        "go depth zero",
        "go sideways 3",
        "query colour",
        "setoption name Colour value red",
        "setoption name Hash value 0",
        "setoption Hash",
    ] {
        e.send(bad);
        let answer = e.until("info error");
        assert_eq!(answer.len(), 1, "{bad}: {answer:?}");
    }
    assert_eq!(e.query("fen"), AFTER_A4B5C4);

    // A search: info lines, then a legal bestmove; both setoption forms.
    e.send("setoption name Hash value 8");
    e.send("setoption Hash 4");
    e.send(&format!("position fen {START}"));
    e.send("go depth 3");
    let lines = e.until("bestmove");
    let info: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(info.len(), 3, "{lines:?}");
    for field in [" score cp ", " nodes ", " nps ", " time ", " pv "] {
        assert!(info[2].contains(field), "{field} in {}", info[2]);
    }
    let best = lines
        .last()
        .unwrap()
        .strip_prefix("bestmove ")
        .unwrap()
        .to_string();
    let start = Position::from_psn(START).unwrap();
    let mv = start.parse_move(&best).unwrap();
    assert!(start.is_legal(mv));

    // isready is answered during a search; stop ends it with a move.
    e.send("go infinite");
    e.send("isready");
    e.until("readyok");
    e.send("go depth 1");
    e.until("info error");
    e.send("stop");
    let best = e.until("bestmove").pop().unwrap();
    assert!(
        start
            .parse_move(best.strip_prefix("bestmove ").unwrap())
            .is_ok()
    );

    // Perft from the start: 186 moves.
    e.send("go perft 1");
    let lines = e.until("Nodes searched");
    assert_eq!(lines.last().unwrap(), "Nodes searched: 186");
    assert_eq!(lines.iter().filter(|l| l.contains(": ")).count(), 186 + 1);

    // A won position is reported, not searched.
    e.send("position fen R-5/7/6/7/6/7/r-5 b 0 1");
    assert_eq!(e.query("gameover"), "true");
    assert_eq!(e.query("result"), "p1win");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert_eq!(lines, ["info string game over: p1win", "bestmove none"]);

    // MCTS with random rollouts.
    e.send("setoption name Engine value mcts");
    e.send("setoption Simulations 64");
    e.send("position startpos moves a4b5c4");
    e.send("go nodes 64");
    let best = e.until("bestmove").pop().unwrap();
    let after = Position::from_psn(AFTER_A4B5C4).unwrap();
    let mv = after
        .parse_move(best.strip_prefix("bestmove ").unwrap())
        .unwrap();
    assert!(after.is_legal(mv));
    e.send("setoption name Checkpoint value /nonexistent");
    e.until("info error");

    e.send("quit");
    let status = e.child.wait().unwrap();
    assert!(status.success());
}

#[test]
fn end_of_input_ends_the_session_cleanly() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go depth 2");
    drop(e.stdin);
    let status = e.child.wait().unwrap();
    assert!(status.success());
    // The search still answered before the session ended.
    let lines: Vec<String> = e.lines.iter().collect();
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
}

/// Found while writing the UGI session's fuzz target: input that ends during `go infinite` left
/// the session waiting for a `stop` that could not come.
#[test]
fn end_of_input_stops_an_infinite_search() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    drop(e.stdin);
    let status = e.child.wait().unwrap();
    assert!(status.success());
    let lines: Vec<String> = e.lines.iter().collect();
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
}

#[test]
fn matches_through_the_ugi_client_replay_the_in_process_engine() {
    // Alpha-beta behind `pjlab ugi`, driven by the lab's UGI client, must play exactly the games
    // the same alpha-beta plays in process.
    let dir = tempfile::tempdir().unwrap();
    let run = |a: &str, name: &str| {
        let out = dir.path().join(name);
        let status = Command::new(PJLAB)
            .args([
                "-q",
                "match",
                "--a",
                a,
                "--b",
                "alphabeta:depth=2",
                "--games",
                "4",
                "--variants",
                "classic,full-random",
                "--workers",
                "2",
                "--out",
                out.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        assert_success(&status, &[]);
        let (_, games) =
            pjlab_arena::record::load::<pjlab_pijersi::PijersiKit>(&out.join("games.parquet"))
                .unwrap();
        let mut moves: Vec<(u64, Vec<pjlab_pijersi::Move>, i8)> = games
            .into_iter()
            .map(|g| (g.spec.id, g.moves, g.result))
            .collect();
        moves.sort_by_key(|m| m.0);
        moves
    };
    let through_ugi = run(&format!("ugi:cmd={PJLAB},arg=ugi,depth=2"), "ugi");
    let in_process = run("alphabeta:depth=2", "local");
    assert_eq!(through_ugi.len(), 4);
    assert_eq!(through_ugi, in_process);
}
