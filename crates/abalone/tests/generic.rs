//! The generic game-API suite, and the fast paths checked against the slow ones.

use std::collections::{HashMap, HashSet};

use pjlab_abalone::action::{NUM_ACTIONS, action_index, action_move};
use pjlab_abalone::perft::perft;
use pjlab_abalone::{Move, Position, Rules, Variant};
use pjlab_core::perft as generic;
use pjlab_core::testkit::{PlayoutConfig, check_random_playouts};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

#[test]
fn generic_suite_from_every_variant() {
    for (k, variant) in Variant::ALL.into_iter().enumerate() {
        let config = PlayoutConfig {
            games: 4,
            seed: k as u64,
            max_plies: 250,
            index_probes: 16,
        };
        let report = check_random_playouts(&variant.start(), &config);
        assert!(report.positions > 100, "{variant}: {report:?}");
        assert!(report.moves > 5_000, "{variant}: {report:?}");
    }
}

/// Positions from seeded random games under rules without the draw counter, so that games run
/// long enough to push, eject and (in doubles) make junctions.
fn random_positions(games: u64, seed: u64) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for g in 0..games {
        let variant = Variant::ALL[g as usize % Variant::ALL.len()];
        let rules = Rules {
            no_ejection_plies: None,
            ..variant.rules()
        };
        let mut position = variant.start().with_rules(rules).unwrap();
        for _ in 0..600 {
            out.push(position.clone());
            position.legal_moves(&mut moves);
            let Some(&mv) = moves.choose(&mut rng) else {
                break;
            };
            position.play_unchecked(mv);
        }
    }
    out
}

#[test]
fn random_games_reach_ejections_junctions_and_wins() {
    // The positions the tests below use cover the interesting rules, not only quiet moves.
    let positions = random_positions(28, 1);
    let ejected = positions
        .iter()
        .filter(|p| p.ejected(pjlab_abalone::Color::Black) > 0)
        .count();
    let junctions = positions
        .iter()
        .filter(|p| {
            p.junction(pjlab_abalone::Color::Black) && p.junction(pjlab_abalone::Color::White)
        })
        .filter(|p| p.rules().is_doubles())
        .count();
    let won = positions.iter().filter(|p| p.winner().is_some()).count();
    assert!(ejected > 100, "{ejected} positions after an ejection");
    assert!(
        junctions > 100,
        "{junctions} positions with both junctions made"
    );
    assert!(won > 0, "no random game was won");
}

#[test]
fn generator_agrees_with_the_cell_walker_on_every_action() {
    // `legal_moves` works on whole bitboards; `is_legal` walks cells with the coordinate table.
    // Every index of the action space is checked both ways.
    let mut moves = Vec::new();
    let mut checked = 0;
    for position in random_positions(28, 2).iter().step_by(5) {
        position.legal_moves(&mut moves);
        let generated: HashSet<Move> = moves.iter().copied().collect();
        for index in 0..NUM_ACTIONS {
            let mv = action_move(index).unwrap();
            assert_eq!(
                position.is_legal(mv),
                generated.contains(&mv),
                "{mv} in {position}"
            );
            checked += 1;
        }
        assert_eq!(position.count_moves(), moves.len() as u64, "in {position}");
    }
    assert!(checked > 1_000_000, "{checked}");
}

#[test]
fn fast_perft_equals_generic_perft() {
    for position in random_positions(14, 3).iter().step_by(97) {
        for depth in 1..=3 {
            assert_eq!(
                perft(position, depth),
                generic::perft(position, depth),
                "perft({depth}) of {position}"
            );
        }
    }
}

#[test]
fn equal_positions_have_equal_hashes_across_move_orders() {
    // Two plies from a start reach many positions by two move orders; equal texts must give
    // equal hashes, different texts different hashes.
    for variant in [Variant::Standard, Variant::GermanDaisy] {
        let start = variant.start();
        let mut by_text: HashMap<String, u64> = HashMap::new();
        let mut first = Vec::new();
        let mut second = Vec::new();
        start.legal_moves(&mut first);
        for &a in &first {
            let child = start.after(a);
            child.legal_moves(&mut second);
            for &b in &second {
                let grandchild = child.after(b);
                let hash = grandchild.hash();
                assert_eq!(*by_text.entry(grandchild.to_string()).or_insert(hash), hash);
            }
        }
        let hashes: HashSet<u64> = by_text.values().copied().collect();
        assert_eq!(hashes.len(), by_text.len(), "{variant}: colliding hashes");
    }
}

#[test]
fn every_action_index_is_reached_by_random_games() {
    // The action space is exact: each index is some move that some position allows.
    let mut seen = vec![false; NUM_ACTIONS];
    let mut moves = Vec::new();
    for position in random_positions(28, 4) {
        position.legal_moves(&mut moves);
        for &mv in &moves {
            seen[action_index(mv)] = true;
        }
    }
    let missing: Vec<String> = (0..NUM_ACTIONS)
        .filter(|&i| !seen[i])
        .map(|i| action_move(i).unwrap().to_string())
        .collect();
    // The pass needs a blocked seat, which random games from the starts do not meet.
    assert_eq!(missing, ["pass"], "{} indices never reached", missing.len());
}

#[test]
fn doubles_without_the_junction_rule_is_the_two_player_game() {
    // The spec: without the junction rule, doubles is the two-player game from the same start,
    // move for move; only who decides changes.
    let belgian = Variant::BelgianDaisy.start();
    for name in ["doubles-nojunction", "doubles-0321-nojunction"] {
        let doubles = name.parse::<Variant>().unwrap().start();
        for depth in 1..=3 {
            assert_eq!(
                perft(&doubles, depth),
                perft(&belgian, depth),
                "{name} perft({depth})"
            );
        }
        let (mut a, mut b) = (Vec::new(), Vec::new());
        belgian.legal_moves(&mut a);
        doubles.legal_moves(&mut b);
        assert_eq!(a, b, "{name}");
    }
}

#[test]
fn broadsides_off_the_board_are_refused_as_text() {
    // The first end's destination is on the board, another's is not.
    for text in ["c5a5c6", "e7e9f8"] {
        let err = pjlab_abalone::notation::parse_move(text).unwrap_err();
        assert!(
            err.to_string().contains("leaves the board"),
            "{text}: {err}"
        );
    }
}

#[test]
fn touching_daisies_make_the_junction_when_read() {
    // Seat 0's marble on e4 next to seat 2's on e5: the black junction is made, as it would be
    // after the move that brought them together.
    let text = "5/6/7/8/3bd4/8/7/6/5 1 - - 0 0 0 1";
    let position = Position::from_text(text).unwrap();
    assert!(position.junction(pjlab_abalone::Color::Black));
    assert!(!position.junction(pjlab_abalone::Color::White));
}
