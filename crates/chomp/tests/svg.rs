//! The bar's picture against the position it draws: over the positions of seeded random games on
//! bars of several sizes, every remaining square is drawn once (the poisoned one marked), no
//! eaten square is, the side to move (or the winner) is shown, and the last bite and what it ate
//! are marked.

use std::collections::BTreeSet;

use pjlab_chomp::{Chomp, ChompKit, ChompMove, svg};
use pjlab_core::svg::{Element, balanced, elements};
use pjlab_core::{Game, GameKit, Outcome};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

/// The squares (1-based) that elements with every class of `classes` name.
fn squares(all: &[Element], classes: &[&str]) -> Vec<(usize, usize)> {
    all.iter()
        .filter(|e| classes.iter().all(|c| e.has_class(c)))
        .map(|e| {
            let cell = e.attr("data-cell").expect("a data-cell");
            let (r, c) = cell.split_once(',').expect("row,col");
            (r.parse().expect("a row"), c.parse().expect("a column"))
        })
        .collect()
}

/// The squares left in `position`, 1-based.
fn remaining(position: &Chomp) -> BTreeSet<(usize, usize)> {
    let mut out = BTreeSet::new();
    for (row, &length) in position.lengths().iter().enumerate() {
        for col in 0..length {
            out.insert((row + 1, col + 1));
        }
    }
    out
}

fn check_picture(picture: &str, position: &Chomp, last: Option<(&Chomp, ChompMove)>) {
    balanced(picture).unwrap_or_else(|e| panic!("{e} in the picture of {position}"));
    let all = elements(picture);
    let drawn = squares(&all, &["piece"]);
    let unique: BTreeSet<_> = drawn.iter().copied().collect();
    assert_eq!(
        unique.len(),
        drawn.len(),
        "a square drawn twice in {position}"
    );
    assert_eq!(unique, remaining(position), "in {position}");
    let poison = squares(&all, &["piece", "poison"]);
    let expected: Vec<_> = remaining(position)
        .into_iter()
        .filter(|&s| s == (1, 1))
        .collect();
    assert_eq!(poison, expected);
    let status: Vec<&Element> = all.iter().filter(|e| e.has_class("status")).collect();
    assert_eq!(status.len(), 1);
    let name = |side| ChompKit::INFO.side_name(side);
    let mover = name(position.side_to_move());
    assert_eq!(status[0].attr("data-to-move"), Some(mover));
    let result = position.outcome().map(|o| match o {
        Outcome::Win(side) => name(side),
        Outcome::Draw => "draw",
    });
    assert_eq!(status[0].attr("data-result"), result);
    assert!(
        status[0]
            .text
            .to_lowercase()
            .contains(result.unwrap_or(mover))
    );
    let (bite, eaten) = (
        squares(&all, &["last", "to"]),
        squares(&all, &["last", "eaten"]),
    );
    match last {
        None => assert!(bite.is_empty() && eaten.is_empty()),
        Some((before, mv)) => {
            let gone: BTreeSet<_> = remaining(before)
                .difference(&remaining(position))
                .copied()
                .collect();
            assert_eq!(eaten.iter().copied().collect::<BTreeSet<_>>(), gone);
            // The bite is the eaten square closest to the poison.
            assert_eq!(bite, vec![*gone.iter().min().expect("a bite eats")]);
            assert_eq!(bite, vec![(mv.row as usize + 1, mv.col as usize + 1)]);
        }
    }
}

fn check(position: &Chomp, last: Option<(&Chomp, ChompMove)>) {
    let picture = svg::svg(position, last);
    assert_eq!(
        ChompKit::board_svg(position, last).as_deref(),
        Some(picture.as_str())
    );
    check_picture(&picture, position, last);
}

#[test]
fn pictures_show_their_positions() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut moves = Vec::new();
    let mut positions = 0;
    for (rows, cols) in [(1, 1), (1, 7), (5, 6), (7, 3), (16, 16), (4, 4)] {
        for _ in 0..5 {
            let mut position = Chomp::new(rows, cols).expect("a size");
            check(&position, None);
            while position.outcome().is_none() {
                position.legal_moves(&mut moves);
                let &mv = moves.choose(&mut rng).expect("a move");
                let before = position.clone();
                position.play(mv).expect("a legal move");
                check(&position, Some((&before, mv)));
                positions += 1;
            }
        }
    }
    assert!(positions > 100);
}

#[test]
fn a_wrong_picture_is_caught() {
    let start = Chomp::new(3, 4).expect("a size");
    let mv = start.parse_move("2,2").expect("a bite");
    let mut after = start.clone();
    after.play(mv).expect("a legal bite");
    check(&after, Some((&start, mv)));
    for wrong in [svg::svg(&start, Some((&start, mv))), svg::svg(&after, None)] {
        let caught = std::panic::catch_unwind(|| check_picture(&wrong, &after, Some((&start, mv))));
        assert!(caught.is_err());
    }
}

/// The picture's width and height (its `viewBox`).
fn view_box(all: &[Element]) -> (f64, f64) {
    let svg = all
        .iter()
        .find(|e| e.name == "svg")
        .expect("an svg element");
    let numbers: Vec<f64> = svg
        .attr("viewBox")
        .expect("a viewBox")
        .split_whitespace()
        .map(|n| n.parse().expect("a number"))
        .collect();
    (numbers[2], numbers[3])
}

#[test]
fn the_status_line_and_the_bar_fit_in_the_picture() {
    // The longest status line: the game-over one, on the smallest bars as on wide ones.
    for (rows, cols) in [(1, 1), (1, 2), (3, 4), (2, 16), (16, 16)] {
        let mut position = Chomp::new(rows, cols).expect("a size");
        let mut moves = Vec::new();
        for _ in 0..2 {
            let all = elements(&svg::svg(&position, None));
            let (width, height) = view_box(&all);
            let status = all
                .iter()
                .find(|e| e.has_class("status"))
                .expect("a status");
            assert_eq!(
                status.attr("data-result").is_some(),
                position.outcome().is_some()
            );
            // At DejaVu Sans' average width of a character (0.55 em), centred.
            let size: f64 = status
                .attr("font-size")
                .expect("a size")
                .parse()
                .expect("a size");
            let line = status.text.chars().count() as f64 * 0.55 * size;
            let x: f64 = status.attr("x").expect("an x").parse().expect("an x");
            assert!(
                x - line / 2.0 >= 0.0 && x + line / 2.0 <= width,
                "{:?} ({line:.0} wide at x {x}) clipped by a {width}-wide picture of {position}",
                status.text
            );
            for square in all
                .iter()
                .filter(|e| e.name == "rect" && e.attr("data-cell").is_some())
            {
                let at = |name| -> f64 {
                    square
                        .attr(name)
                        .expect("a coordinate")
                        .parse()
                        .expect("a number")
                };
                assert!(
                    at("x") >= 0.0 && at("x") + at("width") <= width,
                    "in {position}"
                );
                assert!(
                    at("y") >= 0.0 && at("y") + at("height") <= height,
                    "in {position}"
                );
            }
            // Then play to the end (the game-over line is the same whatever the moves).
            while position.outcome().is_none() {
                position.legal_moves(&mut moves);
                let mv = *moves.last().expect("a move");
                position.play(mv).expect("a legal move");
            }
        }
    }
}
