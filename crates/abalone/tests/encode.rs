//! The network encoder: the mover's view, the policy indices, the augmentation symmetries and
//! the counts of what it shows.

mod common;

use std::collections::HashSet;

use common::random_positions;
use pjlab_abalone::geometry::cells;
use pjlab_abalone::{
    AbaloneEncoder, Cell, Color, Move, Position, Rules, Seat, SeatOrder, Symmetry, Variant,
};
use pjlab_core::{Encoder, Game};

const PLANE: usize = Cell::COUNT;

fn encode(position: &Position) -> Vec<f32> {
    let mut out = vec![f32::NAN; AbaloneEncoder.input_len()];
    AbaloneEncoder.encode(position, &mut out);
    out
}

fn plane(input: &[f32], k: usize) -> &[f32] {
    &input[k * PLANE..(k + 1) * PLANE]
}

fn count(input: &[f32], k: usize) -> u32 {
    plane(input, k).iter().sum::<f32>() as u32
}

fn scalars(input: &[f32]) -> &[f32] {
    &input[AbaloneEncoder::PLANES * PLANE..]
}

fn legal(position: &Position) -> Vec<Move> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    moves
}

/// Random positions, some under rules with a draw counter that has not run out.
fn positions() -> Vec<Position> {
    let mut out = random_positions(1, 31, 400, 2);
    for p in out.iter_mut().skip(1).step_by(3) {
        let rules = Rules {
            no_ejection_plies: Some(p.quiet_plies().saturating_add(40)),
            ..p.rules()
        };
        *p = p.clone().with_rules(rules).unwrap();
    }
    out
}

#[test]
fn identity_and_sizes() {
    let id = AbaloneEncoder.id();
    assert_eq!((id.name.as_str(), id.version), ("abalone-planes", 1));
    assert_eq!(AbaloneEncoder.input_len(), 7 * 61 + 6);
    assert_eq!(
        AbaloneEncoder.num_actions(),
        Variant::Standard.start().num_actions()
    );
    assert_eq!(AbaloneEncoder.symmetries(), 12);
}

#[test]
fn the_input_counts_every_marble_once() {
    for p in positions() {
        let v = encode(&p);
        assert!(
            v.iter()
                .all(|x| *x == 0.0 || *x == 1.0 || (0.0..1.0).contains(x))
        );
        let me = p.color_to_move();
        assert_eq!(count(&v, 0), p.marbles(me).count_ones(), "{p}");
        assert_eq!(count(&v, 1), p.marbles(me.other()).count_ones(), "{p}");
        assert_eq!(count(&v, 2), p.movable().count_ones(), "{p}");
        // No cell holds two marbles.
        for i in 0..PLANE {
            assert!(plane(&v, 0)[i] + plane(&v, 1)[i] <= 1.0);
        }
        let s = scalars(&v);
        assert_eq!(s[0], f32::from(p.ejected(me)) / 6.0);
        assert_eq!(s[1], f32::from(p.ejected(me.other())) / 6.0);
        match p.rules().no_ejection_plies {
            Some(n) => assert_eq!(s[2], f32::from(p.quiet_plies()) / f32::from(n)),
            None => assert_eq!(s[2], 0.0),
        }
        if p.rules().is_doubles() {
            // The four labels split the two colours.
            assert_eq!(count(&v, 3) + count(&v, 4), count(&v, 0));
            assert_eq!(count(&v, 5) + count(&v, 6), count(&v, 1));
            assert_eq!(count(&v, 3), p.seat_marbles(p.seat()).count_ones());
            assert_eq!(
                count(&v, 4),
                p.seat_marbles(p.seat().partner()).count_ones()
            );
            assert_eq!(s[3], 1.0);
            assert_eq!(s[4], f32::from(u8::from(p.junction(me))));
            assert_eq!(s[5], f32::from(u8::from(p.junction(me.other()))));
        } else {
            assert!((3..7).all(|k| count(&v, k) == 0));
            assert_eq!(&s[3..], [0.0; 3]);
            assert_eq!(plane(&v, 2), plane(&v, 0));
        }
    }
}

#[test]
fn the_mover_plays_black_from_row_a() {
    for p in positions().into_iter().step_by(5) {
        let v = encode(&p);
        let me = p.color_to_move();
        // White's problem is shown turned half a turn: its marble on a cell lights the
        // opposite cell.
        let turn = if me == Color::White {
            Symmetry::HALF_TURN
        } else {
            Symmetry::IDENTITY
        };
        for cell in cells(p.marbles(me)) {
            assert_eq!(plane(&v, 0)[turn.map_cell(cell).dense()], 1.0);
        }
        for cell in cells(p.marbles(me.other())) {
            assert_eq!(plane(&v, 1)[turn.map_cell(cell).dense()], 1.0);
        }
    }
}

