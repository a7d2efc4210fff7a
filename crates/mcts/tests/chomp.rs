//! MCTS on Chomp, judged by the exact solver.

use pjlab_chomp::{Chomp, ChompMove, Solver};
use pjlab_core::{Game, Side};
use pjlab_mcts::{
    Budget, Config, Evaluation, Evaluator, GumbelConfig, Mcts, Proof, Request, RolloutEvaluator,
    RootNoise, SearchResult, UniformEvaluator, Value, search_lockstep,
};

/// Every diagram of an `m x n` bar that still has a move (the poison plus at least one square),
/// with `side` to move.
fn positions(m: usize, n: usize, side: Side) -> Vec<Chomp> {
    fn rec(m: usize, n: usize, prefix: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if prefix.len() == m {
            out.push(prefix.clone());
            return;
        }
        let max = prefix.last().copied().unwrap_or(n);
        let min = usize::from(prefix.is_empty());
        for a in min..=max {
            prefix.push(a);
            rec(m, n, prefix, out);
            prefix.pop();
        }
    }
    let mut diagrams = Vec::new();
    rec(m, n, &mut Vec::new(), &mut diagrams);
    let side = match side {
        Side::First => 1,
        Side::Second => 2,
    };
    diagrams
        .into_iter()
        .filter(|d| d.iter().sum::<usize>() > 1)
        .map(|d| {
            let lengths: Vec<String> = d.iter().map(usize::to_string).collect();
            Chomp::from_text(&format!("{m}x{n}:{}:{side}", lengths.join(","))).expect("valid")
        })
        .collect()
}

fn is_winning_move(solver: &Solver, position: &Chomp, mv: ChompMove) -> bool {
    solver
        .winning_moves(&position.lengths())
        .contains(&(mv.row as usize + 1, mv.col as usize + 1))
}

/// Searches each winning position of `starts` (seeded by its index in `starts`), hands every
/// result to `check`, and returns how many got a winning move and how many there were.
fn winning_share<E: Evaluator<Chomp>>(
    solver: &Solver,
    starts: Vec<Chomp>,
    config: &Config,
    evaluator: &mut E,
    budget: &Budget,
    mut check: impl FnMut(&Chomp, &SearchResult<ChompMove>),
) -> (usize, usize) {
    let (mut good, mut total) = (0, 0);
    for (i, position) in starts.into_iter().enumerate() {
        if solver.is_p(&position.lengths()) {
            continue;
        }
        let mut search = Mcts::new(position.clone(), config.clone(), i as u64);
        let result = search.search(evaluator, budget);
        check(&position, &result);
        let mv = result
            .best_move
            .expect("a position with moves has a best move");
        total += 1;
        good += usize::from(is_winning_move(solver, &position, mv));
    }
    (good, total)
}

/// Winning positions (both sides to move) where rollout MCTS with the default configuration
/// picks a winning move, and their number.
///
/// Chomp is hard for rollouts: random play says little about a diagram, and the game's many
/// transpositions are searched again in every branch. Measured on 5 x 5 without the solver, both
/// this search and an independent plain UCT find a winning move in about 57% of the winning
/// positions at 3,000 simulations and 81% at 20,000; with the solver, 94% at 50,000 and 99% at
/// 500,000 (most searches stop early, proven).
fn rollout_accuracy(m: usize, n: usize, simulations: u32) -> (usize, usize) {
    let solver = Solver::new(m, n).expect("size");
    let mut starts = positions(m, n, Side::First);
    starts.extend(positions(m, n, Side::Second));
    winning_share(
        &solver,
        starts,
        &Config::default(),
        &mut RolloutEvaluator::new(11),
        &Budget::simulations(simulations),
        |_, _| {},
    )
}

#[test]
fn rollouts_find_winning_moves_4x5() {
    let (good, total) = rollout_accuracy(4, 5, 1_000_000);
    assert!(total > 150, "{total} winning positions, both sides to move");
    assert!(good * 100 >= total * 99, "{good} / {total} winning moves");
}

#[test]
fn rollouts_find_winning_moves_5x5() {
    let (good, total) = rollout_accuracy(5, 5, 1_000_000);
    assert!(total > 350);
    assert!(good * 100 >= total * 99, "{good} / {total} winning moves");
}

#[test]
fn solver_mode_proves_every_position() {
    for (m, n) in [(4, 5), (5, 5)] {
        let solver = Solver::new(m, n).expect("size");
        let mut evaluator = RolloutEvaluator::new(3);
        for (i, position) in positions(m, n, Side::First).into_iter().enumerate() {
            let mut search = Mcts::new(position.clone(), Config::default(), i as u64);
            let result = search.search(&mut evaluator, &Budget::simulations(2_000_000));
            let lost = solver.is_p(&position.lengths());
            let want = if lost { Proof::Loss } else { Proof::Win };
            assert_eq!(result.proof, want, "{position}");
            assert_eq!(result.value, if lost { -1.0 } else { 1.0 });
            let mv = result.best_move.expect("a move");
            assert!(
                lost || is_winning_move(&solver, &position, mv),
                "{position}"
            );
        }
    }
}

