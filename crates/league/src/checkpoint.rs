//! A league run's directory:
//!
//! ```text
//! config.toml                 the run's settings (as given; only `iterations` may change)
//! checkpoints/iter-NNNN/      model.bpk, network.json (what the network is, for players),
//!                             optimizer.bpk, state.json (iteration, shape, network, pool,
//!                             seconds trained); written to a temporary name, then renamed
//! checkpoints/latest          the newest checkpoint's name
//! pool/iter-NNNN/model.bpk    the snapshots in the opponent pool
//! metrics.jsonl, plots/       one line an iteration; SVG curves
//! ```

use std::path::{Path, PathBuf};

use pjlab_nn::inference::PackedNet;
use pjlab_nn::{NetConfig, NetShape, NetworkFile};
use pjlab_run::dir::{Checkpoints, RunDir};
use serde::{Deserialize, Serialize};

use crate::Error;

/// A checkpoint's `state.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// Iterations done.
    pub iteration: u32,
    /// Input and action sizes.
    pub shape: NetShape,
    /// Hidden width and layers.
    pub network: NetConfig,
    /// Iterations whose snapshot is in the pool (`pool/iter-NNNN/model.bpk`), oldest first.
    pub pool: Vec<u32>,
    /// Seconds of training so far.
    pub elapsed_s: f64,
}

/// The checkpoint directory of iteration `i`.
pub fn checkpoint_dir(run: &Path, i: u32) -> PathBuf {
    RunDir::at(run).checkpoints().dir(i)
}

/// The pool's snapshot directory of iteration `i`.
pub fn snapshot_dir(run: &Path, i: u32) -> PathBuf {
    run.join("pool").join(format!("iter-{i:04}"))
}

/// The newest checkpoint of a run, if any.
pub fn latest(run: &Path) -> Option<PathBuf> {
    let dir = RunDir::at(run).checkpoints().latest().ok()??;
    dir.join("state.json").exists().then_some(dir)
}

/// A checkpoint directory from a path that is one, or a run directory (its newest).
///
/// # Errors
/// When neither.
pub fn resolve(path: &Path) -> Result<PathBuf, Error> {
    Ok(Checkpoints::resolve(path)?)
}

/// Reads a checkpoint's state; `trainer` names the trainer whose checkpoint it should be, for
/// the error.
///
/// # Errors
/// [`Error::Io`] when missing, [`Error::NotTrained`] when not parseable.
pub fn read_state(dir: &Path, trainer: &'static str) -> Result<State, Error> {
    let path = dir.join("state.json");
    let text = std::fs::read_to_string(&path).map_err(Error::io(&path))?;
    serde_json::from_str(&text).map_err(|cause| Error::NotTrained {
        path,
        trainer,
        cause,
    })
}

/// The packed network of a checkpoint (or a run's newest), for fast play.
///
/// # Errors
/// As [`read_state`], and [`Error::Net`] when the network does not load.
pub fn load_packed(path: &Path, trainer: &'static str) -> Result<PackedNet, Error> {
    let dir = resolve(path)?;
    let state = read_state(&dir, trainer)?;
    Ok(pjlab_nn::checkpoint::load_packed(
        &dir,
        &state.network,
        state.shape,
    )?)
}

/// Writes a checkpoint with `write` filling a temporary directory, `network` as its
/// `network.json` and `state` as its `state.json`; renames it into place and points `latest`
/// at it; then removes the older ones beyond `keep` besides the new one (keeping multiples of
/// `keep_every` when it is not 0).
///
/// # Errors
/// [`Error::Io`] or [`Error::Run`] on I/O failures, and `write`'s.
pub fn commit(
    run: &Path,
    state: &State,
    network: &NetworkFile,
    keep: usize,
    keep_every: u32,
    write: impl FnOnce(&Path) -> Result<(), Error>,
) -> Result<(), Error> {
    let checkpoints = RunDir::at(run).checkpoints();
    let keep_every = (keep_every > 0).then_some(keep_every);
    checkpoints.commit(state.iteration, keep + 1, keep_every, |tmp| {
        write(tmp)?;
        network.write(tmp)?;
        let text = serde_json::to_string_pretty(state).expect("a state is JSON");
        std::fs::write(tmp.join("state.json"), text).map_err(Error::io(tmp))
    })
}
