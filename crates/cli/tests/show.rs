//! `pjlab show`: recorded games as HTML pages, checked against the records the other commands
//! write (the arena's games.txt and games.csv, `pjlab replay`'s final position).

mod common;

use common::{assert_success, assert_usage_error, pjlab, pjlab_stdin, stdout};
use pjlab_core::svg::elements;

/// The boards of a page: each one's ply and its picture's pieces as (cell, class) in order.
fn boards(page: &str) -> Vec<(usize, Vec<(String, String)>)> {
    let mut out = Vec::new();
    for part in page.split(r#"<div class="board" data-ply=""#).skip(1) {
        let ply = part[..part.find('"').expect("a ply")]
            .parse()
            .expect("a number");
        let picture = &part[part.find("<svg").expect("a picture")..part.find("</svg>").expect("")];
        let pieces = elements(picture)
            .into_iter()
            .filter(|e| e.has_class("piece"))
            .map(|e| {
                let cell = e.attr("data-cell").expect("a cell").to_string();
                (cell, e.attr("class").expect("a class").to_string())
            })
            .collect();
        out.push((ply, pieces));
    }
    out
}

/// The move list of a page, in order.
fn listed_moves(page: &str) -> Vec<String> {
    elements(page)
        .into_iter()
        .filter(|e| e.has_class("mv"))
        .map(|e| e.text)
        .collect()
}

fn show(args: &[&str]) -> String {
    let out = pjlab(args);
    assert_success(&out, &[]);
    let path = stdout(&out).trim().to_string();
    std::fs::read_to_string(path).expect("the page")
}

#[test]
fn a_match_game_shows_every_position_and_move() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let run = dir.path().join("m");
    let run = run.to_str().expect("utf-8");
    let args = [
        "match",
        "--a",
        "random",
        "--b",
        "random",
        "--games",
        "2",
        "--workers",
        "1",
        "--out",
        run,
    ];
    assert!(pjlab(&args).status.success());
    let games_txt = std::fs::read_to_string(format!("{run}/games.txt")).expect("games.txt");
    let entry = games_txt.split("[game ").nth(2).expect("game 1");
    let body = &entry[entry.find('\n').expect("a header line")..];
    // The rulebook notation: turn numbers, then moves.
    let moves: Vec<String> = body
        .split_whitespace()
        .filter(|t| !t.chars().all(|c| c.is_ascii_digit()))
        .map(str::to_string)
        .collect();
    let csv = std::fs::read_to_string(format!("{run}/games.csv")).expect("games.csv");
    let length: usize = csv
        .lines()
        .nth(2)
        .expect("game 1")
        .split(',')
        .nth(8)
        .expect("length")
        .parse()
        .expect("a length");
    assert_eq!(moves.len(), length);
    let page_path = dir.path().join("g1.html");
    let page = show(&[
        "show",
        run,
        "--index",
        "1",
        "--out",
        page_path.to_str().expect(""),
    ]);
    assert!(page.starts_with("<!DOCTYPE html>") && page.contains("<script>"));
    let boards = boards(&page);
    assert_eq!(boards.len(), length + 1, "one board per position");
    assert!(boards.iter().enumerate().all(|(k, (ply, _))| k == *ply));
    let boards_of_page = boards.clone();
    assert_eq!(listed_moves(&page), moves);
    // The last board is the position `pjlab replay` ends the record in.
    let replayed = pjlab_stdin(&["replay", "-"], &format!("{body}\n"));
    let lines: Vec<String> = stdout(&replayed).lines().map(str::to_string).collect();
    let last = pjlab_pijersi::Position::from_psn(&lines[lines.len() - 2]).expect("a PSN");
    let mut expected: Vec<(String, String)> = pjlab_pijersi::Cell::all()
        .filter_map(|cell| {
            let piece = last.piece_at(cell)?;
            Some((cell.to_string(), piece.color.name().to_string()))
        })
        .collect();
    let mut drawn: Vec<(String, String)> = boards[length]
        .1
        .iter()
        .map(|(cell, class)| (cell.clone(), class.split(' ').nth(1).expect("").to_string()))
        .collect();
    expected.sort();
    drawn.sort();
    assert_eq!(drawn, expected);
    // The same game from games.txt, and from the Parquet file.
    let from_txt = show(&[
        "show",
        &format!("{run}/games.txt"),
        "--index",
        "1",
        "--out",
        dir.path().join("t.html").to_str().expect(""),
    ]);
    assert_eq!(listed_moves(&from_txt), moves);
    let from_parquet = show(&[
        "show",
        &format!("{run}/games.parquet"),
        "--index",
        "1",
        "--out",
        dir.path().join("p.html").to_str().expect(""),
    ]);
    let boards_of_parquet = self::boards(&from_parquet);
    assert_eq!(boards_of_parquet, boards_of_page);
    // Bad input: an index past the end, another game, a missing file.
    assert_usage_error(&pjlab(&["show", run, "--index", "2"]), "holds 2 games");
    assert_usage_error(
        &pjlab(&["show", run, "--game", "chomp"]),
        "holds a pijersi game",
    );
    assert_usage_error(
        &pjlab(&["show", "no/such/file.txt"]),
        "cannot read no/such/file.txt",
    );
}

