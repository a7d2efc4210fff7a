//! `pjlab selfplay`: a self-play actor of a distributed training run.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use pjlab_core::GameKit;
use pjlab_train::roles::actor::{ActorOptions, Stopped, self_play_actor, wait_for_config};

use crate::Verbosity;
use crate::cmd::game::GameName;

/// Play self-play games for a learner (`pjlab train --run DIR --learner`): load the run's newest
/// checkpoint, play a batch of games in lock-step, write it as a new Parquet chunk under
/// DIR/games (with its positions under DIR/positions), pick up a newer checkpoint, and again,
/// until the learner has written its last iteration.
///
/// Give each actor of a run its own --actor number: its chunks are named by it
/// (`a001-000017.parquet`), never overwritten, and a second process with the same number is
/// refused. Ctrl-C (or SIGTERM) finishes and writes the batch in progress, then stops; a second
/// one quits at once, dropping that batch. The run's config.toml (written by the learner) sets
/// the game, the search and the batch size.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The run directory the learner trains in (local, or a filesystem every node mounts).
    #[arg(long, value_name = "DIR")]
    run: PathBuf,
    /// This actor's number, unique among the run's actors.
    #[arg(long, default_value_t = 1, value_name = "K")]
    actor: u32,
    /// Games a batch (one chunk); the run's games_per_iteration by default.
    #[arg(long, value_name = "N")]
    games: Option<usize>,
    /// Lock-step workers (threads); the run's `workers` by default.
    #[arg(long, value_name = "N")]
    workers: Option<usize>,
    /// Stop after this many batches (by default, when the learner has finished).
    #[arg(long, value_name = "N")]
    batches: Option<u64>,
    /// This actor's games written but not yet taken by the learner beyond which it waits (so
    /// that fast actors do not feed the learner stale games); games_per_iteration by default.
    #[arg(long, value_name = "GAMES")]
    max_pending: Option<usize>,
    /// Seconds to wait for the learner's config.toml and first checkpoint.
    #[arg(long, default_value_t = 120.0, value_name = "SECONDS")]
    wait: f64,
}

/// Runs the command: the run's config.toml (once the learner has written it) picks the game.
pub fn run(args: Args, verbosity: Verbosity) -> Result<()> {
    crate::cmd::install_stop_signal("the batch in progress is finished and written first");
    if !args.wait.is_finite() || args.wait < 0.0 {
        anyhow::bail!("--wait must be a number of seconds, got {}", args.wait);
    }
    let options = ActorOptions {
        run: args.run.clone(),
        actor: args.actor,
        games: args.games,
        workers: args.workers,
        batches: args.batches,
        max_pending: args.max_pending,
        wait: Duration::from_secs_f64(args.wait),
        progress: crate::bars::Bars::reporter(verbosity != Verbosity::Quiet),
        provenance: crate::cmd::provenance(),
    };
    // The game is known once the learner has written the configuration.
    let Some(text) = wait_for_config(&args.run, options.wait, &crate::cmd::STOP)? else {
        return Ok(());
    };
    let game = match pjlab_train::config::game_name(&text) {
        Ok(Some(game)) => GameName::parse(&game)?,
        Ok(None) | Err(_) => GameName::default(),
    };
    crate::with_game!(game, |K| run_game::<K>(&options))
}

fn run_game<K: GameKit>(options: &ActorOptions) -> Result<()> {
    let summary = self_play_actor::<K>(options, &crate::cmd::STOP)?;
    let why = match summary.stopped {
        Stopped::RunFinished => "the learner has finished",
        Stopped::Batches => "the batches asked for are played",
        Stopped::Signal => "stopped by a signal",
    };
    println!(
        "actor {}: {} batches, {} games, {} positions ({why})",
        options.actor, summary.batches, summary.games, summary.positions
    );
    Ok(())
}
