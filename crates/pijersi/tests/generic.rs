//! The generic game-API suite, and the fast paths checked against the slow ones.

use pjlab_core::testkit::{PlayoutConfig, check_random_playouts};
use pjlab_core::{Game, perft as generic};
use pjlab_pijersi::perft::perft;
use pjlab_pijersi::{Position, Rules, Variant};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

#[test]
fn generic_suite_from_every_variant() {
    for (k, variant) in Variant::ALL.into_iter().enumerate() {
        let config = PlayoutConfig {
            games: 6,
            seed: k as u64,
            max_plies: 200,
            index_probes: 8,
        };
        let report = check_random_playouts(&variant.setup(k as u64), &config);
        assert!(report.positions > 100, "{variant}: {report:?}");
        assert!(report.moves > 10_000, "{variant}: {report:?}");
    }
}

/// Positions from seeded random games (many of them deep in the game, with stacks and wises in
/// odd places).
fn random_positions(games: u64, seed: u64) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for g in 0..games {
        let mut position = Variant::ALL[g as usize % Variant::ALL.len()].setup(g);
        loop {
            out.push(position.clone());
            // Follow the game past draws too: perft and counting ignore them.
            position.generate_moves({
                moves.clear();
                &mut moves
            });
            let Some(&mv) = moves.choose(&mut rng) else {
                break;
            };
            position.play_unchecked(mv);
            if position.is_won() {
                out.push(position.clone());
                break;
            }
        }
    }
    out
}

#[test]
fn bulk_count_equals_generated_list() {
    let mut moves = Vec::new();
    for position in random_positions(300, 7) {
        moves.clear();
        position.generate_moves(&mut moves);
        assert_eq!(position.count_moves(), moves.len() as u64, "in {position}");
        assert_eq!(position.has_any_move(), !moves.is_empty(), "in {position}");
    }
}

#[test]
fn fast_perft_equals_generic_perft_where_no_draw_is_reached() {
    // The generic perft plays every move through the game API (which stops at draws); from a
    // counter of 0, depth 3 cannot reach a draw, so the two definitions agree.
    let positions = random_positions(40, 11);
    for position in positions.iter().step_by(37) {
        let mut fresh = position.to_setup();
        fresh.halfmove = 0;
        let p = Position::from_setup(&fresh, Rules::EndOfTurn).unwrap();
        for depth in 1..=3 {
            assert_eq!(
                perft(&p, depth),
                generic::perft(&p, depth),
                "perft({depth}) of {p}"
            );
        }
    }
}

#[test]
fn equal_positions_have_equal_hashes_across_move_orders() {
    // From the classic start, 186 moves reach 181 distinct positions.
    let start = Position::default();
    let mut moves = Vec::new();
    Game::legal_moves(&start, &mut moves);
    assert_eq!(moves.len(), 186);
    let children: Vec<Position> = moves.iter().map(|&m| start.after(m)).collect();
    let mut distinct = std::collections::HashMap::new();
    for child in &children {
        let text = child.to_string();
        let hash = child.hash();
        assert_eq!(*distinct.entry(text).or_insert(hash), hash);
    }
    assert_eq!(distinct.len(), 181);
    let hashes: std::collections::HashSet<u64> = distinct.values().copied().collect();
    assert_eq!(hashes.len(), 181, "distinct positions got colliding hashes");
}

#[test]
fn no_move_loses() {
    // White's only piece is a wise boxed in by black pieces it cannot take: White loses.
    let position = Position::from_psn("6/7/6/7/6/r-p-5/W-w-4 w 0 1").unwrap();
    assert!(!position.has_any_move());
    assert_eq!(
        position.outcome(),
        Some(pjlab_core::Outcome::Win(pjlab_core::Side::Second))
    );
    assert_eq!(perft(&position, 1), 0);
}

#[test]
fn action_space_covers_every_move_with_distinct_indices() {
    let n = pjlab_pijersi::action::num_actions();
    assert!((3_000..5_000).contains(&n), "{n} actions");
    let mut seen = vec![false; n];
    let mut moves = Vec::new();
    for position in random_positions(60, 3) {
        moves.clear();
        position.generate_moves(&mut moves);
        for &mv in &moves {
            let index = pjlab_pijersi::action::action_index(mv);
            seen[index] = true;
            let (cells, len) = pjlab_pijersi::action::action_path(index).unwrap();
            assert_eq!(position.move_from_path(cells, len), Some(mv));
        }
    }
    // Random games reach most paths; a table full of unreachable paths would be a waste.
    let reached = seen.iter().filter(|&&s| s).count();
    assert!(reached * 2 > n, "only {reached} of {n} paths reached");
}
