//! A run directory, the same for every kind of run (a training run, a distributed run's
//! learner and actors, a match, tournament or balance run, a Chifoumi run):
//!
//! ```text
//! run.json            the manifest: the run's kind, game and schema (see [`Manifest`])
//! .lock               held by the process running it (see [`RunLock`])
//! config.toml         the run's settings as it was started; a resume must match them but
//!                     for what the run allows to change (`iterations`)
//! provenance.jsonl    one line per invocation: the build, the machine and the command
//! metrics.jsonl       one typed line per iteration (see [`MetricsLog`])
//! checkpoints/        iter-NNNN/ directories and `latest` (see [`Checkpoints`])
//! plots/              SVG charts
//! ```
//!
//! Every kind of run opens its directory with [`Opener`] (created, locked, another kind of run
//! or game refused, the resume checked, then the manifest, config and provenance written).
//! What else a run writes (games, positions, reports) is the run's own; the names above are
//! the ones every kind shares.

mod checkpoints;
mod lock;
mod manifest;
mod metrics;
mod open;

use std::path::{Path, PathBuf};

pub use checkpoints::{Checkpoints, STATE_FILE, iter_name};
pub use lock::{LOCK_FILE, RunLock};
pub use manifest::{MANIFEST_FILE, Manifest, RunKind};
pub use metrics::{MetricsLine, MetricsLog};
pub use open::{OpenRun, Opener, Opening};

use crate::{Error, io_error, json_error, write_atomic};

/// The config snapshot's file name.
pub const CONFIG_FILE: &str = "config.toml";
/// The file with one JSON line per invocation on a run directory.
pub const PROVENANCE_FILE: &str = "provenance.jsonl";
/// Footer key of the provenance in the Parquet files a run writes.
pub const PROVENANCE_KEY: &str = "pjlab.provenance";
/// The metrics file's name.
pub const METRICS_FILE: &str = "metrics.jsonl";
/// The plots' directory name.
pub const PLOTS_DIR: &str = "plots";

/// A run directory (see the module's documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunDir {
    path: PathBuf,
}

impl RunDir {
    /// The run directory at `path`, created (with its parents) if missing.
    ///
    /// # Errors
    /// [`Error::Io`] when it cannot be created.
    pub fn create(path: impl Into<PathBuf>) -> Result<RunDir, Error> {
        let path = path.into();
        std::fs::create_dir_all(&path).map_err(io_error(&path))?;
        Ok(RunDir { path })
    }

