//! MCTS on Pijersi: legal answers, both colours, and a real edge over random play.

use pjlab_core::{Game, Outcome, Side};
use pjlab_mcts::{Budget, Config, GumbelConfig, Mcts, RolloutEvaluator, UniformEvaluator};
use pjlab_pijersi::{Position, Variant};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

#[test]
fn searches_return_legal_moves_and_normalised_policies() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut moves = Vec::new();
    for game in 0..6u64 {
        let mut position = Variant::HalfRandom.setup(game);
        for ply in 0..30 {
            position.legal_moves(&mut moves);
            let Some(&random) = moves.choose(&mut rng) else {
                break;
            };
            let config = Config {
                gumbel: (ply % 2 == 1).then(GumbelConfig::default),
                ..Config::default()
            };
            let mut search = Mcts::new(position.clone(), config, game);
            let result = search.search(&mut UniformEvaluator, &Budget::simulations(200));
            let best = result.best_move.expect("a move");
            assert!(moves.contains(&best));
            assert_eq!(result.policy.len(), moves.len());
            let sum: f32 = result.policy.iter().map(|&(_, p)| p).sum();
            assert!((sum - 1.0).abs() < 1e-3, "{sum}");
            assert_eq!(result.pv.first(), Some(&best));
            let mut line = position.clone();
            for &mv in &result.pv {
                line.play(mv).expect("the principal variation is playable");
            }
            position.play(random).expect("legal");
        }
    }
}

const SIMS: u32 = 300;

fn play(white_is_mcts: bool, seed: u64) -> Option<Outcome> {
    let mut position = Variant::HalfRandom.setup(seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut evaluator = RolloutEvaluator::new(seed);
    let mut moves = Vec::new();
    let mcts_side = if white_is_mcts {
        Side::First
    } else {
        Side::Second
    };
    while position.outcome().is_none() {
        let mv = if Game::side_to_move(&position) == mcts_side {
            let mut search = Mcts::new(position.clone(), Config::default(), seed);
            search
                .search(&mut evaluator, &Budget::simulations(SIMS))
                .best_move
                .expect("a move")
        } else {
            position.legal_moves(&mut moves);
            *moves.choose(&mut rng).expect("a move")
        };
        position.play(mv).expect("legal");
    }
    position.outcome()
}

#[test]
fn rollout_mcts_beats_random_with_both_colours() {
    // Random play rarely captures, so a game may end by the 20-turn counter (and random
    // playouts then say little); the search must never lose, and win some games.
    let mut wins = [0, 0];
    for seed in 0..4 {
        for (i, side) in Side::BOTH.into_iter().enumerate() {
            let outcome = play(side == Side::First, seed);
            assert_ne!(
                outcome,
                Some(Outcome::Win(side.other())),
                "seed {seed}, {side:?}"
            );
            wins[i] += usize::from(outcome == Some(Outcome::Win(side)));
        }
    }
    assert!(
        wins[0] + wins[1] >= 3,
        "wins as White, as Black: {wins:?} of 4"
    );
}

#[test]
fn tree_reuse_over_a_whole_game() {
    let mut search = Mcts::new(Position::default(), Config::default(), 3);
    let mut evaluator = UniformEvaluator;
    let mut plies = 0;
    while search.root().outcome().is_none() && plies < 40 {
        let result = search.search(&mut evaluator, &Budget::simulations(100));
        assert!(result.simulations >= 100 || result.proof != pjlab_mcts::Proof::Unknown);
        let mv = result.best_move.expect("a move");
        search.advance(mv).expect("legal");
        plies += 1;
    }
    assert!(plies > 10);
}

#[test]
fn finds_the_winning_move_with_either_colour() {
    // A White rock on f1 steps to g1; the mirror position has a Black rock on b1 stepping to a1.
    for (psn, side, winning) in [
        ("6/R-6/6/r-6/6/7/6 w 0 1", Side::First, "f1g1"),
        ("6/7/6/R-6/6/r-6/6 b 0 1", Side::Second, "b1a1"),
    ] {
        let position = Position::from_psn(psn).expect("valid");
        for gumbel in [None, Some(GumbelConfig::default())] {
            let config = Config {
                gumbel,
                ..Config::default()
            };
            let mut search = Mcts::new(position.clone(), config, 1);
            let result = search.search(&mut UniformEvaluator, &Budget::simulations(400));
            let best = result.best_move.expect("a move");
            assert_eq!(best.to_string(), winning, "{psn}");
            assert_eq!(result.side, side);
            assert_eq!(result.value, 1.0, "{psn}");
            let mut after = position.clone();
            after.play(best).expect("legal");
            assert_eq!(after.outcome(), Some(Outcome::Win(side)));
        }
    }
}

/// A search that reports as it goes makes the same search as one that does not (the same
/// move, visits and tree), and its reports come in order with ever more simulations.
#[test]
fn reporting_search_is_the_same_search() {
    let position = Variant::HalfRandom.setup(4);
    let config = Config {
        leaves_per_call: 4,
        ..Config::default()
    };
    let budget = Budget::simulations(3_000);
    let plain =
        Mcts::new(position.clone(), config.clone(), 1).search(&mut UniformEvaluator, &budget);
    let mut reports = Vec::new();
    let mut search = Mcts::new(position, config, 1);
    let reported = search.search_reporting(
        &mut UniformEvaluator,
        &budget,
        std::time::Duration::ZERO,
        &mut |r| reports.push(r.simulations),
    );
    assert_eq!(reported, plain);
    // A zero interval reports after every evaluator call: one per gathered batch at least.
    assert!(reports.len() > 100, "{} reports", reports.len());
    assert!(reports.windows(2).all(|w| w[0] < w[1]), "{reports:?}");
    assert!(*reports.last().unwrap() <= plain.simulations);
}
