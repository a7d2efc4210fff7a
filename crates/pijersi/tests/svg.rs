//! The board picture against the position it draws: over the positions of seeded random games,
//! every piece is drawn once on its cell in its colour and roles, no empty cell has one, the
//! side to move (or the result) is shown, and the last move's cells are marked.

use std::collections::BTreeMap;

use pjlab_core::svg::{Element, balanced, elements};
use pjlab_core::{GameKit, Outcome};
use pjlab_pijersi::{Cell, Move, PijersiKit, Position, Role, Variant, svg};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

fn role(name: &str) -> Option<Role> {
    Role::ALL.into_iter().find(|&r| {
        name == match r {
            Role::Rock => "rock",
            Role::Paper => "paper",
            Role::Scissors => "scissors",
            Role::Wise => "wise",
        }
    })
}

/// The cells that elements of `class` name, in order.
fn cells_of(all: &[Element], class: &str) -> Vec<String> {
    all.iter()
        .filter(|e| e.has_class(class))
        .map(|e| e.attr("data-cell").expect("a data-cell").to_string())
        .collect()
}

/// Checks the picture of `position`, reached by `last` when given.
fn check(position: &Position, last: Option<(&Position, Move)>) {
    let picture = svg::svg(position, last.map(|(_, mv)| mv));
    assert_eq!(
        PijersiKit::board_svg(position, last).as_deref(),
        Some(picture.as_str())
    );
    check_picture(&picture, position, last);
}

/// Checks that `picture` shows `position`, reached by `last` when given.
fn check_picture(picture: &str, position: &Position, last: Option<(&Position, Move)>) {
    balanced(picture).unwrap_or_else(|e| panic!("{e} in the picture of {position}"));
    assert!(picture.contains("viewBox=\"0 0 "));
    let all = elements(picture);
    // Every piece once, on its cell, in its colour and roles.
    let mut drawn = BTreeMap::new();
    for e in all.iter().filter(|e| e.has_class("piece")) {
        let cell = e.attr("data-cell").expect("a piece names its cell");
        let cell = Cell::parse(cell).unwrap_or_else(|| panic!("bad cell {cell}"));
        assert!(
            drawn.insert(cell, e.clone()).is_none(),
            "{cell} drawn twice"
        );
    }
    for cell in Cell::all() {
        match (position.piece_at(cell), drawn.get(&cell)) {
            (None, None) => {}
            (Some(piece), Some(e)) => {
                assert!(e.has_class(piece.color.name()), "{cell} in {position}");
                let class = e.attr("class").expect("a class");
                let top = class
                    .split_whitespace()
                    .filter_map(role)
                    .collect::<Vec<_>>();
                assert_eq!(top, vec![piece.top], "{cell} in {position}");
                assert_eq!(e.attr("data-bottom").and_then(role), piece.bottom);
            }
            (piece, e) => panic!("{cell}: piece {piece:?}, drawn {e:?} in {position}"),
        }
    }
    // Whose turn, or the result.
    let status: Vec<&Element> = all.iter().filter(|e| e.has_class("status")).collect();
    assert_eq!(status.len(), 1);
    let mover = position.side_to_move().name();
    assert_eq!(status[0].attr("data-to-move"), Some(mover));
    let result = position.outcome().map(|o| match o {
        Outcome::Win(side) => PijersiKit::INFO.side_name(side),
        Outcome::Draw => "draw",
    });
    assert_eq!(status[0].attr("data-result"), result, "in {position}");
    assert!(
        status[0]
            .text
            .to_lowercase()
            .contains(result.unwrap_or(mover))
    );
    // The last move: it starts where the mover had a piece and ends where it has one now.
    let (from, via, to) = (
        cells_of(&all, "from"),
        cells_of(&all, "via"),
        cells_of(&all, "to"),
    );
    match last {
        None => assert!(from.is_empty() && via.is_empty() && to.is_empty()),
        Some((before, mv)) => {
            let mover = before.side_to_move();
            let (Some(f), Some(t)) = (Cell::parse(&from[0]), Cell::parse(&to[0])) else {
                panic!("the last move is not marked in {position}");
            };
            assert_eq!((from.len(), to.len()), (1, 1));
            assert_eq!(before.piece_at(f).map(|p| p.color), Some(mover));
            assert_eq!(position.piece_at(t).map(|p| p.color), Some(mover));
            assert_eq!((f, t), (mv.start(), mv.end()));
            // A third cell only where the turn passes through one.
            let (path, n) = mv.path();
            let third = (n == 3 && path[1] != f && path[1] != t).then(|| path[1].to_string());
            assert_eq!(via, third.into_iter().collect::<Vec<_>>());
        }
    }
}

#[test]
fn pictures_show_their_positions() {
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    let mut moves = Vec::new();
    let mut stacks = 0;
    let mut ends = 0;
    for g in 0..24u64 {
        let mut position = Variant::ALL[g as usize % Variant::ALL.len()].setup(g);
        check(&position, None);
        while position.outcome().is_none() {
            position.legal_moves(&mut moves);
            let &mv = moves.choose(&mut rng).expect("a move before the end");
            let before = position.clone();
            position.play_unchecked(mv);
            check(&position, Some((&before, mv)));
            stacks += position.stacks().count_ones();
        }
        ends += 1;
    }
    assert!(stacks > 500, "the games should hold stacks: {stacks}");
    assert_eq!(ends, 24);
}

#[test]
fn a_wrong_picture_is_caught() {
    // The check fails on the picture of the position before the move, or without its mark.
    let start = Position::default();
    let mv = start.parse_ugi("a4b5c4").expect("a legal move");
    let after = start.after(mv);
    check(&after, Some((&start, mv)));
    for wrong in [svg::svg(&start, Some(mv)), svg::svg(&after, None)] {
        let caught = std::panic::catch_unwind(|| check_picture(&wrong, &after, Some((&start, mv))));
        assert!(caught.is_err());
    }
}
