//! `pjlab export` and `pjlab encode`: a trained network for other programs, for any game of the
//! registry.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use burn::tensor::Device;
use pjlab_core::{Encoder, Game, GameKit, SetupVariant};
use pjlab_nn::model::NETWORK_FILE;
use pjlab_nn::{NetworkFile, PolicyValueNet};

use crate::cmd::game::{GameName, PositionArgs, start};

/// Export a checkpoint's network as ONNX, with a JSON model card beside it (`model.onnx` gets
/// `model.json`: input encoding, action table, outputs, training summary).
///
/// The graph uses only `Gemm` and `Relu` (opset 13): any ONNX runtime runs it.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game the network was trained on.
    #[arg(long, value_parser = crate::cmd::game::game_arg(), default_value_t)]
    game: GameName,
    /// A checkpoint directory (with its training state, or its weights and model file
    /// `network.json` alone), or a run directory (its latest checkpoint).
    #[arg(long)]
    checkpoint: PathBuf,
    /// The ONNX file to write.
    #[arg(long, default_value = "model.onnx")]
    out: PathBuf,
}

/// Runs `pjlab export`.
pub fn run(args: Args) -> Result<()> {
    crate::with_game!(args.game, |K| export::<K>(&args))
}

fn export<K: GameKit>(args: &Args) -> Result<()> {
    let device = Device::default();
    let dir = &args.checkpoint;
    let model_only = !dir.join("state.json").exists() && dir.join(NETWORK_FILE).exists();
    let (net, encoder, training) = if model_only {
        model_file::<K>(dir, &device)?
    } else {
        let (net, config) = pjlab_train::checkpoint::load::<K>(dir, &device)?;
        let training = pjlab_train::checkpoint::summary(dir)?;
        (net, K::encoder(&config.game), training)
    };
    let card = pjlab_nn::export::export::<K>(&net, &encoder, training, &args.out)?;
    println!("{}", args.out.display());
    println!("{}", card.display());
    Ok(())
}

/// A checkpoint kept as its weights and model file only (`model.bpk`, `network.json`: what a
/// `net:` player loads, and what a run carried between machines keeps of its older
/// checkpoints): the network, its encoder (from the model file's game table) and the card's
/// training summary, which names the checkpoint and says that its training state is not there.
fn model_file<K: GameKit>(
    dir: &Path,
    device: &Device,
) -> Result<(PolicyValueNet, K::Encoder, serde_json::Value)> {
    let file = NetworkFile::read(dir)?;
    if file.game != K::INFO.name {
        bail!(
            "{}: a network of {}, not of {} (give --game {})",
            dir.display(),
            file.game,
            K::INFO.name,
            file.game
        );
    }
    let table: K::Config = if file.game_config.is_null() {
        K::Config::default()
    } else {
        serde_json::from_value(file.game_config.clone())
            .map_err(|e| anyhow::anyhow!("{}: the model file's game table: {e}", dir.display()))?
    };
    let net = pjlab_nn::checkpoint::load(dir, &file.network, file.shape, device)?;
    let training = serde_json::json!({
        "checkpoint": dir.display().to_string(),
        "encoder": file.encoder,
        "note": "exported from the checkpoint's weights and model file (network.json); its \
                 training state (state.json) is not kept there",
    });
    Ok((net, K::encoder(&table), training))
}

/// Print a position's network input and its legal moves with their action indices, as JSON:
/// what a program using an exported model needs besides the model (see
/// `scripts/onnx_best_move.py`). The position's text is under `psn` whatever the game.
#[derive(clap::Args, Debug)]
pub struct EncodeArgs {
    #[command(flatten)]
    at: PositionArgs,
    /// The network's checkpoint or run directory: the encoder its run used (Chomp: the bar's
    /// size). The encoder of the game table's defaults when absent.
    #[arg(long)]
    checkpoint: Option<PathBuf>,
}

/// Runs `pjlab encode`.
pub fn run_encode(args: EncodeArgs) -> Result<()> {
    crate::with_game!(args.at.game, |K| encode::<K>(&args))
}

fn encode<K: GameKit>(args: &EncodeArgs) -> Result<()> {
    let encoder = match &args.checkpoint {
        Some(path) => {
            let (_, config) = pjlab_train::checkpoint::load::<K>(path, &Device::default())?;
            K::encoder(&config.game)
        }
        None => K::encoder(&K::Config::default()),
    };
    let fits = |p: &K::Game| p.num_actions() == encoder.num_actions();
    let position = match args.at.text() {
        Some(text) => start::<K>(Some(text), None, 0)?,
        None => K::variants()
            .into_iter()
            .map(|v| v.start(0))
            .find(|p| fits(p))
            .map_or_else(|| start::<K>(None, None, 0), Ok)?,
    };
    if !fits(&position) {
        bail!(
            "the position has {} actions, the encoder {} has {}: give a position it encodes \
             (--position) or the network's --checkpoint",
            position.num_actions(),
            encoder.id().name,
            encoder.num_actions()
        );
    }
    let mut input = vec![0.0f32; encoder.input_len()];
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
        "psn": position.to_text(),
        "encoder": encoder.id(),
        "input": input,
        "legal": legal,
    });
    println!("{out}");
    Ok(())
}
