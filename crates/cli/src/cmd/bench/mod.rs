//! `pjlab bench`: deterministic speed figures of the lab's hot paths.

use std::hint::black_box;
use std::time::Instant;

use anyhow::Result;
use pjlab_core::GameKit;
use pjlab_core::bench::{BenchOptions, Figure, legal_lists, timed};
use pjlab_pijersi::{PijersiKit, Position, Variant};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use pjlab_alphabeta::{Engine, Limits, Options as AbOptions};
use pjlab_mcts::{Budget, Config as MctsConfig, Mcts, UniformEvaluator};
use pjlab_pijersi::PijersiEval;

use crate::Verbosity;
use crate::cmd::game::GameName;

mod budget;

/// Measure the hot paths on one thread and print named figures.
///
/// Network figures (the default network, untrained, one thread): forward passes with input
/// encoding at batch 1, 32 and 128 (`net_batch*`, the evaluator's forward: the packed CPU
/// network, all 3,748 policy logits); the same without encoding, on encoded positions
/// (`net_bare_batch*`), and through Burn as training runs it (`net_burn_batch*`, output copied
/// out as the evaluator used to); a search's evaluations, which compute only the legal moves'
/// logits, with encoding, priors and value (`net_legal_batch*`); the packed network on its
/// one-lane kernels, as on a CPU without AVX2 (`net_scalar_batch*`); all in positions per second
/// over positions of seeded random games. Then self-play at 64 simulations a move,
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
    if args.json {
        let object: serde_json::Map<String, serde_json::Value> = figures
            .iter()
            .map(|f| (f.name.to_string(), serde_json::json!(f.value)))
            .collect();
        println!("{}", serde_json::Value::Object(object));
    } else {
        for f in &figures {
            if f.value.fract() == 0.0 && f.value.abs() < 1e15 {
                println!("{:<40} {:>16} {}", f.name, f.value as u64, f.unit);
            } else {
                println!("{:<40} {:>16.4e} {}", f.name, f.value, f.unit);
            }
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
    let done = pjlab_chifoumi_learn::train(&dir, &config, None, &stop, &mut |_| {});
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

/// Forward-pass figures of the default network (untrained: speed does not depend on the
/// weights) on positions of seeded random games.
fn forward_figures(args: &Args, verbosity: Verbosity) -> Vec<Figure> {
    use burn::module::Module;
    use burn::tensor::{Device, Tensor, TensorData};
    use pjlab_core::Encoder;
    use pjlab_mcts::{Evaluation, Evaluator, Request};
    use pjlab_pijersi::PijersiEncoder;
    use pjlab_train::inference::PackedNet;
    use pjlab_train::{NetConfig, NetEvaluator, NetShape, PolicyValueNet};

    let mut figures = Vec::new();
    if verbosity != Verbosity::Quiet && !args.json {
        eprintln!("network forward passes at batch 1, 32 and 128...");
    }
    let device = Device::default();
    let len = PijersiEncoder.input_len();
    let shape = NetShape {
        input: len,
        actions: PijersiEncoder.num_actions(),
    };
    let model = PolicyValueNet::new(&NetConfig::default(), shape, &device, 1);
    let positions = sample_positions();
    let lists = legal_lists(&positions);
    let packed = PackedNet::new(&model);
    let burn = model.valid();
    // Per batch: the evaluator's forward, the bare packed forward, Burn's, legal moves only.
    let names = [
        (
            1,
            [
                "net_batch1_positions_per_second",
                "net_bare_batch1_positions_per_second",
                "net_burn_batch1_positions_per_second",
                "net_legal_batch1_positions_per_second",
                "net_scalar_batch1_positions_per_second",
            ],
        ),
        (
            32,
            [
                "net_batch32_positions_per_second",
                "net_bare_batch32_positions_per_second",
                "net_burn_batch32_positions_per_second",
                "net_legal_batch32_positions_per_second",
                "net_scalar_batch32_positions_per_second",
            ],
        ),
        (
            128,
            [
                "net_batch128_positions_per_second",
                "net_bare_batch128_positions_per_second",
                "net_burn_batch128_positions_per_second",
                "net_legal_batch128_positions_per_second",
                "net_scalar_batch128_positions_per_second",
            ],
        ),
    ];
    let scalar = packed.clone().scalar();
    for (batch, [plain, bare, burn_name, legal, one_lane]) in names {
        let calls = (4096 / batch).max(8);
        let chunk: Vec<&Position> = positions.iter().cycle().take(batch).collect();
        let mut evaluator = NetEvaluator::new(&model, &device, PijersiEncoder, 0);
        let (seconds, _) = timed(args.repeat, || {
            for _ in 0..calls {
                black_box(evaluator.forward(&chunk));
            }
        });
        figures.push(Figure {
            name: plain,
            value: (calls * batch) as f64 / seconds,
            unit: "positions/s",
        });

        let mut inputs = vec![0.0; batch * len];
        for (p, row) in chunk.iter().zip(inputs.chunks_mut(len)) {
            PijersiEncoder.encode(p, row);
        }
        let mut policy = vec![0.0; batch * shape.actions];
        let mut value = vec![0.0; batch * 3];
        // The packed network on the widest kernels, then on the one-lane ones.
        for (name, net) in [(bare, &packed), (one_lane, &scalar)] {
            let (seconds, _) = timed(args.repeat, || {
                for _ in 0..calls {
                    net.forward(black_box(&inputs), &mut policy, &mut value);
                }
            });
            figures.push(Figure {
                name,
                value: (calls * batch) as f64 / seconds,
                unit: "positions/s",
            });
        }

        let (seconds, _) = timed(args.repeat, || {
            for _ in 0..calls {
                let input =
                    Tensor::<2>::from_data(TensorData::new(inputs.clone(), [batch, len]), &device);
                let (policy, value) = burn.forward(input);
                black_box(policy.into_data().try_into_vec::<f32>().ok());
                black_box(value.into_data().try_into_vec::<f32>().ok());
            }
        });
        figures.push(Figure {
            name: burn_name,
            value: (calls * batch) as f64 / seconds,
            unit: "positions/s",
        });

        let requests: Vec<Request<'_, Position>> = positions
            .iter()
            .zip(&lists)
            .cycle()
            .take(batch)
            .map(|(position, moves)| Request { position, moves })
            .collect();
        let mut out = vec![Evaluation::default(); batch];
        let (seconds, _) = timed(args.repeat, || {
            for _ in 0..calls {
                evaluator.evaluate(&requests, &mut out);
                black_box(&out);
            }
        });
        figures.push(Figure {
            name: legal,
            value: (calls * batch) as f64 / seconds,
            unit: "positions/s",
        });
    }
    figures
}

/// Self-play and training figures.
fn network_figures(args: &Args, verbosity: Verbosity) -> Vec<Figure> {
    use burn::tensor::Device;
    use pjlab_core::{Encoder, SetupMix};
    use pjlab_mcts::Decisive;
    use pjlab_pijersi::PijersiEncoder;
    use pjlab_selfplay::{SelfPlayConfig, play_games};
    type PijersiSetups = SetupMix<Variant>;
    use pjlab_train::{Batch, Learner, NetConfig, NetEvaluator, NetShape, TrainConfig};

    let mut figures = Vec::new();
    let say = |text: &str| {
        if verbosity != Verbosity::Quiet && !args.json {
            eprintln!("{text}");
        }
    };
    let device = Device::default();
    let shape = NetShape {
        input: PijersiEncoder.input_len(),
        actions: PijersiEncoder.num_actions(),
    };
    let train = TrainConfig::default();
    let mut learner = Learner::new(&NetConfig::default(), shape, &train, &device, 1);
    say("self-play: 32 games at 64 simulations a move, one thread...");
    let setups = PijersiSetups::parse("classic:1,half-random:4,full-random:2,pijersi-8100:1")
        .expect("a valid mix");
    let config = SelfPlayConfig {
        simulations: 64,
        cheap_simulations: 64,
        full_search_share: 1.0,
        games_in_flight: 32,
        ..SelfPlayConfig::default()
    };
    let mut samples = Vec::new();
    let mut runs = Vec::new();
    let mut plies = 0.0;
    for r in 0..args.repeat.max(1) {
        let mut evaluator = Decisive::new(NetEvaluator::new(
            learner.model(),
            &device,
            PijersiEncoder,
            200_000,
        ));
        let started = Instant::now();
        let mut games = Vec::new();
        let stats = play_games(&setups, &mut evaluator, &config, 32, 0, r as u64, |g| {
            games.push(g)
        });
        runs.push((
            started.elapsed().as_secs_f64(),
            stats.positions,
            stats.games,
        ));
        plies = stats.positions as f64 / stats.games as f64;
        samples = games.into_iter().flat_map(|g| g.samples).collect();
    }
    runs.sort_by(|a, b| (a.1 as f64 / a.0).total_cmp(&(b.1 as f64 / b.0)));
    let (seconds, positions_played, games) = runs[runs.len() / 2];
    figures.push(Figure {
        name: "selfplay64_positions_per_second",
        value: positions_played as f64 / seconds,
        unit: "positions/s",
    });
    figures.push(Figure {
        name: "selfplay64_games_per_hour",
        value: (games as f64 / seconds * 3600.0).round(),
        unit: "games/h",
    });
    figures.push(Figure {
        name: "selfplay64_mean_plies",
        value: plies,
        unit: "plies",
    });

    say("training steps at batch 256...");
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let steps = 8;
    let (seconds, _) = timed(args.repeat, || {
        for _ in 0..steps {
            let picked: Vec<_> = (0..train.batch_size)
                .map(|_| samples.choose(&mut rng).expect("self-play gave samples"))
                .collect();
            let batch = Batch::build(&PijersiEncoder, &picked, true, &mut rng);
            black_box(learner.step(&batch));
        }
    });
    figures.push(Figure {
        name: "train_samples_per_second",
        value: (steps * train.batch_size) as f64 / seconds,
        unit: "samples/s",
    });
    figures
}
