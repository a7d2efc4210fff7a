//! Training with factors: the network returned, its factors folded into the features' weights,
//! computes on the features alone what the trained network computed with the factors on.

use pjlab_core::{EncoderId, Game, Heuristic, Side, SparseFeatures};
use pjlab_nnue::Error;
use pjlab_nnue::data::Sample;
use pjlab_nnue::train::{TrainOptions, loss, train_features};
use pjlab_pijersi::{PijersiEval, PijersiFeatures, Position, Variant};
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Samples from the positions of random games, labelled by the hand-written evaluation and a
/// coin for the result.
fn samples() -> Vec<Sample> {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let eval = PijersiEval::default();
    let mut out = Vec::new();
    let mut moves = Vec::new();
    let mut buffer = [0u16; PijersiFeatures::MAX_ACTIVE];
    let mut active = |position: &Position, side: Side| {
        let n = PijersiFeatures.active(position, side, &mut buffer);
        buffer[..n].to_vec()
    };
    for game in 0..12u64 {
        let variant = [Variant::Classic, Variant::HalfRandom][game as usize % 2];
        let mut position = variant.setup(game);
        let result = [0.0, 0.5, 1.0][rng.random_range(0..3)];
        for _ in 0..40 {
            if position.outcome().is_some() {
                break;
            }
            let me = Game::side_to_move(&position);
            let score = eval.evaluate(&position);
            out.push(Sample {
                stm: active(&position, me),
                other: active(&position, me.other()),
                score,
                result,
                reference: score,
            });
            position.legal_moves(&mut moves);
            position.play_unchecked(*moves.choose(&mut rng).unwrap());
        }
    }
    out
}

fn options(factorise: bool) -> TrainOptions {
    TrainOptions {
        hidden: 8,
        l2: 4,
        epochs: 3,
        batch: 32,
        validation: 0.2,
        factorise,
        ..TrainOptions::default()
    }
}

#[test]
fn folded_factors_compute_what_the_trained_network_did() {
    let samples = samples();
    let options = options(true);
    let (net, history) = train_features(&PijersiFeatures, &samples, &options, &mut |_| {})
        .expect("Pijersi has factors");
    assert_eq!(net.inputs, PijersiFeatures::LEN);
    assert_eq!(net.w1.len(), PijersiFeatures::LEN * net.hidden);
    // The kept pass's held-out loss was measured with the factors on; the folded network on the
    // held-out samples without them gives the same loss.
    let held = (samples.len() as f32 * options.validation) as usize;
    let held_out = &samples[samples.len() - held..];
    let kept = history
        .iter()
        .map(|e| e.validation)
        .fold(f64::INFINITY, f64::min);
    let folded = loss(&net, held_out, &options);
    assert!((folded - kept).abs() < 1e-5, "{folded} against {kept}");
    // And it is not the network trained without factors.
    let (plain, _) = train_features(
        &PijersiFeatures,
        &samples,
        &self::options(false),
        &mut |_| {},
    )
    .unwrap();
    assert_ne!(plain.w1, net.w1);
}

#[test]
fn every_piece_feature_has_its_kind_as_factor() {
    // A piece's kind is the same wherever it stands: the features of one position and of the
    // same pieces' kinds counted by hand agree factor by factor.
    let position = Variant::HalfRandom.setup(4);
    let features = PijersiFeatures;
    let mut buffer = [0u16; PijersiFeatures::MAX_ACTIVE];
    let n = features.active(&position, Side::First, &mut buffer);
    let mut by_factor = vec![0usize; features.num_factors()];
    let mut unfactored = 0;
    for &f in &buffer[..n] {
        match features.factor(usize::from(f)) {
            Some(c) => by_factor[c] += 1,
            None => unfactored += 1,
        }
    }
    // Only the draw counter's feature has no factor.
    assert_eq!(unfactored, 1);
    // A start has 14 pieces a side; the factors count them all.
    assert_eq!(by_factor.iter().sum::<usize>(), n - 1);
    assert_eq!(
        by_factor[..20].iter().sum::<usize>(),
        by_factor[20..].iter().sum::<usize>()
    );
}

/// Pijersi's features without factors.
struct Plain;

impl SparseFeatures<Position> for Plain {
    fn id(&self) -> EncoderId {
        EncoderId {
            name: "plain".into(),
            version: 1,
        }
    }
    fn num_features(&self) -> usize {
        PijersiFeatures.num_features()
    }
    fn max_active(&self) -> usize {
        PijersiFeatures.max_active()
    }
    fn active(&self, position: &Position, perspective: Side, out: &mut [u16]) -> usize {
        PijersiFeatures.active(position, perspective, out)
    }
}

#[test]
fn factorising_a_feature_set_without_factors_is_refused() {
    let err = train_features(&Plain, &samples(), &options(true), &mut |_| {}).unwrap_err();
    assert!(
        matches!(&err, e @ Error::NoFactors(name) if name == "plain" && e.to_string().contains("`plain` has no factors")),
        "{err}"
    );
    assert!(train_features(&Plain, &samples(), &options(false), &mut |_| {}).is_ok());
}
