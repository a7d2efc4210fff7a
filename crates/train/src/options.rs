//! What a training run takes besides its configuration, and the configuration a run directory
//! holds.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use pjlab_core::GameKit;

use crate::Error;
use crate::config::RunConfig;
use crate::progress::Reporter;

/// How `train` runs, beyond the configuration.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The run directory.
    pub out: PathBuf,
    /// Where progress goes (nothing by default; the binary draws bars).
    pub progress: Reporter,
    /// Stop after this many iterations of this invocation (the run stays resumable).
    pub stop_after: Option<u32>,
    /// Checkpoints kept (the newest ones).
    pub keep_checkpoints: usize,
    /// Also keep, for good, the checkpoint of every iteration that is a multiple of this (a
    /// run's strength curve plays them later).
    pub keep_every: Option<u32>,
    /// This invocation's provenance: appended to `provenance.jsonl` in the run directory and
    /// written into the footers of the Parquet files it writes (key `pjlab.provenance`).
    pub provenance: pjlab_core::Provenance,
    /// Raised (by a signal handler, say) to stop after the iteration in progress and its
    /// checkpoint; the run stays resumable.
    pub stop: Option<&'static AtomicBool>,
    /// Resume even where the replay window's positions files are gone: a run carried to another
    /// machine with its checkpoint, metrics and provenance but not its `positions/` (hundreds of
    /// megabytes). The window then starts empty and refills from new self-play, so the run no
    /// longer equals an uninterrupted one from there on; the command line in
    /// `provenance.jsonl` records that it was asked for. Without it such a resume is refused.
    pub refill_window: bool,
}

impl RunOptions {
    /// Defaults for a run directory: no progress reports, no early stop, 3 checkpoints kept.
    pub fn new(out: impl Into<PathBuf>) -> RunOptions {
        RunOptions {
            out: out.into(),
            progress: Reporter::default(),
            stop_after: None,
            keep_checkpoints: 3,
            keep_every: None,
            provenance: pjlab_core::Provenance::default(),
            stop: None,
            refill_window: false,
        }
    }
}

/// The configuration a run directory was started with, if any.
///
/// # Errors
/// As [`RunConfig::from_file`]: a run of another game does not parse as one of `K`.
pub fn run_config<K: GameKit>(dir: &Path) -> Result<Option<RunConfig<K>>, Error> {
    let path = dir.join("config.toml");
    if !path.exists() {
        return Ok(None);
    }
    RunConfig::from_file(&path).map(Some)
}
