//! Models written by PyTorch's current exporter (`crates/nn/tests/data/torch`) as players: a
//! Chomp model without a card plays on the bar its input's width names, and a bar named
//! otherwise is refused, naming the input shapes expected and found.

use std::path::{Path, PathBuf};

use pjlab_chomp::ChompKit;
use pjlab_core::{Encoder, Game, GameKit, SetupVariant};
use pjlab_players::{Error, load_network};

/// A copy of the fixture `file` (and its external data) in `dir`, without its card.
fn card_less(file: &str, dir: &Path) -> PathBuf {
    let fixtures =
        pjlab_conformance::package_dir(env!("CARGO_MANIFEST_DIR")).join("../nn/tests/data/torch");
    let data = format!("{file}.data");
    for name in [file, data.as_str()] {
        if fixtures.join(name).exists() {
            std::fs::copy(fixtures.join(name), dir.join(name)).unwrap();
        }
    }
    dir.join(file)
}

#[test]
fn a_card_less_chomp_model_plays_on_the_bar_of_its_input() {
    let dir = tempfile::tempdir().unwrap();
    let path = card_less("chomp-3x4-dynamo.onnx", dir.path());
    let (model, encoder) = load_network::<ChompKit>(&path, None).unwrap();
    assert_eq!(model.format(), "onnx");
    assert_eq!(encoder.id().name, "chomp-3x4");

    let spec = format!("net:checkpoint={},sims=8", path.display());
    let mut agent = pjlab_players::build::<ChompKit>(&spec, 1).unwrap();
    let start = ChompKit::variant("3x4").unwrap().start(0);
    let mut legal = Vec::new();
    start.legal_moves(&mut legal);
    assert!(legal.contains(&agent.decide(&start).best_move.unwrap()));

    // Another bar named for it disagrees with its input: refused, naming both shapes.
    let err = load_network::<ChompKit>(&path, Some("5x6")).err().unwrap();
    assert!(
        matches!(err, Error::Net(pjlab_nn::Error::Mismatch { .. })),
        "{err}"
    );
    assert!(
        err.to_string()
            .contains("input shape: expected [batch, 30], found [batch, 12]"),
        "{err}"
    );
    // An input of no bar's width: the default bar's shape is named as expected.
    let pijersi = card_less("pijersi-dynamo.onnx", dir.path());
    let err = load_network::<ChompKit>(&pijersi, None).err().unwrap();
    assert!(
        err.to_string()
            .contains("input shape: expected [batch, 12], found [batch, 721]"),
        "{err}"
    );
}
