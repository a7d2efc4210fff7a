//! Rules speed for `pjlab bench`: perft from the classic start, and move generation, copy-make
//! play and bulk counting over positions of seeded random games.

use pjlab_core::bench::{BenchOptions, Figure, RateNames, random_positions, rules_rates, timed};

use crate::perft::perft;
use crate::{Position, Variant};

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

    let names = RateNames {
        movegen: "movegen_moves_per_second",
        play: "play_moves_per_second",
        count: "count_positions_per_second",
        signature: "bench_positions_signature",
        move_bytes: "move_bytes",
        position_bytes: "position_bytes",
    };
    figures.extend(rules_rates(
        &positions(),
        20,
        options.repeat,
        names,
        |p: &Position| u64::from(p.halfmove()),
        |p: &Position| p.count_moves(),
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
        let generated: usize = pjlab_core::bench::legal_lists(&positions)
            .iter()
            .map(Vec::len)
            .sum();
        assert_eq!(counted as usize, generated, "bulk count against generation");
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
        assert_eq!(signature, Some(counted as f64));
    }
}
