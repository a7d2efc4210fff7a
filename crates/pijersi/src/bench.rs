//! Rules speed for `pjlab bench`: perft from the classic start, and move generation, copy-make
//! play and bulk counting over positions of seeded random games.

use std::hint::black_box;

use pjlab_core::Game;
use pjlab_core::bench::{BenchOptions, Figure, legal_lists, random_positions, timed};

use crate::perft::perft;
use crate::{Move, Position, Variant};

/// Positions met in seeded random games (80 plies at most) from classic, half-random and
/// full-random setups: 60 games, the setups in turn, the game's number its setup's seed.
pub fn positions() -> Vec<Position> {
    let starts = (0..60u64).map(|game| {
        [Variant::Classic, Variant::HalfRandom, Variant::FullRandom][game as usize % 3].setup(game)
    });
    random_positions(2024, starts, 80)
}

/// perft(4) from the classic start (seconds, leaves, leaves per second; the leaf count is the
/// signature that must never change) unless `options.perft` is off; then, over [`positions`],
/// legal move generation (moves per second), copy-make play of each legal move (moves per
/// second) and bulk counting (positions per second, with the moves counted as signature), and
/// the sizes of a move and a position. Timed figures are the median of `options.repeat` runs.
pub fn figures(options: &BenchOptions) -> Vec<Figure> {
    let mut figures = Vec::new();
    if options.perft {
        options.say(&format!(
            "perft(4) from the classic start, {} runs...",
            options.repeat
        ));
        let (seconds, leaves) = timed(options.repeat, || perft(&Position::default(), 4));
        figures.push(Figure::new("perft4_seconds", seconds, "s"));
        figures.push(Figure::new("perft4_leaves", leaves as f64, "leaves"));
        figures.push(Figure::new(
            "perft4_leaves_per_second",
            leaves as f64 / seconds,
            "leaves/s",
        ));
    }

    let positions = positions();
    let lists = legal_lists(&positions);
    let total_moves: usize = lists.iter().map(Vec::len).sum();
    let rounds = 20;

    let mut buffer = Vec::with_capacity(256);
    let (seconds, generated) = timed(options.repeat, || {
        let mut n = 0;
        for _ in 0..rounds {
            for p in &positions {
                Game::legal_moves(black_box(p), &mut buffer);
                n += buffer.len();
            }
        }
        n
    });
    figures.push(Figure::new(
        "movegen_moves_per_second",
        generated as f64 / seconds,
        "moves/s",
    ));

    let (seconds, played) = timed(options.repeat, || {
        let mut n = 0u64;
        for _ in 0..rounds {
            for (p, moves) in positions.iter().zip(&lists) {
                for &mv in moves {
                    let mut child = p.clone();
                    child.play_unchecked(black_box(mv));
                    n += black_box(&child).halfmove() as u64 & 1;
                }
            }
        }
        n
    });
    black_box(played);
    figures.push(Figure::new(
        "play_moves_per_second",
        (total_moves * rounds) as f64 / seconds,
        "moves/s",
    ));

    let (seconds, counted) = timed(options.repeat, || {
        let mut n = 0;
        for _ in 0..rounds {
            for p in &positions {
                n += black_box(p).count_moves();
            }
        }
        n
    });
    figures.push(Figure::new(
        "count_positions_per_second",
        (positions.len() * rounds) as f64 / seconds,
        "positions/s",
    ));
    figures.push(Figure::new(
        "bench_positions_signature",
        (counted / rounds as u64) as f64,
        "moves",
    ));
    figures.push(Figure::new(
        "move_bytes",
        std::mem::size_of::<Move>() as f64,
        "bytes",
    ));
    figures.push(Figure::new(
        "position_bytes",
        std::mem::size_of::<Position>() as f64,
        "bytes",
    ));
    figures
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bench_positions_are_its_signature() {
        // `pjlab bench`'s `bench_positions_signature`: the moves over the bench positions.
        let positions = positions();
        let counted: u64 = positions.iter().map(Position::count_moves).sum();
        assert_eq!(counted, 267_377);
        let options = BenchOptions {
            repeat: 1,
            chatty: false,
            perft: false,
        };
        let figures = figures(&options);
        assert!(figures.iter().all(|f| !f.name.starts_with("perft")));
        let signature = figures
            .iter()
            .find(|f| f.name == "bench_positions_signature")
            .map(|f| f.value);
        assert_eq!(signature, Some(267_377.0));
    }
}
