//! The board's twelve symmetries and the colour swap are symmetries of the rules: the proof that
//! they are sound data augmentations and that the mover's-view encoding loses nothing.
//!
//! The maps are checked against what does not depend on their implementation: the coordinate
//! neighbours of `Cell::step` (group laws, neighbourhoods), move texts mapped cell name by cell
//! name and read back by the notation parser, and the move generator, play and perft on positions
//! from random games of every variant (with pushes, ejections, junctions and wins).

mod common;

use std::collections::HashSet;

use common::random_positions;
use pjlab_abalone::action::{NUM_ACTIONS, action_index, action_move};
use pjlab_abalone::notation::parse_move;
use pjlab_abalone::perft::perft;
use pjlab_abalone::symmetry::{action_from_mover, mover_symmetry};
use pjlab_abalone::{
    Cell, Color, Direction, Mode, Move, Position, Rules, SeatOrder, Setup, Symmetry, Variant,
};
use pjlab_core::{Game, Outcome};

fn legal(position: &Position) -> HashSet<Move> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let set: HashSet<Move> = moves.iter().copied().collect();
    assert_eq!(set.len(), moves.len(), "duplicate moves");
    set
}

/// What the rules read of a position, but the move number (see the colour swap's ply note).
fn without_move_number(position: &Position) -> Setup {
    let mut setup = position.to_setup();
    setup.move_number = 1;
    setup
}

/// Hex distance to E5 from the coordinates.
fn distance(cell: Cell) -> i32 {
    let x = cell.diagonal() as i32 - 4;
    let y = cell.row() as i32 - 4;
    x.abs().max(y.abs()).max((x - y).abs())
}

fn cell_map(sym: Symmetry) -> Vec<Cell> {
    Cell::all().map(|c| sym.map_cell(c)).collect()
}

#[test]
fn every_symmetry_maps_neighbours_to_neighbours() {
    let mut seen = HashSet::new();
    for sym in Symmetry::all() {
        let images: HashSet<Cell> = Cell::all().map(|c| sym.map_cell(c)).collect();
        assert_eq!(images.len(), Cell::COUNT, "{sym:?} is not a bijection");
        assert_eq!(sym.map_cell(Cell::CENTRE), Cell::CENTRE);
        assert!(seen.insert(cell_map(sym)), "{sym:?} repeats another");
        let dirs: HashSet<Direction> = Direction::ALL
            .iter()
            .map(|&d| sym.map_direction(d))
            .collect();
        assert_eq!(dirs.len(), 6);
        for cell in Cell::all() {
            assert_eq!(distance(sym.map_cell(cell)), distance(cell));
            assert_eq!(sym.map_bits(cell.bit()), sym.map_cell(cell).bit());
            for dir in Direction::ALL {
                // The image of a neighbour is the image's neighbour in the image direction, and
                // a step off the board stays off it.
                assert_eq!(
                    cell.step(dir).map(|n| sym.map_cell(n)),
                    sym.map_cell(cell).step(sym.map_direction(dir)),
                    "{sym:?} {cell} {dir:?}"
                );
            }
        }
        let all = Cell::all().fold(0, |acc, c| acc | c.bit());
        assert_eq!(sym.map_bits(all), all);
        assert_eq!(sym.is_reflection(), sym.index() >= 6);
    }
    assert_eq!(seen.len(), Symmetry::COUNT);
}

#[test]
fn group_laws() {
    let one = Symmetry::rotation(1);
    let mut power = Symmetry::IDENTITY;
    for k in 0..6 {
        assert_eq!(power, Symmetry::rotation(k));
        assert_eq!(cell_map(power), cell_map(Symmetry::rotation(k)));
        power = power.then(one);
    }
    assert_eq!(power, Symmetry::IDENTITY, "six sixths of a turn");
    // Applying the rotation six times to cells, directions and moves gives them back.
    for cell in Cell::all() {
        assert_eq!((0..6).fold(cell, |c, _| one.map_cell(c)), cell);
    }
    for dir in Direction::ALL {
        assert_eq!((0..6).fold(dir, |d, _| one.map_direction(d)), dir);
        assert_eq!(
            one.map_direction(dir),
            Direction::ALL[(dir.index() + 1) % 6]
        );
    }
    for index in 0..NUM_ACTIONS {
        let mv = action_move(index).unwrap();
        assert_eq!((0..6).fold(mv, |m, _| one.map_move(m)), mv);
        assert_eq!((0..6).fold(index, |i, _| one.map_action(i)), index);
    }
    assert_eq!(Symmetry::MIRROR.then(Symmetry::MIRROR), Symmetry::IDENTITY);
    assert_eq!(
        Symmetry::HALF_TURN.then(Symmetry::HALF_TURN),
        Symmetry::IDENTITY
    );
    for a in Symmetry::all() {
        // Index 6 + r is the mirror, then r sixths of a turn.
        if a.is_reflection() {
            assert_eq!(
                Symmetry::MIRROR.then(Symmetry::rotation(a.turns())),
                a,
                "{a:?}"
            );
            assert_eq!(a.then(a), Symmetry::IDENTITY, "reflections are involutions");
        }
        assert_eq!(a.then(a.inverse()), Symmetry::IDENTITY);
        assert_eq!(a.inverse().then(a), Symmetry::IDENTITY);
        for b in Symmetry::all() {
            // `then` is composition, on cells, directions, moves and action indices.
            let ab = a.then(b);
            for cell in Cell::all() {
                assert_eq!(ab.map_cell(cell), b.map_cell(a.map_cell(cell)));
            }
            for dir in Direction::ALL {
                assert_eq!(ab.map_direction(dir), b.map_direction(a.map_direction(dir)));
            }
            for index in (0..NUM_ACTIONS).step_by(7) {
                assert_eq!(ab.map_action(index), b.map_action(a.map_action(index)));
            }
            for c in Symmetry::all() {
                assert_eq!(a.then(b).then(c), a.then(b.then(c)), "associative");
            }
        }
    }
}

