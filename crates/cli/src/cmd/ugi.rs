//! `pjlab ugi`: the lab's engine over the UGI protocol on stdin / stdout (see `pjlab-ugi`).

use std::path::Path;
use std::sync::{Arc, Mutex};

use anyhow::Result;
use burn::tensor::Device;
use pjlab_core::GameKit;
use pjlab_mcts::Decisive;
use pjlab_pijersi::{PijersiEncoder, PijersiKit, Position};
use pjlab_train::NetEvaluator;
use pjlab_ugi::{EngineKind, EngineOptions, MctsSearcher, Output, Searcher, builtin_searcher};

use crate::cmd::game::GameName;

/// Run as a UGI engine on stdin / stdout, for GUIs and match runners.
///
/// Options (`setoption name X value Y`, or `setoption X Y`): `Engine` (alphabeta or mcts),
/// `Hash` (alpha-beta table, MiB), `Simulations` (MCTS, a move), `Checkpoint` (a training
/// checkpoint or run directory, or a model file from `pjlab export` ending in `.onnx`: MCTS with
/// that network instead of random rollouts), `Threads` (1). Bad input answers `info error ...` and changes nothing; end of input ends the session.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game (networks from checkpoints: Pijersi so far).
    #[arg(long, value_enum, default_value_t)]
    game: GameName,
}

/// Builds the searcher the options ask for, loading networks for MCTS with a checkpoint.
pub fn factory(
    options: &EngineOptions,
) -> std::result::Result<Box<dyn Searcher<Position>>, String> {
    if options.engine != EngineKind::Mcts || options.checkpoint.is_empty() {
        return builtin_searcher::<PijersiKit>(options);
    }
    if options.checkpoint.ends_with(".onnx") {
        let evaluator = pjlab_train::onnx::OnnxEvaluator::<Position, _>::load(
            Path::new(&options.checkpoint),
            PijersiEncoder,
        )
        .map_err(|e| e.to_string())?;
        return Ok(Box::new(MctsSearcher::new(
            Box::new(Decisive::new(evaluator)),
            options.simulations,
        )));
    }
    let device = Device::default();
    // Refuses networks of other games.
    let (model, _) =
        pjlab_train::checkpoint::load::<PijersiKit>(Path::new(&options.checkpoint), &device)
            .map_err(|e| e.to_string())?;
    let evaluator = Decisive::new(NetEvaluator::new(&model, &device, PijersiEncoder, 50_000));
    Ok(Box::new(MctsSearcher::new(
        Box::new(evaluator),
        options.simulations,
    )))
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    if args.game == GameName::Pijersi {
        session::<PijersiKit>(&factory);
        return Ok(());
    }
    crate::with_game!(args.game, |K, _agents| session::<K>(&builtin_searcher::<K>));
    Ok(())
}

/// A session on stdin / stdout.
fn session<K: GameKit>(factory: &pjlab_ugi::Factory<K::Game>) {
    let out: Output = Arc::new(Mutex::new(Box::new(std::io::stdout())));
    let name = format!("pjlab {}", env!("CARGO_PKG_VERSION"));
    pjlab_ugi::run::<K>(std::io::stdin().lock(), out, factory, &name);
}