#[test]
fn a_record_in_notation_shows_from_its_start() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let out = dir.path().join("opening.html");
    let opening = "1.a1b2 i5h5 2.a2b3 i6h6 3.c2c3 g4g5";
    let shown = pjlab_stdin(
        &[
            "show",
            "-",
            "--game",
            "abalone",
            "--variant",
            "belgian-daisy",
            "--out",
            out.to_str().expect(""),
        ],
        opening,
    );
    assert_success(&shown, &[]);
    let page = std::fs::read_to_string(&out).expect("the page");
    let boards = boards(&page);
    assert_eq!(boards.len(), 7);
    // 14 marbles a side throughout (no ejection in this opening).
    assert!(boards.iter().all(|(_, pieces)| pieces.len() == 28));
    let expected: Vec<String> = opening
        .split_whitespace()
        .map(|t| t.split_once('.').map_or(t, |(_, m)| m).to_string())
        .collect();
    assert_eq!(listed_moves(&page), expected);
    // An illegal move is named by its number.
    let bad = pjlab_stdin(
        &[
            "show",
            "-",
            "--game",
            "abalone",
            "--out",
            out.to_str().expect(""),
        ],
        opening,
    );
    assert_usage_error(&bad, "move");
}

#[test]
fn chomp_games_show_the_bar_shrinking() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let run = dir.path().join("c");
    let run = run.to_str().expect("utf-8");
    let args = [
        "match",
        "--game",
        "chomp",
        "--variants",
        "3x4",
        "--a",
        "random",
        "--b",
        "random",
        "--games",
        "2",
        "--workers",
        "1",
        "--out",
        run,
    ];
    assert!(pjlab(&args).status.success());
    let page = show(&[
        "show",
        run,
        "--out",
        dir.path().join("c.html").to_str().expect(""),
    ]);
    let boards = boards(&page);
    // Every bite eats at least one square: the bar shrinks from 12 squares.
    assert_eq!(boards[0].1.len(), 12);
    assert!(boards.windows(2).all(|w| w[1].1.len() < w[0].1.len()));
    assert_eq!(
        boards.last().expect("a board").1.len(),
        1,
        "only the poison is left"
    );
    // An illegal move in a games.txt entry is named by its number.
    let games_txt = std::fs::read_to_string(format!("{run}/games.txt")).expect("games.txt");
    let header = games_txt.lines().next().expect("a header");
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, format!("{header}\n1,2\n1,2\n")).expect("written");
    assert_usage_error(
        &pjlab(&["show", bad.to_str().expect(""), "--game", "chomp"]),
        "move 2",
    );
}
