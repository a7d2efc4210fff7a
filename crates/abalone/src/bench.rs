//! Rules speed for `pjlab bench`: perft from each two-player start, and move generation,
//! copy-make play and bulk counting over positions of seeded random games.

use pjlab_core::bench::{BenchOptions, Figure, RateNames, random_positions, rules_rates, timed};

use crate::perft::perft;
use crate::{Position, Rules, Variant};

/// Positions met in seeded random games (120 plies at most) from every variant in turn, 56
/// games, without the draw counter, so that the games run into pushes, ejections and
/// junctions.
pub fn positions() -> Vec<Position> {
    let starts = (0..56).map(|game| {
        let variant = Variant::ALL[game % Variant::ALL.len()];
        let rules = Rules {
            no_ejection_plies: None,
            ..variant.rules()
        };
        variant.start().with_rules(rules).expect("same mode")
    });
    random_positions(2026, starts, 120)
}

/// Perft(4) from the standard, Belgian daisy and German daisy starts (seconds, and the leaves
/// as signatures), then, over [`positions`], generation, play and counting rates (with the
/// moves counted as signature) and the sizes of a move and a position. Timed figures are the
/// median of `options.repeat` runs. (`options.perft` is Pijersi's: Abalone's perft always runs.)
pub fn figures(options: &BenchOptions) -> Vec<Figure> {
    let repeat = options.repeat;
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
        options.say(&format!(
            "abalone perft(4) from the {variant} start, {repeat} runs..."
        ));
        let start = variant.start();
        let (seconds, leaves) = timed(repeat, || perft(&start, 4));
        figures.push(Figure::new(seconds_name, seconds, "s"));
        figures.push(Figure::new(leaves_name, leaves as f64, "leaves"));
    }

    let names = RateNames {
        movegen: "abalone_movegen_moves_per_second",
        play: "abalone_play_moves_per_second",
        count: "abalone_count_positions_per_second",
        signature: "abalone_positions_signature",
        move_bytes: "abalone_move_bytes",
        position_bytes: "abalone_position_bytes",
    };
    figures.extend(rules_rates(
        &positions(),
        10,
        repeat,
        names,
        |p: &Position| u64::from(p.quiet_plies()),
        |p: &Position| p.count_moves(),
    ));
    figures
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bench_positions_are_its_signature() {
        // `pjlab bench`'s `abalone_positions_signature`: the moves over the bench positions.
        let counted: u64 = positions().iter().map(Position::count_moves).sum();
        let generated: usize = pjlab_core::bench::legal_lists(&super::positions())
            .iter()
            .map(Vec::len)
            .sum();
        assert_eq!(counted as usize, generated, "bulk count against generation");
    }
}
