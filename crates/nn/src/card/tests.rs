//! The contract's checks on graphs written here field by field (independently of the export),
//! on the lab's own export, and on cards.

use prost::Message;
use serde_json::json;

use super::*;
use crate::proto::{
    Dimension, GraphProto, TensorProto, TensorShapeProto, TensorTypeProto, TypeProto,
};
use crate::{NetConfig, NetShape, PolicyValueNet};

fn contract() -> Contract {
    Contract {
        game: Some("chomp".into()),
        encoder: EncoderId {
            name: "chomp-3x4".into(),
            version: 1,
        },
        input_len: 12,
        actions: 12,
    }
}

/// A declared value: `dims` as numbers, `-1` for the symbol `batch`.
fn value(name: &str, elem: i32, dims: &[i64]) -> ValueInfoProto {
    let dim = dims
        .iter()
        .map(|&d| Dimension {
            dim_value: (d >= 0).then_some(d),
            dim_param: (d < 0).then(|| "batch".to_string()),
        })
        .collect();
    ValueInfoProto {
        name: name.into(),
        r#type: Some(TypeProto {
            tensor_type: Some(TensorTypeProto {
                elem_type: elem,
                shape: Some(TensorShapeProto { dim }),
            }),
        }),
    }
}

fn model(inputs: Vec<ValueInfoProto>, outputs: Vec<ValueInfoProto>, weights: &[&str]) -> Vec<u8> {
    ModelProto {
        ir_version: 8,
        graph: Some(GraphProto {
            name: "foreign".into(),
            input: inputs,
            output: outputs,
            initializer: weights
                .iter()
                .map(|w| TensorProto {
                    dims: vec![1],
                    data_type: FLOAT,
                    float_data: vec![0.0],
                    name: (*w).into(),
                })
                .collect(),
            ..GraphProto::default()
        }),
        ..ModelProto::default()
    }
    .encode_to_vec()
}

fn fitting() -> (Vec<ValueInfoProto>, Vec<ValueInfoProto>) {
    (
        vec![value(INPUT, FLOAT, &[-1, 12])],
        vec![value(POLICY, FLOAT, &[-1, 12]), value(WDL, FLOAT, &[-1, 3])],
    )
}

fn refused(bytes: &[u8]) -> Mismatch {
    check_graph(bytes, &contract()).expect_err("the graph should not fit")
}

#[test]
fn a_fitting_graph_passes_with_its_outputs_in_either_order() {
    let (inputs, outputs) = fitting();
    let at = check_graph(&model(inputs.clone(), outputs.clone(), &[]), &contract()).unwrap();
    assert_eq!(at, OutputIndices { policy: 0, wdl: 1 });
    let mut swapped = outputs;
    swapped.reverse();
    swapped.push(value("extra", FLOAT, &[-1, 7]));
    let at = check_graph(&model(inputs, swapped, &[]), &contract()).unwrap();
    assert_eq!(at, OutputIndices { policy: 1, wdl: 0 });
}

#[test]
fn a_fixed_batch_and_weights_listed_as_inputs_pass() {
    let (mut inputs, mut outputs) = fitting();
    inputs[0] = value(INPUT, FLOAT, &[1, 12]);
    outputs[0] = value(POLICY, FLOAT, &[1, 12]);
    inputs.push(value("w", FLOAT, &[1]));
    assert!(check_graph(&model(inputs, outputs, &["w"]), &contract()).is_ok());
}

#[test]
fn the_labs_own_export_fits_its_shape() {
    let shape = NetShape {
        input: 12,
        actions: 12,
    };
    let net = PolicyValueNet::new(
        &NetConfig {
            hidden: 8,
            layers: 1,
        },
        shape,
        &Default::default(),
        3,
    );
    let bytes = crate::export::onnx_bytes(&net, &[]);
    assert_eq!(
        check_graph(&bytes, &contract()).unwrap(),
        OutputIndices { policy: 0, wdl: 1 }
    );
    let wider = Contract {
        actions: 13,
        ..contract()
    };
    assert_eq!(
        check_graph(&bytes, &wider).unwrap_err().what,
        "policy_logits shape"
    );
}

#[test]
fn a_wrong_input_name_is_named() {
    let (mut inputs, outputs) = fitting();
    inputs[0].name = "obs".into();
    let m = refused(&model(inputs, outputs, &[]));
    assert_eq!(
        (m.what.as_str(), m.expected.as_str(), m.found.as_str()),
        ("input name", "\"input\"", "\"obs\"")
    );
    assert_eq!(
        m.to_string(),
        "input name: expected \"input\", found \"obs\""
    );
}

