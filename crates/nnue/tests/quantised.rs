//! The network in integers ([`QuantisedNetwork`]) on Pijersi: its weights against the float
//! ones, its forward pass against an independent sum in `i64`, its tracked accumulators
//! against a full refresh, its values against the float network's, and what it refuses.

use std::sync::Arc;

use pjlab_core::{Game, Heuristic, Side, SparseFeatures};
use pjlab_nnue::tracked::{Shared, Tracked, TrackedEval};
use pjlab_nnue::train::{TrainOptions, init};
use pjlab_nnue::{Card, Error, Network, NnueEval, QuantisedNetwork};
use pjlab_pijersi::{PijersiEval, PijersiFeatures, Position, Variant};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

fn network(seed: u64) -> Network {
    let options = TrainOptions {
        hidden: 32,
        l2: 8,
        seed,
        ..TrainOptions::default()
    };
    let mut net = init(PijersiFeatures::LEN, &options).unwrap();
    // Spread the first layer so that the clipping matters on both sides.
    for w in &mut net.w1 {
        *w *= 3.0;
    }
    net.b3 = 0.1;
    net
}

fn eval(net: Network, residual: bool) -> NnueEval<Position, PijersiEval> {
    let card = Card {
        game: "pijersi".into(),
        features: PijersiFeatures.id(),
        scale: 200.0,
        residual,
        training: serde_json::Value::Null,
    };
    NnueEval::new(
        &card,
        Arc::new(net),
        Arc::new(PijersiFeatures),
        PijersiEval::default(),
    )
    .unwrap()
}

/// Every position of a few seeded random games from classic and random setups.
fn positions(seed: u64) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for (i, variant) in [Variant::Classic, Variant::HalfRandom, Variant::FullRandom]
        .into_iter()
        .enumerate()
    {
        let mut position = variant.setup(seed + i as u64);
        for _ in 0..80 {
            if position.outcome().is_some() {
                break;
            }
            out.push(position.clone());
            position.legal_moves(&mut moves);
            position.play_unchecked(*moves.choose(&mut rng).unwrap());
        }
    }
    out
}

/// Each integer weight is the float one times its scale, rounded: within half a unit.
#[test]
fn the_integers_are_the_weights_rounded() {
    let net = network(1);
    let q = QuantisedNetwork::new(&net, PijersiFeatures::MAX_ACTIVE).unwrap();
    assert!(
        q.acc_scale >= 256 && q.w2_scale >= 256,
        "{} {}",
        q.acc_scale,
        q.w2_scale
    );
    let close =
        |int: f64, float: f32, scale: i32| (int - f64::from(float) * f64::from(scale)).abs() <= 0.5;
    for (&i, &f) in q.w1.iter().zip(&net.w1).chain(q.b1.iter().zip(&net.b1)) {
        assert!(close(f64::from(i), f, q.acc_scale), "{i} {f}");
    }
    for (&i, &f) in q.w2.iter().zip(&net.w2) {
        assert!(close(f64::from(i), f, q.w2_scale), "{i} {f}");
    }
    for (&i, &f) in q.b2.iter().zip(&net.b2) {
        assert!(close(f64::from(i), f, q.acc_scale * q.w2_scale), "{i} {f}");
    }
}

/// The integer forward pass equals the same layers summed independently in `i64` (plain
/// loops over the features on, no shared code), to the bit.
#[test]
fn the_integer_forward_pass_equals_a_sum_in_i64() {
    let net = network(2);
    let q = QuantisedNetwork::new(&net, PijersiFeatures::MAX_ACTIVE).unwrap();
    let (h, one) = (q.hidden, i64::from(q.acc_scale) * i64::from(q.w2_scale));
    let mut buffer = [0u16; PijersiFeatures::MAX_ACTIVE];
    let mut views = [Vec::new(), Vec::new()];
    for position in positions(3) {
        let me = Game::side_to_move(&position);
        let mut x = vec![0i64; 2 * h];
        for (view, side) in [me, me.other()].into_iter().enumerate() {
            let n = PijersiFeatures.active(&position, side, &mut buffer);
            views[view] = buffer[..n].to_vec();
            for k in 0..h {
                let mut a = i64::from(q.b1[k]);
                for &f in &buffer[..n] {
                    a += i64::from(q.w1[usize::from(f) * h + k]);
                }
                assert!(a.abs() <= i64::from(i16::MAX), "accumulator {a}");
                x[view * h + k] = a.clamp(0, i64::from(q.acc_scale));
            }
        }
        let mut want = q.b3;
        for j in 0..q.l2 {
            let mut z = i64::from(q.b2[j]);
            for (k, &xk) in x.iter().enumerate() {
                z += i64::from(q.w2[j * 2 * h + k]) * xk;
            }
            assert!(z.abs() <= i64::from(i32::MAX), "sum {z}");
            want += q.w3[j] * z.clamp(0, one) as f32;
        }
        let got = q.forward(&views[0], &views[1]);
        assert_eq!(
            got.to_bits(),
            want.to_bits(),
            "{position}: {got} against {want}"
        );
    }
}

