//! A UGI session given any sequence of commands: a script chooses each command from the
//! protocol's (with arguments from the script: legal and illegal moves, positions, option
//! values, raw lines), the session runs to the end of its input, and it must have answered the
//! last `isready` and played only legal moves.

use std::io::Write;
use std::sync::{Arc, Mutex};

use pjlab_core::{Game, GameKit, SetupVariant};
use pjlab_pijersi::{PijersiKit, Position};
use pjlab_ugi::{EngineOptions, Output};

use crate::Target;
use crate::input::{Script, text};
use crate::play::pijersi_position;

/// The most commands one input sends.
const MAX_COMMANDS: usize = 40;

/// A scripted UGI session.
pub(crate) const UGI_SESSION: Target = Target {
    name: "ugi_session",
    about: "a UGI session given scripted commands keeps answering and plays only legal moves",
    run: |data| {
        let commands = commands(&mut Script::new(data));
        let answers = session(&commands);
        check(&commands, &answers);
    },
    test_inputs: 300,
};

/// Hash sizes the script may ask for: in range, and out of it. Sizes the machine could reserve
/// but not spare are left out: filling them is the machine's limit, not a fault.
const HASH: [&str; 6] = ["1", "16", "0", "65537", "-3", "1e3"];

/// The commands a script asks for, as lines.
fn commands(script: &mut Script) -> Vec<String> {
    let mut lines = Vec::new();
    while !script.is_empty() && lines.len() < MAX_COMMANDS {
        match script.choose(12) {
            0 => lines.push("ugi".into()),
            1 => lines.push("isready".into()),
            2 => lines.push("uginewgame".into()),
            3 => {
                // startpos and scripted legal moves, sometimes one that is not.
                let start = PijersiKit::variants()[0].start(0);
                let mut line = String::from("position startpos moves");
                let mut position = start;
                let mut moves = Vec::new();
                for _ in 0..script.choose(8) {
                    position.legal_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    let mv = moves[script.choose(moves.len())];
                    line += &format!(" {}", position.move_to_text(mv));
                    position.play_unchecked(mv);
                }
                if script.byte().is_multiple_of(4) {
                    line += " a1a1";
                }
                lines.push(line);
            }
            4 => {
                let position = pijersi_position(script);
                lines.push(format!("position fen {}", position.to_text()));
            }
            5 => {
                // A search between the position it reports and a stop, which waits for it.
                lines.push("query fen".into());
                lines.push(match script.choose(4) {
                    0 => "go depth 1".into(),
                    1 => format!("go nodes {}", 1 + script.choose(300)),
                    2 => format!("go movetime {}", 1 + script.choose(3)),
                    _ => "go p1time 5 p2time 5".into(),
                });
                lines.push("stop".into());
            }
            6 => lines.push(format!("go manual {}", raw(script, 6))),
            7 => lines.push(format!("go perft {}", script.choose(3))),
            8 => lines.push(match script.choose(5) {
                0 => "query gameover".into(),
                1 => "query p1turn".into(),
                2 => "query result".into(),
                3 => format!("query islegal {}", raw(script, 6)),
                _ => "query fen".into(),
            }),
            9 => lines.push(match script.choose(5) {
                0 => format!(
                    "setoption name Hash value {}",
                    HASH[script.choose(HASH.len())]
                ),
                1 => format!(
                    "setoption name Engine value {}",
                    ["mcts", "alphabeta", "x"][script.choose(3)]
                ),
                2 => format!(
                    "setoption name Simulations value {}",
                    ["8", "0", "-1", "64"][script.choose(4)]
                ),
                3 => format!(
                    "setoption name ScoreFormat value {}",
                    ["natsel", "ugi", ""][script.choose(3)]
                ),
                _ => format!("setoption name {} value {}", raw(script, 8), raw(script, 8)),
            }),
            // A raw line; one that is a `go` is made unknown, since a search asked for at
            // any depth or time is a long one by right.
            10 => {
                let line = raw(script, 20);
                let go = line.trim_start().starts_with("go");
                lines.push(if go { format!("x{line}") } else { line });
            }
            _ => lines.push("stop".into()),
        }
    }
    lines.push("isready".into());
    lines
}

/// Up to `n` script bytes as one line of text.
fn raw(script: &mut Script, n: usize) -> String {
    let len = script.choose(n + 1);
    let bytes: Vec<u8> = (0..len).map(|_| script.byte()).collect();
    text(&bytes).replace(['\n', '\r'], " ")
}

/// A buffer the session writes its answers into.
#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("the buffer").extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs a session of `commands` with the built-in agents; its answers, line by line.
fn session(commands: &[String]) -> Vec<String> {
    let buffer = Buffer::default();
    let out: Output = Arc::new(Mutex::new(Box::new(buffer.clone())));
    let input = commands.join("\n") + "\n";
    let factory = |o: &EngineOptions| {
        pjlab_ugi::builtin_agent::<PijersiKit>(o).map_err(|e| Box::new(e) as pjlab_core::BoxError)
    };
    pjlab_ugi::run::<PijersiKit>(input.as_bytes(), out, &factory, "fuzz");
    let bytes = buffer.0.lock().expect("the buffer").clone();
    String::from_utf8(bytes)
        .expect("answers are UTF-8")
        .lines()
        .map(str::to_string)
        .collect()
}

/// The last answer is the last `isready`'s, and every `bestmove` is legal in the position the
/// `query fen` before its search reported.
fn check(commands: &[String], answers: &[String]) {
    assert_eq!(
        answers.last().map(String::as_str),
        Some("readyok"),
        "{commands:?}\n{answers:?}"
    );
    let mut reported: Option<Position> = None;
    for answer in answers {
        if let Some(fen) = answer.strip_prefix("response ")
            && let Ok(position) = Position::from_text(fen)
        {
            reported = Some(position);
        }
        if let Some(mv) = answer.strip_prefix("bestmove ") {
            if mv == "none" {
                continue;
            }
            let position = reported.as_ref().expect("a search follows a query fen");
            assert!(
                position.parse_move(mv).is_ok(),
                "bestmove {mv} is illegal in {}\n{commands:?}\n{answers:?}",
                position.to_text()
            );
        }
    }
}
