//! One process per run directory: a run holds an exclusive lock on `<run>/.lock` while it
//! runs, so a second process on the same directory refuses instead of interleaving its
//! work with the first's. The lock is the operating system's (`flock`), released when
//! the process ends however it ends, so a killed run leaves no stale lock behind: the file
//! stays, but nothing holds it.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

use crate::Error;

/// Name of the lock file in a run directory.
pub const LOCK_FILE: &str = ".lock";

/// The lock on a run directory, held until dropped.
#[derive(Debug)]
pub struct RunLock {
    _file: File,
}

impl RunLock {
    /// Locks `dir` (which must exist) for `what` (the command, as the refusal names it:
    /// `pjlab train`), writing this process's id into the lock file.
    ///
    /// # Errors
    /// [`Error::Busy`] when another process holds the lock (its id in the message),
    /// [`Error::Io`] when the file cannot be opened.
    pub fn acquire(dir: &Path, what: &str) -> Result<RunLock, Error> {
        Self::acquire_file(&dir.join(LOCK_FILE), |who| {
            format!(
                "{} is in use by {who} ({what} on the same run directory); wait for it \
                 to end or choose another --out",
                dir.display()
            )
        })
    }

    /// Locks the file `path` (created if missing; its directory must exist), writing this
    /// process's id into it; `busy` words the refusal from the holder's description.
    ///
    /// # Errors
    /// As [`RunLock::acquire`].
    pub fn acquire_file(path: &Path, busy: impl Fn(&str) -> String) -> Result<RunLock, Error> {
        let path = path.to_path_buf();
        let io = |cause| Error::Io {
            path: path.display().to_string(),
            cause,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                let holder = holder.trim();
                let who = if holder.is_empty() {
                    "another process".to_string()
                } else {
                    format!("process {holder}")
                };
                return Err(Error::Busy(busy(&who)));
            }
            Err(TryLockError::Error(e)) => return Err(io(e)),
        }
        file.set_len(0).map_err(io)?;
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        write!(file, "{}", std::process::id()).map_err(io)?;
        file.flush().map_err(io)?;
        Ok(RunLock { _file: file })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_until_the_first_is_released() {
        let dir = tempfile::tempdir().unwrap();
        let first = RunLock::acquire(dir.path(), "pjlab train").unwrap();
        let refused = RunLock::acquire(dir.path(), "pjlab train")
            .unwrap_err()
            .to_string();
        assert!(
            refused.contains(&format!("process {}", std::process::id())),
            "{refused}"
        );
        drop(first);
        // Released (as when a process dies): the file stays and is taken again.
        assert!(dir.path().join(LOCK_FILE).exists());
        RunLock::acquire(dir.path(), "pjlab train").unwrap();
    }
}
