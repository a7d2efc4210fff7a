//! Damaged and hostile model files are refused with an error, never a panic or an abort: a
//! checkpoint's weights (`model.bpk`) and model file (`network.json`) and an ONNX model, each
//! mutated many ways from a valid one (seeded bit flips, bytes overwritten with large length
//! fields, truncations, sizes in the model file that the weights do not have), then loaded as
//! a player loads one and, when that succeeds, run on a row of inputs.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use burn::tensor::Device;
use pjlab_chomp::{Chomp, ChompEncoder};
use pjlab_core::Encoder;
use pjlab_nn::card::Contract;
use pjlab_nn::{Model, NetConfig, NetShape, NetworkFile, Source, Trainee};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn encoder() -> ChompEncoder {
    ChompEncoder::new(3, 4)
}

fn contract() -> Contract {
    Contract::of::<Chomp, _>(Some("chomp"), &encoder())
}

/// A fresh directory under the target's temporary directory.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pjlab-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A valid checkpoint of a small Chomp network in `dir`.
fn checkpoint(dir: &Path) {
    let e = encoder();
    let shape = NetShape {
        input: Encoder::<Chomp>::input_len(&e),
        actions: Encoder::<Chomp>::num_actions(&e),
    };
    let net = NetConfig {
        hidden: 16,
        layers: 2,
    };
    Trainee::new(&net, shape, 0.0, &Device::default(), 5)
        .save(dir)
        .unwrap();
    NetworkFile::new(
        "chomp",
        Encoder::<Chomp>::id(&e),
        net,
        shape,
        serde_json::json!({"rows": 3, "cols": 4}),
    )
    .write(dir)
    .unwrap();
}

/// Loads the model at `path` as a player does and runs it on one row: whether it loaded. A
/// panic fails the test with what was loaded.
fn load_and_run(path: &Path, what: &str) -> bool {
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let contract = contract();
        let source = Source::find(path)?;
        let model = Model::load(&source, &contract)?;
        let input = vec![0.5f32; contract.input_len];
        let mut policy = vec![0.0f32; contract.actions];
        let mut wdl = [0.0f32; 3];
        model.forward(&input, &mut policy, &mut wdl)?;
        Ok::<(), pjlab_nn::Error>(())
    }));
    match outcome {
        Ok(result) => result.is_ok(),
        Err(_) => panic!("{what}: loading or running the model panicked"),
    }
}

/// The ways one file is damaged: `count` seeded mutations of `valid`.
fn mutations(valid: &[u8], count: usize, seed: u64) -> Vec<(String, Vec<u8>)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    for cut in [
        0,
        1,
        4,
        8,
        16,
        valid.len() / 2,
        valid.len().saturating_sub(1),
    ] {
        out.push((
            format!("cut at {cut}"),
            valid[..cut.min(valid.len())].to_vec(),
        ));
    }
    let mut grown = valid.to_vec();
    grown.extend_from_slice(&[0xff; 64]);
    out.push(("64 bytes appended".into(), grown));
    for k in 0..count {
        let mut bytes = valid.to_vec();
        let at = rng.random_range(0..bytes.len());
        let what = match k % 3 {
            0 => {
                let bit = rng.random_range(0..8);
                bytes[at] ^= 1 << bit;
                format!("bit {bit} of byte {at} flipped")
            }
            1 => {
                // A length or count field made huge.
                let end = (at + 8).min(bytes.len());
                for b in &mut bytes[at..end] {
                    *b = 0xff;
                }
                bytes[at] = 0x7f;
                format!("bytes {at}..{end} set to a large number")
            }
            _ => {
                let n = rng.random_range(1..=4);
                for _ in 0..n {
                    let i = rng.random_range(0..bytes.len());
                    bytes[i] = rng.random();
                }
                format!("{n} random bytes from {at}")
            }
        };
        out.push((what, bytes));
    }
    out
}

#[test]
fn damaged_weights_are_refused_or_loaded_never_a_panic() {
    let dir = scratch("weights");
    checkpoint(&dir);
    assert!(load_and_run(&dir, "the valid checkpoint"));
    let file = dir.join(pjlab_nn::checkpoint::MODEL_FILE);
    let valid = std::fs::read(&file).unwrap();
    let mut refused = 0;
    let cases = mutations(&valid, 300, 1);
    for (what, bytes) in &cases {
        std::fs::write(&file, bytes).unwrap();
        refused += usize::from(!load_and_run(&dir, &format!("model.bpk, {what}")));
    }
    // Truncations cannot load.
    assert!(refused >= 7, "{refused} of {} refused", cases.len());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_model_file_whose_sizes_the_weights_lack_is_refused() {
    let dir = scratch("sizes");
    checkpoint(&dir);
    let path = dir.join(pjlab_nn::model::NETWORK_FILE);
    let valid: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let edits: [(&str, &str, serde_json::Value); 6] = [
        ("network", "hidden", 8.into()),
        ("network", "hidden", 4096.into()),
        ("network", "layers", 1.into()),
        ("network", "layers", 9.into()),
        ("network", "hidden", 0.into()),
        ("network", "layers", 0.into()),
    ];
    for (table, key, value) in edits {
        let mut file = valid.clone();
        file[table][key] = value.clone();
        std::fs::write(&path, serde_json::to_string(&file).unwrap()).unwrap();
        let what = format!("network.json with {table}.{key} = {value}");
        assert!(!load_and_run(&dir, &what), "{what} loaded");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn damaged_model_files_are_refused_or_loaded_never_a_panic() {
    let dir = scratch("json");
    checkpoint(&dir);
    let path = dir.join(pjlab_nn::model::NETWORK_FILE);
    let valid = std::fs::read(&path).unwrap();
    for (what, bytes) in mutations(&valid, 200, 2) {
        std::fs::write(&path, &bytes).unwrap();
        load_and_run(&dir, &format!("network.json, {what}"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(feature = "onnx-runtime")]
#[test]
fn damaged_onnx_models_are_refused_or_loaded_never_a_panic() {
    let data = pjlab_conformance::package_dir(env!("CARGO_MANIFEST_DIR")).join("tests/data/torch");
    let name = "chomp-3x4-dynamo-opset18";
    let dir = scratch("onnx");
    for ext in ["json", "onnx.data"] {
        let file = format!("{name}.{ext}");
        std::fs::copy(data.join(&file), dir.join(&file)).unwrap();
    }
    let model = dir.join(format!("{name}.onnx"));
    let valid = std::fs::read(data.join(format!("{name}.onnx"))).unwrap();
    std::fs::write(&model, &valid).unwrap();
    assert!(load_and_run(&model, "the valid ONNX model"));
    for (what, bytes) in mutations(&valid, 200, 3) {
        std::fs::write(&model, &bytes).unwrap();
        load_and_run(&model, &format!("the ONNX model, {what}"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
