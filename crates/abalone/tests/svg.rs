//! The board picture against the position it draws: over the positions of seeded random games
//! from every variant (doubles included), every marble is drawn once on its cell in its colour
//! and seat, no empty cell has one, the side and seat to move (or the result) are shown, and the
//! last move's marbles are marked where they left and where they went.

use std::collections::{BTreeMap, BTreeSet};

use pjlab_abalone::{AbaloneKit, Cell, Color, Move, Position, Variant, svg};
use pjlab_core::svg::{Element, balanced, elements};
use pjlab_core::{GameKit, Outcome};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

/// The cells that elements of `class` name.
fn cells_of(all: &[Element], class: &str) -> BTreeSet<Cell> {
    all.iter()
        .filter(|e| e.has_class("last") && e.has_class(class))
        .map(|e| Cell::parse(e.attr("data-cell").expect("a data-cell")).expect("a cell"))
        .collect()
}

/// The colour of the marble on `cell`, if any.
fn color_at(position: &Position, cell: Cell) -> Option<Color> {
    position.seat_at(cell).map(|seat| seat.color())
}

/// Checks that `picture` shows `position`, reached by `last` when given.
fn check_picture(picture: &str, position: &Position, last: Option<(&Position, Move)>) {
    balanced(picture).unwrap_or_else(|e| panic!("{e} in the picture of {position}"));
    let all = elements(picture);
    let mut drawn = BTreeMap::new();
    for e in all.iter().filter(|e| e.has_class("piece")) {
        let cell = Cell::parse(e.attr("data-cell").expect("a cell")).expect("a cell name");
        assert!(
            drawn.insert(cell, e.clone()).is_none(),
            "{cell} drawn twice"
        );
    }
    for cell in Cell::all() {
        match (position.seat_at(cell), drawn.get(&cell)) {
            (None, None) => {}
            (Some(seat), Some(e)) => {
                assert!(e.has_class(seat.color().name()), "{cell} in {position}");
                assert!(!e.has_class(seat.color().other().name()));
                let index = seat.index().to_string();
                assert_eq!(e.attr("data-seat"), Some(index.as_str()), "{cell}");
            }
            (seat, e) => panic!("{cell}: seat {seat:?}, drawn {e:?} in {position}"),
        }
    }
    let status: Vec<&Element> = all.iter().filter(|e| e.has_class("status")).collect();
    assert_eq!(status.len(), 1);
    let mover = position.color_to_move().name();
    assert_eq!(status[0].attr("data-to-move"), Some(mover));
    let seat = position.seat().index().to_string();
    assert_eq!(status[0].attr("data-seat"), Some(seat.as_str()));
    let result = position.outcome().map(|o| match o {
        Outcome::Win(side) => AbaloneKit::INFO.side_name(side),
        Outcome::Draw => "draw",
    });
    assert_eq!(status[0].attr("data-result"), result, "in {position}");
    assert!(
        status[0]
            .text
            .to_lowercase()
            .contains(result.unwrap_or(mover))
    );
    let (from, to, pushed) = (
        cells_of(&all, "from"),
        cells_of(&all, "to"),
        cells_of(&all, "pushed"),
    );
    let Some((before, mv)) = last else {
        assert!(from.is_empty() && to.is_empty() && pushed.is_empty());
        return;
    };
    let me = before.color_to_move();
    if mv == Move::Pass {
        assert!(from.is_empty() && to.is_empty() && pushed.is_empty());
        return;
    }
    // Read from the two positions alone: cells the mover gained are marked `to`, cells it lost
    // `from`; every `to` cell holds its marble now, every `from` cell held one and holds none.
    for cell in Cell::all() {
        let (was, is) = (color_at(before, cell), color_at(position, cell));
        if was != Some(me) && is == Some(me) {
            assert!(to.contains(&cell), "{cell} gained by {mv} unmarked");
        }
        if was == Some(me) && is != Some(me) {
            assert!(from.contains(&cell), "{cell} left by {mv} unmarked");
        }
    }
    assert!((1..=3).contains(&to.len()), "{mv}: to {to:?}");
    assert!(to.iter().all(|&c| color_at(position, c) == Some(me)));
    assert!(from.iter().all(|&c| color_at(before, c) == Some(me)));
    assert!(from.iter().all(|&c| color_at(position, c) != Some(me)));
    assert!(from.len() <= to.len() && from.is_disjoint(&to));
    assert!(
        pushed
            .iter()
            .all(|&c| color_at(position, c) == Some(me.other()))
    );
    assert!(pushed.len() < to.len());
}

fn check(position: &Position, last: Option<(&Position, Move)>) {
    let picture = svg::svg(position, last);
    assert_eq!(
        AbaloneKit::board_svg(position, last).as_deref(),
        Some(picture.as_str())
    );
    check_picture(&picture, position, last);
}

#[test]
fn pictures_show_their_positions() {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let mut moves = Vec::new();
    let (mut pushes, mut broadsides, mut seats) = (0, 0, BTreeSet::new());
    for (k, variant) in Variant::ALL.into_iter().cycle().take(14).enumerate() {
        let mut position = variant.start();
        check(&position, None);
        for _ in 0..120 + 40 * k {
            if position.outcome().is_some() {
                break;
            }
            position.legal_moves(&mut moves);
            let &mv = moves.choose(&mut rng).expect("a move before the end");
            let before = position.clone();
            position.play_unchecked(mv);
            check(&position, Some((&before, mv)));
            seats.insert(before.seat().index());
            broadsides += usize::from(matches!(mv, Move::Broadside(_)));
            pushes += usize::from(
                before.marbles(before.color_to_move().other())
                    != position.marbles(before.color_to_move().other()),
            );
        }
    }
    assert!(pushes > 20 && broadsides > 200, "{pushes} {broadsides}");
    assert_eq!(seats.len(), 4, "doubles seats all moved");
}

#[test]
fn a_wrong_picture_is_caught() {
    let start = Variant::Standard.start();
    let mv = start.parse_move("a1b2").expect("a legal move");
    let after = start.after(mv);
    check(&after, Some((&start, mv)));
    for wrong in [svg::svg(&start, Some((&start, mv))), svg::svg(&after, None)] {
        let caught = std::panic::catch_unwind(|| check_picture(&wrong, &after, Some((&start, mv))));
        assert!(caught.is_err());
    }
}

#[test]
fn doubles_seats_have_their_own_colours() {
    let start: Variant = "doubles".parse().expect("a variant");
    let picture = svg::svg(&start.start(), None);
    let fills: BTreeSet<String> = elements(&picture)
        .windows(2)
        .filter(|w| w[0].has_class("marble"))
        .map(|w| w[1].attr("fill").expect("a fill").to_string())
        .collect();
    assert_eq!(fills.len(), 4, "{fills:?}");
}
