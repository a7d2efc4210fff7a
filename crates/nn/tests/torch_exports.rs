//! Models written by PyTorch's exporters load and compute what PyTorch computed: today's
//! default exporter (`dynamo=True`: opset 18 or 20, weights in `<name>.onnx.data`, `value_info`
//! on the weights) and the legacy one (`dynamo=False`). The fixtures in `tests/data/torch` and
//! their outputs (`expected.json`, computed by PyTorch) are written by
//! `tests/data/torch/make_fixtures.py`; the models are then searched with on the games' start
//! positions.

#![cfg(feature = "onnx-runtime")]

use std::path::{Path, PathBuf};

use pjlab_core::{Encoder, EncoderId, Game, GameKit, SetupVariant};
use pjlab_mcts::{Budget, Config, Mcts};
use pjlab_nn::card::Contract;
use pjlab_nn::onnx::{OnnxEvaluator, OnnxModel};
use pjlab_nn::{Error, Model, Source};
use serde_json::Value;

fn data() -> PathBuf {
    pjlab_conformance::package_dir(env!("CARGO_MANIFEST_DIR")).join("tests/data/torch")
}

fn expected() -> Value {
    let text = std::fs::read_to_string(data().join("expected.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn floats(v: &Value) -> Vec<f32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap() as f32)
        .collect()
}

fn contract(fixture: &Value) -> Contract {
    Contract {
        game: Some(fixture["game"].as_str().unwrap().into()),
        encoder: EncoderId {
            name: fixture["encoder"].as_str().unwrap().into(),
            version: 1,
        },
        input_len: fixture["input_len"].as_u64().unwrap() as usize,
        actions: fixture["actions"].as_u64().unwrap() as usize,
    }
}

fn close(found: f32, want: f32, what: &str) {
    assert!(
        (found - want).abs() <= 1e-4 * (1.0 + want.abs()),
        "{what}: found {found}, PyTorch computed {want}"
    );
}

/// The fixture's model, found and loaded as players load one, computes PyTorch's outputs on
/// its rows, run together.
fn check_fixture(fixture: &Value) {
    let file = fixture["file"].as_str().unwrap();
    let contract = contract(fixture);
    let source = Source::find(&data().join(file)).unwrap();
    assert_eq!(source.input_len(), Some(contract.input_len), "{file}");
    let model = Model::load(&source, &contract)
        .unwrap_or_else(|e| panic!("{file} ({} exporter): {e}", fixture["exporter"]));
    assert_eq!(model.format(), "onnx");
    let rows = fixture["rows"].as_array().unwrap();
    let inputs: Vec<f32> = rows.iter().flat_map(|r| floats(&r["input"])).collect();
    let mut policies = vec![f32::NAN; rows.len() * contract.actions];
    let mut wdls = vec![f32::NAN; rows.len() * 3];
    model.forward(&inputs, &mut policies, &mut wdls).unwrap();
    let stride = fixture["stride"].as_u64().unwrap() as usize;
    let outputs = policies
        .chunks_exact(contract.actions)
        .zip(wdls.chunks_exact(3));
    for (row, (policy, wdl)) in rows.iter().zip(outputs) {
        let name = format!("{file}, row {}", row["name"]);
        let sampled: Vec<f32> = policy.iter().copied().step_by(stride).collect();
        let want = floats(&row["policy"]);
        assert_eq!(sampled.len(), want.len(), "{name}");
        for (i, (&found, &want)) in sampled.iter().zip(&want).enumerate() {
            close(found, want, &format!("{name}: policy logit {}", i * stride));
        }
        let sum: f32 = policy.iter().sum();
        close(
            sum,
            row["policy_sum"].as_f64().unwrap() as f32,
            &format!("{name}: policy sum"),
        );
        for (i, (&found, &want)) in wdl.iter().zip(&floats(&row["wdl"])).enumerate() {
            close(found, want, &format!("{name}: wdl logit {i}"));
        }
    }
}

#[test]
fn every_fixture_computes_what_pytorch_computed() {
    let expected = expected();
    let fixtures = expected["fixtures"].as_array().unwrap();
    let exporters: Vec<(&str, i64)> = fixtures
        .iter()
        .map(|f| {
            (
                f["exporter"].as_str().unwrap(),
                f["opset"].as_i64().unwrap(),
            )
        })
        .collect();
    // Today's default exporter at its own opset and at 18, and the legacy one.
    for want in [("dynamo", 20), ("dynamo", 18), ("legacy", 17)] {
        assert!(exporters.contains(&want), "no fixture of {want:?}");
    }
    for fixture in fixtures {
        check_fixture(fixture);
    }
}

/// The fixture `file` of `K`'s game: its start row is the encoding of the game's start, the
/// model loads as the game's evaluator and a short search from the start picks a legal move.
fn plays<K: GameKit>(file: &str, encoder: K::Encoder) {
    let expected = expected();
    let fixture = expected["fixtures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["file"] == file)
        .unwrap();
    let start = K::variants()[0].start(0);
    let mut input = vec![0.0; encoder.input_len()];
    encoder.encode(&start, &mut input);
    assert_eq!(
        input,
        floats(&fixture["rows"][0]["input"]),
        "{file}: start row"
    );
    let model = OnnxModel::load(&data().join(file), &contract(fixture)).unwrap();
    let mut evaluator = OnnxEvaluator::<K::Game, _>::new(model, encoder);
    let mut search = Mcts::new(start.clone(), Config::default(), 7);
    let result = search.search(&mut evaluator, &Budget::simulations(32));
    let best = result.best_move.expect("a move from the start");
    let mut moves = Vec::new();
    start.legal_moves(&mut moves);
    assert!(moves.contains(&best), "{file}: {best:?}");
}

#[test]
fn dynamo_exports_play_from_each_games_start() {
    plays::<pjlab_chomp::ChompKit>(
        "chomp-3x4-dynamo.onnx",
        pjlab_chomp::ChompEncoder::new(3, 4),
    );
    plays::<pjlab_pijersi::PijersiKit>("pijersi-dynamo.onnx", pjlab_pijersi::PijersiEncoder);
    plays::<pjlab_abalone::AbaloneKit>("abalone-dynamo.onnx", pjlab_abalone::AbaloneEncoder);
}

/// A copy of the fixture `file` and its external data in a new directory, without its card.
fn copy_without_card(file: &str, dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let data_file = format!("{file}.data");
    for name in [file, data_file.as_str()] {
        let from = data().join(name);
        if from.exists() {
            std::fs::copy(from, dir.join(name)).unwrap();
        }
    }
    dir.join(file)
}

#[test]
fn external_data_is_found_beside_the_model_and_named_when_missing() {
    let dir = std::env::temp_dir().join(format!("pjlab-nn-torch-{}", std::process::id()));
    let file = "chomp-3x4-dynamo.onnx";
    let expected = expected();
    let fixture = &expected["fixtures"][0];
    assert_eq!(fixture["file"], file);
    // Copied elsewhere, away from the working directory: the data beside the copy is read.
    let path = copy_without_card(file, &dir.join("elsewhere"));
    let model = OnnxModel::load(&path, &contract(fixture)).unwrap();
    assert_eq!(model.path(), path);

    // Without its data file the model names itself and the missing file.
    std::fs::remove_file(dir.join("elsewhere").join(format!("{file}.data"))).unwrap();
    let err = OnnxModel::load(&path, &contract(fixture)).err().unwrap();
    assert!(matches!(err, Error::Load { .. }), "{err:?}");
    let message = err.to_string();
    assert!(
        message.starts_with(&format!("{}: the ONNX model does not load", path.display())),
        "{message}"
    );
    assert!(message.contains(&format!("{file}.data")), "{message}");
    assert!(!message.contains("checkpoint"), "{message}");

    // No model at all: named as such, found before anything is read.
    let gone = dir.join("gone.onnx");
    let err = Source::find(&gone).err().unwrap();
    assert_eq!(
        err.to_string(),
        format!(
            "{}: the ONNX model does not load: no such file",
            gone.display()
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
