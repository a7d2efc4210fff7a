//! The learned evaluation's cost against the hand-written one: nanoseconds a call, and
//! alpha-beta's nodes a second at a fixed depth on the same positions. A measurement, not a
//! check: `cargo test --release -p pjlab-nnue --test cost -- --ignored --nocapture`.

use std::sync::Arc;
use std::time::Instant;

use pjlab_alphabeta::{Engine, Limits, Options};
use pjlab_core::{Game, Heuristic, SparseFeatures};
use pjlab_nnue::NnueEval;
use pjlab_nnue::tracked::{Shared, Tracked, TrackedEval};
use pjlab_nnue::train::{TrainOptions, init};
use pjlab_pijersi::{PijersiEval, PijersiFeatures, Position, Variant};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

fn positions() -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for i in 0..10 {
        let variant = if i % 2 == 0 {
            Variant::Classic
        } else {
            Variant::HalfRandom
        };
        let mut position = variant.setup(i);
        for ply in 0..12 {
            if position.outcome().is_some() {
                break;
            }
            if ply >= 4 {
                out.push(position.clone());
            }
            position.legal_moves(&mut moves);
            position.play_unchecked(*moves.choose(&mut rng).unwrap());
        }
    }
    out
}

fn measure<G: Game, H: Heuristic<G>>(name: &str, eval: H, positions: &[G]) {
    let calls = 200_000;
    let started = Instant::now();
    let mut sum = 0i64;
    for i in 0..calls {
        sum += i64::from(eval.evaluate(&positions[i % positions.len()]));
    }
    let ns = started.elapsed().as_nanos() as f64 / calls as f64;
    let mut engine = Engine::new(eval, Options::default());
    let (mut nodes, started) = (0u64, Instant::now());
    for position in positions {
        engine.clear();
        nodes += engine.search(position, &Limits::depth(3)).nodes;
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{name:<28} {ns:>7.1} ns/eval   depth 3: {nodes:>9} nodes {:>6.2} s {:>9.0} nodes/s  (sum {sum})",
        secs,
        nodes as f64 / secs
    );
}

fn measure_tracked<const W: usize>(eval: &NnueEval<Position, PijersiEval>, positions: &[Position]) {
    let shared = Shared::new::<_, W>(eval).unwrap();
    let tracked: Vec<Tracked<Position, W>> = positions
        .iter()
        .map(|p| Tracked::new(p.clone(), shared.clone()))
        .collect();
    measure(
        "  the same, incremental",
        TrackedEval::new(eval.clone()),
        &tracked,
    );
}

#[test]
#[ignore = "a measurement"]
fn cost_per_node() {
    let positions = positions();
    measure(
        "hand-written PijersiEval",
        PijersiEval::default(),
        &positions,
    );
    for (hidden, l2) in [(32, 8), (64, 16), (128, 16)] {
        let options = TrainOptions {
            hidden,
            l2,
            ..TrainOptions::default()
        };
        let card = pjlab_nnue::Card {
            game: "pijersi".into(),
            features: PijersiFeatures.id(),
            scale: 200.0,
            residual: false,
            training: serde_json::Value::Null,
        };
        let net = init(PijersiFeatures::LEN, &options).unwrap();
        let eval = NnueEval::new(
            &card,
            Arc::new(net),
            Arc::new(PijersiFeatures),
            PijersiEval::default(),
        )
        .unwrap();
        measure(
            &format!("nnue {hidden}x2-{l2}-1 refresh"),
            eval.clone(),
            &positions,
        );
        let shared = |e: &NnueEval<Position, PijersiEval>| match hidden {
            32 => measure_tracked::<32>(e, &positions),
            64 => measure_tracked::<64>(e, &positions),
            _ => measure_tracked::<128>(e, &positions),
        };
        shared(&eval);
    }
}
