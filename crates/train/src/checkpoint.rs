//! Checkpoints: what the training loop writes after each iteration, and [`load`], the way back
//! to a network with the run's configuration (to resume, or to export it with its training
//! summary); players load networks with `pjlab_players::load_network`.
//!
//! A checkpoint is a directory `checkpoints/iter-NNNN/` of a run directory:
//!
//! ```text
//! model.bpk       the network's weights (Burn's binary record)
//! network.json    what they are: game, encoder, network, shape, the game's table
//!                 ([`pjlab_nn::NetworkFile`]; what players load the network by)
//! optimizer.bpk   the optimiser's state
//! state.json      iteration, encoder id, network shape, the run's configuration (with
//!                 `game`), the replay window's size, use counts and samples seen, seconds trained
//! ```
//!
//! The network's files are `pjlab-nn`'s ([`pjlab_nn::checkpoint`]); the directory, its
//! temporary name, `checkpoints/latest` and the rotation are the run directory's
//! ([`pjlab_run::dir::Checkpoints`]).

use std::path::{Path, PathBuf};

use burn::tensor::Device;
use pjlab_core::{Encoder, EncoderId, GameKit};
use pjlab_selfplay::{ReplayWindow, read_positions};
use serde::{Deserialize, Serialize};

use pjlab_run::dir::{Checkpoints, RunDir};

use crate::Error;
use crate::config::RunConfig;
use crate::learner::Learner;
use pjlab_nn::{NetShape, NetworkFile, PolicyValueNet};

/// What a checkpoint's `state.json` holds besides the weights and optimiser.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(bound(serialize = "", deserialize = ""))]
pub(crate) struct CheckpointState<K: GameKit> {
    pub(crate) iteration: u32,
    pub(crate) encoder: EncoderId,
    pub(crate) shape: NetShape,
    pub(crate) config: RunConfig<K>,
    pub(crate) window_len: usize,
    pub(crate) window_seen: u64,
    pub(crate) window_uses: Vec<u8>,
    pub(crate) elapsed_s: f64,
    /// The learner role's self-play chunks taken into the window so far, in order (empty for
    /// the single-process loop, whose positions files are named by iteration).
    #[serde(default)]
    pub(crate) chunks: Vec<String>,
}

/// The game and encoder of a `state.json`, read without knowing the game.
#[derive(Deserialize)]
struct Peek {
    encoder: EncoderId,
    config: PeekConfig,
}

#[derive(Deserialize)]
struct PeekConfig {
    game: Option<String>,
}

pub(crate) fn io_err(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |cause| Error::Io {
        path: path.display().to_string(),
        cause,
    }
}

/// The newest checkpoint directory of the run directory `run`, if any.
fn latest_dir(run: &Path) -> Result<Option<PathBuf>, Error> {
    Ok(RunDir::at(run).checkpoints().latest()?)
}

/// The checkpoint directory `path` names: itself, or a run directory's latest checkpoint.
fn resolve(path: &Path) -> Result<PathBuf, Error> {
    Ok(Checkpoints::resolve(path)?)
}

/// The checkpoint `dir`'s `state.json` as `T`; `bad` words a parse failure.
fn read_json<T: serde::de::DeserializeOwned>(
    dir: &Path,
    bad: fn(String, serde_json::Error) -> Error,
) -> Result<T, Error> {
    let path = dir.join("state.json");
    let text = std::fs::read_to_string(&path).map_err(io_err(&path))?;
    serde_json::from_str(&text).map_err(|cause| bad(path.display().to_string(), cause))
}

/// The encoder and game of the checkpoint in `dir`; a `state.json` without them (a Chifoumi
/// network's, say) is refused as not a checkpoint of `pjlab train`.
fn peek(dir: &Path) -> Result<Peek, Error> {
    read_json::<Peek>(dir, |path, cause| Error::NotTrained { path, cause })
}

/// A state's parse or write failure.
fn state_error(path: String, cause: serde_json::Error) -> Error {
    Error::State { path, cause }
}

