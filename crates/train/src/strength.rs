//! Measuring a network: Pijersi against the alpha-beta baseline in colour-paired games, Chomp
//! against the exact solver.

use burn::tensor::Device;
use pjlab_agents::Agent;
use pjlab_chomp::{Chomp, Solver};
use pjlab_core::{Game, Side};
use pjlab_pijersi::{Position, Variant};
use pjlab_selfplay::ChompEncoder;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::agent::NetAgent;
use crate::evaluator::NetEvaluator;
use crate::net::PolicyValueNet;

/// A measurement of strength.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Strength {
    /// What was measured: `score_vs_alphabeta_d<N>` or `optimal_move_share`.
    pub metric: String,
    /// The score (0..1): points per game for the network, or share of optimal moves.
    pub score: f64,
    /// 95% Wilson interval of the score.
    pub low: f64,
    /// See `low`.
    pub high: f64,
    /// Games (or positions) it was measured on.
    pub count: u64,
    /// Network wins, draws and losses (games only).
    pub wins: u64,
    /// See `wins`.
    pub draws: u64,
    /// See `wins`.
    pub losses: u64,
}

pub use pjlab_stats::stats::wilson;

/// Plays one game from `start`; returns the result from the first side's view (1, 0, -1).
pub fn play_game(
    start: &Position,
    white: &mut dyn Agent<Position>,
    black: &mut dyn Agent<Position>,
    max_plies: u32,
) -> i8 {
    let mut position = start.clone();
    for _ in 0..max_plies {
        if let Some(outcome) = position.outcome() {
            return outcome.value_for(Side::First) as i8;
        }
        let agent: &mut dyn Agent<Position> =
            if position.side_to_move() == pjlab_pijersi::Color::White {
                &mut *white
            } else {
                &mut *black
            };
        let Some(mv) = agent.decide(&position).best_move else {
            break;
        };
        if position.play(mv).is_err() {
            // An illegal move loses.
            return if position.side_to_move() == pjlab_pijersi::Color::White {
                -1
            } else {
                1
            };
        }
    }
    position
        .outcome()
        .map_or(0, |o| o.value_for(Side::First) as i8)
}

/// Settings of a match against alpha-beta.
#[derive(Clone, Debug)]
pub struct VersusAlphaBeta {
    /// Setups, each played with both colours.
    pub pairs: usize,
    /// Alpha-beta depth.
    pub depth: u32,
    /// Network player's simulations a move.
    pub simulations: u32,
    /// Whether the network player checks leaves for wins at once.
    pub decisive: bool,
    /// Setup variant.
    pub variant: Variant,
    /// Ply cap (a draw).
    pub max_plies: u32,
    /// Parallel games.
    pub workers: usize,
}

/// The network player against alpha-beta at `depth`, `pairs` setups drawn from `seed`, each
/// played with both colours.
pub fn versus_alphabeta(
    model: &PolicyValueNet,
    device: &Device,
    settings: &VersusAlphaBeta,
    seed: u64,
    on_game: &(dyn Fn() + Sync),
) -> Strength {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let setups: Vec<u64> = (0..settings.pairs).map(|_| rng.random()).collect();
    let jobs: Vec<(u64, bool)> = setups
        .iter()
        .flat_map(|&s| [(s, true), (s, false)])
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.workers.max(1))
        .build()
        .expect("a thread pool");
    let results: Vec<f64> = pool.install(|| {
        jobs.par_iter()
            .map(|&(setup, net_white)| {
                let start = settings.variant.setup(setup);
                let mut net = NetAgent::new(model, device, settings.simulations, setup);
                net.set_decisive(settings.decisive);
                let spec = format!("alphabeta:depth={}", settings.depth);
                let mut ab = pjlab_agents::build::<pjlab_pijersi::PijersiKit>(&spec, setup)
                    .expect("a valid alpha-beta spec");
                let r = if net_white {
                    f64::from(play_game(&start, &mut net, ab.as_mut(), settings.max_plies))
                } else {
                    -f64::from(play_game(&start, ab.as_mut(), &mut net, settings.max_plies))
                };
                on_game();
                r
            })
            .collect()
    });
    let wins = results.iter().filter(|&&r| r > 0.0).count() as u64;
    let losses = results.iter().filter(|&&r| r < 0.0).count() as u64;
    let n = results.len() as u64;
    let draws = n - wins - losses;
    let points = wins as f64 + 0.5 * draws as f64;
    let (low, high) = wilson(points, n as f64);
    Strength {
        metric: format!("score_vs_alphabeta_d{}", settings.depth),
        score: if n > 0 { points / n as f64 } else { 0.0 },
        low,
        high,
        count: n,
        wins,
        draws,
        losses,
    }
}

/// Every Chomp diagram of a `rows x cols` bar that is not over, with the solver's verdict.
fn chomp_positions(rows: usize, cols: usize) -> Vec<Vec<usize>> {
    fn rec(rows: usize, max: usize, prefix: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if prefix.len() == rows {
            out.push(prefix.clone());
            return;
        }
        for len in 0..=max {
            prefix.push(len);
            rec(rows, len, prefix, out);
            prefix.pop();
        }
    }
    let mut out = Vec::new();
    rec(rows, cols, &mut Vec::new(), &mut out);
    out.retain(|l| l[0] >= 1 && !(l[0] == 1 && l[1..].iter().all(|&a| a == 0)));
    out
}

/// Share of the winning Chomp positions of the bar where the network's most likely legal move
/// (its raw policy, no search) is a winning move, judged by the exact solver.
pub fn chomp_optimal_share(
    model: &PolicyValueNet,
    device: &Device,
    rows: usize,
    cols: usize,
) -> Strength {
    let solver = Solver::new(rows, cols).expect("a valid Chomp size");
    let encoder = ChompEncoder::new(rows, cols);
    let mut evaluator = NetEvaluator::<Chomp, _>::new(model, device, encoder, 0);
    let winning: Vec<(Chomp, Vec<(usize, usize)>)> = chomp_positions(rows, cols)
        .into_iter()
        .filter(|l| !solver.is_p(l))
        .map(|l| {
            let text = format!(
                "{rows}x{cols}:{}:1",
                l.iter().map(usize::to_string).collect::<Vec<_>>().join(",")
            );
            let p = Chomp::from_text(&text).expect("a valid diagram");
            (p, solver.winning_moves(&l))
        })
        .collect();
    let refs: Vec<&Chomp> = winning.iter().map(|(p, _)| p).collect();
    let (policy, _) = evaluator.forward(&refs);
    let actions = rows * cols;
    let mut good = 0u64;
    let mut moves = Vec::new();
    for (k, (p, wins)) in winning.iter().enumerate() {
        p.legal_moves(&mut moves);
        let logits = &policy[k * actions..(k + 1) * actions];
        let best = moves
            .iter()
            .max_by(|a, b| logits[p.action_index(**a)].total_cmp(&logits[p.action_index(**b)]))
            .expect("a position that is not over has moves");
        if wins.contains(&(best.row as usize + 1, best.col as usize + 1)) {
            good += 1;
        }
    }
    let n = winning.len() as u64;
    let (low, high) = wilson(good as f64, n as f64);
    Strength {
        metric: "optimal_move_share".into(),
        score: good as f64 / n.max(1) as f64,
        low,
        high,
        count: n,
        ..Strength::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chomp_enumeration_counts_diagrams() {
        // Diagrams in a 5 x 6 bar: C(11, 5) = 462, minus the empty one and the poison alone.
        assert_eq!(chomp_positions(5, 6).len(), 460);
        assert_eq!(chomp_positions(2, 2).len(), 6 - 2);
    }
}
