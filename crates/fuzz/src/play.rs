//! The rules' invariants along scripted games: from a setup the script chooses, each byte picks
//! the next legal move, and every position on the way is checked.

use std::sync::{Arc, OnceLock};

use pjlab_core::{Game, Side};
use pjlab_nnue::tracked::{Shared, Tracked};
use pjlab_nnue::train::{TrainOptions, init};
use pjlab_nnue::{Card, NnueEval, QuantisedNetwork};
use pjlab_pijersi::{PijersiEval, PijersiFeatures};

use crate::Target;
use crate::input::Script;
use crate::text::reparses;

/// The longest scripted game, in plies.
const MAX_PLIES: usize = 400;

/// Pijersi along a scripted game.
pub(crate) const PIJERSI_PLAY: Target = Target {
    name: "pijersi_play",
    about: "Pijersi along a scripted game: bulk count against generation, move list, action indices, texts, hash, checked play",
    run: |data| {
        let mut script = Script::new(data);
        let start = pijersi_setup(&mut script);
        let mut generated = Vec::new();
        walk(start, &mut script, |p, moves| {
            // The bulk count is perft's last ply: it counts the generated moves, draws
            // ignored; the legal list is that list until the game is won or drawn.
            generated.clear();
            p.generate_moves(&mut generated);
            assert_eq!(p.count_moves(), generated.len() as u64, "{}", p.to_text());
            if p.outcome().is_none() {
                assert_eq!(moves, &generated[..], "{}", p.to_text());
            }
        });
    },
    test_inputs: 1_000,
};

/// Abalone (two players and doubles) along a scripted game.
pub(crate) const ABALONE_PLAY: Target = Target {
    name: "abalone_play",
    about: "Abalone along a scripted game: as Pijersi's, and the 12 symmetries keep the move count",
    run: |data| {
        let mut script = Script::new(data);
        let variants = pjlab_abalone::Variant::ALL;
        let start = variants[script.choose(variants.len())].start();
        walk(start, &mut script, |p, moves| {
            let count = moves.len() as u64;
            assert_eq!(p.count_moves(), count, "{}", p.to_text());
            for sym in pjlab_abalone::Symmetry::all() {
                assert_eq!(
                    p.transformed(sym).count_moves(),
                    count,
                    "{sym:?} {}",
                    p.to_text()
                );
            }
        });
    },
    test_inputs: 300,
};

/// The learned evaluation's accumulators, updated move by move, against a full refresh.
pub(crate) const NNUE_ACCUMULATOR: Target = Target {
    name: "nnue_accumulator",
    about: "Pijersi's NNUE accumulators (float and integer) updated move by move equal a full refresh",
    run: |data| {
        let mut script = Script::new(data);
        let (float, integer) = shared();
        let start = pijersi_setup(&mut script);
        let mut a: Tracked<pjlab_pijersi::Position, WIDTH> =
            Tracked::new(start.clone(), float.clone());
        let mut b: Tracked<pjlab_pijersi::Position, WIDTH, QuantisedNetwork> =
            Tracked::new(start, integer.clone());
        let mut moves = Vec::new();
        for _ in 0..MAX_PLIES {
            for side in Side::BOTH {
                let fresh: Tracked<_, WIDTH> = Tracked::new(a.position().clone(), float.clone());
                assert_eq!(a.accumulator(side), fresh.accumulator(side));
                let fresh: Tracked<_, WIDTH, QuantisedNetwork> =
                    Tracked::new(b.position().clone(), integer.clone());
                assert_eq!(b.accumulator(side), fresh.accumulator(side));
            }
            a.legal_moves(&mut moves);
            if moves.is_empty() || script.is_empty() {
                break;
            }
            let mv = moves[script.choose(moves.len())];
            a.play_unchecked(mv);
            b.play_unchecked(mv);
        }
    },
    test_inputs: 300,
};

/// The accumulator width of the target's network.
const WIDTH: usize = 16;

type FloatShared = Arc<Shared<pjlab_pijersi::Position>>;
type IntegerShared = Arc<Shared<pjlab_pijersi::Position, QuantisedNetwork>>;

