//! `metrics.jsonl`: one JSON line per iteration of a run, typed by the run, read under one
//! policy whoever reads it.
//!
//! The policy: lines are read in order; a line for an iteration already read replaces the
//! earlier one (a run resumed from a checkpoint older than its last line redoes that
//! iteration); a last line without its newline that does not parse was cut short by a kill and
//! is ignored; any other line that does not parse is an error naming the file and line. A run
//! that resumes calls [`MetricsLog::resume`], which also drops the lines past its checkpoint
//! and rewrites the file.

use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::dir::append_line;
use crate::{Error, io_error, json_error, write_atomic};

/// A line of a run's metrics.
pub trait MetricsLine: Serialize + DeserializeOwned {
    /// The iteration the line is of (from 1).
    fn iteration(&self) -> u32;
}

/// The metrics file of a run, with lines of type `T`.
#[derive(Debug)]
pub struct MetricsLog<T> {
    path: PathBuf,
    _line: PhantomData<fn() -> T>,
}

impl<T: MetricsLine> MetricsLog<T> {
    /// The metrics file at `path`.
    pub fn new(path: impl Into<PathBuf>) -> MetricsLog<T> {
        MetricsLog {
            path: path.into(),
            _line: PhantomData,
        }
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Every iteration's line, by iteration, under the module's policy; none when the file is
    /// missing.
    ///
    /// # Errors
    /// [`Error::Io`] when unreadable, [`Error::Json`] on a line that does not parse.
    pub fn read(&self) -> Result<Vec<T>, Error> {
        if !self.path.exists() {
            return Ok(Vec::new());
        }
        let text = std::fs::read_to_string(&self.path).map_err(io_error(&self.path))?;
        let mut by_iteration = BTreeMap::new();
        let count = text.lines().count();
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            match serde_json::from_str::<T>(line) {
                Ok(m) => {
                    by_iteration.insert(m.iteration(), m);
                }
                Err(_) if n + 1 == count && !text.ends_with('\n') => {}
                Err(e) => {
                    return Err(Error::Json {
                        path: self.path.display().to_string(),
                        line: Some(n + 1),
                        cause: e,
                    });
                }
            }
        }
        Ok(by_iteration.into_values().collect())
    }

    /// The lines of iterations up to `done` (a resumed run's last checkpoint), the file
    /// rewritten with only those, so the iterations after it are redone and written again.
    ///
    /// # Errors
    /// As [`MetricsLog::read`], and [`Error::Io`] when the file cannot be rewritten.
    pub fn resume(&self, done: u32) -> Result<Vec<T>, Error> {
        if !self.path.exists() {
            return Ok(Vec::new());
        }
        let mut kept = self.read()?;
        kept.retain(|m| m.iteration() <= done);
        let mut text = String::new();
        for m in &kept {
            text += &serde_json::to_string(m).map_err(json_error(&self.path))?;
            text.push('\n');
        }
        write_atomic(&self.path, &text)?;
        Ok(kept)
    }

    /// Appends one line.
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be written.
    pub fn append(&self, line: &T) -> Result<(), Error> {
        let text = serde_json::to_string(line).map_err(json_error(&self.path))?;
        append_line(&self.path, &text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Line {
        iteration: u32,
        loss: f64,
    }

    impl MetricsLine for Line {
        fn iteration(&self) -> u32 {
            self.iteration
        }
    }

    fn log(text: &str) -> (tempfile::TempDir, MetricsLog<Line>) {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("metrics.jsonl");
        std::fs::write(&path, text).unwrap();
        (tmp, MetricsLog::new(path))
    }

    #[test]
    fn a_repeated_iteration_keeps_its_last_line_and_a_cut_last_line_is_ignored() {
        let (_tmp, metrics) = log(
            "{\"iteration\":1,\"loss\":1.0}\n{\"iteration\":2,\"loss\":2.0}\n\
             {\"iteration\":2,\"loss\":2.5}\n{\"iteration\":3,\"lo",
        );
        let lines = metrics.read().unwrap();
        let got: Vec<(u32, f64)> = lines.iter().map(|l| (l.iteration, l.loss)).collect();
        assert_eq!(got, vec![(1, 1.0), (2, 2.5)]);
    }

    #[test]
    fn a_broken_line_inside_the_file_is_an_error_naming_it() {
        let (_tmp, metrics) = log("{\"iteration\":1,\"loss\":1.0}\nnot json\n");
        let err = metrics.read().unwrap_err().to_string();
        assert!(err.contains("metrics.jsonl:2"), "{err}");
    }

    #[test]
    fn a_resume_drops_the_lines_past_its_checkpoint_and_appends_after_them() {
        let (_tmp, metrics) = log(
            "{\"iteration\":1,\"loss\":1.0}\n{\"iteration\":2,\"loss\":2.0}\n\
             {\"iteration\":3,\"loss\":3.0}\n",
        );
        assert_eq!(metrics.resume(2).unwrap().len(), 2);
        metrics
            .append(&Line {
                iteration: 3,
                loss: 3.5,
            })
            .unwrap();
        let text = std::fs::read_to_string(metrics.path()).unwrap();
        assert_eq!(text.lines().count(), 3);
        assert_eq!(metrics.read().unwrap()[2].loss, 3.5);
    }
}