#[test]
fn action_maps_are_permutations_that_agree_with_the_moves() {
    for sym in Symmetry::all() {
        let images: HashSet<usize> = (0..NUM_ACTIONS).map(|i| sym.map_action(i)).collect();
        assert_eq!(images.len(), NUM_ACTIONS, "{sym:?} is not a permutation");
        for index in 0..NUM_ACTIONS {
            let mv = action_move(index).unwrap();
            assert_eq!(sym.map_action(index), action_index(sym.map_move(mv)));
            assert_eq!(sym.inverse().map_action(sym.map_action(index)), index);
        }
        assert_eq!(sym.map_action(NUM_ACTIONS - 1), NUM_ACTIONS - 1, "the pass");
    }
    for index in 0..NUM_ACTIONS {
        assert_eq!(action_from_mover(Color::Black, index), index);
        assert_eq!(
            action_from_mover(Color::White, index),
            Symmetry::HALF_TURN.map_action(index)
        );
    }
    assert_eq!(mover_symmetry(Color::White), Symmetry::HALF_TURN);
}

/// A move text with each cell name replaced by its image's.
fn map_text(sym: Symmetry, text: &str) -> String {
    if text == "pass" {
        return text.into();
    }
    (0..text.len())
        .step_by(2)
        .map(|i| {
            let cell = Cell::parse(&text[i..i + 2]).expect("a cell name");
            sym.map_cell(cell).to_string()
        })
        .collect()
}

#[test]
fn move_texts_map_cell_by_cell() {
    // Aba-Pro names a move by its cells: the image move is the one named by the images of its
    // cells (a broadside's ends may come out of order; the parser takes either).
    for sym in Symmetry::all() {
        for index in 0..NUM_ACTIONS {
            let mv = action_move(index).unwrap();
            let text = map_text(sym, &mv.to_string());
            assert_eq!(parse_move(&text).unwrap(), sym.map_move(mv), "{sym:?} {mv}");
        }
    }
    let standard = Variant::Standard.start();
    let a1b2 = standard.parse_move("a1b2").unwrap();
    assert_eq!(Symmetry::HALF_TURN.map_move(a1b2).to_string(), "i9h8");
    assert_eq!(Symmetry::MIRROR.map_move(a1b2).to_string(), "a5b5");
    let broadside = parse_move("e6e8f6").unwrap();
    assert_eq!(
        Symmetry::HALF_TURN.map_move(broadside).to_string(),
        "e2e4d2"
    );
}

#[test]
fn board_symmetries_are_symmetries_of_the_rules() {
    let positions = random_positions(2, 17, 500, 3);
    assert!(positions.len() > 2_000, "{}", positions.len());
    assert!(positions.iter().any(|p| p.winner().is_some()));
    let mut moves_checked = 0;
    for (n, p) in positions.iter().enumerate() {
        let moves = legal(p);
        for sym in Symmetry::all() {
            let image = sym.map_position(p);
            // A valid position that reads back from its text, with the same counters.
            assert_eq!(Position::from_text(&image.to_string()).unwrap(), image);
            assert_eq!(sym.inverse().map_position(&image), *p);
            assert_eq!(image.outcome(), p.outcome());
            assert_eq!(image.seat(), p.seat());
            for color in Color::BOTH {
                assert_eq!(image.junction(color), p.junction(color));
                assert_eq!(
                    image.marbles(color).count_ones(),
                    p.marbles(color).count_ones()
                );
            }
            let expected: HashSet<Move> = moves.iter().map(|&mv| sym.map_move(mv)).collect();
            assert_eq!(legal(&image), expected, "{sym:?} on {p}");
            if n % 10 == 0 {
                assert_eq!(perft(&image, 2), perft(p, 2), "{sym:?} on {p}");
            }
            // Play commutes with the map: same marbles, labels, ejections, junctions.
            for &mv in &moves {
                assert_eq!(
                    image.after(sym.map_move(mv)),
                    sym.map_position(&p.after(mv)),
                    "{sym:?}: {mv} on {p}"
                );
                moves_checked += 1;
            }
        }
    }
    assert!(moves_checked > 500_000, "{moves_checked}");
}

