//! A Chifoumi training run's directory, the league's ([`pjlab_league::checkpoint`]):
//! `config.toml`, `checkpoints/iter-NNNN/` (model, `network.json`, optimizer, `state.json`),
//! `checkpoints/latest`, the pool's snapshots under `pool/`, `metrics.jsonl` and `plots/`.

use std::path::Path;

use pjlab_nn::inference::PackedNet;

pub use pjlab_league::checkpoint::{State, checkpoint_dir, latest, resolve};

use crate::Error;

/// The trainer of Chifoumi's checkpoints, as an error about another one names it.
pub const TRAINER: &str =
    "`pjlab chifoumi train` (a board game's network of `pjlab train` plays only its game)";

/// Reads a checkpoint's state.
///
/// # Errors
/// [`pjlab_league::Error::Io`] when missing, [`pjlab_league::Error::NotTrained`] when not
/// parseable.
pub fn read_state(dir: &Path) -> Result<State, Error> {
    Ok(pjlab_league::checkpoint::read_state(dir, TRAINER)?)
}

/// The packed network of a checkpoint (or a run's newest), for fast play.
///
/// # Errors
/// As [`read_state`], and [`pjlab_league::Error::Net`] when the network does not load.
pub fn load_packed(path: &Path) -> Result<PackedNet, Error> {
    Ok(pjlab_league::checkpoint::load_packed(path, TRAINER)?)
}
