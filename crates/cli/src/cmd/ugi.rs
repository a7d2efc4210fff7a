//! `pjlab ugi`: the lab's engine over the UGI protocol on stdin / stdout (see `pjlab-ugi`).

use std::sync::{Arc, Mutex};

use anyhow::Result;
use pjlab_agents::Agent;
use pjlab_core::GameKit;
use pjlab_ugi::{EngineOptions, Output, ScoreFormat};

use crate::cmd::game::GameName;

/// Run as a UGI engine on stdin / stdout, for GUIs and match runners.
///
/// Options (`setoption name X value Y`, or `setoption X Y`): `Engine` (alphabeta or mcts),
/// `Hash` (alpha-beta table, MiB), `Simulations` (MCTS, a move), `Checkpoint` (a training
/// checkpoint or run directory of this game, or a model file from `pjlab export` ending in
/// `.onnx`: MCTS with that network instead of random rollouts), `Threads` (1), `ScoreFormat`
/// (ugi or natsel, as `--score-format`). `go manual <move>` plays a move, as Natural Selection
/// does. Bad input answers `info error ...` and changes nothing; end of input ends the session.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game.
    #[arg(long, value_parser = crate::cmd::game::game_arg(), default_value_t)]
    game: GameName,
    /// How `info` lines print scores: `ugi` (`score cp N`, `score mate N`), or `natsel`, Natural
    /// Selection's bare integer with strictly increasing depths, which pijersi-certu reads.
    #[arg(long, default_value_t = ScoreFormat::Ugi)]
    score_format: ScoreFormat,
}

/// Builds the agent the options name: the agents of `pjlab-agents`, and network agents.
fn factory<K: GameKit>(
    options: &EngineOptions,
) -> Result<Box<dyn Agent<K::Game>>, pjlab_core::BoxError> {
    crate::cmd::agent::<K>(&options.spec(), 0).map_err(|e| format!("{e:#}").into())
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let options = EngineOptions {
        score_format: args.score_format,
        ..EngineOptions::default()
    };
    crate::with_game!(args.game, |K| session::<K>(options));
    Ok(())
}

/// A session on stdin / stdout.
fn session<K: GameKit>(options: EngineOptions) {
    let out: Output = Arc::new(Mutex::new(Box::new(std::io::stdout())));
    let name = format!("pjlab {}", env!("CARGO_PKG_VERSION"));
    pjlab_ugi::run_with::<K>(std::io::stdin().lock(), out, &factory::<K>, &name, options);
}
