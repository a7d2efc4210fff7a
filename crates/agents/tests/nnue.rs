//! `alphabeta:eval=nnue:FILE`: built by the one factory, it plays legal moves, searches the
//! same with and without incremental accumulators, and bad files are errors, not panics.

use pjlab_agents::{SpecError, build};
use pjlab_core::SparseFeatures;
use pjlab_nnue::train::{TrainOptions, init};
use pjlab_pijersi::{PijersiFeatures, PijersiKit, Position};

fn write_network(dir: &std::path::Path, hidden: usize) -> std::path::PathBuf {
    let options = TrainOptions {
        hidden,
        l2: 4,
        ..TrainOptions::default()
    };
    let mut net = init(PijersiFeatures::LEN, &options).unwrap();
    // Weights on a 1/64 grid: incremental and full accumulators are then exactly equal.
    for w in net.w1.iter_mut().chain(net.b1.iter_mut()) {
        *w = (*w * 64.0).round() / 64.0;
    }
    let card = pjlab_nnue::Card {
        game: "pijersi".into(),
        features: PijersiFeatures.id(),
        scale: 200.0,
        residual: false,
        training: serde_json::Value::Null,
    };
    let path = dir.join(format!("net-{hidden}.json"));
    pjlab_nnue::file::save(&path, &card, &net).unwrap();
    path
}

#[test]
fn the_learned_evaluation_plays_and_tracks_like_the_refresh() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_network(dir.path(), 32);
    let p = path.display();
    let mut tracked = build::<PijersiKit>(&format!("alphabeta:eval=nnue:{p},depth=3"), 1).unwrap();
    let mut refresh =
        build::<PijersiKit>(&format!("alphabeta:eval=nnue-refresh:{p},depth=3"), 1).unwrap();
    let mut position = Position::default();
    for _ in 0..12 {
        if position.outcome().is_some() {
            break;
        }
        let a = tracked.decide(&position);
        let b = refresh.decide(&position);
        assert_eq!(
            (a.best_move, a.nodes, a.depth),
            (b.best_move, b.nodes, b.depth)
        );
        position.play(a.best_move.unwrap()).unwrap();
    }
    // A width the tracked positions do not take still plays with the full refresh.
    let odd = write_network(dir.path(), 24);
    assert!(build::<PijersiKit>(&format!("alphabeta:eval=nnue:{}", odd.display()), 1).is_err());
    assert!(
        build::<PijersiKit>(&format!("alphabeta:eval=nnue-refresh:{}", odd.display()), 1).is_ok()
    );
}

#[test]
fn bad_network_files_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.json");
    let spec = format!("alphabeta:eval=nnue:{}", missing.display());
    assert!(matches!(
        build::<PijersiKit>(&spec, 1),
        Err(SpecError::Nnue(_))
    ));
    let garbage = dir.path().join("garbage.json");
    std::fs::write(&garbage, "not json").unwrap();
    let spec = format!("alphabeta:eval=nnue:{}", garbage.display());
    assert!(matches!(
        build::<PijersiKit>(&spec, 1),
        Err(SpecError::Nnue(_))
    ));
}

/// `eval=nnue-int:FILE`: the network in integers plays legal moves to the end of a game's
/// opening, searching to the depth asked, and takes only the widths tracked positions take.
#[test]
fn the_integer_network_plays_legal_moves() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_network(dir.path(), 32);
    let spec = format!("alphabeta:eval=nnue-int:{},depth=3", path.display());
    let mut agent = build::<PijersiKit>(&spec, 1).unwrap();
    let mut position = Position::default();
    for _ in 0..12 {
        if position.outcome().is_some() {
            break;
        }
        let decision = agent.decide(&position);
        assert_eq!(decision.depth, 3);
        position.play(decision.best_move.unwrap()).unwrap();
    }
    let odd = write_network(dir.path(), 24);
    let spec = format!("alphabeta:eval=nnue-int:{}", odd.display());
    assert!(matches!(
        build::<PijersiKit>(&spec, 1),
        Err(SpecError::Width { width: 24, .. })
    ));
}
