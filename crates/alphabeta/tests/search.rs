//! The alpha-beta engine against independent answers: the Chomp solver, a plain minimax
//! without pruning, tables or ordering, and constructed Pijersi positions.

mod common;

use common::minimax;
use pjlab_alphabeta::{Engine, Heuristic, Limits, MATE, Options, ZeroHeuristic};
use pjlab_chomp::{Chomp, Solver};
use pjlab_core::{Game, Outcome};
use pjlab_pijersi::{PijersiEval, PijersiWeights, Position, Variant};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

fn chomp_positions(m: usize, n: usize) -> Vec<Chomp> {
    fn rec(m: usize, n: usize, prefix: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if prefix.len() == m {
            out.push(prefix.clone());
            return;
        }
        let max = prefix.last().copied().unwrap_or(n);
        for a in usize::from(prefix.is_empty())..=max {
            prefix.push(a);
            rec(m, n, prefix, out);
            prefix.pop();
        }
    }
    let mut diagrams = Vec::new();
    rec(m, n, &mut Vec::new(), &mut diagrams);
    diagrams
        .into_iter()
        .map(|d| {
            let text: Vec<String> = d.iter().map(usize::to_string).collect();
            Chomp::from_text(&format!("{m}x{n}:{}:1", text.join(","))).expect("valid")
        })
        .collect()
}

#[test]
fn solves_chomp_like_the_solver_and_a_plain_minimax() {
    // Without a table on 3 x 4, with one on 4 x 4 (transpositions make it far cheaper).
    for (m, n, tt_mib) in [(3, 4, 0), (4, 4, 4)] {
        let solver = Solver::new(m, n).expect("size");
        let options = Options {
            tt_mib,
            quiescence_plies: 0,
        };
        let mut engine = Engine::new(ZeroHeuristic, options);
        for position in chomp_positions(m, n) {
            let squares: usize = position.lengths().iter().sum();
            let result = engine.search(&position, &Limits::depth(squares as u32));
            let lost = solver.is_p(&position.lengths());
            assert_eq!(result.score < 0, lost, "{position}: {}", result.score);
            assert!(result.mate_in().is_some(), "{position}: solved to the end");
            if let Some(mv) = result.best_move {
                let winning = solver.winning_moves(&position.lengths());
                let bite = (mv.row as usize + 1, mv.col as usize + 1);
                assert!(lost || winning.contains(&bite), "{position}: {mv}");
            } else {
                assert_eq!(squares, 1, "only the poison has no move");
            }
            // Exact to the last ply: the same score as a full minimax (small diagrams only).
            if squares <= 9 {
                let exact = minimax(&ZeroHeuristic, &position, squares as u32, 0, 0);
                assert_eq!(result.score, exact, "{position}");
            }
        }
    }
}

/// Positions met in seeded random games from random setups.
fn pijersi_positions(n: usize, seed: u64, plies: usize) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    let mut game = 0;
    while out.len() < n {
        let mut position = Variant::FullRandom.setup(game);
        game += 1;
        for ply in 0..plies {
            position.legal_moves(&mut moves);
            let Some(&mv) = moves.choose(&mut rng) else {
                break;
            };
            if ply % 7 == 3 || plies < 10 && ply + 1 == plies {
                out.push(position.clone());
            }
            position.play_unchecked(mv);
        }
    }
    out.truncate(n);
    out
}

#[test]
fn pijersi_scores_equal_a_plain_minimax() {
    let eval = PijersiEval::default();
    // Plain quiescence explodes on capture chains: it is bounded to 3 plies here.
    for (depth, quiescence) in [(2, 0), (1, 3), (2, 1)] {
        let options = Options {
            tt_mib: 0,
            quiescence_plies: quiescence,
        };
        let mut engine = Engine::new(eval.clone(), options);
        for position in pijersi_positions(8, 5, 60) {
            let result = engine.search(&position, &Limits::depth(depth));
            let reference = minimax(&eval, &position, depth, 0, quiescence);
            assert_eq!(
                result.score, reference,
                "{position} (depth {depth}, quiescence {quiescence})"
            );
            // The best move's own minimax value is the root's.
            let mv = result.best_move.expect("a move");
            let child = position.after(mv);
            assert_eq!(-minimax(&eval, &child, depth - 1, 1, quiescence), reference);
        }
    }
}

