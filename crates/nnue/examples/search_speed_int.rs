//! The network in integers ([`pjlab_nnue::QuantisedNetwork`], as `eval=nnue-int:FILE`): its
//! speed in alpha-beta as `search_speed` measures the others (`quant`), and how far its
//! evaluations are from the float network's (`diff`): `cargo run --release -p pjlab-nnue
//! --example search_speed_int -- NET [DEPTH] [WHICH]` (default `quant,diff`).

mod shared;

use pjlab_core::{Game, Heuristic};
use pjlab_nnue::tracked::{Shared, Tracked, TrackedEval};
use pjlab_nnue::{NnueEval, QuantisedNetwork};
use pjlab_pijersi::{PijersiEval, Position, Variant};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

/// The largest and mean difference in centi-units between the integer and the float network's
/// evaluations, and how many are equal, on every position of 200 seeded random games.
fn diff(eval: &NnueEval<Position, PijersiEval>) {
    let float = Shared::new::<_, 32>(eval).expect("width 32");
    let quantised = Shared::quantised::<_, 32>(eval).expect("width 32, weights that fit");
    let q = quantised.network();
    let tracked_eval = TrackedEval::new(eval.clone());
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let (mut largest, mut total, mut equal, mut count) = (0i32, 0i64, 0u64, 0u64);
    let mut moves = Vec::new();
    for i in 0..200u64 {
        let variant = [Variant::Classic, Variant::HalfRandom][i as usize % 2];
        let mut a: Tracked<Position, 32> = Tracked::new(variant.setup(i), float.clone());
        let mut b: Tracked<Position, 32, QuantisedNetwork> =
            Tracked::new(variant.setup(i), quantised.clone());
        while a.outcome().is_none() {
            let d = (tracked_eval.evaluate(&a) - tracked_eval.evaluate(&b)).abs();
            largest = largest.max(d);
            total += i64::from(d);
            equal += u64::from(d == 0);
            count += 1;
            a.legal_moves(&mut moves);
            let mv = *moves.choose(&mut rng).unwrap();
            a.play_unchecked(mv);
            b.play_unchecked(mv);
        }
    }
    println!(
        "diff positions {count} largest {largest} mean {:.3} equal {equal} acc_scale {} \
         w2_scale {}",
        total as f64 / count as f64,
        q.acc_scale,
        q.w2_scale
    );
}

fn main() {
    let (path, depth, which) = shared::arguments("quant,diff");
    let eval = shared::evaluation(&path);
    if shared::wanted(&which, "quant") {
        let shared = Shared::quantised::<_, 32>(&eval).expect("width 32, weights that fit");
        let tracked: Vec<Tracked<Position, 32, QuantisedNetwork>> = shared::positions()
            .into_iter()
            .map(|p| Tracked::new(p, shared.clone()))
            .collect();
        shared::run("quant", TrackedEval::new(eval.clone()), &tracked, depth);
    }
    if shared::wanted(&which, "diff") {
        diff(&eval);
    }
}
