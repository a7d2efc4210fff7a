//! What a policy/value model must take and give to play a game: the names and shapes of the
//! model card that [`crate::export`] writes, checked against any ONNX model, the lab's own or a
//! foreign one (trained elsewhere, written by another exporter), and against the card beside it.
//!
//! | name | shape | meaning |
//! |---|---|---|
//! | input [`INPUT`] | `[batch, input_len]` float | the game encoder's input |
//! | output [`POLICY`] | `[batch, actions]` float | a logit per dense action, in the encoder's view |
//! | output [`WDL`] | `[batch, 3]` float | win, draw, loss logits for the side to move |
//!
//! The batch dimension may be symbolic or a number; the other dimensions must be the
//! encoder's. Further outputs are allowed and ignored; a graph input that is also an
//! initializer (older exporters list weights as inputs) is a weight, not an input. Nothing here
//! runs a model: [`crate::onnx`] (feature `onnx-runtime`) loads one after these checks.

use std::path::{Path, PathBuf};

use pjlab_core::{Encoder, EncoderId, Game};
use prost::Message;
use serde_json::Value;

use crate::Error;
use crate::proto::{FLOAT, ModelProto, ValueInfoProto};

/// The input's name.
pub const INPUT: &str = "input";
/// The policy output's name.
pub const POLICY: &str = "policy_logits";
/// The win/draw/loss output's name.
pub const WDL: &str = "wdl_logits";

/// What a network of one game and encoder takes and gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contract {
    /// The game's registry name (`pijersi`), when known.
    pub game: Option<String>,
    /// The encoder's name and version.
    pub encoder: EncoderId,
    /// Values in one input row.
    pub input_len: usize,
    /// Policy logits in one output row.
    pub actions: usize,
}

impl Contract {
    /// The contract of `encoder`'s networks, for the game named `game`.
    pub fn of<G: Game, E: Encoder<G>>(game: Option<&str>, encoder: &E) -> Contract {
        Contract {
            game: game.map(str::to_string),
            encoder: encoder.id(),
            input_len: encoder.input_len(),
            actions: encoder.num_actions(),
        }
    }
}

/// One way a model or its card differs from the contract: what, what was expected, what was
/// found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what}: expected {expected}, found {found}")]
pub struct Mismatch {
    /// The part that differs (`input name`, `policy_logits shape`, ...).
    pub what: String,
    /// What the contract says.
    pub expected: String,
    /// What the model or card has.
    pub found: String,
}

fn mismatch(what: &str, expected: impl Into<String>, found: impl Into<String>) -> Mismatch {
    Mismatch {
        what: what.into(),
        expected: expected.into(),
        found: found.into(),
    }
}

/// Where a graph's two outputs are, by position among its outputs (the order a runtime returns
/// them in).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutputIndices {
    /// Position of [`POLICY`].
    pub policy: usize,
    /// Position of [`WDL`].
    pub wdl: usize,
}

/// A value's element type and dimensions as declared, `None` where the graph leaves them out;
/// a dimension is a number or a symbol.
fn declared(info: &ValueInfoProto) -> (Option<i32>, Option<Vec<Result<i64, String>>>) {
    let Some(tensor) = info.r#type.as_ref().and_then(|t| t.tensor_type.as_ref()) else {
        return (None, None);
    };
    let dims = tensor.shape.as_ref().map(|s| {
        s.dim
            .iter()
            .map(|d| match (d.dim_value, &d.dim_param) {
                (Some(v), _) => Ok(v),
                (None, Some(p)) if !p.is_empty() => Err(p.clone()),
                _ => Err("?".to_string()),
            })
            .collect()
    });
    (Some(tensor.elem_type), dims)
}

fn shape_text(dims: &[Result<i64, String>]) -> String {
    let parts: Vec<String> = dims
        .iter()
        .map(|d| match d {
            Ok(v) => v.to_string(),
            Err(p) => p.clone(),
        })
        .collect();
    format!("[{}]", parts.join(", "))
}

