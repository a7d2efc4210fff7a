//! The packed CPU network computes what Burn's forward pass computes, whatever the shapes,
//! batch sizes and input densities, and the evaluator runs it on the CPU.

use burn::tensor::{Device, Tensor, TensorData};
use pjlab_core::Encoder;
use pjlab_nn::inference::{Kernels, PackedNet};
use pjlab_nn::{NetConfig, NetEvaluator, NetShape, PolicyValueNet};
use pjlab_pijersi::{PijersiEncoder, Position, Variant};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Burn's policy and value logits for `input`.
fn burn_forward(net: &PolicyValueNet, input: &[f32], n: usize) -> (Vec<f32>, Vec<f32>) {
    let len = input.len() / n;
    let (policy, value) = net.forward(Tensor::from_data(
        TensorData::new(input.to_vec(), [n, len]),
        &Device::default(),
    ));
    (
        policy.into_data().try_into_vec::<f32>().unwrap(),
        value.into_data().try_into_vec::<f32>().unwrap(),
    )
}

fn packed_forward(net: &PackedNet, input: &[f32], n: usize) -> (Vec<f32>, Vec<f32>) {
    let mut policy = vec![f32::NAN; n * net.actions()];
    let mut value = vec![f32::NAN; n * 3];
    net.forward(input, &mut policy, &mut value);
    (policy, value)
}

/// `n` random inputs: uniform in [-1, 1], or with `density` of them set to 1 (one-hot planes).
fn inputs(len: usize, n: usize, density: Option<f64>, rng: &mut ChaCha8Rng) -> Vec<f32> {
    (0..len * n)
        .map(|_| match density {
            None => rng.random_range(-1.0..1.0),
            Some(d) => f32::from(u8::from(rng.random_bool(d))),
        })
        .collect()
}

/// A search's evaluation of `n` positions: each asks for its own actions (fewer than `most`,
/// some none, in any order, repeats allowed). Returns the flat action list and each position's
/// end in it, as `PackedNet::forward_selected` takes them.
fn random_selection(
    n: usize,
    actions: usize,
    most: usize,
    rng: &mut ChaCha8Rng,
) -> (Vec<usize>, Vec<usize>) {
    let mut selected = Vec::new();
    let mut ends = Vec::new();
    for _ in 0..n {
        let count = rng.random_range(0..most);
        selected.extend((0..count).map(|_| rng.random_range(0..actions)));
        ends.push(selected.len());
    }
    (selected, ends)
}

fn assert_close(got: &[f32], want: &[f32], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= 1e-4 * (1.0 + w.abs()),
            "{what}: element {i}: {g} vs {w}"
        );
    }
}

#[test]
fn packed_forward_matches_burn_on_random_inputs() {
    let device = Device::default();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    // The default Pijersi network, then widths that are not multiples of 16 and one layer.
    let cases = [
        (NetConfig::default(), 721, 3748),
        (
            NetConfig {
                hidden: 20,
                layers: 1,
            },
            13,
            7,
        ),
        (
            NetConfig {
                hidden: 64,
                layers: 2,
            },
            50,
            100,
        ),
        (
            NetConfig {
                hidden: 33,
                layers: 4,
            },
            1,
            17,
        ),
    ];
    for (config, input, actions) in cases {
        let net = PolicyValueNet::new(&config, NetShape { input, actions }, &device, 9);
        // The widest kernels the CPU offers (AVX-512 where present), AVX2's, and the one-lane
        // kernels of CPUs without AVX2.
        for packed in [
            PackedNet::new(&net),
            PackedNet::new(&net).with_kernels(Kernels::Avx2),
            PackedNet::new(&net).scalar(),
        ] {
            assert_eq!((packed.input_len(), packed.actions()), (input, actions));
            // Tiles of 6 (AVX2) and 16 (AVX-512) positions, in chunks of 48, and remainders
            // (on AVX-512 tiles of 6 then of 1 to 5: 15 is 6 + 6 + 3, 47 is 2 x 16 + 6 + 6 + 3).
            for n in [1, 5, 6, 7, 13, 15, 16, 17, 30, 32, 47, 48, 49, 100] {
                for density in [None, Some(0.05), Some(0.5), Some(0.0)] {
                    let x = inputs(input, n, density, &mut rng);
                    let (policy, value) = packed_forward(&packed, &x, n);
                    let (want_policy, want_value) = burn_forward(&net, &x, n);
                    let what = format!("{config:?}, batch {n}, density {density:?}");
                    assert_close(&policy, &want_policy, &format!("policy, {what}"));
                    assert_close(&value, &want_value, &format!("value, {what}"));
                }
            }
        }
    }
}

#[test]
fn selected_logits_are_the_full_forwards() {
    let device = Device::default();
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    for hidden in [128, 20] {
        let shape = NetShape {
            input: 40,
            actions: 300,
        };
        let config = NetConfig { hidden, layers: 2 };
        let net = PolicyValueNet::new(&config, shape, &device, 2);
        for (packed, n) in [
            PackedNet::new(&net),
            PackedNet::new(&net).with_kernels(Kernels::Avx2),
            PackedNet::new(&net).scalar(),
        ]
        .iter()
        .flat_map(|p| [(p, 1), (p, 7), (p, 50)])
        {
            let x = inputs(shape.input, n, Some(0.1), &mut rng);
            let (policy, value) = packed_forward(packed, &x, n);
            let (selected, ends) = random_selection(n, shape.actions, 40, &mut rng);
            let mut logits = vec![f32::NAN; selected.len()];
            let mut value_too = vec![f32::NAN; n * 3];
            packed.forward_selected(&x, &selected, &ends, &mut logits, &mut value_too);
            assert_eq!(value_too, value);
            let mut start = 0;
            for (k, &end) in ends.iter().enumerate() {
                for (&a, &logit) in selected[start..end].iter().zip(&logits[start..end]) {
                    let full = policy[k * shape.actions + a];
                    assert!((logit - full).abs() <= 1e-5 * (1.0 + full.abs()));
                }
                start = end;
            }
        }
    }
}

