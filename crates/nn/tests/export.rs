//! The ONNX export, run by a pure-Rust ONNX runtime (tract), matches the Burn network, and the
//! model card's action table matches the encoder (Pijersi and Abalone).

use burn::tensor::{Device, Tensor, TensorData};
use pjlab_abalone::{AbaloneEncoder, AbaloneKit};
use pjlab_core::{Encoder, Game, GameKit, SetupVariant};
use pjlab_nn::export::{model_card, onnx_bytes};
use pjlab_nn::{NetConfig, NetShape, PolicyValueNet};
use pjlab_pijersi::{PijersiEncoder, PijersiKit, Position, Variant};
use tract_onnx::prelude::*;

/// Positions with either side to move, stacks and captures: random setups played on a little.
fn sample_positions() -> Vec<Position> {
    let mut out = vec![Position::default()];
    let mut moves = Vec::new();
    for seed in 0..7u64 {
        let mut p = Variant::FullRandom.setup(seed);
        for k in 0..(seed as usize * 3) {
            p.legal_moves(&mut moves);
            if moves.is_empty() || p.outcome().is_some() {
                break;
            }
            p.play_unchecked(moves[(k * 7 + seed as usize) % moves.len()]);
        }
        out.push(p);
    }
    out
}

/// A freshly initialised Pijersi network of `layers` hidden layers of `hidden` units.
fn network(hidden: usize, layers: usize, seed: u64) -> (PolicyValueNet, NetShape, Device) {
    let device = Device::default();
    let shape = NetShape {
        input: PijersiEncoder::INPUT_LEN,
        actions: Encoder::<Position>::num_actions(&PijersiEncoder),
    };
    let net = PolicyValueNet::new(&NetConfig { hidden, layers }, shape, &device, seed);
    (net, shape, device)
}

#[test]
fn onnx_runs_in_tract_and_matches_burn_within_1e4() {
    let (net, shape, device) = network(48, 2, 11);
    let encoder = PijersiEncoder;
    let positions = sample_positions();
    let n = positions.len();
    let mut input = vec![0.0f32; n * shape.input];
    for (i, p) in positions.iter().enumerate() {
        encoder.encode(p, &mut input[i * shape.input..(i + 1) * shape.input]);
    }
    let (policy, wdl) = net.forward(Tensor::from_data(
        TensorData::new(input.clone(), [n, shape.input]),
        &device,
    ));
    let policy = policy.into_data().try_into_vec::<f32>().unwrap();
    let wdl = wdl.into_data().try_into_vec::<f32>().unwrap();

    let bytes = onnx_bytes(&net, &[("k".into(), "v".into())]);
    let plan = tract_onnx::onnx()
        .model_for_read(&mut bytes.as_slice())
        .unwrap()
        .with_input_fact(0, f32::fact([n, shape.input]).into())
        .unwrap()
        .into_optimized()
        .unwrap()
        .into_runnable()
        .unwrap();
    let x = tract_ndarray::Array2::from_shape_vec((n, shape.input), input).unwrap();
    let outputs = plan
        .run(tvec!(tract_onnx::prelude::Tensor::from(x).into()))
        .unwrap();
    let onnx_policy: Vec<f32> = outputs[0]
        .to_array_view::<f32>()
        .unwrap()
        .iter()
        .copied()
        .collect();
    let onnx_wdl: Vec<f32> = outputs[1]
        .to_array_view::<f32>()
        .unwrap()
        .iter()
        .copied()
        .collect();
    assert_eq!(onnx_policy.len(), policy.len());
    assert_eq!(onnx_wdl.len(), wdl.len());
    let worst = |a: &[f32], b: &[f32]| {
        a.iter()
            .zip(b)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f32::max)
    };
    assert!(
        worst(&policy, &onnx_policy) < 1e-4,
        "{}",
        worst(&policy, &onnx_policy)
    );
    assert!(worst(&wdl, &onnx_wdl) < 1e-4, "{}", worst(&wdl, &onnx_wdl));
    // The outputs are not trivially equal (the network is not constant).
    assert!(policy.iter().any(|&v| (v - policy[0]).abs() > 1e-3));
}

