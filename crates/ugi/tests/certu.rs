//! pijersi-certu's use of an engine, replayed: the commands its `UgiClient` and `NatselSearcher`
//! send (`pijersi_certu/pijersi_ugi.py`, v2.3.1) and the rules by which they read the answers,
//! against the engine in `ScoreFormat` natsel. The client reads `isready`'s next line as
//! `readyok`; `go manual <move>` answers nothing; `__extract_score` takes the word after `depth`
//! as a float that must be higher than the last along a search, and the word after `score` as a
//! float, the last one seen; `__init_transform_score` fits its score scale to the engine's scores
//! of four small positions and asserts that the fit is increasing.

use std::io::{BufReader, Write};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use pjlab_core::Game;
use pjlab_pijersi::{Cell, PijersiKit, Position};
use pjlab_ugi::{EngineOptions, NATSEL_WIN, Output, ScoreFormat};

/// Sends each whole line written to it.
struct LineSink {
    buffer: Vec<u8>,
    lines: Sender<String>,
}

impl Write for LineSink {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.buffer.extend_from_slice(bytes);
        while let Some(end) = self.buffer.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.buffer.drain(..=end).collect();
            let text = String::from_utf8_lossy(&line[..end]).into_owned();
            let _ = self.lines.send(text);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// certu's `UgiClient` over an in-process engine.
struct Certu {
    to_engine: Option<std::io::PipeWriter>,
    lines: Receiver<String>,
    engine: Option<JoinHandle<()>>,
    /// Every line the engine wrote, for the checks after the exchange.
    seen: Vec<String>,
}

impl Certu {
    fn start(options: EngineOptions) -> Certu {
        let (reader, writer) = std::io::pipe().unwrap();
        let (tx, lines) = channel();
        let out: Output = Arc::new(Mutex::new(Box::new(LineSink {
            buffer: Vec::new(),
            lines: tx,
        })));
        let engine = std::thread::spawn(move || {
            let factory = |o: &EngineOptions| {
                pjlab_ugi::builtin_agent::<PijersiKit>(o).map_err(|e| e.to_string().into())
            };
            pjlab_ugi::run_with::<PijersiKit>(
                BufReader::new(reader),
                out,
                &factory,
                "pjlab",
                options,
            );
        });
        Certu {
            to_engine: Some(writer),
            lines,
            engine: Some(engine),
            seen: Vec::new(),
        }
    }

    /// `UgiChannel.send`: the words joined by spaces.
    fn send(&mut self, words: &[&str]) {
        let w = self.to_engine.as_mut().unwrap();
        writeln!(w, "{}", words.join(" ")).unwrap();
        w.flush().unwrap();
    }

    /// `UgiChannel.recv`: one line split on single spaces (60 s at most: a hang fails).
    fn recv(&mut self) -> Vec<String> {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("no answer; last lines {:?}", self.seen));
        self.seen.push(line.clone());
        let cleaned = line.trim_matches([' ', '\n']);
        assert!(!cleaned.is_empty(), "certu asserts on an empty line");
        cleaned.split(' ').map(str::to_string).collect()
    }

    /// `prepare`: `ugi` up to `ugiok`, `isready` answered by the next line, `uginewgame`.
    fn prepare(&mut self) -> Vec<Vec<String>> {
        self.send(&["ugi"]);
        let mut hello = Vec::new();
        loop {
            let reply = self.recv();
            if reply[0] == "ugiok" {
                break;
            }
            hello.push(reply);
        }
        self.send(&["isready"]);
        assert_eq!(self.recv(), ["readyok"]);
        self.send(&["uginewgame"]);
        hello
    }

    /// `__handle_bestmove_reply`: the `info` lines up to `bestmove`, and its move.
    fn bestmove(&mut self) -> (String, Vec<Vec<String>>) {
        let mut infos = Vec::new();
        loop {
            let reply = self.recv();
            match reply[0].as_str() {
                "bestmove" => return (reply[1].clone(), infos),
                "info" => infos.push(reply),
                _ => {}
            }
        }
    }