/// Checks one declared value: a float tensor of shape `[batch, width]` where it says.
fn check_value(info: &ValueInfoProto, width: usize) -> Result<(), Mismatch> {
    let (elem, dims) = declared(info);
    let name = &info.name;
    if let Some(elem) = elem.filter(|&e| e != FLOAT && e != 0) {
        return Err(mismatch(
            &format!("{name} element type"),
            "float32 (1)",
            format!("ONNX data type {elem}"),
        ));
    }
    if let Some(dims) = dims {
        let fits = dims.len() == 2 && dims[1].as_ref().map_or(true, |&v| v == width as i64);
        if !fits {
            return Err(mismatch(
                &format!("{name} shape"),
                format!("[batch, {width}]"),
                shape_text(&dims),
            ));
        }
    }
    Ok(())
}

fn quoted(names: &[&str]) -> String {
    if names.is_empty() {
        "none".into()
    } else {
        names
            .iter()
            .map(|n| format!("{n:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Checks an ONNX model's bytes against `contract`: one input named [`INPUT`] of
/// `[batch, input_len]`, outputs [`POLICY`] of `[batch, actions]` and [`WDL`] of `[batch, 3]`
/// (float, where the graph declares types and shapes). Returns where the two outputs are.
///
/// # Errors
/// The first [`Mismatch`] found; bytes that are no ONNX model are one too.
pub fn check_graph(bytes: &[u8], contract: &Contract) -> Result<OutputIndices, Mismatch> {
    let model = ModelProto::decode(bytes)
        .map_err(|e| mismatch("file", "an ONNX model", format!("undecodable bytes ({e})")))?;
    let graph = model
        .graph
        .ok_or_else(|| mismatch("graph", "an ONNX graph", "a model without a graph"))?;
    let weights: Vec<&str> = graph.initializer.iter().map(|t| t.name.as_str()).collect();
    let inputs: Vec<&ValueInfoProto> = graph
        .input
        .iter()
        .filter(|i| !weights.contains(&i.name.as_str()))
        .collect();
    let names: Vec<&str> = inputs.iter().map(|i| i.name.as_str()).collect();
    match inputs.as_slice() {
        [one] if one.name == INPUT => check_value(one, contract.input_len)?,
        [one] => {
            return Err(mismatch(
                "input name",
                format!("{INPUT:?}"),
                format!("{:?}", one.name),
            ));
        }
        _ => {
            return Err(mismatch(
                "inputs",
                format!("one input {INPUT:?}"),
                format!("{} ({})", names.len(), quoted(&names)),
            ));
        }
    }
    let outputs: Vec<&str> = graph.output.iter().map(|o| o.name.as_str()).collect();
    let find = |name: &str, width: usize| -> Result<usize, Mismatch> {
        let at = outputs.iter().position(|&o| o == name).ok_or_else(|| {
            mismatch(
                "outputs",
                format!("{POLICY:?} and {WDL:?}"),
                format!("{} (no {name:?})", quoted(&outputs)),
            )
        })?;
        check_value(&graph.output[at], width)?;
        Ok(at)
    };
    Ok(OutputIndices {
        policy: find(POLICY, contract.actions)?,
        wdl: find(WDL, 3)?,
    })
}

/// The width of an ONNX model's input as its graph declares it (`[batch, width]`): the
/// graph's one input that is no weight, when the bytes decode and the width is a number.
pub fn declared_input_width(bytes: &[u8]) -> Option<usize> {
    let graph = ModelProto::decode(bytes).ok()?.graph?;
    let mut inputs = graph
        .input
        .iter()
        .filter(|i| graph.initializer.iter().all(|t| t.name != i.name));
    let (Some(input), None) = (inputs.next(), inputs.next()) else {
        return None;
    };
    match declared(input).1?.as_slice() {
        [_, Ok(width)] => usize::try_from(*width).ok(),
        _ => None,
    }
}

/// The card beside the model `model` (`model.onnx` has `model.json`).
pub fn card_path(model: &Path) -> PathBuf {
    model.with_extension("json")
}

/// The card beside the model `model`, parsed, if there is one.
///
/// # Errors
/// [`Error::Io`] when the card exists but cannot be read, [`Error::Json`] when it is no JSON.
pub fn read_card(model: &Path) -> Result<Option<Value>, Error> {
    let path = card_path(model);
    match std::fs::read_to_string(&path) {
        Ok(text) => serde_json::from_str(&text)
            .map(Some)
            .map_err(crate::json_error(&path)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(cause) => Err(crate::io_error(&path)(cause)),
    }
}

/// The game a card names: its `game`, or for older cards the game its encoder's name starts
/// with (`pijersi-planes`: `pijersi`), among `games`.
pub fn card_game<'a>(card: &Value, games: &[&'a str]) -> Option<&'a str> {
    if let Some(name) = card["game"].as_str() {
        return games.iter().copied().find(|&g| g == name);
    }
    let encoder = card["encoder"]["name"].as_str()?;
    games.iter().copied().find(|&g| {
        encoder == g
            || encoder
                .strip_prefix(g)
                .is_some_and(|rest| rest.starts_with('-'))
    })
}

/// The second dimension of a card's `[batch, n]` shape at `shape`, if it is a number.
fn card_width(shape: &Value) -> Option<u64> {
    shape.as_array().filter(|s| s.len() == 2)?[1].as_u64()
}

/// Checks a model card against `contract`: its game (when both name one), its encoder's name
/// and version, and the input's name and the shapes it states (a card may leave any of these
/// out but the encoder).
///
/// # Errors
/// The first [`Mismatch`].
pub fn check_card(card: &Value, contract: &Contract) -> Result<(), Mismatch> {
    if let (Some(found), Some(game)) = (card["game"].as_str(), &contract.game)
        && found != game
    {
        return Err(mismatch("game", game.as_str(), found));
    }
    let encoder = &card["encoder"];
    let (name, version) = (encoder["name"].as_str(), encoder["version"].as_u64());
    let expected = format!("{} v{}", contract.encoder.name, contract.encoder.version);
    match (name, version) {
        (Some(n), Some(v))
            if n == contract.encoder.name && v == u64::from(contract.encoder.version) => {}
        (Some(n), Some(v)) => return Err(mismatch("encoder", expected, format!("{n} v{v}"))),
        _ => return Err(mismatch("encoder", expected, "no encoder name and version")),
    }
    let input = &card["input"];
    if let Some(name) = input["name"].as_str()
        && name != INPUT
    {
        return Err(mismatch(
            "card input name",
            format!("{INPUT:?}"),
            format!("{name:?}"),
        ));
    }
    let widths = [
        ("card input shape", &input["shape"], contract.input_len),
        (
            "card policy_logits shape",
            &card["outputs"][POLICY]["shape"],
            contract.actions,
        ),
        ("card wdl_logits shape", &card["outputs"][WDL]["shape"], 3),
    ];
    for (what, shape, width) in widths {
        if shape.is_null() {
            continue;
        }
        if card_width(shape) != Some(width as u64) {
            return Err(mismatch(
                what,
                format!("[\"batch\", {width}]"),
                shape.to_string(),
            ));
        }
    }
    Ok(())
}

/// Reads the model file at `path` and checks it and its card (if any) against `contract`;
/// returns its bytes and where its outputs are.
///
/// # Errors
/// [`Error::Io`] when the file cannot be read, [`Error::Mismatch`] when the model or
/// its card does not fit.
pub fn read_checked(path: &Path, contract: &Contract) -> Result<(Vec<u8>, OutputIndices), Error> {
    let bytes = std::fs::read(path).map_err(crate::io_error(path))?;
    let subject = contract
        .game
        .as_deref()
        .unwrap_or(&contract.encoder.name)
        .to_string();
    if let Some(card) = read_card(path)? {
        check_card(&card, contract).map_err(|mismatch| Error::Mismatch {
            path: card_path(path).display().to_string(),
            subject: subject.clone(),
            mismatch,
        })?;
    }
    let outputs = check_graph(&bytes, contract).map_err(|mismatch| Error::Mismatch {
        path: path.display().to_string(),
        subject,
        mismatch,
    })?;
    Ok((bytes, outputs))
}

#[cfg(test)]
mod tests;