/// After every move of seeded random games, the integer accumulators a tracked position
/// updated move by move are those computed in full (integer sums are exact in any order, so
/// any network will do, not only one whose float sums are exact), and the tracked
/// evaluation is the integer forward pass's.
#[test]
fn tracked_integer_accumulators_equal_a_full_refresh() {
    let e = eval(network(4), true);
    let shared = Shared::quantised::<_, 32>(&e).unwrap();
    let q = shared.network().clone();
    let tracked_eval = TrackedEval::new(e.clone());
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let (mut moves, mut checked) = (Vec::new(), 0);
    let mut buffer = [[0u16; PijersiFeatures::MAX_ACTIVE]; 2];
    for (i, variant) in [Variant::Classic, Variant::FullRandom, Variant::HalfRandom]
        .into_iter()
        .enumerate()
    {
        let mut tracked: Tracked<Position, 32, QuantisedNetwork> =
            Tracked::new(variant.setup(i as u64), shared.clone());
        for _ in 0..100 {
            if tracked.outcome().is_some() {
                break;
            }
            tracked.legal_moves(&mut moves);
            for &mv in &moves {
                let mut child = tracked.clone();
                child.play_unchecked(mv);
                let fresh: Tracked<Position, 32, QuantisedNetwork> =
                    Tracked::new(child.position().clone(), shared.clone());
                for side in Side::BOTH {
                    assert_eq!(child.accumulator(side), fresh.accumulator(side));
                }
                let me = child.side_to_move();
                let [a, b] = &mut buffer;
                let n = PijersiFeatures.active(child.position(), me, a);
                let m = PijersiFeatures.active(child.position(), me.other(), b);
                let logit = q.forward(&a[..n], &b[..m]);
                assert_eq!(tracked_eval.logit(&child).to_bits(), logit.to_bits());
                let score = e.score_at(child.position(), logit);
                assert_eq!(tracked_eval.evaluate(&child), score);
                checked += 1;
            }
            tracked.play_unchecked(*moves.choose(&mut rng).unwrap());
        }
    }
    assert!(checked > 1000, "{checked}");
}

/// The integer network's output stays within what its rounding allows of the float one's:
/// each accumulator moves by at most half a unit a feature, each second-layer weight by half
/// a unit, so the logit by a few thousandths here; and it is not the float output itself
/// (the test would not notice the integer path falling back to floats otherwise).
#[test]
fn the_integer_output_is_close_to_the_float_one() {
    let net = network(6);
    let q = QuantisedNetwork::new(&net, PijersiFeatures::MAX_ACTIVE).unwrap();
    let mut buffer = [[0u16; PijersiFeatures::MAX_ACTIVE]; 2];
    let (mut largest, mut differ) = (0.0f32, 0);
    let all = positions(7);
    for position in &all {
        let me = Game::side_to_move(position);
        let [a, b] = &mut buffer;
        let n = PijersiFeatures.active(position, me, a);
        let m = PijersiFeatures.active(position, me.other(), b);
        let (x, y) = (q.forward(&a[..n], &b[..m]), net.forward(&a[..n], &b[..m]));
        largest = largest.max((x - y).abs());
        differ += usize::from(x != y);
    }
    assert!(largest < 0.01, "{largest}");
    assert!(differ > all.len() / 2, "{differ} of {}", all.len());
}

/// A network whose accumulators or second-layer weights cannot fit 16 bits at a useful
/// scale is refused with a clear error, and so is a width the positions do not have.
#[test]
fn what_does_not_fit_is_refused() {
    let mut net = network(8);
    // 600 a weight: 64 units apiece would be 38,400.
    net.w1[0] = 600.0;
    let err = QuantisedNetwork::new(&net, PijersiFeatures::MAX_ACTIVE).err();
    assert!(
        matches!(&err, Some(e @ Error::AccumulatorRange(_)) if e.to_string().contains("16 bits")),
        "{err:?}"
    );
    let mut net = network(8);
    net.w2[3] = -1000.0;
    let err = QuantisedNetwork::new(&net, PijersiFeatures::MAX_ACTIVE).err();
    assert!(
        matches!(&err, Some(e @ Error::SecondLayerRange(_)) if e.to_string().contains("second-layer")),
        "{err:?}"
    );
    let e = eval(network(8), false);
    assert!(matches!(
        Shared::quantised::<_, 64>(&e),
        Err(e @ Error::Width { width: 64, .. }) if e.to_string().contains("64")
    ));
}
