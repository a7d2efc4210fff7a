//! Network figures of `pjlab bench`: forward passes of the default network, self-play and
//! training steps, on Pijersi.

use std::hint::black_box;
use std::time::Instant;

use pjlab_core::bench::{Figure, legal_lists, timed};
use pjlab_pijersi::{Position, Variant};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use super::{Args, sample_positions};
use crate::Verbosity;

/// Forward-pass figures of the default network (untrained: speed does not depend on the
/// weights) on positions of seeded random games.
pub(super) fn forward_figures(args: &Args, verbosity: Verbosity) -> Vec<Figure> {
    use burn::module::Module;
    use burn::tensor::{Device, Tensor, TensorData};
    use pjlab_core::Encoder;
    use pjlab_mcts::{Evaluation, Evaluator, Request};
    use pjlab_nn::inference::{Kernels, PackedNet};
    use pjlab_nn::{NetConfig, NetEvaluator, NetShape, PolicyValueNet};
    use pjlab_pijersi::PijersiEncoder;

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
    // Per batch: the evaluator's forward, the bare packed forward, Burn's, legal moves only,
    // then the bare packed forward on the one-lane and on the AVX2 kernels.
    let names = [
        (
            1,
            [
                "net_batch1_positions_per_second",
                "net_bare_batch1_positions_per_second",
                "net_burn_batch1_positions_per_second",
                "net_legal_batch1_positions_per_second",
                "net_scalar_batch1_positions_per_second",
                "net_avx2_batch1_positions_per_second",
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
                "net_avx2_batch32_positions_per_second",
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
                "net_avx2_batch128_positions_per_second",
            ],
        ),
    ];
    let scalar = packed.clone().scalar();
    let avx2 = packed.clone().with_kernels(Kernels::Avx2);
    for (batch, [plain, bare, burn_name, legal, one_lane, avx2_name]) in names {
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
        // The packed network on the widest kernels, then on the one-lane and AVX2 ones.
        for (name, net) in [(bare, &packed), (one_lane, &scalar), (avx2_name, &avx2)] {
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
pub(super) fn network_figures(args: &Args, verbosity: Verbosity) -> Vec<Figure> {
    use burn::tensor::Device;
    use pjlab_core::{Encoder, SetupMix};
    use pjlab_mcts::Decisive;
    use pjlab_pijersi::PijersiEncoder;
    use pjlab_selfplay::{SelfPlayConfig, play_games};
    type PijersiSetups = SetupMix<Variant>;
    use pjlab_nn::{NetConfig, NetEvaluator, NetShape};
    use pjlab_train::{Batch, Learner, TrainConfig};

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

/// Network MCTS figures: the lab's network player (`net:`, the packed kernel, a network of the
/// lab's default 3 x 128 shape with seeded weights, so the long run's networks' speed) searching
/// 800 simulations a move over the bench positions, as the rating lists play it
/// (`batch=8,cpuct=2.5`), alone and as the hybrid (half of each leaf's value from the
/// hand-written evaluation's static score, `leaf=hand,leaf_depth=0`): simulations per second
/// (the median of `--repeat` runs), and a signature of the moves chosen (a sum of their action
/// indices times their position's rank), which must not change while the search does not.
pub(super) fn net_mcts_figures(args: &Args, verbosity: Verbosity) -> Vec<Figure> {
    use pjlab_agents::Agent;
    use pjlab_agents::shallow::{ShallowEval, shallow_value};
    use pjlab_core::{Encoder, Game};
    use pjlab_mcts::Config;
    use pjlab_nn::inference::PackedNet;
    use pjlab_nn::{NetConfig, NetEvaluator, NetShape, PolicyValueNet};
    use pjlab_pijersi::{PijersiEncoder, PijersiKit};
    use pjlab_players::NetAgent;

    if verbosity != Verbosity::Quiet && !args.json {
        eprintln!(
            "network MCTS: 800 simulations a move over the bench positions, plain and hybrid..."
        );
    }
    let shape = NetShape {
        input: PijersiEncoder.input_len(),
        actions: PijersiEncoder.num_actions(),
    };
    let device = burn::tensor::Device::default();
    let model = PolicyValueNet::new(&NetConfig::default(), shape, &device, 1);
    let positions = sample_positions();
    let mut figures = Vec::new();
    for (hybrid, rate, signature) in [
        (
            false,
            "net_mcts800_sims_per_second",
            "net_mcts800_moves_signature",
        ),
        (
            true,
            "net_mcts800_hybrid_sims_per_second",
            "net_mcts800_hybrid_moves_signature",
        ),
    ] {
        let play = || {
            let evaluator = NetEvaluator::packed(PackedNet::new(&model), PijersiEncoder, 200_000);
            let mut agent = NetAgent::<PijersiKit>::with_evaluator(Box::new(evaluator), 800, 1);
            agent.set_config(Config {
                leaves_per_call: 8,
                c_puct: 2.5,
                ..Config::default()
            });
            if hybrid {
                let judge = shallow_value::<PijersiKit>(&ShallowEval::Hand, 0, 400.0)
                    .expect("the hand-written evaluation loads");
                agent.set_leaf_judge(judge, 0.5);
            }
            let (mut simulations, mut sum) = (0u64, 0u64);
            for (rank, position) in positions.iter().enumerate() {
                let decision = agent.decide(position);
                simulations += decision.effort;
                if let Some(mv) = decision.best_move {
                    sum += (rank as u64 + 1) * position.action_index(mv) as u64;
                }
            }
            (simulations, sum)
        };
        let (seconds, (simulations, sum)) = timed(args.repeat, play);
        figures.push(Figure {
            name: rate,
            value: simulations as f64 / seconds,
            unit: "simulations/s",
        });
        figures.push(Figure {
            name: signature,
            value: sum as f64,
            unit: "signature",
        });
    }
    figures
}
