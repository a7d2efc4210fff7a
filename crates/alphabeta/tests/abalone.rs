//! The alpha-beta engine on Abalone with `AbaloneEval`, against independent answers: a plain
//! negamax without pruning, tables or ordering, and hand-built positions with forced wins and a
//! running-out draw counter.

mod common;

use common::minimax;
use pjlab_abalone::{AbaloneEval, AbaloneWeights, Color, Position, Rules, Seat, Setup, Variant};
use pjlab_alphabeta::{Engine, Heuristic, Limits, MATE, Options, ZeroHeuristic};
use pjlab_core::{Game, Outcome};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

/// Positions met in seeded random games from every variant, with the default draw counter but
/// played without it so that games reach contact, pushes and ejections.
fn abalone_positions(n: usize, seed: u64, plies: usize) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    let mut game = 0;
    while out.len() < n {
        let variant = Variant::ALL[game % Variant::ALL.len()];
        game += 1;
        let rules = variant.rules();
        let free = Rules {
            no_ejection_plies: None,
            ..rules
        };
        let mut position = variant.start().with_rules(free).expect("same mode");
        for _ in 0..plies {
            position.legal_moves(&mut moves);
            let Some(&mv) = moves.choose(&mut rng) else {
                break;
            };
            position.play_unchecked(mv);
        }
        // Back under the variant's rules, with a counter that has not run out.
        let mut setup = position.to_setup();
        setup.quiet_plies %= 60;
        setup.rules = rules;
        let position = Position::from_setup(&setup).expect("valid");
        if position.outcome().is_none() {
            out.push(position);
        }
    }
    out
}

/// A two-player position: Black's and White's cells, the side to move, ejections, quiet plies.
fn build(black: &str, white: &str, to_move: Color, ejected: [u8; 2], quiet: u16) -> Position {
    let mut setup = Setup::empty();
    for (seat, names) in [(0, black), (1, white)] {
        for name in names.split_whitespace() {
            let cell = pjlab_abalone::Cell::parse(name).expect("a cell");
            setup.board[cell.dense()] = Seat::new(seat);
        }
    }
    setup.seat = Seat::first_of(to_move);
    setup.ejected = ejected;
    setup.quiet_plies = quiet;
    Position::from_setup(&setup).expect("valid")
}