#[test]
fn the_model_card_action_table_matches_the_encoder_for_both_sides() {
    let (net, shape, _) = network(8, 1, 1);
    let encoder = PijersiEncoder;
    let card = model_card::<PijersiKit>(&net, &PijersiEncoder, serde_json::json!({}));
    let actions: Vec<String> = card["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect();
    let cells: Vec<String> = card["input"]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    let rotated: Vec<usize> = card["input"]["rotated_cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap() as usize)
        .collect();
    assert_eq!(actions.len(), shape.actions);
    assert_eq!(cells.len(), 45);
    // Rotating a move string cell by cell, as the card says to for Black.
    let rotate = |text: &str| -> String {
        text.as_bytes()
            .chunks(2)
            .map(|c| {
                let name = std::str::from_utf8(c).unwrap();
                let i = cells.iter().position(|x| x == name).unwrap();
                cells[rotated[i]].clone()
            })
            .collect()
    };
    let mut moves = Vec::new();
    let mut checked = [0usize; 2];
    for p in sample_positions() {
        p.legal_moves(&mut moves);
        let white = Game::side_to_move(&p) == pjlab_core::Side::First;
        for &mv in &moves {
            let index = encoder.policy_index(&p, p.action_index(mv));
            let text = p.move_to_text(mv);
            let expected = if white { text } else { rotate(&text) };
            assert_eq!(actions[index], expected, "{p}");
            checked[usize::from(!white)] += 1;
        }
    }
    assert!(checked[0] > 100 && checked[1] > 100, "{checked:?}");
}

/// The card's strings: `card[key]` (or `card["input"][key]`) as a list.
fn strings(value: &serde_json::Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_abalone_model_card_action_table_matches_the_encoder_for_both_colours() {
    let encoder = AbaloneEncoder;
    let shape = NetShape {
        input: AbaloneEncoder::INPUT_LEN,
        actions: Encoder::<pjlab_abalone::Position>::num_actions(&encoder),
    };
    let net = PolicyValueNet::new(
        &NetConfig {
            hidden: 8,
            layers: 1,
        },
        shape,
        &Device::default(),
        1,
    );
    let card = model_card::<AbaloneKit>(&net, &encoder, serde_json::json!({"iteration": 1}));
    assert_eq!(card["encoder"]["name"], "abalone-planes");
    assert_eq!(card["input"]["shape"][1], 433);
    assert_eq!(card["training"]["iteration"], 1);
    let actions = strings(&card["actions"]);
    let cells = strings(&card["input"]["cells"]);
    let rotated: Vec<usize> = card["input"]["rotated_cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap() as usize)
        .collect();
    assert_eq!(actions.len(), shape.actions);
    assert_eq!((cells.len(), rotated.len()), (61, 61));
    // Each cell of a move text turned half a turn, as the card says to with White to move.
    let rotate = |text: &str| -> String {
        if text == "pass" {
            return text.into();
        }
        text.as_bytes()
            .chunks(2)
            .map(|c| {
                let name = std::str::from_utf8(c).unwrap();
                cells[rotated[cells.iter().position(|x| x == name).unwrap()]].clone()
            })
            .collect()
    };
    let mut moves = Vec::new();
    let mut checked = [0usize; 2];
    for (k, variant) in ["belgian-daisy", "standard", "doubles"]
        .into_iter()
        .enumerate()
    {
        let mut p = SetupVariant::start(AbaloneKit::variant(variant).unwrap(), 0);
        for ply in 0..24 {
            p.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let first = Game::side_to_move(&p) == pjlab_core::Side::First;
            for &mv in &moves {
                let text = &actions[encoder.policy_index(&p, p.action_index(mv))];
                let text = if first { text.clone() } else { rotate(text) };
                assert_eq!(
                    Game::parse_move(&p, &text).ok(),
                    Some(mv),
                    "{text} in {}",
                    p.to_text()
                );
                checked[usize::from(!first)] += 1;
            }
            p.play_unchecked(moves[(ply * 7 + k) % moves.len()]);
        }
    }
    assert!(checked[0] > 1000 && checked[1] > 1000, "{checked:?}");
}
