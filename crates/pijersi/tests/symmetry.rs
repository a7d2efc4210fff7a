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
use pjlab_pijersi::variants::{game_class, layout, renaming_class};
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

/// Checks that `map` (on positions) and `map_move` are a symmetry of the rules, of the given
/// `order` (applied that many times, it gives the position back); `swaps` says whether the map
/// exchanges the colours (then outcomes are read for the other side).
fn check_symmetry(
    map: impl Fn(&Position) -> Position,
    map_move: impl Fn(Move) -> Move,
    swaps: bool,
    order: usize,
) {
    let positions = random_positions(40, 11);
    assert!(positions.len() > 1_000);
    let mut moves_checked = 0;
    for p in &positions {
        let image = map(p);
        let back = (1..order).fold(image.clone(), |q, _| map(&q));
        assert_eq!(back, *p, "not of order {order}");
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
    check_symmetry(Position::mirrored, Move::mirrored, false, 2);
}

#[test]
fn flip_is_a_symmetry_of_the_rules_with_colours_swapped() {
    check_symmetry(Position::flipped, Move::rotated, true, 2);
}

/// `position` with its roles renamed, both colours alike: rock becomes `to[0]`, paper `to[1]`,
/// scissors `to[2]` (written on the position's text, independently of the setup code).
fn renamed(position: &Position, to: [char; 3]) -> Position {
    let text = position.to_string();
    let (board, rest) = text.split_once(' ').expect("a board and counters");
    let board: String = board
        .chars()
        .map(|c| {
            let k = match c.to_ascii_lowercase() {
                'r' => to[0],
                'p' => to[1],
                's' => to[2],
                _ => return c,
            };
            if c.is_ascii_uppercase() {
                k.to_ascii_uppercase()
            } else {
                k
            }
        })
        .collect();
    format!("{board} {rest}")
        .parse()
        .expect("a renamed position")
}

/// Rock to paper, paper to scissors, scissors to rock: who captures whom is kept.
const CYCLIC: [char; 3] = ['p', 's', 'r'];
/// Rock and paper swapped: who captures whom is reversed.
const SWAP: [char; 3] = ['p', 'r', 's'];

#[test]
fn a_cyclic_renaming_of_the_roles_is_a_symmetry_of_the_rules() {
    // The renaming moves pieces' roles (it is not the identity) ...
    assert!(
        random_positions(2, 11)
            .iter()
            .all(|p| renamed(p, CYCLIC) != *p)
    );
    // ... and keeps the rules.
    check_symmetry(|p| renamed(p, CYCLIC), |mv| mv, false, 3);
}

#[test]
fn a_swap_of_two_roles_is_not() {
    let differs = random_positions(40, 11)
        .iter()
        .any(|p| legal(&renamed(p, SWAP)) != legal(p));
    assert!(differs, "a swap changed no position's legal moves");
}

/// The classes of setups that are the same game (`variants::game_class`) are the orbits of the
/// rules' symmetries that keep a setup a setup: the cyclic renamings and the mirror.
#[test]
fn game_classes_are_the_orbits_of_the_renamings_and_the_mirror() {
    for variant in [Variant::Pijersi24, Variant::Pijersi36] {
        let setups = variant.enumerate().expect("an enumerable variant");
        let orbit = |s: &Position| -> Vec<pjlab_pijersi::Setup> {
            let mut images = Vec::new();
            for base in [s.clone(), s.mirrored()] {
                let mut q = base;
                for _ in 0..3 {
                    images.push(rules_view(&q));
                    q = renamed(&q, CYCLIC);
                }
            }
            images
        };
        let class = |s: &Position| game_class(&layout(s));
        let mut classes = HashSet::new();
        for s in &setups {
            let images = orbit(s);
            classes.insert(class(s));
            for t in &setups {
                assert_eq!(
                    class(s) == class(t),
                    images.contains(&rules_view(t)),
                    "{variant}: {} and {}",
                    layout(s),
                    layout(t)
                );
            }
        }
        // Fewer classes than setups, more than under all six renamings (a swap is not one).
        let six: HashSet<String> = setups
            .iter()
            .map(|s| renaming_class(&layout(s), true))
            .collect();
        assert!(six.len() < classes.len() && classes.len() < setups.len());
    }
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
