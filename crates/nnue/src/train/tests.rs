use super::*;

fn samples() -> Vec<Sample> {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    (0..40)
        .map(|_| Sample {
            stm: (0..5).map(|_| rng.random_range(0..30u16)).collect(),
            other: (0..5).map(|_| rng.random_range(0..30u16)).collect(),
            score: rng.random_range(-400..400),
            result: [0.0, 0.5, 1.0][rng.random_range(0..3usize)],
            reference: rng.random_range(-300..300),
        })
        .collect()
}

/// The backward pass's gradient is the loss's slope: finite differences on a few weights
/// of every layer agree with it.
#[test]
fn gradients_match_differences() {
    for residual in [false, true] {
        gradients_match_differences_for(residual);
    }
}

fn gradients_match_differences_for(residual: bool) {
    let mut options = TrainOptions {
        hidden: 8,
        l2: 4,
        ..TrainOptions::default()
    };
    let data = samples();
    let mut net = init(30, &options).unwrap();
    if residual {
        // Output weights away from zero, so that every layer's gradient is checked.
        net.w3 = init(30, &options).unwrap().w3;
        options.residual = true;
    }
    let mut grads = Network::zeros(30, 8, 4).unwrap();
    let weight = 1.0 / data.len() as f32;
    for s in &data {
        backward(
            &net,
            s,
            base(s, &options),
            target(s, &options),
            weight,
            &mut grads,
        );
    }
    let eps = 1e-3f32;
    let check = |pick: &dyn Fn(&mut Network) -> &mut f32, analytic: f32| {
        let mut plus = net.clone();
        *pick(&mut plus) += eps;
        let mut minus = net.clone();
        *pick(&mut minus) -= eps;
        let numeric =
            (loss(&plus, &data, &options) - loss(&minus, &data, &options)) / (2.0 * f64::from(eps));
        assert!(
            (numeric - f64::from(analytic)).abs() < 2e-3 + 0.05 * numeric.abs(),
            "numeric {numeric} analytic {analytic}"
        );
    };
    let used = usize::from(data[0].stm[0]);
    for k in 0..8 {
        check(
            &|n: &mut Network| &mut n.w1[used * 8 + k],
            grads.w1[used * 8 + k],
        );
        check(&|n: &mut Network| &mut n.b1[k], grads.b1[k]);
    }
    for i in [0, 5, 17, 40, 63] {
        check(&|n: &mut Network| &mut n.w2[i], grads.w2[i]);
    }
    for j in 0..4 {
        check(&|n: &mut Network| &mut n.b2[j], grads.b2[j]);
        check(&|n: &mut Network| &mut n.w3[j], grads.w3[j]);
    }
    check(&|n: &mut Network| &mut n.b3, grads.b3);
}

/// Training lowers the loss on the positions it sees.
#[test]
fn training_lowers_the_loss() {
    let options = TrainOptions {
        hidden: 8,
        l2: 4,
        epochs: 30,
        batch: 8,
        lr: 1e-2,
        validation: 0.0,
        ..TrainOptions::default()
    };
    let data = samples();
    let before = loss(&init(30, &options).unwrap(), &data, &options);
    let (net, _) = train(30, &data, &options, &mut |_| {}).unwrap();
    let after = loss(&net, &data, &options);
    assert!(after < before - 0.02, "{before} -> {after}");
}
