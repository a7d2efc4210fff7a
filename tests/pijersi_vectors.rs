//! Pijersi against `../shared/vectors/pijersi`: every row of its README, the per-move divide of
//! the start, and the 31 recorded games.

use std::collections::HashMap;

use pjlab_conformance::{parse_count, read_vector};
use pjlab_core::{Game, Outcome, Side};
use pjlab_pijersi::notation::{parse_game, write_game};
use pjlab_pijersi::perft::{divide, perft};
use pjlab_pijersi::{Position, Rules};

/// The README's tables: `(psn, [(depth, count)])` for the perft table, and
/// `(psn, depths, ours, pass-through)` for the divergence table.
struct Readme {
    perft: Vec<(String, Vec<(u32, u64)>)>,
    divergence: Vec<(String, Vec<Divergence>)>,
}

/// One depth of a divergence row: depth, end-of-turn count, pass-through count.
type Divergence = (u32, u64, u64);

fn backticked(cell: &str) -> String {
    let start = cell.find('`').expect("a backticked PSN");
    let end = cell[start + 1..].find('`').expect("closing backtick") + start + 1;
    cell[start + 1..end].to_string()
}

fn readme() -> Readme {
    let text = read_vector("pijersi/README.md");
    let mut perft = Vec::new();
    let mut divergence = Vec::new();
    let mut section = "";
    for line in text.lines() {
        if let Some(title) = line.strip_prefix("## ") {
            section = if title.starts_with("Perft") {
                "perft"
            } else if title.starts_with("Where") {
                "divergence"
            } else {
                ""
            };
            continue;
        }
        if !line.starts_with("| ") || !line.contains('`') {
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        // The PSN is the cell's backticked item with rows (a row may also name moves).
        let psn = cells[0]
            .split('`')
            .skip(1)
            .step_by(2)
            .find(|item| item.contains('/'))
            .expect("a backticked PSN")
            .to_string();
        match section {
            "perft" => {
                let counts = cells[1]
                    .split(", ")
                    .map(|item| {
                        let (d, n) = item.split_once(':').expect("depth: count");
                        let n = n.split('(').next().unwrap();
                        (d.trim().parse().unwrap(), parse_count(n))
                    })
                    .collect();
                perft.push((psn, counts));
            }
            "divergence" => {
                let split = |c: &str| -> Vec<String> {
                    c.split('/').map(|s| s.trim().to_string()).collect()
                };
                let (depths, ours, theirs) = (split(cells[1]), split(cells[2]), split(cells[3]));
                let rows = (0..depths.len())
                    .map(|k| {
                        (
                            depths[k].parse().unwrap(),
                            parse_count(&ours[k]),
                            parse_count(&theirs[k]),
                        )
                    })
                    .collect();
                divergence.push((psn, rows));
            }
            _ => {}
        }
    }
    assert_eq!(perft.len(), 2, "perft table rows");
    assert_eq!(divergence.len(), 6, "divergence table rows");
    Readme { perft, divergence }
}

#[test]
fn perft_table_up_to_depth_4() {
    for (psn, counts) in readme().perft {
        let position = Position::from_psn(&psn).unwrap();
        for (depth, expected) in counts {
            if depth > 4 {
                continue; // depth 5 is a benchmark (`pjlab bench`), not a test
            }
            assert_eq!(perft(&position, depth), expected, "perft({depth}) of {psn}");
        }
    }
}

#[test]
fn divergence_table_under_both_readings() {
    for (psn, rows) in readme().divergence {
        let ours = Position::from_psn(&psn).unwrap();
        let theirs = ours.clone().with_rules(Rules::PassThrough);
        for (depth, expected_ours, expected_theirs) in rows {
            assert_eq!(
                perft(&ours, depth),
                expected_ours,
                "end-of-turn perft({depth}) of {psn}"
            );
            assert_eq!(
                perft(&theirs, depth),
                expected_theirs,
                "pass-through perft({depth}) of {psn}"
            );
        }
    }
}

#[test]
fn the_last_divergence_example_is_not_a_win() {
    let position = Position::from_psn("p-1p-3/7/2WR3/7/6/7/6 w 0 1").unwrap();
    let mv = position.parse_ugi("e3g2f2").unwrap();
    assert_eq!(position.after(mv).outcome(), None);
    let compat = position.clone().with_rules(Rules::PassThrough);
    assert_eq!(compat.after(mv).outcome(), Some(Outcome::Win(Side::First)));
}

#[test]
fn draw_rule_at_its_edge() {
    let text = read_vector("pijersi/README.md");
    let section = text
        .split("## The draw rule at its edge")
        .nth(1)
        .expect("draw section");
    let psn = backticked(section);
    let after_psn = section
        .split_once('`')
        .unwrap()
        .1
        .split_once('`')
        .unwrap()
        .1;
    let moves = backticked(after_psn);
    let mut position = Position::from_psn(&psn).unwrap();
    for text in moves.split_whitespace() {
        let mv = position.parse_ugi(text).unwrap();
        position.play(mv).unwrap();
    }
    assert_eq!(position.side_to_move(), pjlab_pijersi::Color::Black);
    assert_eq!(position.halfmove(), 19);
    assert_eq!(position.outcome(), None);

    let mut drawn = position.clone();
    drawn.play(position.parse_ugi("f7g6").unwrap()).unwrap();
    assert_eq!(drawn.halfmove(), 20);
    assert_eq!(drawn.outcome(), Some(Outcome::Draw));
    let mut moves_after = Vec::new();
    Game::legal_moves(&drawn, &mut moves_after);
    assert!(moves_after.is_empty());

    let mut captured = position.clone();
    captured.play(position.parse_ugi("c6b7").unwrap()).unwrap();
    assert_eq!(captured.halfmove(), 0);
    assert_eq!(captured.outcome(), None);
    captured.play(captured.parse_ugi("f1g1").unwrap()).unwrap();
    assert_eq!(captured.outcome(), Some(Outcome::Win(Side::First)));
}

#[test]
fn divide_of_the_start_position() {
    let expected: HashMap<String, u64> = read_vector("pijersi/start_divide2.txt")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let (mv, n) = l.split_once(':').expect("move: count");
            (mv.trim().to_string(), parse_count(n))
        })
        .collect();
    let ours: HashMap<String, u64> = divide(&Position::default(), 2)
        .into_iter()
        .map(|(m, n)| (m.to_string(), n))
        .collect();
    assert_eq!(ours.len(), 186);
    assert_eq!(ours, expected);
    assert_eq!(ours.values().sum::<u64>(), 34_054);
}

