//! Solver speed for `pjlab bench`: the exact solve of a 14 x 14 bar.

use pjlab_core::bench::{BenchOptions, Figure, timed};

use crate::Solver;

/// Solves 14 x 14 Chomp exactly (about 3 s and 6 MB a run): seconds, and the P-positions found
/// as signature. The median of `options.repeat` runs.
pub fn figures(options: &BenchOptions) -> Vec<Figure> {
    options.say("Chomp 14 x 14, exact solve...");
    let (seconds, solver) = timed(options.repeat, || Solver::new(14, 14));
    match solver {
        Ok(solver) => vec![
            Figure::new("chomp14x14_solve_seconds", seconds, "s"),
            Figure::new(
                "chomp14x14_p_positions",
                solver.p_positions() as f64,
                "positions",
            ),
        ],
        Err(_) => Vec::new(),
    }
}
