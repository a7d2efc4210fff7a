//! `pjlab export` and `pjlab encode`: a trained network for other programs.

use std::path::PathBuf;

use anyhow::{Result, bail};
use burn::tensor::Device;
use pjlab_core::Game;
use pjlab_pijersi::Position;
use pjlab_selfplay::{Encoder, PijersiEncoder};

/// Export a checkpoint's network as ONNX, with a JSON model card beside it (`model.onnx` gets
/// `model.json`: input encoding, action table, outputs, training summary).
///
/// The graph uses only `Gemm` and `Relu` (opset 13): any ONNX runtime runs it.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A checkpoint directory, or a run directory (its latest checkpoint).
    #[arg(long)]
    checkpoint: PathBuf,
    /// The ONNX file to write.
    #[arg(long, default_value = "model.onnx")]
    out: PathBuf,
}

/// Runs `pjlab export`.
pub fn run(args: Args) -> Result<()> {
    let device = Device::default();
    let (net, config) = pjlab_train::run::load_checkpoint(&args.checkpoint, &device)?;
    if config.game != pjlab_train::GameKind::Pijersi {
        bail!(
            "{} holds a {:?} network; only Pijersi networks are exported",
            args.checkpoint.display(),
            config.game
        );
    }
    let training = pjlab_train::run::checkpoint_summary(&args.checkpoint)?;
    let card = pjlab_train::export::export(&net, training, &args.out)?;
    println!("{}", args.out.display());
    println!("{}", card.display());
    Ok(())
}

/// Print a position's network input and its legal moves with their action indices, as JSON:
/// what a program using an exported model needs besides the model (see
/// `scripts/onnx_best_move.py`).
#[derive(clap::Args, Debug)]
pub struct EncodeArgs {
    /// The position (PSN); the classic start when absent.
    #[arg(long)]
    psn: Option<String>,
}

/// Runs `pjlab encode`.
pub fn run_encode(args: EncodeArgs) -> Result<()> {
    let position = match &args.psn {
        Some(psn) => Position::from_psn(psn)?,
        None => Position::default(),
    };
    let encoder = PijersiEncoder;
    let mut input = vec![0.0f32; PijersiEncoder::INPUT_LEN];
    encoder.encode(&position, &mut input);
    let mut moves = Vec::new();
    if position.outcome().is_none() {
        position.legal_moves(&mut moves);
    }
    let legal: Vec<serde_json::Value> = moves
        .iter()
        .map(|&mv| {
            serde_json::json!({
                "move": position.move_to_text(mv),
                "action": encoder.policy_index(&position, position.action_index(mv)),
            })
        })
        .collect();
    let out = serde_json::json!({
        "psn": position.to_string(),
        "encoder": Encoder::<Position>::id(&encoder),
        "input": input,
        "legal": legal,
    });
    println!("{out}");
    Ok(())
}
