//! `pjlab perft / setup / replay --game abalone`: the command forms outside checks call, checked
//! against `../shared/vectors/abalone` and positions worked out by hand.

mod common;

use std::collections::BTreeMap;

use common::{assert_success, assert_usage_error, last_line, pjlab, pjlab_stdin, stdout};

const BELGIAN: &str = "ww1bb/wwwbbb/1ww1bb1/8/9/8/1bb1ww1/bbbwww/bb1ww b 0 0 0 1";
const DOUBLES: &str = "ww1dd/wwwddd/1ww1dd1/8/9/8/1bb1xx1/bbbxxx/bb1xx 0 - - 0 0 0 1";
const OPENING: &str = "1.a1b2 i5h5 2.a2b3 i6h6 3.c2c3 g4g5";
/// After the opening from the Belgian daisy, worked out by hand: a1b2 and a2b3 advance Black's
/// lower daisy, i5h5 and i6h6 White's upper one, c2c3 pushes C5-C6 to C6-C7 and g4g5 pushes G7-G8
/// to G8-G9.
const AFTER_OPENING: &str = "3bb/wwwbbb/2wwwbb/3w4/9/3b4/2bbbww/bbbwww/3ww b 0 0 6 4";

fn vector(relative: &str) -> String {
    pjlab_conformance::read_vector(relative)
}

fn perft(args: &[&str]) -> String {
    let mut all = vec!["perft", "--game", "abalone"];
    all.extend_from_slice(args);
    let out = pjlab(&all);
    assert_success(&out, &[]);
    last_line(&out)
}

#[test]
fn perft_counts_from_every_start_and_position() {
    assert_eq!(perft(&["--variant", "standard", "--depth", "3"]), "98912");
    assert_eq!(
        perft(&["--variant", "belgian-daisy", "--depth", "2"]),
        "2692"
    );
    assert_eq!(
        perft(&["--variant", "german-daisy", "--depth", "2"]),
        "6244"
    );
    assert_eq!(perft(&["--variant", "doubles", "--depth", "3"]), "17420");
    assert_eq!(perft(&["--variant", "doubles-0321", "--depth", "2"]), "670");
    assert_eq!(perft(&["--variant", "doubles", "--depth", "2"]), "676");
    // The standard start is the default; threads share first moves without changing the count.
    assert_eq!(perft(&["--depth", "3", "--threads", "2"]), "98912");
    // A position text counts under its own rules, or under --variant's.
    assert_eq!(perft(&["--position", BELGIAN, "--depth", "2"]), "2692");
    assert_eq!(perft(&["--position", DOUBLES, "--depth", "2"]), "676");
    let ccw = [
        "--position",
        DOUBLES,
        "--variant",
        "doubles-0321",
        "--depth",
        "2",
    ];
    assert_eq!(perft(&ccw), "670");
}

#[test]
fn divide_matches_the_reference_tables() {
    let text = vector("abalone/divide2.txt");
    for (variant, name) in [
        ("belgian-daisy", "belgian_daisy"),
        ("german-daisy", "german_daisy"),
    ] {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("{name} divide(2)")))
            .expect("a table");
        let (_, pairs) = line.split_once(": ").unwrap();
        let (pairs, sum) = pairs.rsplit_once(" sum ").unwrap();
        let expected: BTreeMap<&str, u64> = pairs
            .split_whitespace()
            .map(|p| {
                let (mv, n) = p.split_once(':').unwrap();
                (mv, n.parse().unwrap())
            })
            .collect();
        let out = pjlab(&[
            "perft",
            "--game",
            "abalone",
            "--variant",
            variant,
            "--depth",
            "2",
            "--divide",
        ]);
        let printed = stdout(&out);
        let lines: Vec<&str> = printed.lines().collect();
        let ours: BTreeMap<&str, u64> = lines[..lines.len() - 1]
            .iter()
            .map(|l| {
                let (mv, n) = l.split_once(": ").unwrap();
                (mv, n.parse().unwrap())
            })
            .collect();
        assert_eq!(ours, expected, "{variant}");
        assert_eq!(*lines.last().unwrap(), sum.trim());
    }
}

