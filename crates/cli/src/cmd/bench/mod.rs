//! `pjlab bench`: deterministic speed figures of the lab's hot paths.

use anyhow::Result;
use pjlab_core::GameKit;
use pjlab_core::bench::{BenchOptions, Figure, timed};
use pjlab_pijersi::{PijersiKit, Position};

use pjlab_alphabeta::{Engine, Limits, Options as AbOptions};
use pjlab_mcts::{Budget, Config as MctsConfig, Mcts, UniformEvaluator};
use pjlab_pijersi::PijersiEval;

use crate::Verbosity;
use crate::cmd::game::GameName;

mod budget;
mod network;

use network::{forward_figures, net_mcts_figures, network_figures};

/// Measure the hot paths on one thread and print named figures.
///
/// Network figures (the default network, untrained, one thread): forward passes with input
/// encoding at batch 1, 32 and 128 (`net_batch*`, the evaluator's forward: the packed CPU
/// network, all 3,748 policy logits); the same without encoding, on encoded positions
/// (`net_bare_batch*`), and through Burn as training runs it (`net_burn_batch*`, output copied
/// out as the evaluator used to); a search's evaluations, which compute only the legal moves'
/// logits, with encoding, priors and value (`net_legal_batch*`); the packed network on its
/// one-lane kernels, as on a CPU without AVX2 (`net_scalar_batch*`), and on AVX2 even where the
/// CPU has AVX-512 (`net_avx2_batch*`); all in positions per second over positions of seeded
/// random games, and `net_kernel` names the instruction set the other packed figures ran on
/// (e.g. AVX-512, AVX2, NEON or scalar). Then self-play at 64 simulations a move,
/// every move a full search, 32 games in lock-step with the immediate-win check (positions per
/// second, games per hour, mean plies: an untrained network's games are longer than a trained
/// one's); training steps at batch 256 with batch building (samples per second).
///
/// Search figures: MCTS simulations per second (uniform evaluator, 1,000 simulations a move
/// over a 60-ply game from the classic start with tree reuse; and one 100,000-simulation tree,
/// which is bound by memory), alpha-beta depth 4 and 5 from the classic start (time, nodes,
/// nodes per second, quiescence nodes included), and the exact 14 x 14 Chomp solve.
///
/// Abalone figures: perft(4) from the standard, Belgian daisy and German daisy starts (seconds;
/// the leaf counts are signatures), and generation, copy-make play and bulk counting over
/// positions of seeded random games of every variant (moves or positions per second).
///
/// Chifoumi figures: the raw game with uniformly random legal actions, 2e7 steps of back-to-back
/// games of the spec's rules (steps per second; the games finished are the signature); and the
/// learned player's training, four iterations of `configs/chifoumi.toml`'s defaults without
/// evaluation on every core (environment steps and decisions per second over the whole wall
/// time; the decisions are the signature).
///
/// Network MCTS figures: the network player at 800 simulations a move over the bench positions
/// (the default 3 x 128 network with seeded weights, the rating lists' `batch=8,cpuct=2.5`),
/// alone and as the hybrid with the hand-written evaluation's static score at its leaves:
/// simulations per second, and the moves chosen as a signature (`net_mcts800_*`).
///
/// Time-budget figures: alpha-beta, MCTS and network MCTS given `--budget-ms` a move, over
/// `--budget-moves` decisions: mean, 99th percentile and longest wall time of a decision, and
/// the moves over the budget plus the arena's overrun margin (`budget_*`).
///
/// Pijersi rules figures: perft(4) from the classic start (seconds, leaves per second; the leaf
/// count is the signature that must never change), legal move generation (moves per second over a fixed set
/// of positions from seeded random games), copy-make play of each of those moves (moves per
/// second) and bulk counting (positions per second). Timed figures are the median of
/// `--repeat` runs.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Timed runs per figure; the median is reported.
    #[arg(long, default_value_t = 3)]
    repeat: usize,
    /// Skip Pijersi's perft(4) (about 1 s a run), for a quick look (--no-abalone skips Abalone's).
    #[arg(long)]
    no_perft: bool,
    /// Skip solving 14 x 14 Chomp (about 3 s and 6 MB a run).
    #[arg(long)]
    no_chomp: bool,
    /// Skip the Abalone figures (about 1 s a run).
    #[arg(long)]
    no_abalone: bool,
    /// Skip the Chifoumi figures (random steps and 4 training iterations: about 5 s a run).
    #[arg(long)]
    no_chifoumi: bool,
    /// Skip the network figures (forward passes, self-play, training steps).
    #[arg(long)]
    no_network: bool,
    /// Only the forward-pass figures (`net_*`): what `scripts/bench-inference.py` reads.
    #[arg(long, conflicts_with = "no_network")]
    forward_only: bool,
    /// Simulations per move of the MCTS figure (a 60-ply game from the classic start with
    /// tree reuse, as self-play and matches run it).
    #[arg(long, default_value_t = 1_000)]
    mcts_simulations: u32,
    /// Skip the time-budget figures (`budget_*`, about 3 agents x `--budget-moves` x
    /// `--budget-ms`).
    #[arg(long)]
    no_budget: bool,
    /// Time a move of the time-budget figures, in milliseconds.
    #[arg(long, default_value_t = 50.0)]
    budget_ms: f64,
    /// Decisions per agent of the time-budget figures (positions of seeded random games).
    #[arg(long, default_value_t = 200)]
    budget_moves: usize,
}

