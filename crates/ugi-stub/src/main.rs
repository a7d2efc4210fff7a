//! A minimal UGI engine for testing clients: it plays the first legal move (in our move order)
//! of the position it was sent, and can be told to misbehave after a number of `go` commands.
//!
//! `pjlab-ugi-stub [first|hang|wait|crash|illegal] [AFTER]`: behave for `AFTER` searches (0 by
//! default), then on every later `go` hang (never answer, not even to `stop`), wait for `stop`
//! and then answer (as an engine told `go infinite` does), crash (exit 3 after a line on
//! stderr) or answer an illegal move.

use std::io::{BufRead, Write};

use pjlab_core::Game;
use pjlab_pijersi::Position;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = args.first().map_or("first", String::as_str).to_string();
    let after: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(0);
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut position = Position::default();
    let mut searches = 0;
    // A `go` of mode `wait` that `stop` has not answered yet.
    let mut waiting = false;
    eprintln!("stub engine started in mode {mode}");
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("ugi") => {
                let _ = writeln!(out, "id name pjlab-ugi-stub\nid author pjlab\nugiok");
            }
            Some("isready") => {
                let _ = writeln!(out, "readyok");
            }
            Some("position") => {
                let fen_end = words
                    .iter()
                    .position(|&w| w == "moves")
                    .unwrap_or(words.len());
                let parsed = if words.get(1) == Some(&"startpos") {
                    Ok(Position::default())
                } else {
                    Position::from_psn(&words[2.min(fen_end)..fen_end].join(" "))
                };
                match parsed {
                    Ok(p) => {
                        position = p;
                        for text in words.iter().skip(fen_end + 1) {
                            match position.parse_move(text) {
                                Ok(mv) => position.play_unchecked(mv),
                                Err(e) => eprintln!("bad move {text}: {e}"),
                            }
                        }
                    }
                    Err(e) => eprintln!("bad position: {e}"),
                }
            }
            Some("go") => {
                searches += 1;
                if searches > after {
                    match mode.as_str() {
                        "hang" => loop {
                            std::thread::sleep(std::time::Duration::from_secs(60));
                        },
                        "crash" => {
                            eprintln!("stub engine crashing on purpose");
                            std::process::exit(3);
                        }
                        "illegal" => {
                            let _ = writeln!(out, "bestmove a1a1");
                            let _ = out.flush();
                            continue;
                        }
                        "wait" => {
                            waiting = true;
                            continue;
                        }
                        _ => {}
                    }
                }
                answer(&mut out, &position);
            }
            Some("stop") if waiting => {
                waiting = false;
                answer(&mut out, &position);
            }
            Some("quit") => break,
            _ => {}
        }
        let _ = out.flush();
    }
}

/// Answers the first legal move of `position`, after an `info` line.
fn answer(out: &mut impl Write, position: &Position) {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let answer = moves
        .first()
        .map_or_else(|| "none".to_string(), |&mv| position.move_to_text(mv));
    let _ = writeln!(out, "info depth 1 nodes {}\nbestmove {answer}", moves.len());
}