#[test]
fn setup_prints_the_start_texts() {
    for (variant, text) in [
        (
            "standard",
            "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b 0 0 0 1",
        ),
        ("belgian-daisy", BELGIAN),
        (
            "german-daisy",
            "5/ww2bb/www1bbb/1ww2bb1/9/1bb2ww1/bbb1www/bb2ww/5 b 0 0 0 1",
        ),
        ("doubles", DOUBLES),
        ("doubles-0321", DOUBLES),
    ] {
        let out = pjlab(&["setup", "--game", "abalone", "--variant", variant]);
        assert_eq!(stdout(&out).trim(), text);
    }
}

#[test]
fn replay_plays_the_seed_opening_and_its_reverse() {
    let out = pjlab_stdin(
        &[
            "replay",
            "--game",
            "abalone",
            "--variant",
            "belgian-daisy",
            "-",
        ],
        OPENING,
    );
    assert_success(&out, &[]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    // Headed by the start it was read from, so that the output replays as it is.
    let daisy = stdout(&pjlab(&[
        "setup",
        "--game",
        "abalone",
        "--variant",
        "belgian-daisy",
    ]));
    assert_eq!(
        lines[..2],
        [format!("start: {}", daisy.trim()).as_str(), ""]
    );
    assert_eq!(lines[2..5], ["1.a1b2 i5h5", "2.a2b3 i6h6", "3.c2c3 g4g5"]);
    assert_eq!(lines[lines.len() - 2], AFTER_OPENING);
    assert_eq!(lines[lines.len() - 1], "ongoing");

    // Played back from there with White to move, the moves leave C5, G7 empty and C7, G9 full,
    // where the daisy had the reverse: pushed marbles are not pulled back.
    let white_to_move = AFTER_OPENING.replace(" b 0 0 6 4", " w 0 0 6 4");
    let out = pjlab_stdin(
        &[
            "replay",
            "--game",
            "abalone",
            "--position",
            &white_to_move,
            "-",
        ],
        "g7g6 c5c4\ng6h6 c4b3\nf5g5 d4c3\n",
    );
    assert_success(&out, &[]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[..2], [format!("start: {white_to_move}").as_str(), ""]);
    assert_eq!(lines[2], "4... g7g6");
    let board = |t: &str| t.split_whitespace().next().unwrap().to_string();
    assert_eq!(
        board(lines[lines.len() - 2]),
        "ww1bb/wwwbbb/1ww2bb/8/9/8/1bb2ww/bbbwww/bb1ww"
    );
}

#[test]
fn replay_refuses_the_opening_from_the_standard_start() {
    let out = pjlab_stdin(&["replay", "--game", "abalone", "-"], OPENING);
    assert_usage_error(&out, "line 1, column 25");
    assert_usage_error(&out, "c2 holds no black marble");
}

#[test]
fn bad_abalone_input_is_a_one_line_error() {
    let bad_position = ["perft", "--game", "abalone", "--depth", "1", "--position"];
    let with = |text: &str| {
        let mut args = bad_position.to_vec();
        args.push(text);
        pjlab(&args)
    };
    assert_usage_error(&with("5/6/7/8/9/8/7/6 b 0 0 0 1"), "8 rows, expected 9");
    assert_usage_error(&with("5/6/7/8/9/8/7/6/6 b 0 0 0 1"), "row A has 6 cells");
    assert_usage_error(&with("5/6/7/8/9/8/7/6/5 q 0 0 0 1"), "side to move");
    assert_usage_error(
        &with("5/6/7/8/9/8/7/6/5 b 0 0 0"),
        "missing the move number",
    );
    assert_usage_error(&with("5/6/7/8/9/8/7/6/4d b 0 0 0 1"), "only in doubles");
    assert_usage_error(
        &pjlab(&[
            "perft",
            "--game",
            "abalone",
            "--position",
            DOUBLES,
            "--variant",
            "standard",
            "--depth",
            "1",
        ]),
        "doubles position",
    );
    assert_usage_error(
        &pjlab(&["setup", "--game", "abalone", "--variant", "dutch-daisy"]),
        "unknown variant",
    );
    let replay = |game: &str| pjlab_stdin(&["replay", "--game", "abalone", "-"], game);
    assert_usage_error(
        &replay("1.a1b2 i5h5 3.a2b3"),
        "move number 3 after move number 1",
    );
    assert_usage_error(&replay("1.a1b2 2.i5h5"), "before White has played move 1");
    assert_usage_error(&replay("1.a1a0"), "\"a0\" is not a cell");
    assert_usage_error(&replay("1.a1c3"), "not neighbours");
    assert_usage_error(&replay("1.a1b2\n  e5e6"), "line 2, column 3");
    assert_usage_error(&replay("1.c3c5c4 i5h5"), "along the line");
    assert_usage_error(&replay("1.a1"), "2 characters");
    assert_usage_error(&replay("1.c5a5c6"), "leaves the board");
    assert_usage_error(&replay("7.a1b2 i5h5"), "starts at move 7");
    assert_usage_error(
        &pjlab(&[
            "perft", "--game", "abalone", "--psn", BELGIAN, "--depth", "1",
        ]),
        "--position",
    );
}

#[test]
fn arena_commands_take_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m");
    let out = out.to_str().unwrap();
    // Abalone match in two-player and doubles starts; a resumed run keeps its game without
    // --game.
    let match_args = [
        "match",
        "--game",
        "abalone",
        "--a",
        "alphabeta:depth=1",
        "--b",
        "random",
        "--games",
        "4",
        "--variants",
        "belgian-daisy,doubles",
        "--workers",
        "1",
        "-q",
        "--out",
        out,
    ];
    let first = pjlab(&match_args);
    assert_success(&first, &[]);
    let report = std::fs::read_to_string(format!("{out}/report.md")).unwrap();
    assert!(report.contains("Black advantage"), "{report}");
    let resumed = pjlab(&["match", "--out", out, "--resume", "-q"]);
    assert_success(&resumed, &[]);
    // Chomp: the first player wins every rectangle, and an exact agent finds it.
    let out = dir.path().join("c");
    let balance = pjlab(&[
        "balance",
        "--game",
        "chomp",
        "--agent",
        "alphabeta:depth=40",
        "--variants",
        "3x4,4x5",
        "--games-per-variant",
        "2",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_success(&balance, &[]);
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    let header = summary.lines().next().unwrap();
    assert!(
        header.starts_with("variant,games,distinct_games,first_wins,draws,second_wins,first_score"),
        "{header}"
    );
    // Two games a bar, one distinct (an exact searcher and no random opening), won by the first
    // player.
    for line in summary.lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(
            (fields[1], fields[2], fields[3], fields[6]),
            ("2", "1", "1", "1.0000"),
            "{line}"
        );
    }
    assert_usage_error(
        &pjlab(&[
            "balance",
            "--game",
            "chomp",
            "--agent",
            "random",
            "--variants",
            "classic",
        ]),
        "bar size",
    );
}

#[test]
fn the_ugi_engine_plays_abalone() {
    // Standard start, a1b2 played: the position text is the one worked out by hand (A1 empty,
    // D4 filled), and the engine's answer is a legal White move there.
    let session = "ugi\nposition startpos moves a1b2\nquery fen\nquery p1turn\ngo depth 2\n";
    let out = pjlab_stdin(&["ugi", "--game", "abalone"], session);
    let text = stdout(&out);
    let after = "wwwww/wwwwww/2www2/8/9/3b4/2bbb2/bbbbbb/1bbbb w 0 0 1 1";
    assert!(text.contains(&format!("response {after}")), "{text}");
    assert!(text.contains("response false"), "{text}");
    let best = text
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .expect("a bestmove");
    let position = pjlab_abalone::Position::from_text(after).unwrap();
    assert!(position.parse_move(best).is_ok(), "{best} in {after}");
}
