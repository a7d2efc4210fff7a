//! A training run's directory:
//!
//! ```text
//! config.toml                 the run's settings (as given; only `iterations` may change)
//! checkpoints/iter-NNNN/      model.bpk, optimizer.bpk, state.json (iteration, shape, network,
//!                             pool, seconds trained); written to a temporary name, then renamed
//! checkpoints/latest          the newest checkpoint's name
//! pool/iter-NNNN/model.bpk    the snapshots in the opponent pool
//! metrics.jsonl, plots/       one line an iteration; SVG curves
//! ```

use std::path::{Path, PathBuf};

use pjlab_train::inference::PackedNet;
use pjlab_train::net::{NetConfig, NetShape};
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::learner::load_model;

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

fn io(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |e| Error::Checkpoint(format!("{}: {e}", path.display()))
}

/// The checkpoint directory of iteration `i`.
pub fn checkpoint_dir(run: &Path, i: u32) -> PathBuf {
    run.join("checkpoints").join(format!("iter-{i:04}"))
}

/// The newest checkpoint of a run, if any.
pub fn latest(run: &Path) -> Option<PathBuf> {
    let name = std::fs::read_to_string(run.join("checkpoints/latest")).ok()?;
    let dir = run.join("checkpoints").join(name.trim());
    dir.join("state.json").exists().then_some(dir)
}

/// A checkpoint directory from a path that is one, or a run directory (its newest).
///
/// # Errors
/// [`Error::Checkpoint`] when neither.
pub fn resolve(path: &Path) -> Result<PathBuf, Error> {
    if path.join("state.json").exists() {
        return Ok(path.to_path_buf());
    }
    latest(path).ok_or_else(|| {
        Error::Checkpoint(format!(
            "{}: neither a checkpoint (state.json) nor a run directory with one",
            path.display()
        ))
    })
}

/// Reads a checkpoint's state.
///
/// # Errors
/// [`Error::Checkpoint`] when missing or not parseable.
pub fn read_state(dir: &Path) -> Result<State, Error> {
    let path = dir.join("state.json");
    let text = std::fs::read_to_string(&path).map_err(io(&path))?;
    serde_json::from_str(&text).map_err(|e| Error::Checkpoint(format!("{}: {e}", path.display())))
}

/// The packed network of a checkpoint (or a run's newest), for fast play.
///
/// # Errors
/// [`Error::Checkpoint`] when it does not load.
pub fn load_packed(path: &Path) -> Result<PackedNet, Error> {
    let dir = resolve(path)?;
    let state = read_state(&dir)?;
    let model = load_model(&dir, &state.network, state.shape)?;
    Ok(PackedNet::new(&model))
}

/// Writes a checkpoint with `write` filling a temporary directory, renames it into place and
/// points `latest` at it; then removes the older ones beyond `keep` (keeping multiples of
/// `keep_every` when it is not 0).
///
/// # Errors
/// [`Error::Checkpoint`] on I/O failures.
pub fn commit(
    run: &Path,
    state: &State,
    keep: usize,
    keep_every: u32,
    write: impl FnOnce(&Path) -> Result<(), Error>,
) -> Result<(), Error> {
    let root = run.join("checkpoints");
    std::fs::create_dir_all(&root).map_err(io(&root))?;
    let tmp = root.join(format!(".tmp-iter-{:04}", state.iteration));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).map_err(io(&tmp))?;
    write(&tmp)?;
    let text = serde_json::to_string_pretty(state).expect("a state is JSON");
    std::fs::write(tmp.join("state.json"), text).map_err(io(&tmp))?;
    let dir = checkpoint_dir(run, state.iteration);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::rename(&tmp, &dir).map_err(io(&dir))?;
    let latest = root.join("latest");
    let name = format!("iter-{:04}\n", state.iteration);
    std::fs::write(root.join(".latest.tmp"), name).map_err(io(&latest))?;
    std::fs::rename(root.join(".latest.tmp"), &latest).map_err(io(&latest))?;
    let mut old: Vec<u32> = std::fs::read_dir(&root)
        .map_err(io(&root))?
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str()?.strip_prefix("iter-")?.parse().ok())
        .filter(|&i| i != state.iteration && (keep_every == 0 || i % keep_every != 0))
        .collect();
    old.sort_unstable();
    let remove = old.len().saturating_sub(keep);
    for i in &old[..remove] {
        let _ = std::fs::remove_dir_all(checkpoint_dir(run, *i));
    }
    Ok(())
}
