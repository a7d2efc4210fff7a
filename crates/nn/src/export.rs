//! Model export, for any game's kit: the network as an ONNX graph and a JSON model card.
//!
//! Burn writes no ONNX, so the graph is written here for the network's own small set of
//! operators: per trunk layer `Gemm` then `Relu`, then two `Gemm` heads. The protobuf messages
//! below are the subset of `onnx.proto` (IR version 8, opset 13) the graph needs, with the field
//! numbers of the official schema, encoded with `prost`.
//!
//! | name | shape | meaning |
//! |---|---|---|
//! | input `input` | `[batch, input]` float | the encoder's input (Pijersi: 721 values from the side to move's view; see the card) |
//! | output `policy_logits` | `[batch, actions]` float | one logit per dense action in the encoder's view (Pijersi: 3748, the mover's); softmax over the legal ones |
//! | output `wdl_logits` | `[batch, 3]` float | win, draw, loss logits for the side to move |
//!
//! The model card describes the input and the action table as the game's encoder documents
//! them ([`pjlab_core::Encoder::card`]).

use std::path::Path;

use pjlab_core::{Encoder, GameKit};
use prost::Message;
use serde_json::{Map, Value, json};

use crate::Error;
use crate::net::PolicyValueNet;
use crate::proto::{
    Dimension, FLOAT, GraphProto, ModelProto, NodeProto, OperatorSetIdProto,
    StringStringEntryProto, TensorProto, TensorShapeProto, TensorTypeProto, TypeProto,
    ValueInfoProto,
};

/// ONNX IR version written.
pub const IR_VERSION: i64 = 8;
/// ONNX operator set written.
pub const OPSET: i64 = 13;

fn float_input(name: &str, width: usize) -> ValueInfoProto {
    ValueInfoProto {
        name: name.into(),
        r#type: Some(TypeProto {
            tensor_type: Some(TensorTypeProto {
                elem_type: FLOAT,
                shape: Some(TensorShapeProto {
                    dim: vec![
                        Dimension {
                            dim_value: None,
                            dim_param: Some("batch".into()),
                        },
                        Dimension {
                            dim_value: Some(width as i64),
                            dim_param: None,
                        },
                    ],
                }),
            }),
        }),
    }
}

/// The ONNX model of `net`, as bytes; `metadata` goes into the model's metadata properties.
pub fn onnx_bytes(net: &PolicyValueNet, metadata: &[(String, String)]) -> Vec<u8> {
    onnx_model(
        net,
        "policy/value network (pjlab); see the JSON model card",
        metadata,
    )
}

/// [`onnx_bytes`] with the model's `doc_string`.
pub fn onnx_model(net: &PolicyValueNet, doc: &str, metadata: &[(String, String)]) -> Vec<u8> {
    let layers = net.layers();
    let mut nodes = Vec::new();
    let mut initializer = Vec::new();
    let mut x = "input".to_string();
    let trunk = layers.len() - 2;
    for (i, layer) in layers.iter().enumerate() {
        let (w, b) = (format!("layer{i}.weight"), format!("layer{i}.bias"));
        initializer.push(TensorProto {
            dims: vec![layer.inputs as i64, layer.outputs as i64],
            data_type: FLOAT,
            float_data: layer.weight.clone(),
            name: w.clone(),
        });
        initializer.push(TensorProto {
            dims: vec![layer.outputs as i64],
            data_type: FLOAT,
            float_data: layer.bias.clone(),
            name: b.clone(),
        });
        let out = match i {
            _ if i < trunk => format!("layer{i}.linear"),
            _ if i == trunk => "policy_logits".to_string(),
            _ => "wdl_logits".to_string(),
        };
        nodes.push(NodeProto {
            input: vec![x.clone(), w, b],
            output: vec![out.clone()],
            name: format!("gemm{i}"),
            op_type: "Gemm".into(),
        });
        if i < trunk {
            let relu = format!("layer{i}.relu");
            nodes.push(NodeProto {
                input: vec![out],
                output: vec![relu.clone()],
                name: format!("relu{i}"),
                op_type: "Relu".into(),
            });
            x = relu;
        }
    }
    // Both heads read the trunk's last activation (`x` is not advanced past the trunk).
    let input_len = layers[0].inputs;
    let actions = layers[trunk].outputs;
    let model = ModelProto {
        ir_version: IR_VERSION,
        producer_name: "pjlab".into(),
        producer_version: env!("CARGO_PKG_VERSION").into(),
        doc_string: doc.into(),
        graph: Some(GraphProto {
            node: nodes,
            name: "pjlab-policy-value".into(),
            initializer,
            input: vec![float_input("input", input_len)],
            output: vec![
                float_input("policy_logits", actions),
                float_input("wdl_logits", 3),
            ],
        }),
        opset_import: vec![OperatorSetIdProto {
            domain: String::new(),
            version: OPSET,
        }],
        metadata_props: metadata
            .iter()
            .map(|(k, v)| StringStringEntryProto {
                key: k.clone(),
                value: v.clone(),
            })
            .collect(),
    };
    model.encode_to_vec()
}