/// A small network of fixed seed over Pijersi's features, in float and in integers.
fn shared() -> (FloatShared, IntegerShared) {
    static SHARED: OnceLock<(FloatShared, IntegerShared)> = OnceLock::new();
    SHARED
        .get_or_init(|| {
            let options = TrainOptions {
                hidden: WIDTH,
                l2: 8,
                seed: 66,
                ..TrainOptions::default()
            };
            let mut network = init(PijersiFeatures::LEN, &options).expect("a valid network shape");
            // First-layer weights on a grid of 1/64, so that float sums are exact in any order
            // and the incremental accumulator can be held to equality.
            for w in network.w1.iter_mut().chain(network.b1.iter_mut()) {
                *w = (*w * 64.0).round() / 64.0;
            }
            let card = Card {
                game: "pijersi".into(),
                features: pjlab_core::SparseFeatures::<pjlab_pijersi::Position>::id(
                    &PijersiFeatures,
                ),
                scale: 200.0,
                residual: false,
                training: serde_json::Value::Null,
            };
            let eval = NnueEval::new(
                &card,
                Arc::new(network),
                Arc::new(PijersiFeatures),
                PijersiEval::default(),
            )
            .expect("the card fits the network");
            (
                Shared::new::<_, WIDTH>(&eval).expect("width"),
                Shared::quantised::<_, WIDTH>(&eval).expect("integers"),
            )
        })
        .clone()
}

/// A Pijersi setup: a variant and a seed from the script.
pub(crate) fn pijersi_setup(script: &mut Script) -> pjlab_pijersi::Position {
    let variants = pjlab_pijersi::Variant::ALL;
    let variant = variants[script.choose(variants.len())];
    variant.setup(script.seed())
}

/// A Pijersi position: a scripted setup, then up to 63 scripted moves.
pub(crate) fn pijersi_position(script: &mut Script) -> pjlab_pijersi::Position {
    let start = pijersi_setup(script);
    advance(start, script)
}

/// An Abalone position: a scripted start, then up to 63 scripted moves.
pub(crate) fn abalone_position(script: &mut Script) -> pjlab_abalone::Position {
    let variants = pjlab_abalone::Variant::ALL;
    let start = variants[script.choose(variants.len())].start();
    advance(start, script)
}

fn advance<G: Game>(mut position: G, script: &mut Script) -> G {
    let plies = script.choose(64);
    let mut moves = Vec::new();
    for _ in 0..plies {
        position.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        position.play_unchecked(moves[script.choose(moves.len())]);
    }
    position
}

/// Plays the scripted game from `start`, checking every position with the game-independent
/// invariants and with `extra` (given the position and its legal moves).
fn walk<G>(start: G, script: &mut Script, mut extra: impl FnMut(&G, &[G::Move]))
where
    G: Game + PartialEq + std::fmt::Debug,
    G::Move: PartialEq + std::fmt::Debug,
{
    let mut position = start;
    let mut moves = Vec::new();
    for _ in 0..MAX_PLIES {
        position.legal_moves(&mut moves);
        check(&position, &moves);
        extra(&position, &moves);
        if moves.is_empty() || script.is_empty() {
            break;
        }
        let mv = moves[script.choose(moves.len())];
        let mut checked = position.clone();
        checked.play(mv).expect("a listed move is legal");
        position.play_unchecked(mv);
        assert_eq!(checked, position, "checked and unchecked play differ");
    }
}

/// What holds in every position of every game: the move list has no duplicates and is empty
/// exactly when the game is over; every move's action index and text lead back to it; the
/// position's text round-trips with its hash.
fn check<G>(position: &G, moves: &[G::Move])
where
    G: Game + PartialEq + std::fmt::Debug,
    G::Move: PartialEq + std::fmt::Debug,
{
    let text = position.to_text();
    assert_eq!(moves.is_empty(), position.outcome().is_some(), "{text}");
    let mut indices: Vec<usize> = moves.iter().map(|&m| position.action_index(m)).collect();
    for (&mv, &index) in moves.iter().zip(&indices) {
        assert!(index < position.num_actions(), "{mv:?} in {text}");
        assert_eq!(position.action_from_index(index), Some(mv), "{text}");
        let written = position.move_to_text(mv);
        assert_eq!(
            position.parse_move(&written).ok(),
            Some(mv),
            "{written:?} in {text}"
        );
    }
    indices.sort_unstable();
    indices.dedup();
    assert_eq!(
        indices.len(),
        moves.len(),
        "duplicate moves or indices in {text}"
    );
    reparses(position);
}
