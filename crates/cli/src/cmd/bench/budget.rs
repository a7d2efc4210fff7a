//! Time-budget figures: how long agents given a time a move take to answer, over many moves.
//!
//! A timed agent must answer within its budget plus a margin, every move, or it loses on time
//! in a match with a clock and its equal-time strength figures mean nothing. This is a
//! benchmark, not a test: wall time moves with the machine's load, so it is read from `pjlab
//! bench`, never asserted.

use std::time::{Duration, Instant};

use burn::tensor::Device;
use pjlab_agents::Agent;
use pjlab_arena::schedule::overrun_threshold;
use pjlab_core::Encoder;
use pjlab_nn::{NetConfig, NetShape, PolicyValueNet};
use pjlab_pijersi::{PijersiEncoder, PijersiKit, Position};
use pjlab_players::NetAgent;

use super::{Args, Figure, sample_positions};
use crate::Verbosity;

/// Each agent's figure names: mean, longest, 99th percentile, moves over budget plus margin.
const NAMES: [(&str, [&str; 4]); 3] = [
    (
        "alphabeta",
        [
            "budget_alphabeta_mean_ms",
            "budget_alphabeta_max_ms",
            "budget_alphabeta_p99_ms",
            "budget_alphabeta_overruns",
        ],
    ),
    (
        "mcts",
        [
            "budget_mcts_mean_ms",
            "budget_mcts_max_ms",
            "budget_mcts_p99_ms",
            "budget_mcts_overruns",
        ],
    ),
    (
        "net",
        [
            "budget_net_mean_ms",
            "budget_net_max_ms",
            "budget_net_p99_ms",
            "budget_net_overruns",
        ],
    ),
];

/// Alpha-beta, MCTS with random playouts and MCTS with the default network (untrained: its
/// speed does not depend on the weights), each given `--budget-ms` a move, decide from
/// `--budget-moves` positions of seeded random games. Figures: the mean, longest and 99th
/// percentile wall time of a decision (milliseconds), and the moves over the budget plus the
/// arena's overrun margin (a tenth, at least 5 ms), which `budget_margin_ms` states.
pub(super) fn budget_figures(args: &Args, verbosity: Verbosity) -> Vec<Figure> {
    let budget = Duration::from_secs_f64(args.budget_ms / 1000.0);
    let threshold = overrun_threshold(budget);
    if verbosity != Verbosity::Quiet && !args.json {
        eprintln!(
            "time budgets: {} decisions each at {} ms a move...",
            args.budget_moves, args.budget_ms
        );
    }
    let all = sample_positions();
    let step = (all.len() / args.budget_moves.max(1)).max(1);
    let positions: Vec<&Position> = all.iter().step_by(step).take(args.budget_moves).collect();
    let mut figures = vec![Figure {
        name: "budget_margin_ms",
        value: (threshold - budget).as_secs_f64() * 1000.0,
        unit: "ms",
    }];
    for (kind, names) in NAMES {
        let Some(mut agent) = timed_agent(kind, budget) else {
            continue;
        };
        let mut times: Vec<f64> = positions
            .iter()
            .map(|p| {
                let started = Instant::now();
                std::hint::black_box(agent.decide(p));
                started.elapsed().as_secs_f64()
            })
            .collect();
        times.sort_by(f64::total_cmp);
        let over = times
            .iter()
            .filter(|&&t| t > threshold.as_secs_f64())
            .count();
        let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
        let p99 = times[(times.len() * 99 / 100).min(times.len() - 1)];
        let max = times.last().copied().unwrap_or(0.0);
        for (name, value, unit) in [
            (names[0], mean * 1000.0, "ms"),
            (names[1], max * 1000.0, "ms"),
            (names[2], p99 * 1000.0, "ms"),
            (names[3], over as f64, "moves"),
        ] {
            figures.push(Figure { name, value, unit });
        }
    }
    figures
}

/// The agent of `kind` with `budget` a move.
fn timed_agent(kind: &str, budget: Duration) -> Option<Box<dyn Agent<Position>>> {
    let ms = budget.as_secs_f64() * 1000.0;
    match kind {
        "net" => {
            let device = Device::default();
            let shape = NetShape {
                input: PijersiEncoder.input_len(),
                actions: PijersiEncoder.num_actions(),
            };
            let model = PolicyValueNet::new(&NetConfig::default(), shape, &device, 1);
            let mut agent = NetAgent::<PijersiKit>::new(&model, &device, PijersiEncoder, 1, 1);
            agent.set_time(budget, None);
            Some(Box::new(agent))
        }
        _ => pjlab_agents::build::<PijersiKit>(&format!("{kind}:time={ms}ms"), 1).ok(),
    }
}