fn result_name(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        Some(Outcome::Win(Side::First)) => "p1win",
        Some(Outcome::Win(Side::Second)) => "p2win",
        Some(Outcome::Draw) => "draw",
        None => "none",
    }
}

#[test]
fn recorded_games_replay_exactly_and_round_trip_through_the_notation() {
    let text = read_vector("pijersi/recorded_games.jsonl");
    let mut games = 0;
    for (k, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        let game: serde_json::Value = serde_json::from_str(line).unwrap();
        let start = Position::from_psn(game["start_psn"].as_str().unwrap()).unwrap();
        let per_ply: Vec<u64> = game["perft1_per_ply"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        let mut position = start.clone();
        let mut moves = Vec::new();
        let mut legal = Vec::new();
        for (ply, text) in game["ugi_moves"].as_array().unwrap().iter().enumerate() {
            let text = text.as_str().unwrap();
            Game::legal_moves(&position, &mut legal);
            assert_eq!(
                legal.len() as u64,
                per_ply[ply],
                "game {k} ply {ply}: legal move count in {position}"
            );
            let mv = position
                .parse_ugi(text)
                .unwrap_or_else(|e| panic!("game {k} ply {ply}: {e}"));
            position.play(mv).unwrap();
            moves.push(mv);
        }
        assert_eq!(moves.len() as u64, game["n_turns"].as_u64().unwrap());
        assert_eq!(
            position.board_psn(),
            game["final_board"].as_str().unwrap(),
            "game {k} board"
        );
        assert_eq!(
            position.to_string(),
            game["rs_final_psn"].as_str().unwrap(),
            "game {k} psn"
        );
        assert_eq!(
            result_name(position.outcome()),
            game["certu_result"].as_str().unwrap(),
            "game {k}"
        );
        assert_eq!(
            20 - position.halfmove() as u64,
            game["certu_credit"].as_u64().unwrap(),
            "game {k} credit"
        );

        // Print in the rulebook notation, parse it back: the same game.
        let written = write_game(&start, &moves).unwrap();
        let parsed = parse_game(&written).unwrap_or_else(|e| panic!("game {k}: {e}\n{written}"));
        assert_eq!(
            parsed.start, start,
            "game {k} start after round trip\n{written}"
        );
        assert_eq!(parsed.moves, moves, "game {k} moves after round trip");
        games += 1;
    }
    assert_eq!(games, 31);
}
