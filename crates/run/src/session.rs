//! A run from its directory, whatever it plays: [`open`] starts a new run or resumes the one
//! the directory holds (the kind asked must be the run's own), [`Session::play`] plays the jobs
//! left on a [`Pool`], keeping each finished item and saving the records periodically and at
//! the end, and [`resume_hint`] is the line that tells how to continue an interrupted run. The
//! caller keeps what is particular to its runs: the records ([`Records`]), the schedule, how
//! one job is played, and the progress it shows.

use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crate::pool::Pool;

/// Why a session cannot start or did not save.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// A new run was asked in a directory that holds one.
    #[error("{dir} already holds {holds}: continue it with --resume, or choose another --out")]
    Exists {
        /// The directory.
        dir: String,
        /// What it holds (`games`, `a run`).
        holds: String,
    },
    /// The records to resume from cannot be read.
    #[error("cannot resume from {dir}: {why}")]
    Resume {
        /// The directory.
        dir: String,
        /// Why not.
        why: String,
    },
    /// The directory holds a run of another kind than the one asked.
    #[error("{dir} holds a {found} run, not a {asked}")]
    OtherKind {
        /// The directory.
        dir: String,
        /// The run's kind.
        found: String,
        /// The kind asked.
        asked: String,
    },
    /// A periodic save failed: the run stopped there, and the final save succeeded.
    #[error("saving during the run failed (what finished is saved now): {0}")]
    SaveDuring(String),
}

/// A run's records as a session keeps them.
pub trait Records {
    /// A finished item: a game, a match, an arena.
    type Item: Send;
    /// The caller's error, into which a session's own failures convert.
    type Error: Send + std::fmt::Display + From<SessionError>;

    /// The run's kind, as its command names it (`match`, `tournament`...).
    fn kind(&self) -> &str;

    /// Keeps a finished item.
    fn add(&mut self, item: Self::Item);

    /// Writes the records into the run's directory `dir` (atomically: a failed save leaves the
    /// last one).
    ///
    /// # Errors
    /// The caller's, when a file cannot be written.
    fn save(&self, dir: &Path) -> Result<(), Self::Error>;
}

/// The run in `dir`: without `resume`, a new one from `new`, refused when the directory
/// already `holds` something (a run's records: `Some("games")`, `Some("a run")`); with
/// `resume`, the one `read` finds there, refused when it is not of kind `kind`.
///
/// # Errors
/// [`SessionError::Exists`], [`SessionError::Resume`] (with `read`'s error) or
/// [`SessionError::OtherKind`], converted; `new`'s own errors.
pub fn open<R: Records>(
    dir: &Path,
    resume: bool,
    kind: &str,
    holds: Option<&str>,
    read: impl FnOnce() -> Result<R, R::Error>,
    new: impl FnOnce() -> Result<R, R::Error>,
) -> Result<R, R::Error> {
    let shown = dir.display().to_string();
    if !resume {
        if let Some(holds) = holds {
            return Err(SessionError::Exists {
                dir: shown,
                holds: holds.to_string(),
            }
            .into());
        }
        return new();
    }
    let records = read().map_err(|e| SessionError::Resume {
        dir: shown.clone(),
        why: e.to_string(),
    })?;
    if records.kind() != kind {
        return Err(SessionError::OtherKind {
            dir: shown,
            found: records.kind().to_string(),
            asked: kind.to_string(),
        }
        .into());
    }
    Ok(records)
}

/// How often a session saves: after `items` new items or `interval` since the last save,
/// whichever comes first.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Saving {
    /// New items.
    pub items: usize,
    /// Time since the last save.
    pub interval: Duration,
}

impl Default for Saving {
    /// Every 30 s.
    fn default() -> Saving {
        Saving {
            items: usize::MAX,
            interval: Duration::from_secs(30),
        }
    }
}

/// One session of a run: its directory, the pool that plays its jobs and how often it saves.
#[derive(Copy, Clone, Debug)]
pub struct Session<'a> {
    /// The run's directory.
    pub dir: &'a Path,
    /// The workers and the stop flag (raised by Ctrl-C, or by `after` to end the run early).
    pub pool: Pool<'a>,
    /// How often the records are saved.
    pub saving: Saving,
}

impl Session<'_> {
    /// Plays `jobs` on the pool (see [`Pool::run`] for `state` and `work`), adding each
    /// finished item to `records` and then calling `after` (progress, an early stop: it may
    /// raise the stop flag), saving as [`Saving`] says and at the end. A failed periodic save
    /// raises the stop flag.
    ///
    /// # Errors
    /// The final save's error; else [`SessionError::SaveDuring`] when a periodic save failed;
    /// else the first job's failure.
    pub fn play<R: Records, J: Sync, S>(
        &self,
        records: &mut R,
        jobs: &[J],
        state: impl Fn(usize) -> S + Sync,
        work: impl Fn(&mut S, &J) -> Result<Option<R::Item>, R::Error> + Sync,
        after: &mut dyn FnMut(&R),
    ) -> Result<(), R::Error> {
        let mut last_save = Instant::now();
        let mut unsaved = 0;
        let mut save_error = None;
        let outcome = self.pool.run(jobs, state, work, &mut |item| {
            records.add(item);
            unsaved += 1;
            after(records);
            if unsaved >= self.saving.items || last_save.elapsed() > self.saving.interval {
                if let Err(e) = records.save(self.dir) {
                    save_error.get_or_insert(e);
                    self.pool.stop.store(true, Ordering::SeqCst);
                }
                unsaved = 0;
                last_save = Instant::now();
            }
        });
        records.save(self.dir)?;
        if let Some(e) = save_error {
            return Err(SessionError::SaveDuring(e.to_string()).into());
        }
        outcome
    }
}

