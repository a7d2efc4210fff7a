//! Duel odds against the spec's table and an independent enumeration; sampled frequencies.

use pjlab_chifoumi::{Bag, Duel, DuelOdds, Object, Ratio};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The spec's table: A, B, win, draw, loss, E[A] (fractions as (numerator, denominator)).
type Row = (
    [u16; 3],
    [u16; 3],
    (i64, i64),
    (i64, i64),
    (i64, i64),
    (i64, i64),
);
const TABLE: [Row; 8] = [
    ([0, 0, 0], [0, 0, 0], (1, 3), (1, 3), (1, 3), (0, 1)),
    ([2, 1, 1], [0, 0, 0], (1, 3), (1, 3), (1, 3), (0, 1)),
    ([1, 0, 0], [0, 1, 0], (0, 1), (0, 1), (1, 1), (-1, 1)),
    ([2, 1, 1], [0, 0, 1], (1, 2), (1, 4), (1, 4), (1, 4)),
    ([3, 0, 0], [1, 2, 0], (0, 1), (1, 3), (2, 3), (-2, 3)),
    ([1, 1, 0], [0, 1, 1], (1, 4), (1, 4), (1, 2), (-1, 4)),
    ([4, 1, 0], [0, 3, 2], (8, 25), (3, 25), (14, 25), (-6, 25)),
    ([2, 2, 2], [7, 0, 0], (1, 3), (1, 3), (1, 3), (0, 1)),
];

fn bag(c: [u16; 3]) -> Bag {
    Bag::new(c[0], c[1], c[2])
}

fn ratio((n, d): (i64, i64)) -> Ratio {
    Ratio::new(n, d)
}

#[test]
fn spec_table_every_row() {
    for (a, b, win, draw, loss, ev) in TABLE {
        let odds = DuelOdds::new(bag(a), bag(b));
        let row = format!("{a:?} vs {b:?}");
        assert_eq!(odds.win, ratio(win), "win {row}");
        assert_eq!(odds.draw, ratio(draw), "draw {row}");
        assert_eq!(odds.loss, ratio(loss), "loss {row}");
        assert_eq!(odds.value(), ratio(ev), "value {row}");
        // The mirror duel swaps win and loss.
        let back = DuelOdds::new(bag(b), bag(a));
        assert_eq!((back.win, back.loss), (odds.loss, odds.win), "mirror {row}");
    }
}

/// Rock-paper-scissors spelled out, independently of `Object::beats`.
fn result(a: char, b: char) -> i32 {
    match (a, b) {
        ('P', 'F') | ('F', 'C') | ('C', 'P') => 1,
        ('F', 'P') | ('C', 'F') | ('P', 'C') => -1,
        _ => 0,
    }
}

/// Every object of a bag as a ball (one of each type for an empty bag).
fn balls(c: [u16; 3]) -> Vec<char> {
    if c == [0; 3] {
        return vec!['F', 'P', 'C'];
    }
    let mut out = Vec::new();
    for (letter, n) in ['F', 'P', 'C'].into_iter().zip(c) {
        out.extend(std::iter::repeat_n(letter, n as usize));
    }
    out
}

#[test]
fn odds_match_an_enumeration_of_balls() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..300 {
        let a: [u16; 3] = std::array::from_fn(|_| rng.random_range(0..5));
        let b: [u16; 3] = std::array::from_fn(|_| rng.random_range(0..5));
        let (ba, bb) = (balls(a), balls(b));
        let mut counts = [0i64; 3]; // loss, draw, win
        for &x in &ba {
            for &y in &bb {
                counts[(result(x, y) + 1) as usize] += 1;
            }
        }
        let den = (ba.len() * bb.len()) as i64;
        let odds = DuelOdds::new(bag(a), bag(b));
        // Cross-multiplied, so the enumeration needs no reduction of its own.
        for (r, n) in [
            (odds.loss, counts[0]),
            (odds.draw, counts[1]),
            (odds.win, counts[2]),
        ] {
            assert_eq!(r.numer() * den, n * r.denom(), "{a:?} vs {b:?}");
        }
        assert_eq!(odds.win + odds.draw + odds.loss, Ratio::new(1, 1));
    }
}

#[test]
fn sampled_duels_match_the_odds() {
    // 200,000 duels: a frequency's standard error is at most 0.0012; the tolerance 0.006 is
    // five of them.
    const N: u32 = 200_000;
    const TOLERANCE: f64 = 0.006;
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for (a, b, win, draw, loss, _) in TABLE {
        let mut counts = [0u32; 3];
        for _ in 0..N {
            let duel = Duel::fight(0, 1, [bag(a), bag(b)], &mut rng);
            let k = match duel.winner() {
                Some(0) => 0,
                None => 1,
                _ => 2,
            };
            counts[k] += 1;
        }
        for (k, p) in [win, draw, loss].into_iter().enumerate() {
            let freq = counts[k] as f64 / N as f64;
            let exact = p.0 as f64 / p.1 as f64;
            assert!(
                (freq - exact).abs() < TOLERANCE,
                "{a:?} vs {b:?}: {freq} vs {exact}"
            );
        }
    }
}

#[test]
fn draws_follow_the_counts() {
    const N: u32 = 120_000;
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for (b, expect) in [
        (Bag::new(4, 1, 0), [0.8, 0.2, 0.0]),
        (Bag::EMPTY, [1.0 / 3.0; 3]),
        (Bag::new(0, 0, 9), [0.0, 0.0, 1.0]),
    ] {
        let mut counts = [0u32; 3];
        for _ in 0..N {
            counts[b.draw(&mut rng).index()] += 1;
        }
        for o in Object::ALL {
            let freq = counts[o.index()] as f64 / N as f64;
            assert!((freq - expect[o.index()]).abs() < 0.006, "{b}: {o} {freq}");
        }
    }
}

#[test]
fn beats_is_the_spec_cycle() {
    use Object::*;
    assert!(Potion.beats(Flamme) && Flamme.beats(Citrouille) && Citrouille.beats(Potion));
    for o in Object::ALL {
        assert!(!o.beats(o));
        assert!(o.beaten_by().beats(o));
    }
}
