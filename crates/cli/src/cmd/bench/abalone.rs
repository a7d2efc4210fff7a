//! Abalone figures of `pjlab bench`: perft from each start, and the core's moves per second.

use std::hint::black_box;

use pjlab_abalone::perft::perft;
use pjlab_abalone::{Move, Position, Rules, Variant};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use super::{Figure, timed};

/// Positions met in seeded random games from every variant (no draw counter, so the games run
/// into pushes, ejections and junctions).
fn sample_positions() -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    for game in 0..56 {
        let variant = Variant::ALL[game % Variant::ALL.len()];
        let rules = Rules {
            no_ejection_plies: None,
            ..variant.rules()
        };
        let mut position = variant.start().with_rules(rules).expect("same mode");
        for _ in 0..120 {
            position.legal_moves(&mut moves);
            let Some(&mv) = moves.choose(&mut rng) else {
                break;
            };
            positions.push(position.clone());
            position.play_unchecked(mv);
        }
    }
    positions
}

/// Perft(4) from the three two-player starts, then generation, play and counting rates.
pub(super) fn figures(repeat: usize, chatty: bool) -> Vec<Figure> {
    let mut figures = Vec::new();
    let starts = [
        (
            Variant::Standard,
            "abalone_perft4_standard_seconds",
            "abalone_perft4_standard_leaves",
        ),
        (
            Variant::BelgianDaisy,
            "abalone_perft4_belgian_seconds",
            "abalone_perft4_belgian_leaves",
        ),
        (
            Variant::GermanDaisy,
            "abalone_perft4_german_seconds",
            "abalone_perft4_german_leaves",
        ),
    ];
    for (variant, seconds_name, leaves_name) in starts {
        if chatty {
            eprintln!("abalone perft(4) from the {variant} start, {repeat} runs...");
        }
        let start = variant.start();
        let (seconds, leaves) = timed(repeat, || perft(&start, 4));
        figures.push(Figure {
            name: seconds_name,
            value: seconds,
            unit: "s",
        });
        figures.push(Figure {
            name: leaves_name,
            value: leaves as f64,
            unit: "leaves",
        });
    }

    let positions = sample_positions();
    let lists = super::legal_lists(&positions);
    let total_moves: usize = lists.iter().map(Vec::len).sum();
    let rounds = 10;
    let mut buffer = Vec::with_capacity(128);
    let (seconds, generated) = timed(repeat, || {
        let mut n = 0;
        for _ in 0..rounds {
            for p in &positions {
                black_box(p).legal_moves(&mut buffer);
                n += buffer.len();
            }
        }
        n
    });
    figures.push(Figure {
        name: "abalone_movegen_moves_per_second",
        value: generated as f64 / seconds,
        unit: "moves/s",
    });
    let (seconds, played) = timed(repeat, || {
        let mut n = 0u64;
        for _ in 0..rounds {
            for (p, moves) in positions.iter().zip(&lists) {
                for &mv in moves {
                    let mut child = p.clone();
                    child.play_unchecked(black_box(mv));
                    n += u64::from(black_box(&child).quiet_plies() & 1);
                }
            }
        }
        n
    });
    black_box(played);
    figures.push(Figure {
        name: "abalone_play_moves_per_second",
        value: (total_moves * rounds) as f64 / seconds,
        unit: "moves/s",
    });
    let (seconds, counted) = timed(repeat, || {
        let mut n = 0;
        for _ in 0..rounds {
            for p in &positions {
                n += black_box(p).count_moves();
            }
        }
        n
    });
    figures.push(Figure {
        name: "abalone_count_positions_per_second",
        value: (positions.len() * rounds) as f64 / seconds,
        unit: "positions/s",
    });
    figures.push(Figure {
        name: "abalone_positions_signature",
        value: (counted / rounds as u64) as f64,
        unit: "moves",
    });
    figures.push(Figure {
        name: "abalone_move_bytes",
        value: std::mem::size_of::<Move>() as f64,
        unit: "bytes",
    });
    figures.push(Figure {
        name: "abalone_position_bytes",
        value: std::mem::size_of::<Position>() as f64,
        unit: "bytes",
    });
    figures
}