/// A path as a shell reads it back: quoted when it holds white space.
pub fn shell_path(path: &Path) -> String {
    let text = path.display().to_string();
    if text.contains(char::is_whitespace) {
        format!("'{text}'")
    } else {
        text
    }
}

/// `interrupted: 3 of 10 games kept; continue with: pjlab match --out DIR --resume`, when
/// fewer than `scheduled` items (`unit`) are `done`; `command` is the command that resumes the
/// run less its `--out` and `--resume`.
pub fn resume_hint(
    done: usize,
    scheduled: usize,
    unit: &str,
    command: &str,
    dir: &Path,
) -> Option<String> {
    (done < scheduled).then(|| {
        format!(
            "interrupted: {done} of {scheduled} {unit} kept; continue with: {command} --out {} \
             --resume",
            shell_path(dir)
        )
    })
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::pool::Order;

    /// Items in memory; saves counted; a save fails when `fail` holds.
    #[derive(Default)]
    struct Kept {
        kind: String,
        items: Vec<u32>,
        saves: std::cell::Cell<usize>,
        fail: bool,
    }

    impl Records for Kept {
        type Item = u32;
        type Error = String;

        fn kind(&self) -> &str {
            &self.kind
        }

        fn add(&mut self, item: u32) {
            self.items.push(item);
        }

        fn save(&self, _: &Path) -> Result<(), String> {
            self.saves.set(self.saves.get() + 1);
            if self.fail {
                Err("disk full".into())
            } else {
                Ok(())
            }
        }
    }

    impl From<SessionError> for String {
        fn from(e: SessionError) -> String {
            e.to_string()
        }
    }

    fn kept(kind: &str) -> Result<Kept, String> {
        Ok(Kept {
            kind: kind.into(),
            ..Kept::default()
        })
    }

    #[test]
    fn a_run_starts_new_or_resumes_its_own_kind() {
        let dir = Path::new("runs/x");
        let held = Some("a run");
        let err = open(
            dir,
            false,
            "match",
            held,
            || kept("match"),
            || kept("match"),
        );
        assert_eq!(
            err.err().unwrap(),
            "runs/x already holds a run: continue it with --resume, or choose another --out"
        );
        assert!(open(dir, false, "match", None, || kept("x"), || kept("match")).is_ok());
        let err = open(dir, true, "match", held, || kept("arena"), || kept("match"));
        assert_eq!(err.err().unwrap(), "runs/x holds a arena run, not a match");
        let err = open(
            dir,
            true,
            "match",
            held,
            || Err("no file".into()),
            || kept("match"),
        );
        assert_eq!(err.err().unwrap(), "cannot resume from runs/x: no file");
    }

    #[test]
    fn a_session_keeps_every_item_saves_and_stops_on_a_failed_save() {
        let stop = AtomicBool::new(false);
        let session = Session {
            dir: Path::new("."),
            pool: Pool {
                workers: 2,
                order: Order::Scheduled,
                stop: &stop,
            },
            saving: Saving {
                items: 3,
                interval: Duration::from_secs(3600),
            },
        };
        let jobs: Vec<u32> = (0..10).collect();
        let mut records = kept("match").unwrap();
        let mut seen = 0;
        session
            .play(&mut records, &jobs, |_| (), |_, &j| Ok(Some(j)), &mut |r| {
                seen = r.items.len()
            })
            .unwrap();
        assert_eq!(records.items, jobs);
        assert_eq!(seen, 10);
        assert_eq!(records.saves.get(), 3 + 1);
        let mut failing = Kept {
            fail: true,
            ..kept("match").unwrap()
        };
        // Jobs slow enough that the worker sees the flag raised after the third.
        let slow = |_: &mut (), &j: &u32| {
            std::thread::sleep(Duration::from_millis(20));
            Ok(Some(j))
        };
        let one = Session {
            pool: Pool {
                workers: 1,
                ..session.pool
            },
            ..session
        };
        let err = one.play(&mut failing, &jobs, |_| (), slow, &mut |_| {});
        assert_eq!(err, Err("disk full".to_string()));
        assert!(stop.load(Ordering::SeqCst));
        assert!(failing.items.len() < jobs.len());
    }

    #[test]
    fn the_hint_names_what_is_left_and_how_to_continue() {
        assert_eq!(
            resume_hint(3, 10, "games", "pjlab match", Path::new("my runs/a")).unwrap(),
            "interrupted: 3 of 10 games kept; continue with: pjlab match --out 'my runs/a' --resume"
        );
        assert_eq!(
            resume_hint(10, 10, "games", "pjlab match", Path::new("a")),
            None
        );
    }
}