#[test]
fn colour_swap_is_a_symmetry_of_the_rules() {
    let positions = random_positions(2, 23, 500, 3);
    let mut moves_checked = 0;
    for (n, p) in positions.iter().enumerate() {
        let swapped = p.color_swapped();
        let flipped = p.flipped();
        assert_eq!(swapped.color_swapped(), *p, "an involution");
        assert_eq!(flipped.flipped(), *p, "an involution");
        assert_eq!(Position::from_text(&swapped.to_string()).unwrap(), swapped);
        assert_eq!(swapped.color_to_move(), p.color_to_move().other());
        assert_eq!(swapped.seat().index(), p.seat().index() ^ 1);
        assert_eq!(swapped.move_number(), p.move_number());
        assert_eq!(swapped.ply().abs_diff(p.ply()), 1);
        for color in Color::BOTH {
            assert_eq!(swapped.marbles(color.other()), p.marbles(color));
            assert_eq!(swapped.ejected(color.other()), p.ejected(color));
            assert_eq!(swapped.junction(color.other()), p.junction(color));
        }
        for (cell, seat) in p.pieces() {
            assert_eq!(swapped.seat_at(cell).unwrap().index(), seat.index() ^ 1);
        }
        // The outcome is the same for the side to move.
        match (p.outcome(), swapped.outcome()) {
            (Some(Outcome::Win(a)), Some(Outcome::Win(b))) => assert_eq!(a, b.other()),
            (a, b) => assert_eq!(a, b),
        }
        // The same moves (the board is unchanged), and with the half turn their images.
        let moves = legal(p);
        assert_eq!(legal(&swapped), moves, "{p}");
        let turned: HashSet<Move> = moves
            .iter()
            .map(|&mv| Symmetry::HALF_TURN.map_move(mv))
            .collect();
        assert_eq!(legal(&flipped), turned, "{p}");
        if n % 10 == 0 {
            assert_eq!(perft(&swapped, 2), perft(p, 2), "{p}");
            assert_eq!(perft(&flipped, 2), perft(p, 2), "{p}");
        }
        for &mv in &moves {
            let after = p.after(mv);
            assert_eq!(
                without_move_number(&swapped.after(mv)),
                without_move_number(&after.color_swapped()),
                "{mv} on {p}"
            );
            assert_eq!(
                without_move_number(&flipped.after(Symmetry::HALF_TURN.map_move(mv))),
                without_move_number(&after.flipped()),
                "{mv} on {p}"
            );
            moves_checked += 1;
        }
        // The mover's view always has Black to move.
        assert_eq!(p.from_mover().color_to_move(), Color::Black);
    }
    assert!(moves_checked > 50_000, "{moves_checked}");
}

#[test]
fn colour_swap_reverses_the_seat_order_of_doubles() {
    // Seats s -> s ^ 1 turn 0, 1, 2, 3 into 1, 0, 3, 2: the order 0, 3, 2, 1. The swapped
    // doubles start has the start's perft only with the order reversed (the spec's figures: 26 /
    // 676 / 17,420 with 0, 1, 2, 3 and 26 / 670 / 17,420 with 0, 3, 2, 1).
    let start = Variant::Doubles {
        order: SeatOrder::Clockwise,
        junction: true,
    }
    .start();
    let swapped = start.color_swapped();
    assert_eq!(
        swapped.rules().mode,
        Mode::Doubles(SeatOrder::CounterClockwise)
    );
    assert_eq!(swapped.seat().index(), 1);
    assert_eq!(
        swapped.to_string(),
        "bb1xx/bbbxxx/1bb1xx1/8/9/8/1ww1dd1/wwwddd/ww1dd 1 - - 0 0 0 1 order=0321"
    );
    assert_eq!([1, 2, 3].map(|d| perft(&swapped, d)), [26, 676, 17_420]);
    let unreversed = swapped
        .clone()
        .with_rules(Rules {
            mode: Mode::Doubles(SeatOrder::Clockwise),
            ..swapped.rules()
        })
        .unwrap();
    assert_eq!(perft(&unreversed, 2), 670, "not the same game");
    // The two-player starts: the swapped standard start is White's to move, on the same board.
    let standard = Variant::Standard.start();
    assert_eq!(
        standard.color_swapped().to_string(),
        "bbbbb/bbbbbb/2bbb2/8/9/8/2www2/wwwwww/wwwww w 0 0 0 1"
    );
    assert_eq!(
        standard.flipped().to_string(),
        "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb w 0 0 0 1"
    );
    assert_eq!(perft(&standard.flipped(), 3), 98_912);
    assert_eq!(
        Game::side_to_move(&standard.flipped()),
        pjlab_core::Side::Second
    );
}