/// The game a checkpoint (or a run directory's latest) was trained on: its configuration's
/// `game` (`pijersi` when it names none, as the configuration's default).
///
/// # Errors
/// [`Error::Run`] when no checkpoint is found, [`Error::NotTrained`] when its state does not
/// parse.
pub fn game(path: &Path) -> Result<String, Error> {
    let peek = peek(&resolve(path)?)?;
    Ok(peek.config.game.unwrap_or_else(|| "pijersi".into()))
}

/// The checkpoint `path` names and its state, for kit `K`; a checkpoint of another game or of
/// another encoding is refused.
fn read_state<K: GameKit>(path: &Path) -> Result<(PathBuf, CheckpointState<K>), Error> {
    let dir = resolve(path)?;
    let peek = peek(&dir)?;
    let game = peek.config.game.as_deref().unwrap_or("pijersi");
    if game != K::INFO.name {
        return Err(Error::OtherGame {
            path: path.display().to_string(),
            found: game.to_string(),
            expected: K::INFO.name,
        });
    }
    let state: CheckpointState<K> = read_json(&dir, state_error)?;
    let encoder = K::encoder(&state.config.game).id();
    if peek.encoder != encoder {
        return Err(Error::OtherEncoder {
            path: dir.display().to_string(),
            found: peek.encoder,
            expected: encoder,
        });
    }
    Ok((dir, state))
}

/// The newest checkpoint of the run directory `run` and its state, if it has one.
pub(crate) fn latest<K: GameKit>(
    run: &Path,
) -> Result<Option<(PathBuf, CheckpointState<K>)>, Error> {
    match latest_dir(run)? {
        None => Ok(None),
        Some(dir) => read_state(&dir).map(Some),
    }
}

/// A trained network of the game of kit `K`, for inference: `path` is a checkpoint directory
/// or a run directory (its latest checkpoint is taken). Returns the model and the run's
/// configuration (`K::encoder(&config.game)` is the encoder it was trained with).
///
/// # Errors
/// [`Error::Run`] when no checkpoint is found, [`Error::OtherGame`] or [`Error::OtherEncoder`]
/// when it was trained on another game or with another encoding, [`Error::Net`] when it does
/// not load.
pub fn load<K: GameKit>(
    path: &Path,
    device: &Device,
) -> Result<(PolicyValueNet, RunConfig<K>), Error> {
    let (dir, state) = read_state::<K>(path)?;
    let model = pjlab_nn::checkpoint::load(&dir, &state.config.network, state.shape, device)?;
    Ok((model, state.config))
}

/// The newest checkpoint of the run directory `run`, loaded for inference: its name, its
/// iteration and the network; `None` while the run has none.
///
/// # Errors
/// As [`load`].
pub(crate) fn load_latest<K: GameKit>(
    run: &Path,
    device: &Device,
) -> Result<Option<(String, u32, PolicyValueNet)>, Error> {
    let Some(dir) = latest_dir(run)? else {
        return Ok(None);
    };
    let (dir, state) = read_state::<K>(&dir)?;
    let model = pjlab_nn::checkpoint::load(&dir, &state.config.network, state.shape, device)?;
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok(Some((name, state.iteration, model)))
}

/// The iteration of the run directory `run`'s newest checkpoint and the self-play chunks it has
/// taken (the learner role's); `None` while the run has none.
///
/// # Errors
/// [`Error::State`] when its state does not parse.
pub(crate) fn latest_progress(run: &Path) -> Result<Option<(u32, Vec<String>)>, Error> {
    #[derive(Deserialize)]
    struct Progress {
        iteration: u32,
        #[serde(default)]
        chunks: Vec<String>,
    }
    let Some(dir) = latest_dir(run)? else {
        return Ok(None);
    };
    let state: Progress = read_json(&dir, state_error)?;
    Ok(Some((state.iteration, state.chunks)))
}