#[test]
fn a_position_gets_the_same_bits_alone_or_in_any_batch_sparse_or_dense() {
    let device = Device::default();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let shape = NetShape {
        input: 721,
        actions: 3748,
    };
    let packed = PackedNet::new(&PolicyValueNet::new(
        &NetConfig::default(),
        shape,
        &device,
        3,
    ));
    // Sparse positions alone take the sparse first layer; mixed with dense ones, the dense one.
    let sparse = inputs(shape.input, 9, Some(0.04), &mut rng);
    let dense = inputs(shape.input, 9, None, &mut rng);
    let mixed: Vec<f32> = sparse.iter().chain(&dense).copied().collect();
    let (all_policy, all_value) = packed_forward(&packed, &mixed, 18);
    for (k, x) in mixed.chunks(shape.input).enumerate() {
        let (policy, value) = packed_forward(&packed, x, 1);
        assert_eq!(
            policy,
            all_policy[k * shape.actions..(k + 1) * shape.actions],
            "position {k}"
        );
        assert_eq!(value, all_value[k * 3..k * 3 + 3], "position {k}");
    }
}

/// Each output sums its inputs in the same order whatever the vector width, and a selected
/// logit's partial sums are reduced alike, so the widest kernels and AVX2's give the same bits.
/// On a CPU with AVX-512 that compares the two paths; elsewhere both run the same set.
#[test]
fn the_widest_kernels_give_the_avx2_kernels_bits() {
    let device = Device::default();
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let shape = NetShape {
        input: 721,
        actions: 3748,
    };
    let net = PolicyValueNet::new(&NetConfig::default(), shape, &device, 5);
    let (widest, avx2) = (
        PackedNet::new(&net),
        PackedNet::new(&net).with_kernels(Kernels::Avx2),
    );
    assert_eq!(widest.kernels(), Kernels::Widest);
    eprintln!(
        "widest: {}; AVX2: {}",
        Kernels::Widest.describe(),
        Kernels::Avx2.describe()
    );
    for (n, density) in [
        (1, Some(0.04)),
        (13, Some(0.04)),
        (47, None),
        (49, None),
        (100, Some(0.5)),
    ] {
        let x = inputs(shape.input, n, density, &mut rng);
        assert_eq!(
            packed_forward(&widest, &x, n),
            packed_forward(&avx2, &x, n),
            "batch {n}, density {density:?}"
        );
        let (selected, ends) = random_selection(n, shape.actions, 200, &mut rng);
        let selected_forward = |net: &PackedNet| {
            let mut logits = vec![f32::NAN; selected.len()];
            let mut value = vec![f32::NAN; n * 3];
            net.forward_selected(&x, &selected, &ends, &mut logits, &mut value);
            (logits, value)
        };
        assert_eq!(
            selected_forward(&widest),
            selected_forward(&avx2),
            "selected logits, batch {n}, density {density:?}"
        );
    }
    // The instruction sets are named, the widest at least as wide as AVX2's.
    let lanes = |k: Kernels| -> usize {
        let text = k.describe();
        let count = text.rsplit(", ").next().unwrap().split(' ').next().unwrap();
        count.parse().unwrap()
    };
    assert_eq!(Kernels::Scalar.describe(), "scalar, 1 x f32");
    assert!(lanes(Kernels::Widest) >= lanes(Kernels::Avx2));
    assert!(lanes(Kernels::Avx2) >= 1);
}

#[test]
fn the_evaluator_runs_the_packed_network_on_the_cpu_and_matches_burn() {
    let device = Device::default();
    let shape = NetShape {
        input: PijersiEncoder.input_len(),
        actions: PijersiEncoder.num_actions(),
    };
    let net = PolicyValueNet::new(&NetConfig::default(), shape, &device, 4);
    let mut evaluator = NetEvaluator::new(&net, &device, PijersiEncoder, 0);
    assert!(evaluator.is_packed());
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    for seed in 0..6 {
        let mut p = Variant::FullRandom.setup(seed);
        for k in 0..(seed as usize * 5) {
            p.legal_moves(&mut moves);
            if moves.is_empty() || p.outcome().is_some() {
                break;
            }
            p.play_unchecked(moves[(k * 11 + seed as usize) % moves.len()]);
        }
        positions.push(p);
    }
    let refs: Vec<&Position> = positions.iter().collect();
    let (policy, value) = evaluator.forward(&refs);
    let mut input = vec![0.0; positions.len() * shape.input];
    for (p, row) in positions.iter().zip(input.chunks_mut(shape.input)) {
        PijersiEncoder.encode(p, row);
    }
    let (want_policy, want_value) = burn_forward(&net, &input, positions.len());
    assert_close(&policy, &want_policy, "policy");
    assert_close(&value, &want_value, "value");
}
