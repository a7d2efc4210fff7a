//! The board's symmetries are symmetries of the rules: the proof that mirroring is a sound data
//! augmentation and that the mover's-view encoding loses nothing.
//!
//! For positions from random games of every setup variant, each map must carry the set of legal
//! moves onto the set of legal moves of the image, commute with playing any move, keep the game's
//! end (outcome read from the mover's side) and be its own inverse; the action-index permutations
//! must agree with the moves'.

use std::collections::HashSet;

use pjlab_core::Game;
use pjlab_pijersi::action::action_index;
use pjlab_pijersi::symmetry::{mirror_bits, mirrored_action, rotate_bits, rotated_action};
use pjlab_pijersi::{Cell, Move, Position, Variant};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

fn random_positions(games: u64, seed: u64) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for g in 0..games {
        let mut position = Variant::ALL[g as usize % Variant::ALL.len()].setup(g + seed);
        while position.outcome().is_none() {
            out.push(position.clone());
            position.legal_moves(&mut moves);
            let Some(&mv) = moves.choose(&mut rng) else {
                break;
            };
            position.play_unchecked(mv);
        }
        out.push(position);
    }
    out
}

fn legal(position: &Position) -> HashSet<Move> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    moves.into_iter().collect()
}

/// What the rules read of a position: everything but the full-move number, which only counts
/// turns (the flip keeps it while swapping who moves, so it drifts by one after a move).
fn rules_view(position: &Position) -> pjlab_pijersi::Setup {
    let mut setup = position.to_setup();
    setup.fullmove = 1;
    setup
}

/// Checks that `map` (on positions) and `map_move` are a symmetry of the rules; `swaps` says
/// whether the map exchanges the colours (then outcomes are read for the other side).
fn check_symmetry(
    map: impl Fn(&Position) -> Position,
    map_move: impl Fn(Move) -> Move,
    swaps: bool,
) {
    let positions = random_positions(40, 11);
    assert!(positions.len() > 1_000);
    let mut moves_checked = 0;
    for p in &positions {
        let image = map(p);
        assert_eq!(map(&image), *p, "not an involution");
        let expected: HashSet<Move> = legal(p).into_iter().map(&map_move).collect();
        assert_eq!(
            legal(&image),
            expected,
            "legal moves differ in {}",
            p.to_text()
        );
        let (a, b) = (p.outcome(), image.outcome());
        assert_eq!(a.is_some(), b.is_some());
        if let (Some(a), Some(b)) = (a, b) {
            let (side_a, side_b) = (Game::side_to_move(p), Game::side_to_move(&image));
            assert_eq!(side_a == side_b, !swaps);
            assert_eq!(
                a.value_for(side_a),
                b.value_for(side_b),
                "outcome of {}",
                p.to_text()
            );
        }
        for mv in legal(p) {
            let after = p.after(mv);
            assert_eq!(
                rules_view(&image.after(map_move(mv))),
                rules_view(&map(&after)),
                "play does not commute"
            );
            moves_checked += 1;
        }
    }
    assert!(moves_checked > 10_000);
}

#[test]
fn mirror_is_a_symmetry_of_the_rules() {
    check_symmetry(Position::mirrored, Move::mirrored, false);
}

#[test]
fn flip_is_a_symmetry_of_the_rules_with_colours_swapped() {
    check_symmetry(Position::flipped, Move::rotated, true);
}

#[test]
fn cell_maps_are_involutions_and_bitboard_maps_match_them() {
    for cell in Cell::all() {
        assert_eq!(cell.mirrored().mirrored(), cell);
        assert_eq!(cell.rotated().rotated(), cell);
        assert_eq!(cell.mirrored().row(), cell.row());
        assert_eq!(mirror_bits(cell.bit()), cell.mirrored().bit());
        assert_eq!(rotate_bits(cell.bit()), cell.rotated().bit());
    }
}

#[test]
fn action_permutations_agree_with_the_moves() {
    let n = pjlab_pijersi::action::num_actions();
    let mirrored: HashSet<usize> = (0..n).map(mirrored_action).collect();
    let rotated: HashSet<usize> = (0..n).map(rotated_action).collect();
    assert_eq!(mirrored.len(), n, "mirror is not a permutation");
    assert_eq!(rotated.len(), n, "half turn is not a permutation");
    for i in 0..n {
        assert_eq!(mirrored_action(mirrored_action(i)), i);
        assert_eq!(rotated_action(rotated_action(i)), i);
    }
    for p in random_positions(10, 5) {
        for mv in legal(&p) {
            assert_eq!(
                mirrored_action(action_index(mv)),
                action_index(mv.mirrored())
            );
            assert_eq!(rotated_action(action_index(mv)), action_index(mv.rotated()));
        }
    }
}