/// The model card of `net`, a network of the game of kit `K` whose inputs `encoder` builds:
/// how to build the input, what the outputs mean, and how the network was trained (`training`
/// is the checkpoint's own summary). The input's layout and the action table are the encoder's
/// [`Encoder::card`]; empty fields are left out.
pub fn model_card<K: GameKit>(
    net: &PolicyValueNet,
    encoder: &K::Encoder,
    training: Value,
) -> Value {
    let id = encoder.id();
    let card = encoder.card();
    let layers = net.layers();
    let mut input = Map::new();
    input.insert("name".into(), json!("input"));
    input.insert("shape".into(), json!(["batch", encoder.input_len()]));
    let mut text = |key: &str, value: String| {
        if !value.is_empty() {
            input.insert(key.into(), json!(value));
        }
    };
    text("layout", card.layout);
    text("perspective", card.perspective);
    text("scalar", card.scalar);
    text("values", card.values);
    for (key, list) in [("planes", card.planes), ("cells", card.cells)] {
        if !list.is_empty() {
            input.insert(key.into(), json!(list));
        }
    }
    if !card.rotated_cells.is_empty() {
        input.insert("rotated_cells".into(), json!(card.rotated_cells));
    }
    let mut policy = Map::new();
    policy.insert(
        "shape".into(),
        json!(["batch", layers[layers.len() - 2].outputs]),
    );
    policy.insert(
        "meaning".into(),
        json!(
            "a logit per dense action index in the mover's view; mask the illegal actions and \
             take a softmax"
        ),
    );
    if !card.actions_meaning.is_empty() {
        policy.insert("actions".into(), json!(card.actions_meaning));
    }
    json!({
        "format": "onnx",
        "onnx": { "ir_version": IR_VERSION, "opset": OPSET },
        "producer": format!("pjlab {}", env!("CARGO_PKG_VERSION")),
        "game": K::INFO.name,
        "encoder": { "name": id.name, "version": id.version },
        "input": input,
        "outputs": {
            "policy_logits": policy,
            "wdl_logits": {
                "shape": ["batch", 3],
                "meaning": "win, draw, loss logits for the side to move; value = P(win) - P(loss) after a softmax"
            }
        },
        "actions": card.actions,
        "network": {
            "layers": layers.iter().map(|l| json!([l.inputs, l.outputs])).collect::<Vec<_>>(),
            "operators": ["Gemm", "Relu"]
        },
        "training": training
    })
}

/// The game's name as a title: `Pijersi`.
fn title(name: &str) -> String {
    let mut chars = name.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Writes `net`, a network of the game of kit `K` whose inputs `encoder` builds, as ONNX to
/// `path` and its model card beside it (`model.onnx` gets `model.json`); returns the card's
/// path.
///
/// # Errors
/// [`Error::Io`] when a file cannot be written.
pub fn export<K: GameKit>(
    net: &PolicyValueNet,
    encoder: &K::Encoder,
    training: Value,
    path: &Path,
) -> Result<std::path::PathBuf, Error> {
    let card = model_card::<K>(net, encoder, training);
    let metadata = vec![
        ("encoder".to_string(), card["encoder"].to_string()),
        ("producer".to_string(), card["producer"].to_string()),
    ];
    let doc = format!(
        "{} policy/value network (pjlab); see the JSON model card",
        title(K::INFO.name)
    );
    std::fs::write(path, onnx_model(net, &doc, &metadata)).map_err(crate::io_error(path))?;
    let card_path = path.with_extension("json");
    let text = serde_json::to_string_pretty(&card).expect("JSON values serialise");
    std::fs::write(&card_path, text).map_err(crate::io_error(&card_path))?;
    Ok(card_path)
}
