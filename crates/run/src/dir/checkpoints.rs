//! `checkpoints/` of a run directory: one `iter-NNNN/` directory per checkpoint, each written
//! under a temporary name and renamed into place, `latest` naming the newest, and a rotation
//! that keeps the newest few and every `keep_every`-th for good. What a checkpoint holds
//! (the network's files, a `state.json`) is the trainer's; every checkpoint has a `state.json`.

use std::path::{Path, PathBuf};

use crate::{Error, io_error, write_atomic};

/// The state file every checkpoint directory has.
pub const STATE_FILE: &str = "state.json";

/// The name of iteration `iteration`'s checkpoint and files: `iter-0001`.
pub fn iter_name(iteration: u32) -> String {
    format!("iter-{iteration:04}")
}

/// The checkpoints of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoints {
    root: PathBuf,
}

impl Checkpoints {
    /// The checkpoints under `root` (a run directory's `checkpoints/`).
    pub fn new(root: impl Into<PathBuf>) -> Checkpoints {
        Checkpoints { root: root.into() }
    }

    /// The directory of the checkpoint of `iteration`.
    pub fn dir(&self, iteration: u32) -> PathBuf {
        self.root.join(iter_name(iteration))
    }

    /// The newest checkpoint's directory as `latest` names it, if any (it may lack its state
    /// when the run's files were damaged; [`Checkpoints::resolve`] checks).
    ///
    /// # Errors
    /// [`Error::Io`] when `latest` exists but cannot be read.
    pub fn latest(&self) -> Result<Option<PathBuf>, Error> {
        let latest = self.root.join("latest");
        if !latest.exists() {
            return Ok(None);
        }
        let name = std::fs::read_to_string(&latest).map_err(io_error(&latest))?;
        Ok(Some(self.root.join(name.trim())))
    }

    /// The checkpoint directory `path` names: itself when it holds a state, or a run
    /// directory's newest checkpoint.
    ///
    /// # Errors
    /// [`Error::NoCheckpoint`] when it is neither.
    pub fn resolve(path: &Path) -> Result<PathBuf, Error> {
        if path.join(STATE_FILE).exists() {
            return Ok(path.to_path_buf());
        }
        match Checkpoints::new(path.join("checkpoints")).latest() {
            Ok(Some(dir)) if dir.join(STATE_FILE).exists() => Ok(dir),
            _ => Err(Error::NoCheckpoint {
                path: path.display().to_string(),
            }),
        }
    }

    /// Writes the checkpoint of `iteration`: `fill` writes its files into a temporary
    /// directory, which is renamed into place (replacing an older one of the same iteration);
    /// `latest` then names it, and [`Checkpoints::rotate`] keeps `keep` and `keep_every`.
    ///
    /// # Errors
    /// [`Error::Io`] on I/O failures, and `fill`'s.
    pub fn commit<E: From<Error>>(
        &self,
        iteration: u32,
        keep: usize,
        keep_every: Option<u32>,
        fill: impl FnOnce(&Path) -> Result<(), E>,
    ) -> Result<(), E> {
        let name = iter_name(iteration);
        let tmp = self.root.join(format!(".{name}.tmp"));
        if tmp.exists() {
            std::fs::remove_dir_all(&tmp).map_err(io_error(&tmp))?;
        }
        std::fs::create_dir_all(&tmp).map_err(io_error(&tmp))?;
        fill(&tmp)?;
        let dir = self.dir(iteration);
        if dir.exists() {
            std::fs::remove_dir_all(&dir).map_err(io_error(&dir))?;
        }
        std::fs::rename(&tmp, &dir).map_err(io_error(&dir))?;
        write_atomic(&self.root.join("latest"), &name)?;
        Ok(self.rotate(keep, keep_every)?)
    }

    /// Removes old checkpoints: keeps the newest `keep` (at least one: the latest) and, for
    /// good, those of iterations that are multiples of `keep_every`.
    ///
    /// # Errors
    /// [`Error::Io`] when the directory cannot be listed or a checkpoint removed.
    pub fn rotate(&self, keep: usize, keep_every: Option<u32>) -> Result<(), Error> {
        let kept_for_good = |i: u32| matches!(keep_every, Some(k) if k > 0 && i.is_multiple_of(k));
        let mut iterations: Vec<u32> = std::fs::read_dir(&self.root)
            .map_err(io_error(&self.root))?
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().to_str()?.strip_prefix("iter-")?.parse().ok())
            .filter(|&i| !kept_for_good(i))
            .collect();
        iterations.sort_unstable();
        let keep = keep.max(1);
        if iterations.len() > keep {
            for &i in &iterations[..iterations.len() - keep] {
                let path = self.dir(i);
                std::fs::remove_dir_all(&path).map_err(io_error(&path))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(root: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(root)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn commits_rotate_keeping_the_newest_and_every_kth() {
        let tmp = tempfile::tempdir().unwrap();
        let checkpoints = Checkpoints::new(tmp.path().join("checkpoints"));
        for i in 1..=7 {
            checkpoints
                .commit::<Error>(i, 2, Some(3), |dir| {
                    std::fs::write(dir.join(STATE_FILE), format!("{i}")).unwrap();
                    Ok(())
                })
                .unwrap();
        }
        assert_eq!(
            names(&tmp.path().join("checkpoints")),
            ["iter-0003", "iter-0005", "iter-0006", "iter-0007", "latest"]
        );
        let latest = Checkpoints::resolve(tmp.path()).unwrap();
        assert_eq!(latest, checkpoints.dir(7));
        assert_eq!(
            std::fs::read_to_string(latest.join(STATE_FILE)).unwrap(),
            "7"
        );
    }

    #[test]
    fn a_path_that_is_neither_a_checkpoint_nor_a_run_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let err = Checkpoints::resolve(tmp.path()).unwrap_err().to_string();
        assert!(err.contains("neither a checkpoint"), "{err}");
    }
}