    /// `position_fen`, then `go depth` or `go movetime` (certu sends `time_limit*1_000`, a
    /// float when the limit is one), then its score.
    fn score(&mut self, fen: &str, manual: Option<&str>, go: &[&str]) -> (String, f64) {
        let mut words = vec!["position", "fen"];
        words.extend(fen.split(' '));
        self.send(&words);
        if let Some(mv) = manual {
            self.send(&["go", "manual", mv]);
        }
        let mut words = vec!["go"];
        words.extend(go);
        self.send(&words);
        let (best, infos) = self.bestmove();
        (best, extract_score(&infos).expect("certu asserts a score"))
    }

    fn quit(mut self) {
        self.send(&["quit"]);
        drop(self.to_engine.take());
        self.engine.take().unwrap().join().unwrap();
    }
}

/// certu's `__extract_score`, rule for rule.
fn extract_score(infos: &[Vec<String>]) -> Option<f64> {
    let mut score = None;
    let mut last_depth: Option<f64> = None;
    let (mut depth_is_next, mut score_is_next) = (false, false);
    for info in infos {
        for token in info {
            if depth_is_next {
                let depth: f64 = token.parse().expect("certu reads the depth as a float");
                depth_is_next = false;
                if let Some(last) = last_depth {
                    assert!(depth > last, "depths must increase: {infos:?}");
                }
                last_depth = Some(depth);
            } else if score_is_next {
                score = Some(
                    token
                        .parse::<f64>()
                        .expect("certu reads the score as a float"),
                );
                score_is_next = false;
            }
            if token == "depth" {
                depth_is_next = true;
            } else if token == "score" {
                score_is_next = true;
            }
        }
    }
    score
}

/// A position of certu's natsel calibration, checked against our rules: `pieces` as (cell,
/// PSN letter), the side to move.
fn calibration(fen: &str, pieces: &[(&str, char)]) -> String {
    let position = Position::from_text(fen).unwrap();
    for (cell, letter) in pieces {
        let piece = position.piece_at(Cell::parse(cell).unwrap()).unwrap();
        assert_eq!(
            piece.to_string().chars().next(),
            Some(*letter),
            "{fen} {cell}"
        );
    }
    fen.to_string()
}