#[test]
fn the_view_equals_that_of_the_flipped_position() {
    // The colour swap and the half turn change who moves and where, not the mover's problem.
    for p in positions() {
        let flipped = p.flipped();
        assert_eq!(encode(&p), encode(&flipped), "{p}");
        for mv in legal(&p) {
            let a = AbaloneEncoder.policy_index(&p, p.action_index(mv));
            let image = Symmetry::HALF_TURN.map_move(mv);
            let b = AbaloneEncoder.policy_index(&flipped, flipped.action_index(image));
            assert_eq!(a, b, "{mv} on {p}");
        }
    }
}

#[test]
fn policy_indices_are_distinct_and_in_range() {
    for p in positions() {
        let mut seen = HashSet::new();
        for mv in legal(&p) {
            let i = AbaloneEncoder.policy_index(&p, p.action_index(mv));
            assert!(i < AbaloneEncoder.num_actions());
            assert!(seen.insert(i), "{mv} on {p}");
        }
    }
}

#[test]
fn transformed_actions_are_legal_in_transformed_positions() {
    for p in positions().into_iter().step_by(2) {
        let moves = legal(&p);
        for k in 0..AbaloneEncoder.symmetries() {
            let image = AbaloneEncoder.transform(&p, k);
            assert_eq!(image.color_to_move(), p.color_to_move());
            assert_eq!(image.seat(), p.seat());
            let mut expected = HashSet::new();
            for &mv in &moves {
                let index = AbaloneEncoder.transform_action(p.action_index(mv), k);
                let image_move = image.action_from_index(index);
                assert!(image_move.is_some(), "symmetry {k}: {mv} on {p}");
                expected.insert(index);
            }
            let actual: HashSet<usize> = legal(&image)
                .into_iter()
                .map(|mv| image.action_index(mv))
                .collect();
            assert_eq!(actual, expected, "symmetry {k} on {p}");
            // The augmented sample shows as many marbles.
            let (a, b) = (encode(&p), encode(&image));
            for plane in 0..AbaloneEncoder::PLANES {
                assert_eq!(count(&a, plane), count(&b, plane));
            }
            assert_eq!(scalars(&a), scalars(&b));
        }
    }
}

#[test]
fn doubles_labels_are_named_by_the_turn_order() {
    // Seat 0 to move: its own daisy (B2), its partner's (H8), then the opponent that moves next
    // (seat 1, H5, in the order 0, 1, 2, 3; seat 3, B5, in the order 0, 3, 2, 1) and the other.
    let daisy = |names: &str| -> Vec<usize> {
        let mut v: Vec<usize> = names
            .split_whitespace()
            .map(|n| Cell::parse(n).unwrap().dense())
            .collect();
        v.sort_unstable();
        v
    };
    let lit = |input: &[f32], k: usize| -> Vec<usize> {
        (0..PLANE).filter(|&i| plane(input, k)[i] == 1.0).collect()
    };
    let b2 = daisy("a1 a2 b1 b2 b3 c2 c3");
    let h5 = daisy("g4 g5 h4 h5 h6 i5 i6");
    let h8 = daisy("g7 g8 h7 h8 h9 i8 i9");
    let b5 = daisy("a4 a5 b4 b5 b6 c5 c6");
    for (order, next, other) in [
        (SeatOrder::Clockwise, &h5, &b5),
        (SeatOrder::CounterClockwise, &b5, &h5),
    ] {
        let start = Variant::Doubles {
            order,
            junction: true,
        }
        .start();
        let v = encode(&start);
        assert_eq!(lit(&v, 3), b2);
        assert_eq!(lit(&v, 4), h8);
        assert_eq!(&lit(&v, 5), next);
        assert_eq!(&lit(&v, 6), other);
        assert_eq!(
            lit(&v, 2),
            b2,
            "only its own daisy moves before the junction"
        );
        assert_eq!(&scalars(&v)[3..], [1.0, 0.0, 0.0]);
    }
    // Seat 1 (White, H5) to move after a quiet move of seat 0: shown as Black from row A, its
    // daisy turned half a turn onto B5's cells.
    let mut p = Variant::Doubles {
        order: SeatOrder::Clockwise,
        junction: true,
    }
    .start();
    p.play(p.parse_move("c3d4").unwrap()).unwrap();
    assert_eq!(p.seat(), Seat::new(1).unwrap());
    let v = encode(&p);
    assert_eq!(lit(&v, 3), b5);
    // Its partner (seat 3, B5) shows on H5's cells, the next seat (2, H8) on B2's.
    assert_eq!(lit(&v, 4), h5);
    assert_eq!(lit(&v, 5), b2);
}
