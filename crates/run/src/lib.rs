//! What every run of the lab shares, whatever the game and whatever the run. It knows no game
//! and links no Burn.
//!
//! - [`dir`]: the run directory, opened one way for every kind of run ([`dir::Opener`]: created,
//!   locked, another kind or game refused, the resume checked, manifest, config and provenance
//!   written): the lock, the `run.json` manifest naming the run's kind and
//!   game, the config snapshot that a resume must match, `provenance.jsonl`, a typed
//!   `metrics.jsonl` read under one policy, `checkpoints/` with `latest` and the keep rotation,
//!   `plots/`.
//! - [`cpu`]: the processor time the process has used, for runs that say what they cost.
//! - [`pool`]: jobs on W worker threads (per-worker state, a stop flag, the first error stops
//!   the rest), each finished item handed back on the calling thread as it comes or in job
//!   order.
//! - [`session`]: a run from its directory: a new run or a resumed one (refused when the
//!   directory holds another kind of run, or a run when none was to be resumed), the jobs left
//!   played on the pool with periodic saves, and the "interrupted; continue with" hint.
//! - [`table`]: Parquet tables whose columns are declared once with their types: a builder
//!   that appends rows and writes atomically with the schema key in the footer, and a reader
//!   that checks the schema key and every column's type before handing out typed columns.
//!
//! Board-game matches and studies (`pjlab-arena`), Chifoumi runs (`pjlab-chifoumi-eval`,
//! `pjlab-chifoumi-learn`), self-play records (`pjlab-selfplay`) and training runs
//! (`pjlab-train`) all stand on it.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use pjlab_run::dir::{Manifest, RunDir, RunKind};
//! use pjlab_run::pool::{Order, Pool};
//!
//! let tmp = tempfile::tempdir().unwrap();
//! let run = RunDir::create(tmp.path().join("run")).unwrap();
//! let _lock = run.lock("pjlab train").unwrap();
//! run.write_manifest(&Manifest::new(RunKind::Training, "chomp")).unwrap();
//! assert_eq!(run.manifest().unwrap().unwrap().game, "chomp");
//!
//! let stop = AtomicBool::new(false);
//! let pool = Pool { workers: 2, order: Order::Scheduled, stop: &stop };
//! let mut squares = Vec::new();
//! pool.run(&[1, 2, 3], |_| (), |_, &x: &i32| Ok::<_, ()>(Some(x * x)), &mut |y| squares.push(y))
//!     .unwrap();
//! assert_eq!(squares, [1, 4, 9]);
//! ```

pub mod cpu;
pub mod dir;
pub mod pool;
pub mod session;
pub mod table;

pub use cpu::cpu_seconds;
pub use table::temporary_beside;

/// Errors of run directories.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// I/O. The failure is in the message, not chained as a source, so it prints once.
    #[error("{path}: {cause}")]
    Io {
        /// The file or directory.
        path: String,
        /// The failure.
        cause: std::io::Error,
    },
    /// Another process is using the run directory.
    #[error("{0}")]
    Busy(String),
    /// The run directory's manifest names another kind of run or another game than the one
    /// opened.
    #[error(
        "{dir} holds a {} run of {found_game}, not a {} run of {game}; choose another directory",
        found.name(),
        kind.name()
    )]
    OtherRun {
        /// The directory.
        dir: String,
        /// The kind of run it holds.
        found: dir::RunKind,
        /// The game of the run it holds.
        found_game: String,
        /// The kind asked.
        kind: dir::RunKind,
        /// The game asked.
        game: String,
    },
    /// A resumed run's configuration differs from its snapshot in more than what a resume may
    /// change.
    #[error(
        "{dir} holds a run with another configuration (only {allowed} may change on resume); \
         choose another --out"
    )]
    OtherConfig {
        /// The directory.
        dir: String,
        /// What may change on resume (`` `iterations` ``).
        allowed: String,
    },
    /// A path given as a checkpoint that is neither a checkpoint (`state.json`) nor a run
    /// directory with one.
    #[error("{path}: neither a checkpoint (state.json) nor a run directory with one")]
    NoCheckpoint {
        /// The path given.
        path: String,
    },
    /// A JSON file (a manifest, a metrics log) or one of its lines that does not parse, or a
    /// value that cannot be written as JSON. The failure is in the message, not chained.
    #[error("{path}{}: {cause}", line.map_or(String::new(), |n| format!(":{n}")))]
    Json {
        /// The file read or written.
        path: String,
        /// The line (from 1) of a JSON-lines file, when the failure is on one.
        line: Option<usize>,
        /// The failure.
        cause: serde_json::Error,
    },
    /// A manifest written by a newer build, in a schema this one does not know.
    #[error("{path}: schema {schema} is newer than this build's {known}")]
    NewerSchema {
        /// The manifest.
        path: String,
        /// Its schema.
        schema: u32,
        /// The newest schema this build reads.
        known: u32,
    },
}

/// The error of a JSON failure on `path` (reading or writing it whole).
pub fn json_error(path: &std::path::Path) -> impl Fn(serde_json::Error) -> Error + '_ {
    move |cause| Error::Json {
        path: path.display().to_string(),
        line: None,
        cause,
    }
}

/// The error of an I/O failure on `path`.
pub fn io_error(path: &std::path::Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |cause| Error::Io {
        path: path.display().to_string(),
        cause,
    }
}

/// Writes `text` to `path` atomically (a uniquely named temporary file beside it, renamed into
/// place), so a reader sees the old file or the new one, never a part.
///
/// # Errors
/// [`Error::Io`] when the file cannot be written.
pub fn write_atomic(path: &std::path::Path, text: &str) -> Result<(), Error> {
    use std::io::Write as _;
    let mut tmp = temporary_beside(path, ".tmp").map_err(io_error(path))?;
    tmp.write_all(text.as_bytes())
        .map_err(io_error(tmp.path()))?;
    tmp.persist(path).map_err(|e| io_error(path)(e.error))?;
    Ok(())
}