#[test]
fn abalone_scores_equal_a_plain_minimax() {
    let eval = AbaloneEval::default();
    // Plain quiescence grows fast with pushes everywhere: it is bounded to 3 plies here.
    for (depth, quiescence, n) in [(2, 0, 8), (1, 3, 8), (2, 1, 6), (3, 0, 2)] {
        let options = Options {
            tt_mib: 0,
            quiescence_plies: quiescence,
        };
        let mut engine = Engine::new(eval.clone(), options);
        for position in abalone_positions(n, 5 + u64::from(depth), 40 + 10 * n) {
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
    for (position, plies, first) in [
        // Black has ejected 5: c3, b2 push a1 off south-west.
        (
            build("b2 c3 e5", "a1 g7 h8", Color::Black, [5, 0], 0),
            1,
            "c3b2",
        ),
        // The same for White, half a turn round: g7, h8 push i9 off north-east.
        (
            build("i9 c3 b2", "h8 g7 e5", Color::White, [0, 5], 0),
            1,
            "g7h8",
        ),
        // Two moves away: a1 is walled in by a2, b1, b2 and cannot move; c4 steps to c3, then
        // c3, b2 eject it whatever White does.
        (
            build("a2 b1 b2 c4", "a1 i9", Color::Black, [5, 0], 0),
            3,
            "",
        ),
        (
            build("i9 a1", "i8 h9 h8 g6", Color::White, [0, 5], 0),
            3,
            "",
        ),
        // The draw counter does not stop the winning ejection (it resets the counter).
        (
            build("b2 c3 e5", "a1 g7 h8", Color::Black, [5, 0], 99),
            1,
            "c3b2",
        ),
    ] {
        let mut engine = Engine::new(AbaloneEval::default(), Options::default());
        let result = engine.search(&position, &Limits::depth(5));
        assert_eq!(result.mate_in(), Some(plies), "{position}");
        assert_eq!(result.score, MATE - plies);
        // A second implementation agrees that the win is forced in that many plies, and no
        // sooner.
        let exact = minimax(&ZeroHeuristic, &position, plies as u32, 0, 0);
        assert_eq!(exact, MATE - plies, "{position}");
        if plies > 1 {
            assert_eq!(
                minimax(&ZeroHeuristic, &position, plies as u32 - 2, 0, 0),
                0
            );
        }
        let mv = result.best_move.expect("a move");
        if !first.is_empty() {
            assert_eq!(mv.to_string(), first, "{position}");
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
    // One ply before the counter runs out, with no ejection in reach: every move draws.
    let position = build("a1 a2 e5", "i9 i8 e6", Color::Black, [2, 0], 99);
    let mut engine = Engine::new(AbaloneEval::default(), Options::default());
    let result = engine.search(&position, &Limits::depth(4));
    assert_eq!(result.score, 0);
    assert_eq!(result.mate_in(), None);
    let mv = result.best_move.expect("a move");
    assert_eq!(position.after(mv).outcome(), Some(Outcome::Draw));
    // Two marbles up the same board scores well above 0 with time left on the counter.
    let fresh = build("a1 a2 e5", "i9 i8 e6", Color::Black, [2, 0], 0);
    assert!(engine.search(&fresh, &Limits::depth(2)).score > 100);
    // With an ejection in reach, the engine takes it: the only move that does not draw.
    let position = build("b2 c3 e5", "a1 g7 h8", Color::Black, [0, 0], 99);
    let result = engine.search(&position, &Limits::depth(4));
    assert_eq!(
        result.best_move.map(|m| m.to_string()).as_deref(),
        Some("c3b2")
    );
    assert!(result.score > 0, "{}", result.score);
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
    let mut positions = abalone_positions(14, 8, 60);
    positions.extend(Variant::ALL.map(Variant::start));
    for position in positions {
        position.legal_moves(&mut moves);
        for limits in &limits {
            let mut engine = Engine::new(AbaloneEval::default(), Options::default());
            let result = engine.search(&position, limits);
            let mv = result.best_move.expect("a move");
            assert!(moves.contains(&mv), "{position}: {mv}");
            assert!(position.is_legal(mv));
            assert!(result.depth >= 1);
        }
        let run = || {
            let mut engine = Engine::new(AbaloneEval::default(), Options::default());
            let mut r = engine.search(&position, &Limits::depth(3));
            r.elapsed = Default::default();
            r
        };
        assert_eq!(run(), run());
    }
}

#[test]
fn weights_come_from_toml() {
    let weights =
        AbaloneWeights::from_toml("[abalone]\nmarble = 250\ndanger = 0\n").expect("valid");
    assert_eq!(weights.marble, 250);
    assert_eq!(weights.danger, 0);
    assert_eq!(weights.centre, AbaloneWeights::default().centre);
    assert!(AbaloneWeights::from_toml("[abalone]\nmarbel = 1\n").is_err());
    assert!(AbaloneWeights::from_toml("[abalone]\nedge = \"lots\"\n").is_err());
    // The committed config spells out the defaults.
    let path = pjlab_conformance::package_dir(env!("CARGO_MANIFEST_DIR"))
        .join("../../configs/alphabeta-abalone.toml");
    assert_eq!(
        AbaloneWeights::from_file(&path).expect("configs/alphabeta-abalone.toml"),
        AbaloneWeights::default()
    );
    // The weights reach the search: one marble up, with everything else equal and off.
    let only_material = AbaloneWeights {
        marble: 250,
        danger: 0,
        centre: 0,
        cohesion: 0,
        edge: 0,
        draw_counter: 0,
    };
    let position = build("e5", "e7", Color::Black, [1, 0], 0);
    let mut engine = Engine::new(AbaloneEval::new(only_material), Options::default());
    assert_eq!(engine.search(&position, &Limits::depth(1)).score, 250);
    assert_eq!(
        AbaloneEval::default().evaluate(&position.flipped()),
        AbaloneEval::default().evaluate(&position)
    );
}
