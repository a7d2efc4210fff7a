//! The alpha-beta evaluation: each weight on hand-built positions, invariance under the board's
//! symmetries and the colour swap, the ejection danger against the move generator, the tactical
//! moves against play, and the TOML weights.

mod common;

use common::random_positions;
use pjlab_abalone::eval::{exposed, neighbour_pairs};
use pjlab_abalone::{
    AbaloneEval, AbaloneWeights, Bitboard, Cell, Color, Error, Mode, Move, Position, Rules, Seat,
    SeatOrder, Setup, Symmetry,
};
use pjlab_core::Heuristic;

/// Puts a marble of `seat` on each named cell.
fn place(setup: &mut Setup, seat: usize, names: &str) {
    for name in names.split_whitespace() {
        setup.board[cell(name).dense()] = Some(Seat::new(seat).unwrap());
    }
}

/// A two-player position: Black's and White's cells, the side to move, the ejections.
fn two_player(black: &str, white: &str, to_move: Color, ejected: [u8; 2]) -> Position {
    let mut setup = Setup::empty();
    place(&mut setup, 0, black);
    place(&mut setup, 1, white);
    setup.seat = Seat::first_of(to_move);
    setup.ejected = ejected;
    Position::from_setup(&setup).expect("valid")
}

/// Weights with every term off.
fn zero() -> AbaloneWeights {
    AbaloneWeights {
        marble: 0,
        danger: 0,
        centre: 0,
        cohesion: 0,
        edge: 0,
        draw_counter: 0,
    }
}

fn score(weights: AbaloneWeights, position: &Position) -> i32 {
    AbaloneEval::new(weights).evaluate(position)
}

#[test]
fn each_weight_on_hand_built_positions() {
    // Material: ejections made minus suffered, for the side to move.
    let p = two_player("e5", "e6", Color::Black, [3, 1]);
    let marble = AbaloneWeights {
        marble: 7,
        ..zero()
    };
    assert_eq!(score(marble.clone(), &p), 14);
    let p = two_player("e5", "e6", Color::White, [3, 1]);
    assert_eq!(score(marble, &p), -14);

    // Centre: Black a1 (4) and c3 (2) against White e5 (0) and e6 (1).
    let p = two_player("a1 c3", "e5 e6", Color::Black, [0, 0]);
    let centre = AbaloneWeights {
        centre: 5,
        ..zero()
    };
    assert_eq!(score(centre, &p), -5 * (6 - 1));

    // Cohesion: a1, a2, b2 touch pairwise (3 pairs); e5 and e7 do not touch.
    let p = two_player("a1 a2 b2", "e5 e7", Color::Black, [0, 0]);
    let cohesion = AbaloneWeights {
        cohesion: 4,
        ..zero()
    };
    assert_eq!(score(cohesion, &p), 12);
    // Edge: a1 and a2 are on the outer ring, b2, e5 and e7 are not.
    let edge = AbaloneWeights { edge: 9, ..zero() };
    assert_eq!(score(edge.clone(), &p), -18);
    assert_eq!(score(edge, &p.color_swapped()), -18, "the same for White");

    // Danger: White c3, b2 push a1 off south-west (2 on 1).
    let danger = AbaloneWeights {
        danger: 30,
        ..zero()
    };
    let p = two_player("a1", "b2 c3", Color::Black, [0, 0]);
    assert_eq!(score(danger.clone(), &p), -30);
    assert_eq!(
        score(danger.clone(), &p.color_swapped()),
        -30,
        "White's a1 the same"
    );
    let p = two_player("b2 c3", "a1", Color::Black, [0, 0]);
    assert_eq!(
        score(danger.clone(), &p),
        30,
        "the opponent's exposed marble"
    );
    // 3 on 2: e5, d4, c3 push b2 and a1; only a1 goes off.
    let p = two_player("a1 b2", "c3 d4 e5", Color::Black, [0, 0]);
    assert_eq!(exposed(&p, Color::Black), cell("a1").bit());
    assert_eq!(score(danger.clone(), &p), -30);
    // 2 against 2 pushes nothing, either way.
    let p = two_player("a1 b2", "c3 d4", Color::Black, [0, 0]);
    assert_eq!(score(danger.clone(), &p), 0);
    // Two exposed marbles count twice (c3, b2 push a1 south-west; c5, b5 push a5 south-east).
    let p = two_player("a1 a5", "b2 c3 b5 c5", Color::White, [0, 0]);
    assert_eq!(
        exposed(&p, Color::Black),
        cell("a1").bit() | cell("a5").bit()
    );
    assert_eq!(score(danger, &p), 60);

    // The sum of the terms with the defaults.
    let p = two_player("a1 a2 b2", "e5 e7", Color::Black, [1, 0]);
    let w = AbaloneWeights::default();
    // Distances: Black a1 4, a2 4, b2 3; White e5 0, e7 2, and 5 for the marble it lost.
    let expected = w.marble - w.centre * (11 - 2 - 5) + 3 * w.cohesion - 2 * w.edge;
    assert_eq!(score(w, &p), expected);
}