/// Uniform priors and the solver's exact value: the search's answers must all be right.
struct Oracle(Solver);

impl Evaluator<Chomp> for Oracle {
    fn evaluate(&mut self, requests: &[Request<'_, Chomp>], out: &mut [Evaluation]) {
        for (request, eval) in requests.iter().zip(out) {
            let n = request.moves.len();
            eval.priors.clear();
            eval.priors.resize(n, 1.0 / n as f32);
            let lost = self.0.is_p(&request.position.lengths());
            let side = request.position.side_to_move();
            eval.value = Value::new(side, if lost { -1.0 } else { 1.0 });
        }
    }
}

#[test]
fn lockstep_equals_one_at_a_time_and_oracle_values_are_followed() {
    let solver = Solver::new(4, 4).expect("size");
    let config = Config {
        solver: false,
        ..Config::default()
    };
    let starts: Vec<Chomp> = positions(4, 4, Side::Second)
        .into_iter()
        .filter(|p| !solver.is_p(&p.lengths()))
        .collect();
    let budget = Budget::simulations(300);
    let mut oracle = Oracle(Solver::new(4, 4).expect("size"));
    let mut together: Vec<Mcts<Chomp>> = starts
        .iter()
        .enumerate()
        .map(|(i, p)| Mcts::new(p.clone(), config.clone(), i as u64))
        .collect();
    search_lockstep(&mut together, &mut oracle, &budget);
    for (i, (position, batched)) in starts.iter().zip(&together).enumerate() {
        let mut alone = Mcts::new(position.clone(), config.clone(), i as u64);
        let result = alone.search(&mut oracle, &budget);
        assert_eq!(result, batched.result(), "{position}");
        let mv = result.best_move.expect("a move");
        assert!(is_winning_move(&solver, position, mv), "{position}");
        // The value is the second player's: the side to move here, and it is winning.
        assert_eq!(result.side, Side::Second);
        assert!(result.value > 0.5, "{position}: {}", result.value);
    }
}

#[test]
fn batched_leaves_with_virtual_loss_still_find_wins() {
    let solver = Solver::new(4, 5).expect("size");
    let config = Config {
        solver: false,
        leaves_per_call: 8,
        ..Config::default()
    };
    let mut oracle = Oracle(Solver::new(4, 5).expect("size"));
    let (good, total) = winning_share(
        &solver,
        positions(4, 5, Side::First),
        &config,
        &mut oracle,
        &Budget::simulations(400),
        |position, result| {
            assert!(result.simulations >= 400);
            // Every visit was backed up: no virtual visit is left behind.
            let visits: u32 = result.visits.iter().map(|&(_, n)| n).sum();
            assert_eq!(visits + 1, result.simulations, "{position}");
        },
    );
    assert_eq!(good, total);
}

#[test]
fn gumbel_improved_policy_of_a_hand_built_tree() {
    // 1x3 bar: the moves are (1,2), leaving the poison alone (a win), and (1,3), leaving two
    // squares (the opponent then wins). Three simulations: the root, then each of the two
    // considered moves once. Child values for the root: +1 (the finished game) and 0 (uniform
    // evaluator). Completed Q = [1, 0] (both visited), rescaled [1, 0];
    // sigma = (c_visit 50 + max visits 1) * c_scale 0.1 = 5.1.
    // Improved policy = softmax(ln .5 + 5.1, ln .5) = [e^5.1, 1] / (e^5.1 + 1).
    let config = Config {
        solver: false,
        gumbel: Some(GumbelConfig {
            considered: 2,
            c_visit: 50.0,
            c_scale: 0.1,
        }),
        ..Config::default()
    };
    let mut search = Mcts::new(Chomp::new(1, 3).expect("size"), config, 1);
    let result = search.search(&mut UniformEvaluator, &Budget::simulations(3));
    let visits: Vec<u32> = result.visits.iter().map(|&(_, n)| n).collect();
    assert_eq!(visits, vec![1, 1]);
    let e = 5.1f32.exp();
    let want = [e / (e + 1.0), 1.0 / (e + 1.0)];
    assert_eq!(result.policy.len(), 2);
    for ((_, p), w) in result.policy.iter().zip(want) {
        assert!((p - w).abs() < 1e-5, "{:?} vs {want:?}", result.policy);
    }
    assert!((want[0] - 0.993_94).abs() < 1e-4);
    assert_eq!(
        result.best_move,
        Some(ChompMove { row: 0, col: 1 }),
        "the winning bite"
    );
}

#[test]
fn gumbel_search_finds_winning_moves() {
    let solver = Solver::new(4, 5).expect("size");
    let config = Config {
        solver: false,
        gumbel: Some(GumbelConfig::default()),
        ..Config::default()
    };
    let mut oracle = Oracle(Solver::new(4, 5).expect("size"));
    let (good, total) = winning_share(
        &solver,
        positions(4, 5, Side::First),
        &config,
        &mut oracle,
        &Budget::simulations(64),
        |_, result| {
            let sum: f32 = result.policy.iter().map(|&(_, p)| p).sum();
            assert!((sum - 1.0).abs() < 1e-4);
        },
    );
    assert!(good * 100 >= total * 99, "{good} / {total}");
}

#[test]
fn same_seed_same_search() {
    let position = Chomp::new(5, 6).expect("size");
    let config = Config {
        root_noise: Some(RootNoise {
            alpha: 0.5,
            fraction: 0.25,
        }),
        gumbel: Some(GumbelConfig::default()),
        solver: false,
        ..Config::default()
    };
    let run = |seed: u64| {
        let mut search = Mcts::new(position.clone(), config.clone(), seed);
        search.search(&mut RolloutEvaluator::new(seed), &Budget::simulations(500))
    };
    assert_eq!(run(4), run(4));
    assert_ne!(run(4).policy, run(5).policy);
}

#[test]
fn tree_reuse_keeps_the_subtree() {
    let position = Chomp::new(4, 5).expect("size");
    let config = Config {
        solver: false,
        ..Config::default()
    };
    let mut search = Mcts::new(position.clone(), config, 0);
    let mut evaluator = RolloutEvaluator::new(0);
    let result = search.search(&mut evaluator, &Budget::simulations(2_000));
    let mv = result.best_move.expect("a move");
    let child_visits = result
        .visits
        .iter()
        .find(|&&(m, _)| m == mv)
        .map(|&(_, n)| n)
        .expect("the best move is a child");
    search.advance(mv).expect("legal");
    let mut after = position.clone();
    after.play(mv).expect("legal");
    assert_eq!(search.root(), &after);
    let reused: u32 = search.result().visits.iter().map(|&(_, n)| n).sum();
    // The child's visits: one for its own evaluation, the rest went to its children.
    assert_eq!(reused + 1, child_visits);
    // An illegal move is refused and changes nothing.
    let nodes = search.nodes();
    assert!(search.advance(ChompMove { row: 9, col: 0 }).is_err());
    assert_eq!(search.nodes(), nodes);
    let again = search.search(&mut evaluator, &Budget::simulations(500));
    assert!(again.best_move.is_some());
}

#[test]
fn decisive_wrapper_values_immediate_wins_and_forwards_the_rest() {
    use pjlab_mcts::{Decisive, Evaluation, Evaluator, Request, UniformEvaluator};
    // 2x3:3,0 and 1x3:3: biting (1,2) leaves only the poison, a win at once; 3x3:3,3,3 has no
    // such move.
    let texts = ["2x3:3,0:1", "3x3:3,3,3:2", "1x3:3:2"];
    let positions: Vec<Chomp> = texts.iter().map(|t| Chomp::from_text(t).unwrap()).collect();
    let moves: Vec<Vec<_>> = positions
        .iter()
        .map(|p| {
            let mut m = Vec::new();
            p.legal_moves(&mut m);
            m
        })
        .collect();
    let requests: Vec<Request<'_, Chomp>> = positions
        .iter()
        .zip(&moves)
        .map(|(position, moves)| Request { position, moves })
        .collect();
    let mut out = vec![Evaluation::default(); 3];
    Decisive::new(UniformEvaluator).evaluate(&requests, &mut out);
    for (k, (p, m)) in positions.iter().zip(&moves).enumerate() {
        // Independent check: which moves leave the opponent with only the poison square.
        let winning: Vec<bool> = m
            .iter()
            .map(|&mv| {
                let mut q = p.clone();
                q.play(mv).unwrap();
                q.outcome().is_some()
            })
            .collect();
        let n = winning.iter().filter(|&&w| w).count();
        let side = p.side_to_move();
        if n == 0 {
            assert_eq!(out[k].value.for_side(side), 0.0, "{}", texts[k]);
            assert!(
                out[k]
                    .priors
                    .iter()
                    .all(|&x| (x - 1.0 / m.len() as f32).abs() < 1e-6)
            );
        } else {
            assert_eq!(out[k].value.for_side(side), 1.0, "{}", texts[k]);
            for (w, &x) in winning.iter().zip(&out[k].priors) {
                assert_eq!(x, if *w { 1.0 / n as f32 } else { 0.0 });
            }
        }
    }
    assert_eq!(
        out.iter()
            .filter(|e| e.value.for_side(Side::First) != 0.0)
            .count(),
        2
    );
}