#[test]
fn finds_forced_wins_with_either_colour() {
    for (psn, plies, first) in [
        ("6/R-6/6/r-6/6/7/6 w 0 1", 1, "f1g1"),
        ("6/7/6/R-6/6/r-6/6 b 0 1", 1, "b1a1"),
        // A rock two rows from the goal against a lone wise: two White turns.
        ("6/7/R-5/7/6/7/w-5 w 0 1", 3, ""),
        ("W-5/7/6/7/r-5/7/6 b 0 1", 3, ""),
        // No White piece left after Black's move: White has no move and loses.
        ("6/7/6/7/p-5/R-6/6 b 0 1", 1, "c1b1"),
        // The 20-turn counter does not stop a winning move.
        ("6/R-6/6/r-6/6/7/6 w 19 10", 1, "f1g1"),
    ] {
        let position = Position::from_psn(psn).expect("valid");
        let mut engine = Engine::new(PijersiEval::default(), Options::default());
        let result = engine.search(&position, &Limits::depth(5));
        assert_eq!(result.mate_in(), Some(plies), "{psn}");
        assert_eq!(result.score, MATE - plies);
        // A second implementation agrees that the win is forced in that many plies.
        let exact = minimax(&ZeroHeuristic, &position, plies as u32, 0, 0);
        assert_eq!(exact, MATE - plies, "{psn}");
        let mv = result.best_move.expect("a move");
        if !first.is_empty() {
            assert_eq!(mv.to_string(), first);
        }
        // The principal variation plays out to the win.
        let mut line = position.clone();
        for &mv in &result.pv {
            line.play(mv).expect("legal");
        }
        assert_eq!(
            line.outcome(),
            Some(Outcome::Win(Game::side_to_move(&position)))
        );
    }
}

#[test]
fn the_draw_counter_is_respected() {
    // White cannot win or capture in one turn with the counter at 19: every move draws.
    let position = Position::from_psn("6/7/R-5/7/6/r-6/6 w 19 10").expect("valid");
    let mut engine = Engine::new(PijersiEval::default(), Options::default());
    let result = engine.search(&position, &Limits::depth(4));
    assert_eq!(result.score, 0);
    let mv = result.best_move.expect("a move");
    assert_eq!(position.after(mv).outcome(), Some(Outcome::Draw));
}

#[test]
fn a_side_without_moves_loses_and_gets_no_move() {
    let position = Position::from_psn("6/7/6/r-6/6/7/6 w 0 1").expect("valid");
    let mut engine = Engine::new(PijersiEval::default(), Options::default());
    let result = engine.search(&position, &Limits::depth(3));
    assert_eq!(result.best_move, None);
    assert_eq!(result.score, -MATE);
    assert_eq!(result.mate_in(), Some(0));
    let poison = Chomp::new(1, 1).expect("size");
    let mut engine = Engine::new(ZeroHeuristic, Options::default());
    assert_eq!(engine.search(&poison, &Limits::depth(2)).best_move, None);
}

#[test]
fn legal_moves_only_under_every_limit_and_deterministic() {
    let limits = [
        Limits::depth(3),
        Limits {
            nodes: Some(2_000),
            ..Limits::default()
        },
        Limits::time(std::time::Duration::from_millis(5)),
    ];
    let mut moves = Vec::new();
    for position in pijersi_positions(20, 8, 60) {
        position.legal_moves(&mut moves);
        for limits in &limits {
            let mut engine = Engine::new(PijersiEval::default(), Options::default());
            let result = engine.search(&position, limits);
            let mv = result.best_move.expect("a move");
            assert!(moves.contains(&mv), "{position}: {mv}");
            assert!(result.depth >= 1);
        }
        let run = || {
            let mut engine = Engine::new(PijersiEval::default(), Options::default());
            let mut r = engine.search(&position, &Limits::depth(3));
            r.elapsed = Default::default();
            r
        };
        assert_eq!(run(), run());
    }
}

#[test]
fn weights_come_from_toml() {
    let weights = PijersiWeights::from_toml("[pijersi]\nwise = 50\nthreat = 0\n").expect("valid");
    assert_eq!(weights.wise, 50);
    assert_eq!(weights.threat, 0);
    assert_eq!(weights.rock, PijersiWeights::default().rock);
    assert!(PijersiWeights::from_toml("[pijersi]\nwisdom = 1\n").is_err());
    assert!(PijersiWeights::from_toml("[pijersi]\nrock = \"a lot\"\n").is_err());
    // The committed config spells out the defaults.
    let path = pjlab_conformance::package_dir(env!("CARGO_MANIFEST_DIR"))
        .join("../../configs/alphabeta.toml");
    assert_eq!(
        PijersiWeights::from_file(&path).expect("configs/alphabeta.toml"),
        PijersiWeights::default()
    );
    // Each weight is used: a lone White rock on its home row is worth `rock`, one row up it
    // gains `advancement`, on the row before the goal `near_goal` too.
    let weights = PijersiWeights {
        rock: 150,
        advancement: 7,
        near_goal: 40,
        ..PijersiWeights::default()
    };
    let eval = PijersiEval::new(weights);
    let score = |psn: &str| eval.evaluate(&Position::from_psn(psn).expect("valid"));
    assert_eq!(score("6/7/6/7/6/7/R-5 w 0 1"), 150);
    assert_eq!(score("6/7/6/7/6/R-6/6 w 0 1"), 157);
    assert_eq!(score("6/R-6/6/7/6/7/6 w 0 1"), 150 + 5 * 7 + 40);
    // From Black's side the same board scores the opposite; the counter halves it at 20.
    assert_eq!(score("6/7/6/7/6/7/R-5 b 0 1"), -150);
    assert_eq!(score("6/7/6/7/6/7/R-5 w 10 1"), 150 * 3 / 4);
}