#[test]
fn the_draw_counter_scales_the_score() {
    let text = |quiet: u16| format!("5/6/7/8/3b5/8/7/6/bw3 b 1 0 {quiet} 20");
    let raw = AbaloneEval::default().raw_score(&Position::from_text(&text(0)).unwrap());
    assert!(raw > 0);
    let w = AbaloneWeights::default();
    for quiet in [0, 10, 50, 99] {
        let p = Position::from_text(&text(quiet)).unwrap();
        let keep = 100 * 100 - i64::from(w.draw_counter) * i64::from(quiet);
        let expected = (i64::from(raw) * keep / 10_000) as i32;
        assert_eq!(AbaloneEval::default().evaluate(&p), expected, "{quiet}");
    }
    // Half the score is gone as the counter runs out; without a counter nothing is.
    let p = Position::from_text(&text(99)).unwrap();
    assert!(AbaloneEval::default().evaluate(&p) < raw * 52 / 100);
    let p = Position::from_text(&format!("{} draw=none", text(99))).unwrap();
    assert_eq!(AbaloneEval::default().evaluate(&p), raw);
}

fn cell(name: &str) -> Cell {
    Cell::parse(name).unwrap()
}

#[test]
fn doubles_danger_needs_one_label_and_the_next_seat() {
    // Black seat 0 to move, a lone black a1; the white pair c3, b2 belongs to seat 3. Before
    // White's junction only seat 3 can push with it, and only if seat 3 moves next.
    let build = |order: SeatOrder, labels: [usize; 2], junction: bool| {
        let mut setup = Setup::empty();
        setup.rules = Rules {
            mode: Mode::Doubles(order),
            ..Rules::default()
        };
        place(&mut setup, 0, "a1");
        place(&mut setup, 2, "i9");
        place(&mut setup, 1, "e9");
        place(&mut setup, labels[0], "b2");
        place(&mut setup, labels[1], "c3");
        setup.junction = [false, junction];
        Position::from_setup(&setup).unwrap()
    };
    let a1 = cell("a1").bit();
    assert_eq!(
        exposed(&build(SeatOrder::Clockwise, [3, 3], false), Color::Black),
        0
    );
    assert_eq!(
        exposed(
            &build(SeatOrder::CounterClockwise, [3, 3], false),
            Color::Black
        ),
        a1
    );
    assert_eq!(
        exposed(&build(SeatOrder::Clockwise, [3, 3], true), Color::Black),
        a1
    );
    // Mixed labels push only after the junction (here the pair itself makes it).
    let mixed = build(SeatOrder::Clockwise, [1, 3], false);
    assert!(mixed.junction(Color::White));
    assert_eq!(exposed(&mixed, Color::Black), a1);
}

/// The marble an ejecting in-line move pushes off, walking cells with the coordinates.
fn ejected_cell(position: &Position, mv: Move) -> Cell {
    let Move::Inline { trailing, dir } = mv else {
        panic!("only in-line moves eject")
    };
    let me = position.color_to_move();
    let mut cell = trailing;
    while position.marbles(me) & cell.bit() != 0 {
        cell = cell.step(dir).unwrap();
    }
    let mut last = cell;
    while position.marbles(me.other()) & cell.bit() != 0 {
        last = cell;
        match cell.step(dir) {
            Some(next) => cell = next,
            None => break,
        }
    }
    last
}

/// The marbles the seat to move of `position` (a game not over) can push off with one move, by
/// the generator.
fn ejectable_by_play(position: &Position) -> Bitboard {
    let me = position.color_to_move();
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let mut out = 0;
    for mv in moves {
        if position.after(mv).ejected(me) > position.ejected(me) {
            out |= ejected_cell(position, mv).bit();
        }
    }
    out
}

/// The same board with the next seat to move, as if the seat to move had passed.
fn null_move(position: &Position) -> Position {
    let mut setup = position.to_setup();
    setup.seat = match position.rules().mode {
        Mode::TwoPlayers => Seat::first_of(position.color_to_move().other()),
        Mode::Doubles(order) => order.next(position.seat()),
    };
    Position::from_setup(&setup).unwrap()
}