/// A checkpoint's training summary for model cards: iteration, training time, samples seen, the
/// encoder and the run's configuration as the checkpoint holds it. `path` is a checkpoint or a
/// run directory.
///
/// # Errors
/// [`Error::Run`] when no checkpoint is found, [`Error::NotTrained`] when its state does not
/// parse.
pub fn summary(path: &Path) -> Result<serde_json::Value, Error> {
    #[derive(Deserialize)]
    struct Summary {
        iteration: u32,
        elapsed_s: f64,
        window_seen: u64,
        encoder: EncoderId,
        config: serde_json::Value,
    }
    let dir = resolve(path)?;
    let state: Summary = read_json(&dir, state_error)?;
    Ok(serde_json::json!({
        "checkpoint": dir.display().to_string(),
        "iteration": state.iteration,
        "training_seconds": state.elapsed_s,
        "samples_seen": state.window_seen,
        "encoder": state.encoder,
        "config": state.config,
    }))
}

/// What a checkpoint is written from.
pub(crate) struct Snapshot<'a, K: GameKit> {
    pub(crate) iteration: u32,
    pub(crate) learner: &'a Learner,
    pub(crate) window: &'a ReplayWindow<K::Game>,
    pub(crate) config: &'a RunConfig<K>,
    pub(crate) encoder: &'a K::Encoder,
    pub(crate) elapsed_s: f64,
    pub(crate) chunks: &'a [String],
}

/// Writes the checkpoint of `snapshot.iteration` into `run/checkpoints`, names it the latest
/// and keeps the newest `keep` (at least one) and those of iterations that are multiples of
/// `keep_every`.
pub(crate) fn write<K: GameKit>(
    run: &Path,
    snapshot: &Snapshot<'_, K>,
    keep: usize,
    keep_every: Option<u32>,
) -> Result<(), Error> {
    let Snapshot {
        iteration,
        learner,
        window,
        config,
        encoder,
        elapsed_s,
        chunks,
    } = *snapshot;
    let state = CheckpointState {
        iteration,
        encoder: encoder.id(),
        shape: learner.shape(),
        config: config.clone(),
        window_len: window.len(),
        window_seen: window.seen(),
        window_uses: window.uses(),
        elapsed_s,
        chunks: chunks.to_vec(),
    };
    let written = run
        .join("checkpoints")
        .join(pjlab_run::dir::iter_name(iteration))
        .join("state.json");
    let state_file = |cause| state_error(written.display().to_string(), cause);
    let text = serde_json::to_string(&state).map_err(state_file)?;
    let table = serde_json::to_value(&config.game).map_err(state_file)?;
    let network = NetworkFile::new(
        K::INFO.name,
        state.encoder.clone(),
        config.network.clone(),
        state.shape,
        table,
    );
    RunDir::at(run)
        .checkpoints()
        .commit(iteration, keep, keep_every, |tmp| -> Result<(), Error> {
            learner.save(tmp)?;
            network.write(tmp)?;
            std::fs::write(tmp.join("state.json"), text).map_err(io_err(tmp))
        })
}

/// The replay window a checkpoint left, rebuilt from the run's positions files.
pub(crate) fn restore_window<K: GameKit>(
    run: &Path,
    state: &CheckpointState<K>,
) -> Result<ReplayWindow<K::Game>, Error> {
    // Its positions files, newest first: the learner's chunks, or the iterations.
    let names: Vec<String> = if state.chunks.is_empty() {
        (1..=state.iteration)
            .rev()
            .map(pjlab_run::dir::iter_name)
            .collect()
    } else {
        state.chunks.iter().rev().cloned().collect()
    };
    // Newest file first, until the window is covered; then oldest first, keeping only the
    // window's rows.
    let mut chunks = Vec::new();
    let mut found = 0;
    for name in names {
        if found >= state.window_len {
            break;
        }
        let path = run.join("positions").join(format!("{name}.parquet"));
        let chunk = read_positions(&path)?;
        found += chunk.len();
        chunks.push(chunk);
    }
    let skip = found.saturating_sub(state.window_len);
    let rows: Vec<_> = chunks.into_iter().rev().flatten().skip(skip).collect();
    if rows.len() < state.window_len {
        return Err(Error::ShortWindow {
            needed: state.window_len,
            found: rows.len(),
        });
    }
    Ok(ReplayWindow::restore(
        state.config.window.clone(),
        &rows,
        &state.window_uses,
        state.window_seen,
    )?)
}
