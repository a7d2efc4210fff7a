//! The network, its evaluator and the learner, checked against independent computations.

use burn::tensor::Device;
use pjlab_core::{Encoder, Game};
use pjlab_mcts::{Evaluation, Evaluator, Request};
use pjlab_nn::{NetConfig, NetEvaluator, NetShape};
use pjlab_pijersi::{PijersiEncoder, Position, Variant};
use pjlab_selfplay::Sample;
use pjlab_train::{Batch, Learner, TrainConfig};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

fn shape() -> NetShape {
    NetShape {
        input: PijersiEncoder.input_len(),
        actions: PijersiEncoder.num_actions(),
    }
}

fn small() -> NetConfig {
    NetConfig {
        hidden: 64,
        layers: 2,
    }
}

/// Positions from random games, with made-up but valid policy targets and results.
fn samples(n: usize, seed: u64) -> Vec<Sample<Position>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    let mut g = 0;
    while out.len() < n {
        let mut p = Variant::HalfRandom.setup(g);
        g += 1;
        while p.outcome().is_none() && out.len() < n {
            p.legal_moves(&mut moves);
            let picks: Vec<_> = moves.sample(&mut rng, 3).copied().collect();
            let policy = picks
                .iter()
                .zip([0.6, 0.3, 0.1])
                .map(|(&m, w)| {
                    (
                        p.action_index(m) as u32,
                        w / picks.len().max(1) as f32 * 3.0,
                    )
                })
                .collect::<Vec<_>>();
            let total: f32 = policy.iter().map(|x| x.1).sum();
            out.push(Sample {
                position: p.clone(),
                ply: 0,
                policy: policy.iter().map(|&(a, w)| (a, w / total)).collect(),
                policy_target: out.len() % 3 != 0,
                search_value: 0.0,
                result: [1.0, 0.0, -1.0][out.len() % 3],
            });
            p.play_unchecked(*moves.choose(&mut rng).unwrap());
        }
    }
    out
}

fn log_softmax(xs: &[f32]) -> Vec<f64> {
    let max = xs.iter().copied().fold(f32::NEG_INFINITY, f32::max) as f64;
    let lse = xs.iter().map(|&x| (x as f64 - max).exp()).sum::<f64>().ln() + max;
    xs.iter().map(|&x| x as f64 - lse).collect()
}

#[test]
fn losses_match_a_direct_computation_and_fall_with_training() {
    let device = Device::default();
    let mut learner = Learner::new(&small(), shape(), &TrainConfig::default(), &device, 3);
    let data = samples(64, 1);
    let refs: Vec<&Sample<Position>> = data.iter().collect();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let batch = Batch::build(&PijersiEncoder, &refs, false, &mut rng);

    // The losses by hand from the network's raw outputs, legal moves only.
    let mut eval = NetEvaluator::new(learner.model(), &device, PijersiEncoder, 0);
    let positions: Vec<&Position> = data.iter().map(|s| &s.position).collect();
    let (policy, value) = eval.forward(&positions);
    let (mut p_loss, mut weight, mut v_loss) = (0.0, 0.0, 0.0);
    let actions = shape().actions;
    let mut moves = Vec::new();
    for (k, s) in data.iter().enumerate() {
        s.position.legal_moves(&mut moves);
        let index: Vec<usize> = moves
            .iter()
            .map(|&m| PijersiEncoder.policy_index(&s.position, s.position.action_index(m)))
            .collect();
        let legal: Vec<f32> = index.iter().map(|&i| policy[k * actions + i]).collect();
        let logp = log_softmax(&legal);
        if s.policy_target {
            for &(a, p) in &s.policy {
                let i = PijersiEncoder.policy_index(&s.position, a as usize);
                let j = index.iter().position(|&x| x == i).unwrap();
                p_loss -= p as f64 * logp[j];
            }
            weight += 1.0;
        }
        let lv = log_softmax(&value[k * 3..k * 3 + 3]);
        let class = if s.result > 0.5 {
            0
        } else if s.result < -0.5 {
            2
        } else {
            1
        };
        v_loss -= lv[class];
    }
    p_loss /= weight;
    v_loss /= data.len() as f64;

    let first = learner.step(&batch);
    assert!(
        (first.policy_loss - p_loss).abs() < 1e-3,
        "{} vs {p_loss}",
        first.policy_loss
    );
    assert!(
        (first.value_loss - v_loss).abs() < 1e-3,
        "{} vs {v_loss}",
        first.value_loss
    );
    let mut last = first;
    for _ in 0..150 {
        last = learner.step(&batch);
    }
    // 64 positions are few enough to learn by heart: both losses must fall well below where they
    // started, and most made-up results must be predicted.
    assert!(
        last.policy_loss < 0.5 * first.policy_loss,
        "{first:?} -> {last:?}"
    );
    assert!(
        last.value_loss < 0.7 * first.value_loss,
        "{first:?} -> {last:?}"
    );
    assert!(last.value_accuracy > 0.8, "{last:?}");
}

