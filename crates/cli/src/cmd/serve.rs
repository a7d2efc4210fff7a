//! `pjlab serve`: the local web app and JSON engine API (see `pjlab-serve`), with every player
//! the binary builds, networks included.

use std::net::IpAddr;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use pjlab_agents::Agent;
use pjlab_core::GameKit;
use pjlab_serve::{Config, Players};

/// Serve a web page to play and analyse against the lab's players, and a JSON engine API.
///
/// Open the printed address in a browser: play Pijersi, Abalone (doubles too) or Chomp against a
/// player of the menu or any agent spec, by clicking the board; watch the engine think; take
/// moves back; analyse a pasted record; download the game as a record `pjlab replay` reads;
/// open the games recorded under `--runs`. The API (`/api/v1/...`) is described in the README.
/// The server listens on loopback unless `--host` says otherwise.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The address to listen on; anything but loopback lets other machines use the engine.
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// The port (0: any free port, printed at start).
    #[arg(long, default_value_t = 8040)]
    port: u16,
    /// A directory whose recorded games (runs' Parquet games, games.txt, records) the page may
    /// open; no file outside it is read.
    #[arg(long)]
    runs: Option<PathBuf>,
    /// Search workers, at most one search each at a time (default: one per core).
    #[arg(long)]
    workers: Option<usize>,
    /// Searches that may wait for a worker; more are refused with 503.
    #[arg(long, default_value_t = 64)]
    queue: usize,
    /// A player for the page's menu, as LABEL=SPEC (repeatable), e.g.
    /// `--player "learned alpha-beta=alphabeta:eval=nnue:net.nnue"` or
    /// `--player "MCTS network=net:checkpoint=runs/pijersi,sims=400"`.
    #[arg(long = "player", value_name = "LABEL=SPEC")]
    players: Vec<String>,
}

/// Every player the binary builds by spec.
struct AllPlayers;

impl Players for AllPlayers {
    fn build<K: GameKit>(&self, spec: &str, seed: u64) -> Result<Box<dyn Agent<K::Game>>, String> {
        crate::cmd::agent::<K>(spec, seed).map_err(|e| format!("{e:#}"))
    }
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let mut config = Config {
        host: args.host,
        port: args.port,
        runs: args.runs,
        queue: args.queue,
        ..Config::default()
    };
    if let Some(w) = args.workers {
        if w == 0 {
            bail!("--workers must be at least 1");
        }
        config.workers = w;
    }
    for entry in &args.players {
        let Some((label, spec)) = entry.split_once('=') else {
            bail!("--player {entry}: LABEL=SPEC");
        };
        config
            .menu
            .push((label.trim().to_string(), spec.trim().to_string()));
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(pjlab_serve::serve(config, AllPlayers))?;
    Ok(())
}
