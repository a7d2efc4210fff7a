//! Seeded games played by the game crates themselves (not through this crate's states), written
//! to `python/tests/data/trajectories.txt`: the Python tests play the same games through the
//! binding and compare move for move and observation for observation.
//!
//! Each game is played by a rule both languages implement exactly: at ply `t` the mover takes
//! legal action number `(7919 * t + seed) % len` of the increasing list. Run with
//! `PJLAB_BLESS=1` to rewrite the file after a deliberate change.

use std::fmt::Write as _;

use pjlab_chifoumi::Rules;
use pjlab_core::{Encoder, Game, GameKit, ImperfectGame, SetupVariant};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const PLIES: usize = 80;

/// FNV-1a over the little-endian bytes of the values.
fn fnv(values: &[f32]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for v in values {
        for byte in v.to_le_bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

fn pick(ply: usize, seed: u64, len: usize) -> usize {
    ((7919 * ply as u64 + seed) % len as u64) as usize
}

fn play_kit<K: GameKit>(variant: &str, seed: u64, out: &mut String) {
    let mut position = K::variant(variant).expect("a known variant").start(seed);
    let encoder = K::position_encoder(&position);
    let mut obs = vec![0.0; encoder.input_len()];
    let head = format!("{} {variant} {seed}", K::INFO.name);
    let mut moves = Vec::new();
    for ply in 0..PLIES {
        if position.outcome().is_some() {
            break;
        }
        position.legal_moves(&mut moves);
        let mut legal: Vec<(usize, _)> = moves
            .iter()
            .map(|&mv| (position.action_index(mv), mv))
            .collect();
        legal.sort_unstable_by_key(|&(a, _)| a);
        let (action, mv) = legal[pick(ply, seed, legal.len())];
        encoder.encode(&position, &mut obs);
        writeln!(
            out,
            "{head} {ply} {} {action} {} {:016x} {}",
            position.seat(),
            position.move_to_text(mv),
            fnv(&obs),
            position.to_text()
        )
        .unwrap();
        position.play(mv).expect("a legal move");
    }
    let returns: Vec<String> = (0..position.seats())
        .map(|seat| {
            let side = if seat % 2 == 0 {
                pjlab_core::Side::First
            } else {
                pjlab_core::Side::Second
            };
            let value = position.outcome().map_or(0.0, |o| o.value_for(side));
            format!("{value}")
        })
        .collect();
    writeln!(
        out,
        "{head} end {} {}",
        returns.join(" "),
        position.to_text()
    )
    .unwrap();
}

fn play_chifoumi(seed: u64, out: &mut String) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = pjlab_chifoumi::Game::new(&Rules::default(), &mut rng).unwrap();
    let len = game.observation_tensor_len();
    let (mut mine, mut theirs) = (vec![0.0; len], vec![0.0; len]);
    let head = format!("chifoumi standard {seed}");
    let mut legal = Vec::new();
    for ply in 0..PLIES {
        let Some(player) = ImperfectGame::current_player(&game) else {
            break;
        };
        ImperfectGame::legal_actions(&game, &mut legal);
        let action = legal[pick(ply, seed, legal.len())];
        game.observation_tensor(0, &mut mine);
        game.observation_tensor(1, &mut theirs);
        let text = pjlab_chifoumi::Action::from_index(action).unwrap();
        writeln!(
            out,
            "{head} {ply} {player} {action} {text} {:016x} {:016x} {:016x}",
            fnv(&mine),
            fnv(&theirs),
            fnv_text(&game.to_string())
        )
        .unwrap();
        ImperfectGame::play(&mut game, action, &mut rng).unwrap();
    }
    writeln!(
        out,
        "{head} end {} {} {:016x}",
        ImperfectGame::returns(&game, 0),
        ImperfectGame::returns(&game, 1),
        fnv_text(&game.to_string())
    )
    .unwrap();
}

/// FNV-1a over a text's bytes.
fn fnv_text(text: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

fn trajectories() -> String {
    let mut out = String::new();
    play_kit::<pjlab_pijersi::PijersiKit>("classic", 0, &mut out);
    play_kit::<pjlab_pijersi::PijersiKit>("half-random", 7, &mut out);
    play_kit::<pjlab_pijersi::PijersiKit>("full-random", 11, &mut out);
    play_kit::<pjlab_abalone::AbaloneKit>("belgian-daisy", 3, &mut out);
    play_kit::<pjlab_abalone::AbaloneKit>("doubles", 5, &mut out);
    play_kit::<pjlab_abalone::AbaloneKit>("doubles-0321", 6, &mut out);
    play_kit::<pjlab_chomp::ChompKit>("5x6", 2, &mut out);
    play_chifoumi(1, &mut out);
    play_chifoumi(12, &mut out);
    out
}

#[test]
fn seeded_games_match_the_golden_file() {
    let path = pjlab_conformance::package_dir(env!("CARGO_MANIFEST_DIR"))
        .join("../../python/tests/data/trajectories.txt");
    let now = trajectories();
    if std::env::var_os("PJLAB_BLESS").is_some() {
        std::fs::write(&path, &now).unwrap();
    }
    let golden = std::fs::read_to_string(&path).expect("the golden file (PJLAB_BLESS=1 writes it)");
    assert_eq!(now, golden, "seeded trajectories changed");
}