#[test]
fn a_saved_learner_continues_exactly() {
    let device = Device::default();
    let data = samples(32, 2);
    let refs: Vec<&Sample<Position>> = data.iter().collect();
    let batch = Batch::build(
        &PijersiEncoder,
        &refs,
        true,
        &mut ChaCha8Rng::seed_from_u64(1),
    );
    let mut a = Learner::new(&small(), shape(), &TrainConfig::default(), &device, 5);
    for _ in 0..3 {
        a.step(&batch);
    }
    let dir = tempfile::tempdir().unwrap();
    a.save(dir.path()).unwrap();
    // Another seed: every weight and moment must come from the files.
    let mut b = Learner::new(&small(), shape(), &TrainConfig::default(), &device, 99);
    b.load(dir.path()).unwrap();
    for _ in 0..2 {
        assert_eq!(a.step(&batch), b.step(&batch));
    }
    let outputs = |l: &Learner| {
        let mut e = NetEvaluator::new(l.model(), &device, PijersiEncoder, 0);
        let positions: Vec<&Position> = data.iter().map(|s| &s.position).collect();
        e.forward(&positions)
    };
    assert_eq!(outputs(&a), outputs(&b));
    // A fresh optimiser on the same weights would step differently: the moments matter.
    let mut c = Learner::new(&small(), shape(), &TrainConfig::default(), &device, 99);
    c.load(dir.path()).unwrap();
    let fresh = tempfile::tempdir().unwrap();
    Learner::new(&small(), shape(), &TrainConfig::default(), &device, 7)
        .save(fresh.path())
        .unwrap();
    std::fs::copy(
        fresh.path().join("optimizer.bpk"),
        dir.path().join("optimizer.bpk"),
    )
    .unwrap();
    let mut d = Learner::new(&small(), shape(), &TrainConfig::default(), &device, 99);
    d.load(dir.path()).unwrap();
    // (A step reports the loss before its update: compare the weights after it.)
    c.step(&batch);
    d.step(&batch);
    assert_ne!(outputs(&c), outputs(&d));
}

#[test]
fn evaluator_priors_are_the_legal_softmax_and_batching_and_cache_do_not_change_them() {
    let device = Device::default();
    let learner = Learner::new(&small(), shape(), &TrainConfig::default(), &device, 11);
    let data = samples(20, 3);
    let moves: Vec<Vec<_>> = data
        .iter()
        .map(|s| {
            let mut m = Vec::new();
            s.position.legal_moves(&mut m);
            m
        })
        .collect();
    let requests: Vec<Request<'_, Position>> = data
        .iter()
        .zip(&moves)
        .map(|(s, m)| Request {
            position: &s.position,
            moves: m,
        })
        .collect();
    let mut batched = vec![Evaluation::default(); requests.len()];
    let mut cached = NetEvaluator::new(learner.model(), &device, PijersiEncoder, 1_000);
    cached.evaluate(&requests, &mut batched);
    let mut again = vec![Evaluation::default(); requests.len()];
    cached.evaluate(&requests, &mut again);
    assert_eq!(cached.counters().cache_hits, requests.len() as u64);
    let mut plain = NetEvaluator::new(learner.model(), &device, PijersiEncoder, 0);
    let (policy, value) = {
        let positions: Vec<&Position> = data.iter().map(|s| &s.position).collect();
        plain.forward(&positions)
    };
    let actions = shape().actions;
    for (k, r) in requests.iter().enumerate() {
        let mut one = vec![Evaluation::default()];
        plain.evaluate(std::slice::from_ref(r), &mut one);
        let legal: Vec<f32> = r
            .moves
            .iter()
            .map(|&m| {
                policy[k * actions
                    + PijersiEncoder.policy_index(r.position, r.position.action_index(m))]
            })
            .collect();
        let expected: Vec<f64> = log_softmax(&legal).iter().map(|x| x.exp()).collect();
        let wdl: Vec<f64> = log_softmax(&value[k * 3..k * 3 + 3])
            .iter()
            .map(|x| x.exp())
            .collect();
        let side = Game::side_to_move(r.position);
        for e in [&batched[k], &again[k], &one[0]] {
            assert_eq!(e.priors.len(), r.moves.len());
            for (&p, &q) in e.priors.iter().zip(&expected) {
                assert!((p as f64 - q).abs() < 1e-5);
            }
            assert!((e.value.for_side(side) as f64 - (wdl[0] - wdl[2])).abs() < 1e-5);
        }
    }
}

#[test]
fn value_targets_blend_the_result_with_the_evaluations_expected_score() {
    let data = samples(6, 4);
    let refs: Vec<&Sample<Position>> = data.iter().collect();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut batch = Batch::build(&PijersiEncoder, &refs, false, &mut rng);
    // Row k expects a score of (k - 2) / 4 for its side to move.
    let expected = |p: &Position| {
        let k = data.iter().position(|s| s.position == *p).unwrap();
        (k as f32 - 2.0) / 4.0
    };
    batch.blend_values(&refs, |s| (0.25, expected(&s.position)));
    for (k, s) in data.iter().enumerate() {
        let v = (k as f32 - 2.0) / 4.0;
        // Win, draw, loss: three quarters the result's one-hot, a quarter (1+v)/2, 0, (1-v)/2.
        let one_hot = [
            f32::from(s.result > 0.5),
            f32::from(s.result.abs() < 0.5),
            f32::from(s.result < -0.5),
        ];
        let want = [
            0.75 * one_hot[0] + 0.25 * (1.0 + v) / 2.0,
            0.75 * one_hot[1],
            0.75 * one_hot[2] + 0.25 * (1.0 - v) / 2.0,
        ];
        let got = &batch.value[k * 3..k * 3 + 3];
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() < 1e-6, "row {k}: {got:?} vs {want:?}");
        }
        assert!((got.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    }
}