/// The positions the network and time-budget figures evaluate: Pijersi's rules-bench positions
/// (seeded random games from classic, half-random and full-random setups).
fn sample_positions() -> Vec<Position> {
    PijersiKit::bench_positions()
}

/// Runs the command.
pub fn run(args: Args, verbosity: Verbosity) -> Result<()> {
    let figures = if args.forward_only {
        forward_figures(&args, verbosity)
    } else {
        all_figures(&args, verbosity)
    };
    // The instruction set the packed network ran on in every figure but the forced ones
    // (`net_scalar_*`, `net_avx2_*`) and Burn's: the forward passes, self-play, the budgets.
    let kernel = (args.forward_only || !args.no_network)
        .then(|| pjlab_nn::inference::Kernels::Widest.describe());
    if args.json {
        let mut object: serde_json::Map<String, serde_json::Value> = figures
            .iter()
            .map(|f| (f.name.to_string(), serde_json::json!(f.value)))
            .collect();
        if let Some(kernel) = kernel {
            object.insert("net_kernel".into(), serde_json::json!(kernel));
        }
        println!("{}", serde_json::Value::Object(object));
    } else {
        for f in &figures {
            if f.value.fract() == 0.0 && f.value.abs() < 1e15 {
                println!("{:<40} {:>16} {}", f.name, f.value as u64, f.unit);
            } else {
                println!("{:<40} {:>16.4e} {}", f.name, f.value, f.unit);
            }
        }
        if let Some(kernel) = kernel {
            println!("{:<40} {kernel}", "net_kernel");
        }
    }
    Ok(())
}

impl Args {
    /// How `game`'s own figures run, or `None` when a flag skips them all: `--no-abalone` and
    /// `--no-chomp` skip a game's figures, `--no-perft` Pijersi's perft(4) alone. (The flags name
    /// the games they had before the figures came from the registry; a game without a flag is
    /// always measured.)
    fn game_options(&self, game: GameName, verbosity: Verbosity) -> Option<BenchOptions> {
        let skipped = match game {
            GameName::Abalone => self.no_abalone,
            GameName::Chomp => self.no_chomp,
            _ => false,
        };
        (!skipped).then_some(BenchOptions {
            repeat: self.repeat,
            chatty: verbosity != Verbosity::Quiet && !self.json,
            perft: !(game == GameName::Pijersi && self.no_perft),
        })
    }
}

/// Every figure but those skipped by flags: each game's rules figures (the registry's, in its
/// order), Chifoumi's, the search figures with each game's solver figures, then the network and
/// time-budget figures.
fn all_figures(args: &Args, verbosity: Verbosity) -> Vec<Figure> {
    let mut figures = Vec::new();
    for &game in GameName::all() {
        if let Some(options) = args.game_options(game, verbosity) {
            figures.extend(crate::with_game!(game, |K| K::rules_bench(&options)));
        }
    }
    if !args.no_chifoumi {
        figures.extend(chifoumi_figures(args, verbosity));
    }
    figures.extend(search_figures(args, verbosity));
    for &game in GameName::all() {
        if let Some(options) = args.game_options(game, verbosity) {
            figures.extend(crate::with_game!(game, |K| K::solver_bench(&options)));
        }
    }
    if !args.no_network {
        figures.extend(forward_figures(args, verbosity));
        figures.extend(network_figures(args, verbosity));
        figures.extend(net_mcts_figures(args, verbosity));
    }
    if !args.no_budget {
        figures.extend(budget::budget_figures(args, verbosity));
    }
    figures
}