#[test]
fn two_inputs_are_refused() {
    let (mut inputs, outputs) = fitting();
    inputs.push(value("mask", FLOAT, &[-1, 12]));
    let m = refused(&model(inputs, outputs, &[]));
    assert_eq!(m.what, "inputs");
    assert_eq!(m.found, "2 (\"input\", \"mask\")");
}

#[test]
fn a_wrong_input_width_or_rank_is_named() {
    let (mut inputs, outputs) = fitting();
    inputs[0] = value(INPUT, FLOAT, &[-1, 11]);
    let m = refused(&model(inputs.clone(), outputs.clone(), &[]));
    assert_eq!(
        (m.what.as_str(), m.expected.as_str(), m.found.as_str()),
        ("input shape", "[batch, 12]", "[batch, 11]")
    );
    inputs[0] = value(INPUT, FLOAT, &[-1, 3, 4]);
    assert_eq!(refused(&model(inputs, outputs, &[])).found, "[batch, 3, 4]");
}

#[test]
fn a_wrong_number_of_actions_is_named() {
    let (inputs, mut outputs) = fitting();
    outputs[0] = value(POLICY, FLOAT, &[-1, 13]);
    let m = refused(&model(inputs, outputs, &[]));
    assert_eq!(
        (m.what.as_str(), m.expected.as_str(), m.found.as_str()),
        ("policy_logits shape", "[batch, 12]", "[batch, 13]")
    );
}

#[test]
fn a_missing_output_is_named() {
    let (inputs, mut outputs) = fitting();
    outputs.pop();
    let m = refused(&model(inputs, outputs, &[]));
    assert_eq!(m.what, "outputs");
    assert_eq!(m.found, "\"policy_logits\" (no \"wdl_logits\")");
}

#[test]
fn a_non_float_input_is_named() {
    let (mut inputs, outputs) = fitting();
    inputs[0] = value(INPUT, 7, &[-1, 12]);
    assert_eq!(
        refused(&model(inputs, outputs, &[])).what,
        "input element type"
    );
}

#[test]
fn bytes_that_are_no_model_are_refused() {
    assert_eq!(refused(&[0xff, 0xff, 0xff]).what, "file");
    assert_eq!(refused(&[]).what, "graph");
}

fn card() -> serde_json::Value {
    json!({
        "game": "chomp",
        "encoder": {"name": "chomp-3x4", "version": 1},
        "input": {"name": "input", "shape": ["batch", 12]},
        "outputs": {
            "policy_logits": {"shape": ["batch", 12]},
            "wdl_logits": {"shape": ["batch", 3]}
        }
    })
}

#[test]
fn a_fitting_card_passes_and_its_parts_are_checked() {
    assert_eq!(check_card(&card(), &contract()), Ok(()));
    let minimal = json!({"encoder": {"name": "chomp-3x4", "version": 1}});
    assert_eq!(check_card(&minimal, &contract()), Ok(()));

    let mut other = card();
    other["game"] = json!("pijersi");
    let m = check_card(&other, &contract()).unwrap_err();
    assert_eq!((m.what.as_str(), m.found.as_str()), ("game", "pijersi"));

    let mut other = card();
    other["encoder"]["name"] = json!("chomp-4x7");
    let m = check_card(&other, &contract()).unwrap_err();
    assert_eq!(
        (m.what.as_str(), m.expected.as_str(), m.found.as_str()),
        ("encoder", "chomp-3x4 v1", "chomp-4x7 v1")
    );

    let mut other = card();
    other["outputs"]["policy_logits"]["shape"] = json!(["batch", 5]);
    assert_eq!(
        check_card(&other, &contract()).unwrap_err().what,
        "card policy_logits shape"
    );
    assert_eq!(
        check_card(&json!({}), &contract()).unwrap_err().what,
        "encoder"
    );
}

#[test]
fn a_cards_game_is_its_game_field_or_its_encoders_prefix() {
    let games = ["pijersi", "abalone", "chomp"];
    assert_eq!(card_game(&card(), &games), Some("chomp"));
    let old = json!({"encoder": {"name": "pijersi-planes", "version": 1}});
    assert_eq!(card_game(&old, &games), Some("pijersi"));
    let unknown = json!({"encoder": {"name": "go-planes", "version": 1}});
    assert_eq!(card_game(&unknown, &games), None);
}
