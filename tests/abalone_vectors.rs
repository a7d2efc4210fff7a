//! Abalone against `../shared/vectors/abalone`: perft from the three starts and in doubles (both
//! seat orders), and the depth-2 divide tables of both daisies.

use std::collections::BTreeMap;

use pjlab_abalone::perft::{divide, perft};
use pjlab_abalone::{Position, Variant};
use pjlab_conformance::read_vector;

/// `(name, depth, count)` rows of `perft.txt` (`standard perft(4) = 5045110 [175s]`) and
/// `doubles.txt` (`doubles_junction perft(1) = 26 ...`).
fn perft_rows(file: &str) -> Vec<(String, u32, u64)> {
    read_vector(file)
        .lines()
        .filter_map(|line| {
            let (name, rest) = line.trim().split_once(" perft(")?;
            let (depth, rest) = rest.split_once(") = ")?;
            let count = rest.split_whitespace().next()?;
            Some((
                name.to_string(),
                depth.parse().expect("depth"),
                count.parse().expect("count"),
            ))
        })
        .collect()
}

/// The variant a vector file's name stands for.
fn variant(name: &str) -> Variant {
    match name {
        "standard" => Variant::Standard,
        "belgian_daisy" => Variant::BelgianDaisy,
        "german_daisy" => Variant::GermanDaisy,
        "doubles_junction" => "doubles".parse().unwrap(),
        "doubles_junction_ccw" => "doubles-0321".parse().unwrap(),
        other => panic!("unknown vector {other}"),
    }
}

/// The spec's table (`abalone.md`), which `perft.txt` gives only at depth 4.
const SPEC_PERFT: [(Variant, [u64; 4]); 3] = [
    (Variant::Standard, [44, 1_936, 98_912, 5_045_110]),
    (Variant::BelgianDaisy, [52, 2_692, 149_322, 8_270_666]),
    (Variant::GermanDaisy, [80, 6_244, 493_480, 38_240_570]),
];

/// Depth 4 only in release builds (CI tests in release); a debug build checks up to depth 3.
const MAX_DEPTH: u32 = if cfg!(debug_assertions) { 3 } else { 4 };

#[test]
fn perft_from_the_three_starts() {
    let rows = perft_rows("abalone/perft.txt");
    assert_eq!(rows.len(), 3, "{rows:?}");
    for (name, depth, count) in rows {
        let expected = SPEC_PERFT
            .iter()
            .find(|(v, _)| *v == variant(&name))
            .expect("in the spec");
        assert_eq!(
            expected.1[depth as usize - 1],
            count,
            "spec and vector disagree on {name}"
        );
    }
    for (variant, counts) in SPEC_PERFT {
        let start = variant.start();
        for depth in 1..=MAX_DEPTH {
            assert_eq!(
                perft(&start, depth),
                counts[depth as usize - 1],
                "{variant} perft({depth})"
            );
        }
    }
}

#[test]
fn perft_in_doubles_both_seat_orders() {
    let rows = perft_rows("abalone/doubles.txt");
    assert_eq!(rows.len(), 8, "{rows:?}");
    for (name, depth, count) in rows {
        if depth > MAX_DEPTH {
            continue;
        }
        let start = variant(&name).start();
        assert_eq!(perft(&start, depth), count, "{name} perft({depth})");
    }
}

#[test]
fn first_moves_of_seat_zero_in_doubles() {
    // doubles.txt lists seat 0's 26 first moves.
    let text = read_vector("abalone/doubles.txt");
    let listed = text.lines().nth(1).expect("the move list");
    let mut expected: Vec<&str> = listed.split_whitespace().collect();
    expected.sort_unstable();
    let start = Variant::BelgianDaisy.start();
    let doubles: Variant = "doubles".parse().unwrap();
    let mut ours: Vec<String> = divide(&doubles.start(), 1)
        .into_iter()
        .map(|(mv, _)| mv.to_string())
        .collect();
    ours.sort_unstable();
    assert_eq!(ours, expected);
    // And every one of them is a two-player move of Black from the same board.
    for mv in &ours {
        assert!(start.parse_move(mv).is_ok(), "{mv}");
    }
}

#[test]
fn divide_two_of_both_daisies() {
    let text = read_vector("abalone/divide2.txt");
    let mut tables = 0;
    for line in text.lines() {
        let Some((name, rest)) = line.split_once(" divide(2): ") else {
            continue;
        };
        let (pairs, sum) = rest.rsplit_once(" sum ").expect("a sum");
        let expected: BTreeMap<String, u64> = pairs
            .split_whitespace()
            .map(|pair| {
                let (mv, count) = pair.split_once(':').expect("move:count");
                (mv.to_string(), count.parse().expect("count"))
            })
            .collect();
        assert_eq!(
            expected.values().sum::<u64>(),
            sum.trim().parse::<u64>().unwrap()
        );
        let ours: BTreeMap<String, u64> = divide(&variant(name).start(), 2)
            .into_iter()
            .map(|(mv, count)| (mv.to_string(), count))
            .collect();
        assert_eq!(ours, expected, "{name}");
        tables += 1;
    }
    assert_eq!(tables, 2);
}

#[test]
fn start_texts_are_the_specs() {
    let spec = [
        (
            "standard",
            "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b 0 0 0 1",
        ),
        (
            "belgian-daisy",
            "ww1bb/wwwbbb/1ww1bb1/8/9/8/1bb1ww1/bbbwww/bb1ww b 0 0 0 1",
        ),
        (
            "german-daisy",
            "5/ww2bb/www1bbb/1ww2bb1/9/1bb2ww1/bbb1www/bb2ww/5 b 0 0 0 1",
        ),
        (
            "doubles",
            "ww1dd/wwwddd/1ww1dd1/8/9/8/1bb1xx1/bbbxxx/bb1xx 0 - - 0 0 0 1",
        ),
    ];
    for (name, text) in spec {
        let variant: Variant = name.parse().unwrap();
        assert_eq!(variant.start().to_string(), text);
        assert_eq!(Position::from_text(text).unwrap(), variant.start());
    }
    // The seat order is a rule, not part of the board: the same text under doubles-0321.
    let ccw: Variant = "doubles-0321".parse().unwrap();
    let adopted = ccw.adopt(Position::from_text(spec[3].1).unwrap()).unwrap();
    assert_eq!(adopted, ccw.start());
}