/// Chifoumi's raw game speed.
fn chifoumi_figures(args: &Args, verbosity: Verbosity) -> Vec<Figure> {
    if verbosity != Verbosity::Quiet && !args.json {
        eprintln!("Chifoumi, random actions...");
    }
    const STEPS: u64 = 20_000_000;
    let (seconds, games) = timed(args.repeat, || {
        pjlab_chifoumi::bench::random_steps(STEPS, 1)
    });
    if verbosity != Verbosity::Quiet && !args.json {
        eprintln!("Chifoumi, training the learned player...");
    }
    let (train_seconds, (env_steps, decisions)) = timed(args.repeat, chifoumi_training);
    vec![
        Figure {
            name: "chifoumi_random_steps_per_second",
            value: STEPS as f64 / seconds,
            unit: "steps/s",
        },
        Figure {
            name: "chifoumi_random_games_signature",
            value: games as f64,
            unit: "games",
        },
        Figure {
            name: "chifoumi_training_env_steps_per_second",
            value: env_steps as f64 / train_seconds,
            unit: "steps/s",
        },
        Figure {
            name: "chifoumi_training_decisions_per_second",
            value: decisions as f64 / train_seconds,
            unit: "decisions/s",
        },
        Figure {
            name: "chifoumi_training_decisions_signature",
            value: decisions as f64,
            unit: "decisions",
        },
    ]
}

/// Four iterations of `pjlab chifoumi train` with the default settings (96 matches an
/// iteration, on every core), no evaluation, in a scratch directory: environment steps (both
/// sides' turns) and learner decisions trained, over the whole wall time (playing, training,
/// checkpoints).
fn chifoumi_training() -> (u64, u64) {
    let dir = std::env::temp_dir().join(format!("pjlab-bench-chifoumi-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let config = pjlab_chifoumi_learn::LearnConfig {
        iterations: 4,
        eval_every: 0,
        ..Default::default()
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let done = pjlab_chifoumi_learn::train(&dir, &config, None, None, &stop, &mut |_| {});
    let logs = pjlab_chifoumi_learn::read_metrics(&dir).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    if done.is_err() {
        return (0, 0);
    }
    (
        logs.iter().map(|l| l.env_steps).sum(),
        logs.iter().map(|l| l.decisions as u64).sum(),
    )
}

/// MCTS and alpha-beta figures, on Pijersi from the classic start.
fn search_figures(args: &Args, verbosity: Verbosity) -> Vec<Figure> {
    let mut figures = Vec::new();
    let say = |text: &str| {
        if verbosity != Verbosity::Quiet && !args.json {
            eprintln!("{text}");
        }
    };
    say("MCTS from the classic start, uniform evaluator...");
    let budget = Budget::simulations(args.mcts_simulations);
    let (seconds, (simulations, nodes)) = timed(args.repeat, || {
        let mut search = Mcts::new(Position::default(), MctsConfig::default(), 0);
        let (mut simulations, mut nodes) = (0u64, 0usize);
        for _ in 0..60 {
            let result = search.search(&mut UniformEvaluator, &budget);
            simulations += u64::from(result.simulations);
            nodes = nodes.max(result.nodes);
            match result.best_move {
                Some(mv) if search.advance(mv).is_ok() => {}
                _ => break,
            }
        }
        (simulations, nodes)
    });
    figures.push(Figure {
        name: "mcts_uniform_sims_per_second",
        value: simulations as f64 / seconds,
        unit: "simulations/s",
    });
    figures.push(Figure {
        name: "mcts_uniform_max_nodes",
        value: nodes as f64,
        unit: "nodes",
    });
    let big = Budget::simulations(100_000);
    let (seconds, result) = timed(1, || {
        let mut search = Mcts::new(Position::default(), MctsConfig::default(), 0);
        search.search(&mut UniformEvaluator, &big)
    });
    figures.push(Figure {
        name: "mcts_uniform_100k_tree_sims_per_second",
        value: f64::from(result.simulations) / seconds,
        unit: "simulations/s",
    });
    say("alpha-beta depth 4 from the classic start...");
    let (seconds, result) = timed(args.repeat, || {
        let mut engine = Engine::new(PijersiEval::default(), AbOptions::default());
        engine.search(&Position::default(), &Limits::depth(4))
    });
    figures.push(Figure {
        name: "alphabeta_depth4_seconds",
        value: seconds,
        unit: "s",
    });
    figures.push(Figure {
        name: "alphabeta_depth4_nodes",
        value: result.nodes as f64,
        unit: "nodes",
    });
    figures.push(Figure {
        name: "alphabeta_nodes_per_second",
        value: result.nodes as f64 / seconds,
        unit: "nodes/s",
    });
    say("alpha-beta depth 5 from the classic start (one run)...");
    let (seconds, result) = timed(1, || {
        let mut engine = Engine::new(PijersiEval::default(), AbOptions::default());
        engine.search(&Position::default(), &Limits::depth(5))
    });
    figures.push(Figure {
        name: "alphabeta_depth5_seconds",
        value: seconds,
        unit: "s",
    });
    figures.push(Figure {
        name: "alphabeta_depth5_nodes_per_second",
        value: result.nodes as f64 / seconds,
        unit: "nodes/s",
    });
    figures
}