    /// The run directory at `path`, as it is (nothing is created).
    pub fn at(path: impl Into<PathBuf>) -> RunDir {
        RunDir { path: path.into() }
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// `name` inside it.
    pub fn join(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    /// The sub-directory `name`, created if missing.
    ///
    /// # Errors
    /// [`Error::Io`] when it cannot be created.
    pub fn sub_dir(&self, name: &str) -> Result<PathBuf, Error> {
        let dir = self.path.join(name);
        std::fs::create_dir_all(&dir).map_err(io_error(&dir))?;
        Ok(dir)
    }

    /// Locks the directory for `what` (the command, as a refusal names it), until the lock is
    /// dropped.
    ///
    /// # Errors
    /// [`Error::Busy`] when another process holds it.
    pub fn lock(&self, what: &str) -> Result<RunLock, Error> {
        RunLock::acquire(&self.path, what)
    }

    /// The manifest, if the run has one (runs written before manifests have none).
    ///
    /// # Errors
    /// When `run.json` exists but does not read.
    pub fn manifest(&self) -> Result<Option<Manifest>, Error> {
        Manifest::read(&self.path)
    }

    /// Writes the manifest.
    ///
    /// # Errors
    /// [`Error::Io`] when it cannot be written.
    pub fn write_manifest(&self, manifest: &Manifest) -> Result<(), Error> {
        manifest.write(&self.path)
    }

    /// The config snapshot's text, if the run has one.
    ///
    /// # Errors
    /// [`Error::Io`] when it exists but cannot be read.
    pub fn config_text(&self) -> Result<Option<String>, Error> {
        let path = self.join(CONFIG_FILE);
        if !path.exists() {
            return Ok(None);
        }
        std::fs::read_to_string(&path)
            .map(Some)
            .map_err(io_error(&path))
    }

    /// Checks that `config` may continue the run whose snapshot parses as `previous` (`None`:
    /// a new run): `previous`, with what a resume may change taken from `config` by
    /// `resumable`, must equal `config`. `allowed` names what may change, for the refusal.
    ///
    /// # Errors
    /// [`Error::OtherConfig`] when they differ.
    pub fn check_resume<C: Clone + PartialEq>(
        &self,
        previous: Option<C>,
        config: &C,
        resumable: impl FnOnce(&mut C, &C),
        allowed: &str,
    ) -> Result<(), Error> {
        if let Some(mut previous) = previous {
            resumable(&mut previous, config);
            if previous != *config {
                return Err(Error::OtherConfig {
                    dir: self.path.display().to_string(),
                    allowed: allowed.to_string(),
                });
            }
        }
        Ok(())
    }

    /// Writes the config snapshot.
    ///
    /// # Errors
    /// [`Error::Io`] when it cannot be written.
    pub fn write_config(&self, text: &str) -> Result<(), Error> {
        write_atomic(&self.join(CONFIG_FILE), text)
    }

    /// Appends this invocation's provenance to `provenance.jsonl` and returns its JSON text
    /// (for Parquet footers under [`PROVENANCE_KEY`]).
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be written.
    pub fn append_provenance(&self, provenance: &pjlab_core::Provenance) -> Result<String, Error> {
        let path = self.join(PROVENANCE_FILE);
        let line = serde_json::to_string(provenance).map_err(json_error(&path))?;
        append_line(&path, &line)?;
        Ok(line)
    }

    /// The typed `metrics.jsonl` of the run.
    pub fn metrics<T: MetricsLine>(&self) -> MetricsLog<T> {
        MetricsLog::new(self.join(METRICS_FILE))
    }

    /// The run's checkpoints.
    pub fn checkpoints(&self) -> Checkpoints {
        Checkpoints::new(self.join("checkpoints"))
    }

    /// The plots' directory, created if missing.
    ///
    /// # Errors
    /// [`Error::Io`] when it cannot be created.
    pub fn plots(&self) -> Result<PathBuf, Error> {
        self.sub_dir(PLOTS_DIR)
    }
}

/// Appends `line` and a newline to `path` (created if missing).
///
/// # Errors
/// [`Error::Io`] when the file cannot be written.
pub fn append_line(path: &Path, line: &str) -> Result<(), Error> {
    use std::io::Write as _;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(io_error(path))?;
    writeln!(file, "{line}").map_err(io_error(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resume_may_change_only_what_the_run_allows() {
        let tmp = tempfile::tempdir().unwrap();
        let run = RunDir::create(tmp.path()).unwrap();
        let keep_iterations = |prev: &mut (u32, u32), now: &(u32, u32)| prev.0 = now.0;
        run.check_resume(None, &(1, 2), keep_iterations, "`iterations`")
            .unwrap();
        run.check_resume(Some((9, 2)), &(1, 2), keep_iterations, "`iterations`")
            .unwrap();
        let err = run
            .check_resume(Some((1, 3)), &(1, 2), keep_iterations, "`iterations`")
            .unwrap_err()
            .to_string();
        assert!(err.contains("only `iterations` may change"), "{err}");
    }

    #[test]
    fn provenance_lines_accumulate_one_per_invocation() {
        let tmp = tempfile::tempdir().unwrap();
        let run = RunDir::create(tmp.path()).unwrap();
        let mut p = pjlab_core::Provenance {
            command: "first".into(),
            ..Default::default()
        };
        run.append_provenance(&p).unwrap();
        p.command = "second".into();
        let line = run.append_provenance(&p).unwrap();
        let text = std::fs::read_to_string(run.join(PROVENANCE_FILE)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[1], line);
        assert!(lines[0].contains("\"first\""));
    }
}
