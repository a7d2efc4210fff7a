//! `pjlab ugi --score-format natsel`, the form pijersi-certu starts the engine in: the flag
//! reaches the session (declared as the option's default, bare integer scores, strictly
//! increasing depths), and `go manual` plays its move. The whole certu exchange is replayed in
//! `crates/ugi/tests/certu.rs`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use pjlab_core::Game;
use pjlab_pijersi::Position;

const PJLAB: &str = env!("CARGO_BIN_EXE_pjlab");

#[test]
fn the_flag_gives_natsel_info_lines_and_go_manual_plays() {
    let mut child = Command::new(PJLAB)
        .args(["ugi", "--score-format", "natsel"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap()).lines();
    // The start, a4b5c4 played by `go manual`, a depth-3 search of Black's reply; once it has
    // answered, the position.
    writeln!(
        stdin,
        "ugi\nisready\nuginewgame\nposition startpos\ngo manual a4b5c4\ngo depth 3"
    )
    .unwrap();
    stdin.flush().unwrap();
    let mut lines: Vec<String> = Vec::new();
    for line in out.by_ref() {
        let line = line.unwrap();
        let done = line.starts_with("bestmove ");
        lines.push(line);
        if done {
            break;
        }
    }
    writeln!(stdin, "query fen\nquit").unwrap();
    drop(stdin);
    lines.extend(out.map_while(Result::ok));
    assert!(child.wait().unwrap().success());
    assert!(
        lines.contains(
            &"option name ScoreFormat type combo default natsel var ugi var natsel".into()
        ),
        "{lines:?}"
    );
    let ready = lines.iter().position(|l| l == "readyok").unwrap();
    assert_eq!(lines[ready - 1], "ugiok");
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info ")).collect();
    let mut last = 0;
    for info in &infos {
        let words: Vec<&str> = info.split(' ').collect();
        let depth: u32 = words[words.iter().position(|&w| w == "depth").unwrap() + 1]
            .parse()
            .unwrap();
        let score = words[words.iter().position(|&w| w == "score").unwrap() + 1];
        assert!(score.parse::<i32>().is_ok(), "{info}");
        assert!(depth > last, "{infos:?}");
        last = depth;
    }
    assert_eq!(last, 3, "{infos:?}");
    // The search was of the position after a4b5c4: Black's move, legal there.
    let mut after =
        Position::from_text("s-p-r-s-p-r-/p-r-s-wwr-s-p-/6/7/6/P-S-R-WWS-R-P-/R-P-S-R-P-S- w 0 1")
            .unwrap();
    after.play(after.parse_move("a4b5c4").unwrap()).unwrap();
    let best = lines
        .iter()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap();
    assert!(after.is_legal(after.parse_move(best).unwrap()), "{best}");
    assert_eq!(
        lines.last().unwrap(),
        &format!("response {}", after.to_text())
    );
}
