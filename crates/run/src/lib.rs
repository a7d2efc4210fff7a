//! What every run of the lab shares, whatever the game and whatever the run: its directory
//! ([`dir`]: the lock, the manifest naming the run's kind and game, the config snapshot that a
//! resume must match, `provenance.jsonl`, a typed `metrics.jsonl`, `checkpoints/` with
//! `latest` and the keep rotation, `plots/`).
//!
//! ```
//! use pjlab_run::dir::{Manifest, RunDir, RunKind};
//!
//! let tmp = tempfile::tempdir().unwrap();
//! let run = RunDir::create(tmp.path().join("run")).unwrap();
//! let _lock = run.lock("pjlab train").unwrap();
//! run.write_manifest(&Manifest::new(RunKind::Training, "chomp")).unwrap();
//! assert_eq!(run.manifest().unwrap().unwrap().game, "chomp");
//! ```

pub mod dir;

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
    /// The run directory holds another run than the one asked for.
    #[error("config: {0}")]
    Config(String),
    /// A checkpoint that is missing or unreadable.
    #[error("checkpoint: {0}")]
    Checkpoint(String),
    /// A metrics line or manifest that does not parse.
    #[error("metrics: {0}")]
    Metrics(String),
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

/// A uniquely named temporary file in `path`'s directory (a hidden `.pjlab-` name ending in
/// `suffix`, readable as an ordinary file once renamed), to be renamed onto `path` when
/// written.
///
/// # Errors
/// When the directory cannot be written.
pub fn temporary_beside(
    path: &std::path::Path,
    suffix: &str,
) -> std::io::Result<tempfile::NamedTempFile> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => std::path::Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".pjlab-").suffix(suffix);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    builder.tempfile_in(dir)
}
