//! The learned evaluation on Pijersi: its file, its forward pass against a plain dense one, its
//! invariance under the colour flip, and alpha-beta's forced wins with it.

use std::sync::Arc;

use pjlab_alphabeta::{Engine, Limits, Options};
use pjlab_core::{Game, Heuristic, Side, SparseFeatures};
use pjlab_nnue::train::{TrainOptions, init};
use pjlab_nnue::{Card, Error, Network, NnueEval};
use pjlab_pijersi::{PijersiEval, PijersiFeatures, Position, Variant};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

fn card() -> Card {
    Card {
        game: "pijersi".into(),
        features: PijersiFeatures.id(),
        scale: 200.0,
        residual: false,
        training: serde_json::json!({"test": true}),
    }
}

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

fn eval(net: Network) -> NnueEval<Position, PijersiEval> {
    NnueEval::new(
        &card(),
        Arc::new(net),
        Arc::new(PijersiFeatures),
        PijersiEval::default(),
    )
    .unwrap()
}

/// Positions of a few random games from classic and half-random setups.
fn positions() -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for (i, variant) in [Variant::Classic, Variant::HalfRandom, Variant::HalfRandom]
        .into_iter()
        .enumerate()
    {
        let mut position = variant.setup(i as u64);
        for _ in 0..60 {
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

/// The forward pass (accumulators of the active rows, clipped, second layer) equals a plain
/// dense evaluation of the same weights on the one-hot input vectors, in f64.
#[test]
fn forward_equals_a_dense_reference() {
    let net = network(5);
    let (h, l2) = (net.hidden, net.l2);
    let mut buffer = [0u16; PijersiFeatures::MAX_ACTIVE];
    for position in positions() {
        let me = Game::side_to_move(&position);
        let mut dense = [vec![0.0f64; net.inputs], vec![0.0f64; net.inputs]];
        for (view, side) in [me, me.other()].into_iter().enumerate() {
            let n = PijersiFeatures.active(&position, side, &mut buffer);
            for &f in &buffer[..n] {
                dense[view][usize::from(f)] = 1.0;
            }
        }
        let mut x = vec![0.0f64; 2 * h];
        for view in 0..2 {
            for k in 0..h {
                let mut a = f64::from(net.b1[k]);
                for (i, &on) in dense[view].iter().enumerate() {
                    a += on * f64::from(net.w1[i * h + k]);
                }
                x[view * h + k] = a.clamp(0.0, 1.0);
            }
        }
        let mut out = f64::from(net.b3);
        for j in 0..l2 {
            let mut z = f64::from(net.b2[j]);
            for (w, x) in net.w2[j * 2 * h..][..2 * h].iter().zip(&x) {
                z += f64::from(*w) * x;
            }
            out += f64::from(net.w3[j]) * z.clamp(0.0, 1.0);
        }
        let e = eval(net.clone());
        let got = f64::from(e.logit(&position));
        assert!((got - out).abs() < 1e-4, "{got} against {out}");
    }
}

/// The score is for the side to move: a position and its colour flip (board turned, colours
/// swapped, the other side to move) are the same position for the mover and score the same,
/// while the network does tell the two sides apart.
#[test]
fn the_score_is_the_movers_whatever_its_colour() {
    let e = eval(network(9));
    let mut differ = 0;
    for position in positions() {
        let flipped = position.flipped();
        assert_ne!(position.side_to_move(), flipped.side_to_move());
        assert_eq!(e.evaluate(&position), e.evaluate(&flipped));
        let mut a = [0u16; PijersiFeatures::MAX_ACTIVE];
        let mut b = [0u16; PijersiFeatures::MAX_ACTIVE];
        let n = PijersiFeatures.active(&position, Side::First, &mut a);
        let m = PijersiFeatures.active(&position, Side::Second, &mut b);
        let net = network(9);
        if net.forward(&a[..n], &b[..m]) != net.forward(&b[..m], &a[..n]) {
            differ += 1;
        }
    }
    assert!(differ > 0, "the two points of view never differ");
}

/// Where alpha-beta with the hand-written evaluation finds a forced win, it finds the same one
/// with a learned evaluation (even an untrained one): forced results come from the search.
#[test]
fn alpha_beta_with_the_network_finds_forced_wins() {
    let mut found = 0;
    let mut hand = Engine::new(PijersiEval::default(), Options::default());
    let mut learned = Engine::new(eval(network(11)), Options::default());
    for position in positions() {
        let reference = hand.search(&position, &Limits::depth(3));
        let Some(plies) = reference.mate_in() else {
            continue;
        };
        if plies <= 0 {
            continue;
        }
        let result = learned.search(&position, &Limits::depth(3));
        assert_eq!(result.mate_in(), Some(plies), "{}", position.to_text());
        let mut after = position.clone();
        after.play_unchecked(result.best_move.unwrap());
        if plies == 1 {
            assert!(
                after
                    .outcome()
                    .is_some_and(|o| o.winner() == Some(Game::side_to_move(&position)))
            );
        }
        found += 1;
    }
    assert!(found >= 3, "only {found} forced wins met");
}

/// The file keeps the network and the card exactly; the card is also written beside it; a
/// network for other features is refused, and so is a file that is not one.
#[test]
fn the_file_round_trips_and_refuses_what_it_must() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("net.json");
    let net = network(2);
    pjlab_nnue::file::save(&path, &card(), &net).unwrap();
    let (c, n) = pjlab_nnue::file::load(&path).unwrap();
    assert_eq!((c, &n), (card(), &net));
    assert!(pjlab_nnue::file::card_path(&path).exists());

    let mut other = card();
    other.features.version = 99;
    let refused = NnueEval::new(
        &other,
        Arc::new(net),
        Arc::new(PijersiFeatures),
        PijersiEval::default(),
    );
    assert!(matches!(refused, Err(Error::Features { .. })));

    std::fs::write(&path, "{\"format\": \"pjlab-nnue\"}").unwrap();
    assert!(matches!(
        pjlab_nnue::file::load(&path),
        Err(Error::Format { .. })
    ));
    let mut broken = network(2);
    broken.w1.pop();
    pjlab_nnue::file::save(&path, &card(), &broken).unwrap();
    assert!(matches!(
        pjlab_nnue::file::load(&path),
        Err(Error::Format { .. })
    ));
}

/// A network whose first-layer weights are multiples of 1/64 below 4 in size: every sum of a
/// few hundred of them is exact in f32, whatever the order, so incremental and full
/// accumulators must agree exactly.
fn exact_network(seed: u64) -> Network {
    let mut net = network(seed);
    for w in net.w1.iter_mut().chain(net.b1.iter_mut()) {
        *w = (*w * 64.0).round() / 64.0;
    }
    net
}

/// After every move of games from classic and random setups, the accumulators a tracked
/// position updated move by move are those computed in full, from both points of view.
#[test]
fn tracked_accumulators_equal_a_full_refresh() {
    use pjlab_nnue::tracked::{Shared, Tracked};
    let e = eval(exact_network(4));
    let shared = Shared::new::<_, 32>(&e).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let mut moves = Vec::new();
    let mut checked = 0;
    for (i, variant) in [Variant::Classic, Variant::FullRandom, Variant::HalfRandom]
        .into_iter()
        .enumerate()
    {
        let mut tracked: Tracked<Position, 32> =
            Tracked::new(variant.setup(i as u64), shared.clone());
        for _ in 0..100 {
            if tracked.outcome().is_some() {
                break;
            }
            tracked.legal_moves(&mut moves);
            for &mv in &moves {
                let mut child = tracked.clone();
                child.play_unchecked(mv);
                let fresh: Tracked<Position, 32> =
                    Tracked::new(child.position().clone(), shared.clone());
                for side in Side::BOTH {
                    assert_eq!(child.accumulator(side), fresh.accumulator(side));
                }
                checked += 1;
            }
            tracked.play_unchecked(*moves.choose(&mut rng).unwrap());
        }
    }
    assert!(checked > 1000, "{checked}");
}

/// After every move of seeded random games, the tracked evaluation (accumulators updated move
/// by move, the output on them) equals the evaluation that computes everything from the
/// position, alone and as a correction to the hand-written evaluation.
#[test]
fn tracked_evaluation_equals_the_full_refresh() {
    use pjlab_nnue::tracked::{Shared, Tracked, TrackedEval};
    for residual in [false, true] {
        let card = Card { residual, ..card() };
        let plain = NnueEval::new(
            &card,
            Arc::new(exact_network(9)),
            Arc::new(PijersiFeatures),
            PijersiEval::default(),
        )
        .unwrap();
        let shared = Shared::new::<_, 32>(&plain).unwrap();
        let tracked_eval = TrackedEval::new(plain.clone());
        let mut rng = ChaCha8Rng::seed_from_u64(10);
        let mut moves = Vec::new();
        let mut checked = 0;
        for (i, variant) in [Variant::Classic, Variant::HalfRandom, Variant::FullRandom]
            .into_iter()
            .enumerate()
        {
            let mut tracked: Tracked<Position, 32> =
                Tracked::new(variant.setup(10 + i as u64), shared.clone());
            for _ in 0..100 {
                if tracked.outcome().is_some() {
                    break;
                }
                tracked.legal_moves(&mut moves);
                for &mv in &moves {
                    let mut child = tracked.clone();
                    child.play_unchecked(mv);
                    let want = plain.evaluate(child.position());
                    assert_eq!(tracked_eval.evaluate(&child), want, "{}", child.position());
                    let (a, b) = (tracked_eval.logit(&child), plain.logit(child.position()));
                    assert_eq!(a.to_bits(), b.to_bits(), "{}", child.position());
                    checked += 1;
                }
                tracked.play_unchecked(*moves.choose(&mut rng).unwrap());
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}

/// Alpha-beta on tracked positions searches exactly as on plain ones with the full refresh:
/// same move, score, depth and node count.
#[test]
fn alpha_beta_on_tracked_positions_searches_the_same() {
    use pjlab_nnue::tracked::{Shared, Tracked, TrackedEval};
    let net = exact_network(6);
    let plain = eval(net.clone());
    let shared = Shared::new::<_, 32>(&plain).unwrap();
    let mut a = Engine::new(plain.clone(), Options::default());
    let mut b = Engine::new(TrackedEval::new(plain), Options::default());
    for position in positions().into_iter().step_by(9) {
        let x = a.search(&position, &Limits::depth(3));
        let y = b.search(
            &Tracked::<_, 32>::new(position.clone(), shared.clone()),
            &Limits::depth(3),
        );
        assert_eq!(
            (x.best_move, x.score, x.depth, x.nodes),
            (y.best_move, y.score, y.depth, y.nodes)
        );
    }
}