#[test]
fn ejection_danger_agrees_with_the_move_generator() {
    let positions = random_positions(2, 41, 500, 2);
    let mut found = 0;
    for p in positions.iter().filter(|p| p.outcome().is_none()) {
        let me = p.color_to_move();
        // The opponent's marbles the mover can eject now, and the mover's that the next seat
        // could eject.
        assert_eq!(exposed(p, me.other()), ejectable_by_play(p), "{p}");
        let after_pass = null_move(p);
        assert_eq!(exposed(p, me), ejectable_by_play(&after_pass), "{p}");
        found += exposed(p, me).count_ones();
    }
    assert!(found > 500, "{found}");
}

#[test]
fn tactical_moves_are_the_pushes_and_ejections_come_first() {
    let eval = AbaloneEval::default();
    let mut pushes = 0;
    let mut ejections = 0;
    for p in random_positions(2, 43, 500, 2) {
        let me = p.color_to_move();
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        let mut kept = moves.clone();
        eval.retain_tactical(&p, &mut kept);
        let filtered: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&mv| eval.is_tactical(&p, mv))
            .collect();
        assert_eq!(kept, filtered, "{p}");
        let quiet_best = moves
            .iter()
            .filter(|&&mv| !eval.is_tactical(&p, mv))
            .map(|&mv| eval.tactical_order(&p, mv))
            .max();
        assert!(quiet_best.is_none_or(|o| o == 0));
        for mv in moves {
            let after = p.after(mv);
            let pushed = after.marbles(me.other()) != p.marbles(me.other());
            let ejects = after.ejected(me) > p.ejected(me);
            assert_eq!(eval.is_tactical(&p, mv), pushed, "{mv} on {p}");
            let order = eval.tactical_order(&p, mv);
            if ejects {
                ejections += 1;
                let wins = after.winner() == Some(me);
                assert_eq!(order >= 1 << 20, wins, "{mv} on {p}");
                assert!(order > 1 << 10, "{mv} on {p}");
            } else if pushed {
                pushes += 1;
                assert!((1..=2).contains(&order), "{mv} on {p}");
            }
        }
    }
    assert!(pushes > 1_000 && ejections > 100, "{pushes} {ejections}");
}

#[test]
fn the_score_is_invariant_under_the_symmetries() {
    // Board symmetries keep the side to move; the colour swap changes it but not its problem.
    let eval = AbaloneEval::default();
    for p in random_positions(1, 47, 500, 3) {
        let s = eval.evaluate(&p);
        for sym in Symmetry::all() {
            assert_eq!(eval.evaluate(&sym.map_position(&p)), s, "{sym:?} on {p}");
        }
        assert_eq!(eval.evaluate(&p.color_swapped()), s, "{p}");
        assert_eq!(eval.evaluate(&p.flipped()), s, "{p}");
        // Cohesion counted by coordinates.
        let own = p.marbles(p.color_to_move());
        let by_cells = Cell::all()
            .filter(|c| own & c.bit() != 0)
            .flat_map(|c| {
                pjlab_abalone::Direction::AXES
                    .into_iter()
                    .filter_map(move |d| c.step(d))
            })
            .filter(|n| own & n.bit() != 0)
            .count();
        assert_eq!(neighbour_pairs(own) as usize, by_cells);
    }
}

#[test]
fn weights_come_from_toml() {
    let w = AbaloneWeights::from_toml("[abalone]\nmarble = 1000\ncentre = 0\n").unwrap();
    assert_eq!(w.marble, 1000);
    assert_eq!(w.centre, 0);
    assert_eq!(w.danger, AbaloneWeights::default().danger);
    assert_eq!(
        AbaloneWeights::from_toml("").unwrap(),
        AbaloneWeights::default()
    );
    let err = AbaloneWeights::from_toml("[abalone]\nmarbles = 1\n").unwrap_err();
    assert!(matches!(err, Error::EvalConfig { .. }), "{err}");
    assert!(err.to_string().contains("marbles"), "{err}");
    assert!(AbaloneWeights::from_toml("[abalone]\nedge = \"high\"\n").is_err());
    assert!(AbaloneWeights::from_toml("[pijersi]\nrock = 1\n").is_err());
    let missing = std::path::Path::new("/nonexistent/weights.toml");
    let err = AbaloneWeights::from_file(missing).unwrap_err();
    assert!(
        err.to_string().contains("/nonexistent/weights.toml"),
        "{err}"
    );
}