#[test]
fn certu_review_and_hint_read_the_engine() {
    let options = EngineOptions {
        score_format: ScoreFormat::Natsel,
        ..EngineOptions::default()
    };
    let mut certu = Certu::start(options);
    let hello = certu.prepare();
    assert!(hello.iter().any(|l| {
        l.join(" ")
            .starts_with("option name ScoreFormat type combo default natsel")
    }));

    // 1. The calibration (`__evaluate_win_score` and the three others), at the review's depth 5.
    let win = calibration("5s-/R-6/6/7/6/7/6 w 0 5", &[("f1", 'R'), ("g6", 's')]);
    let loss = calibration("5s-/R-6/6/7/6/7/6 b 0 5", &[("f1", 'R'), ("g6", 's')]);
    let draw = calibration(
        "6/R-6/6/7/5r-/6S-/6 b 19 5",
        &[("f1", 'R'), ("c6", 'r'), ("b7", 'S')],
    );
    let small = calibration(
        "r-5/7/6/7/6/s-6/R-5 w 0 5",
        &[("a1", 'R'), ("b1", 's'), ("g1", 'r')],
    );
    let depth5 = ["depth", "5"];
    let (_, win_score) = certu.score(&win, None, &depth5);
    let (_, loss_score) = certu.score(&loss, None, &depth5);
    let (_, draw_score) = certu.score(&draw, None, &depth5);
    let (_, small_score) = certu.score(&small, None, &depth5);
    assert_eq!(
        win_score,
        f64::from(NATSEL_WIN - 1),
        "White wins on its move"
    );
    assert!(loss_score < -f64::from(NATSEL_WIN - 100), "{loss_score}");
    assert!(
        draw_score.abs() < f64::from(NATSEL_WIN - 1000),
        "{draw_score}"
    );

    // `__init_transform_score`: the fit to win 10 and small 1 must be increasing.
    let (b1, b2) = (1.0f64, 0.015f64);
    let (w1, w2) = ((b1 * win_score).asinh(), (b2 * win_score).asinh());
    let (s1, s2) = ((b1 * small_score).asinh(), (b2 * small_score).asinh());
    let a1 = (s2 * 10.0 - w2) / (w1 * s2 - w2 * s1);
    let a2 = (w1 - s1 * 10.0) / (w1 * s2 - w2 * s1);
    assert!(
        a1 > 0.0 && a2 >= 0.0,
        "small {small_score}: a1 {a1}, a2 {a2}"
    );

    // 2. `evaluate_actions` (the hint and the review): for each move, the position, `go
    // manual <move>`, then a search one ply shallower. The position is certu's bug-92 case.
    let fen = "s-3p-r-/p-r-s-rprss-p-/3W-2/2w-w-W-2/1RS3RP/P-S-2S-1P-/R-P-1R-1S- w 6 4";
    let root = Position::from_text(fen).unwrap();
    let mut moves = Vec::new();
    root.legal_moves(&mut moves);
    assert!(moves.len() > 100);
    let mut evaluated = Vec::new();
    for (i, &mv) in moves.iter().enumerate() {
        let after = root.after(mv);
        if after.outcome().is_some() {
            continue; // certu scores an ended game itself
        }
        let text = root.move_to_text(mv);
        // Most moves at depth 2 (the review at depth 3); a few with the time searcher's decimal
        // `movetime`.
        let go: &[&str] = if i % 40 == 0 {
            &["movetime", "30.0"]
        } else {
            &["depth", "2"]
        };
        let (best, score) = certu.score(fen, Some(&text), go);
        // The engine searched the position after the move: its answer is legal there.
        let reply = after.parse_move(&best).unwrap();
        assert!(after.is_legal(reply), "{text}: {best}");
        certu.send(&["query", "fen"]);
        assert_eq!(
            certu.recv().join(" "),
            format!("response {}", after.to_text())
        );
        evaluated.push((text, -score));
    }
    // A move that gives the opponent a winning reply scores as a loss, and is never the best.
    let best = evaluated.iter().map(|e| e.1).fold(f64::MIN, f64::max);
    assert!(best > -f64::from(NATSEL_WIN - 1000), "{evaluated:?}");

    // `go manual` answered nothing, and no line was an error.
    assert!(
        certu.seen.iter().all(|l| !l.starts_with("info error")),
        "{:?}",
        certu.seen
    );
    // An illegal manual move is refused and leaves the position as it was.
    let mut words = vec!["position", "fen"];
    words.extend(fen.split(' '));
    certu.send(&words);
    certu.send(&["go", "manual", "a1a1"]);
    assert!(certu.recv()[..2] == ["info", "error"]);
    certu.send(&["query", "fen"]);
    assert_eq!(
        certu.recv().join(" "),
        format!("response {}", root.to_text())
    );
    certu.quit();
}

#[test]
fn the_option_switches_the_format_and_keeps_the_agent() {
    let mut certu = Certu::start(EngineOptions::default());
    certu.prepare();
    let fen = "5s-/R-6/6/7/6/7/6 w 0 5";
    let (_, infos) = {
        let mut words = vec!["position", "fen"];
        words.extend(fen.split(' '));
        certu.send(&words);
        certu.send(&["go", "depth", "2"]);
        certu.bestmove()
    };
    assert!(
        infos.iter().any(|i| i.join(" ").contains(" score mate 1 ")),
        "{infos:?}"
    );
    certu.send(&["setoption", "name", "ScoreFormat", "value", "natsel"]);
    let (_, score) = certu.score(fen, None, &["depth", "2"]);
    assert_eq!(score, f64::from(NATSEL_WIN - 1));
    certu.send(&["setoption", "name", "ScoreFormat", "value", "centipawns"]);
    assert_eq!(certu.recv()[..2], ["info", "error"]);
    certu.quit();
}
