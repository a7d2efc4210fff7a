//! Every command's output that holds a game is input to `pjlab replay` and `pjlab show`, whole,
//! in each game: `play`'s (its header lines, the record, the final position and the result),
//! `replay`'s own, and `demo`'s. An input holding no game is an error.

mod common;

use common::{assert_success, assert_usage_error, pjlab, pjlab_stdin, stdout};

/// The last two lines of a command's output: the final position and the result.
fn ending(text: &str) -> (String, String) {
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 2, "{text}");
    (
        lines[lines.len() - 2].to_string(),
        lines[lines.len() - 1].to_string(),
    )
}

/// The boards a `pjlab show` page draws.
fn boards(page: &str) -> usize {
    page.matches(r#"<div class="board" data-ply=""#).count()
}

/// `output`, a command's whole output holding a game of `plies` plies that ends as `ending`,
/// replays to that ending (and so does the replay's own output), and `pjlab show` draws one
/// board a position.
fn reads_back(game: &str, output: &str, plies: usize) {
    let want = ending(output);
    let replay = pjlab_stdin(&["replay", "--game", game, "-"], output);
    assert_success(&replay, &["replay", game]);
    assert_eq!(
        ending(&stdout(&replay)),
        want,
        "{game}: replay of\n{output}"
    );
    let again = pjlab_stdin(&["replay", "--game", game, "-"], &stdout(&replay));
    assert_success(&again, &["replay", game, "(twice)"]);
    assert_eq!(
        ending(&stdout(&again)),
        want,
        "{game}: replay of the replay"
    );
    let dir = tempfile::tempdir().expect("a temporary folder");
    let page = dir.path().join("game.html");
    let out = pjlab_stdin(
        &[
            "show",
            "--game",
            game,
            "-",
            "--out",
            page.to_str().expect(""),
        ],
        output,
    );
    assert_success(&out, &["show", game]);
    let page = std::fs::read_to_string(&page).expect("the page");
    assert_eq!(boards(&page), plies + 1, "{game}: one board a position");
}

/// The plies of a `play` output's record, counted by replaying each prefix would be circular:
/// they are counted from the verbose move lines `play -v` writes to standard error.
fn play(game: &str, extra: &[&str]) -> (String, usize) {
    let mut args = vec![
        "play",
        "-v",
        "--game",
        game,
        "--white",
        "random",
        "--black",
        "greedy",
        "--seed",
        "5",
        "--max-plies",
        "24",
    ];
    args.extend_from_slice(extra);
    let out = pjlab(&args);
    assert_success(&out, &args);
    let err = String::from_utf8(out.stderr.clone()).expect("utf-8");
    let plies = err
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.parse::<usize>().is_ok())
        })
        .count();
    (stdout(&out), plies)
}

#[test]
fn play_output_replays_and_shows_in_every_game() {
    for (game, extra) in [
        ("pijersi", vec!["--variant", "half-random"]),
        ("pijersi", vec![]),
        ("abalone", vec!["--variant", "belgian-daisy"]),
        ("abalone", vec!["--variant", "doubles-nojunction"]),
        ("chomp", vec!["--variant", "5x6"]),
    ] {
        let (output, plies) = play(game, &extra);
        assert!(plies > 0, "{game}: no move was played\n{output}");
        reads_back(game, &output, plies);
    }
}

#[test]
fn demo_output_replays_and_shows() {
    let out = pjlab(&["demo", "--seed", "3"]);
    assert_success(&out, &["demo"]);
    let output = stdout(&out);
    // The record's turns, two plies a line but for an odd last one.
    let turns: Vec<&str> = output
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()) && !l.contains('/'))
        .collect();
    let plies = turns.iter().map(|l| l.split_whitespace().count() / 2).sum();
    reads_back("pijersi", &output, plies);
}

#[test]
fn a_record_from_a_position_keeps_its_start() {
    // An Abalone game from a position text: the header's start, not the standard one.
    let start = stdout(&pjlab(&[
        "setup",
        "--game",
        "abalone",
        "--variant",
        "german-daisy",
    ]));
    let (output, plies) = play("abalone", &["--position", start.trim()]);
    assert!(
        output.contains(&format!("start: {}", start.trim())),
        "{output}"
    );
    reads_back("abalone", &output, plies);
}

#[test]
fn an_input_without_a_game_is_an_error() {
    for game in ["pijersi", "abalone", "chomp"] {
        for input in ["", "\n\n", "variant: standard\n\n"] {
            let out = pjlab_stdin(&["replay", "--game", game, "-"], input);
            assert_usage_error(&out, "holds no game");
            let out = pjlab_stdin(&["show", "--game", game, "-", "--out", "/dev/null"], input);
            assert_usage_error(&out, "holds no game");
        }
    }
    assert_usage_error(&pjlab(&["show", "/dev/null"]), "holds no game");
}
