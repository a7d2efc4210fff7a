//! Opening a run directory, one sequence for every kind of run: [`Opener::lock`] creates the
//! directory, locks it and refuses a directory whose manifest names another kind of run or
//! another game; the run then checks what it may resume ([`Opening::resume_config`], and what
//! else is its own: its records, its positions) before anything is written; [`Opening::commit`]
//! writes the manifest, the config snapshot and this invocation's provenance, and hands back the
//! [`OpenRun`], which holds the lock until dropped.
//!
//! A directory written before manifests (no `run.json`) opens as any kind: its manifest is
//! written at the commit. Nothing else is required of a directory that is resumed.
//!
//! ```
//! use pjlab_run::dir::{Opener, RunKind};
//!
//! let tmp = tempfile::tempdir().unwrap();
//! let config = (10u32, "depth=2");
//! let mut opening = Opener::new(RunKind::Training, "chomp", "pjlab train")
//!     .sub_dirs(&["checkpoints"])
//!     .lock(tmp.path().join("run"))
//!     .unwrap();
//! opening
//!     .resume_config::<_, pjlab_run::Error>(None, &config, "iterations = 10\n".into(), |_, _| {}, "nothing")
//!     .unwrap();
//! let run = opening.commit().unwrap();
//! assert_eq!(run.dir().manifest().unwrap().unwrap().kind, RunKind::Training);
//! // Another kind of run in the same directory is refused.
//! drop(run);
//! let refused = Opener::new(RunKind::Match, "chomp", "pjlab match").lock(tmp.path().join("run"));
//! assert!(refused.unwrap_err().to_string().contains("holds a training run of chomp"));
//! ```

use std::path::PathBuf;

use pjlab_core::Provenance;

use crate::dir::{CONFIG_FILE, Manifest, PROVENANCE_KEY, RunDir, RunKind, RunLock};
use crate::{Error, write_atomic};

/// How a run directory is opened: the run's kind and game, the command that holds its lock,
/// the sub-directories it needs, its config snapshot's file and the provenance it records.
#[derive(Clone, Copy, Debug)]
pub struct Opener<'a> {
    kind: RunKind,
    game: &'a str,
    command: &'a str,
    sub_dirs: &'a [&'a str],
    config_file: &'a str,
    provenance: Option<&'a Provenance>,
}

impl<'a> Opener<'a> {
    /// A run of `kind` of the game `game` (its registry name), locked for `command` (as a second
    /// process is told: `pjlab train`); no sub-directories, the snapshot in `config.toml`, no
    /// provenance line.
    pub fn new(kind: RunKind, game: &'a str, command: &'a str) -> Opener<'a> {
        Opener {
            kind,
            game,
            command,
            sub_dirs: &[],
            config_file: CONFIG_FILE,
            provenance: None,
        }
    }

    /// The sub-directories made when the directory is locked (`checkpoints`, `plots`).
    pub fn sub_dirs(self, sub_dirs: &'a [&'a str]) -> Opener<'a> {
        Opener { sub_dirs, ..self }
    }

    /// The config snapshot's file name (`config.toml` unless set: the atlas keeps its file).
    pub fn config_file(self, config_file: &'a str) -> Opener<'a> {
        Opener {
            config_file,
            ..self
        }
    }

    /// The provenance appended to `provenance.jsonl` at the commit (runs that keep theirs in
    /// their records' footers set none).
    pub fn provenance(self, provenance: &'a Provenance) -> Opener<'a> {
        Opener {
            provenance: Some(provenance),
            ..self
        }
    }

    /// Creates the directory `path` (with its parents) if missing, locks it, refuses it when its
    /// manifest names another kind of run or another game, and makes the sub-directories.
    /// Nothing of the run is written yet.
    ///
    /// # Errors
    /// [`Error::Io`] when the directory cannot be made, [`Error::Busy`] when another process
    /// holds it, [`Error::OtherRun`] when it holds another run, [`Error::Json`] when its
    /// manifest does not read.
    pub fn lock(self, path: impl Into<PathBuf>) -> Result<Opening<'a>, Error> {
        let dir = RunDir::create(path)?;
        let lock = dir.lock(self.command)?;
        let found = dir.manifest()?;
        if let Some(found) = &found
            && (found.kind != self.kind || found.game != self.game)
        {
            return Err(Error::OtherRun {
                dir: dir.path().display().to_string(),
                found: found.kind,
                found_game: found.game.clone(),
                kind: self.kind,
                game: self.game.to_string(),
            });
        }
        for sub in self.sub_dirs {
            dir.sub_dir(sub)?;
        }
        Ok(Opening {
            dir,
            lock,
            opener: self,
            found,
            config: None,
        })
    }
}

/// A run directory locked and checked, nothing of the run written yet (see [`Opener::lock`]).
#[derive(Debug)]
pub struct Opening<'a> {
    dir: RunDir,
    lock: RunLock,
    opener: Opener<'a>,
    found: Option<Manifest>,
    config: Option<String>,
}

impl Opening<'_> {
    /// The directory.
    pub fn dir(&self) -> &RunDir {
        &self.dir
    }

    /// The manifest the directory held when it was locked (`None`: a new run, or one written
    /// before manifests).
    pub fn found(&self) -> Option<&Manifest> {
        self.found.as_ref()
    }

    /// Checks that `config` may continue the run whose snapshot parsed as `previous` (`None`: a
    /// new run; see [`RunDir::check_resume`] for `resumable` and `allowed`), and keeps `text`,
    /// the config as written, for the commit.
    ///
    /// # Errors
    /// [`Error::OtherConfig`] when they differ.
    pub fn resume_config<C: Clone + PartialEq, E: From<Error>>(
        &mut self,
        previous: Option<C>,
        config: &C,
        text: String,
        resumable: impl FnOnce(&mut C, &C),
        allowed: &str,
    ) -> Result<(), E> {
        self.dir
            .check_resume(previous, config, resumable, allowed)?;
        self.config = Some(text);
        Ok(())
    }

    /// Keeps `text` as the config snapshot to write at the commit, for a run that checks its
    /// own snapshot (the atlas's file against the directory's).
    pub fn snapshot(&mut self, text: String) {
        self.config = Some(text);
    }

    /// Writes the manifest, the config snapshot (when one was given) and this invocation's
    /// provenance line (when the opener has one).
    ///
    /// # Errors
    /// [`Error::Io`] when a file cannot be written.
    pub fn commit(self) -> Result<OpenRun, Error> {
        let Opening {
            dir,
            lock,
            opener,
            config,
            ..
        } = self;
        dir.write_manifest(&Manifest::new(opener.kind, opener.game))?;
        if let Some(text) = &config {
            write_atomic(&dir.join(opener.config_file), text)?;
        }
        let provenance = opener
            .provenance
            .map(|p| dir.append_provenance(p))
            .transpose()?;
        Ok(OpenRun {
            dir,
            _lock: lock,
            provenance,
        })
    }
}

/// An open run directory: its manifest, config and provenance written, locked until dropped.
#[derive(Debug)]
pub struct OpenRun {
    dir: RunDir,
    _lock: RunLock,
    provenance: Option<String>,
}

impl OpenRun {
    /// The directory.
    pub fn dir(&self) -> &RunDir {
        &self.dir
    }

    /// The provenance line appended at the commit, as JSON text (`None` when none was).
    pub fn provenance(&self) -> Option<&str> {
        self.provenance.as_deref()
    }

    /// Key-value pairs for the footers of the Parquet files the run writes: the provenance under
    /// [`PROVENANCE_KEY`] (none without one).
    pub fn footer(&self) -> Vec<(String, String)> {
        self.provenance
            .iter()
            .map(|p| (PROVENANCE_KEY.to_string(), p.clone()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dir::PROVENANCE_FILE;

    fn training(game: &str) -> Opener<'_> {
        Opener::new(RunKind::Training, game, "pjlab train")
    }

    fn open(path: &std::path::Path, config: (u32, u32)) -> Result<OpenRun, Error> {
        let mut opening = training("chomp").sub_dirs(&["checkpoints"]).lock(path)?;
        let previous = opening.dir().config_text()?.map(|t| {
            let (a, b) = t.trim().split_once(' ').unwrap();
            (a.parse().unwrap(), b.parse().unwrap())
        });
        opening.resume_config::<_, Error>(
            previous,
            &config,
            format!("{} {}\n", config.0, config.1),
            |previous, now| previous.0 = now.0,
            "`iterations`",
        )?;
        opening.commit()
    }

    #[test]
    fn a_run_is_written_once_checked_and_resumes_with_what_may_change() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("a/run");
        let run = open(&path, (1, 2)).unwrap();
        assert!(path.join("checkpoints").is_dir());
        assert_eq!(
            run.dir().manifest().unwrap(),
            Some(Manifest::new(RunKind::Training, "chomp"))
        );
        assert_eq!(
            std::fs::read_to_string(path.join(CONFIG_FILE)).unwrap(),
            "1 2\n"
        );
        assert!(run.footer().is_empty());
        drop(run);
        // The iterations may change on resume; the snapshot then says the new ones.
        open(&path, (5, 2)).unwrap();
        assert_eq!(
            std::fs::read_to_string(path.join(CONFIG_FILE)).unwrap(),
            "5 2\n"
        );
    }

    #[test]
    fn a_resume_whose_config_differs_is_refused_and_writes_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        drop(open(tmp.path(), (1, 2)).unwrap());
        let err = open(tmp.path(), (1, 3)).unwrap_err();
        assert!(matches!(err, Error::OtherConfig { .. }), "{err:?}");
        assert!(err.to_string().contains("another configuration"), "{err}");
        assert!(
            err.to_string().contains("only `iterations` may change"),
            "{err}"
        );
        assert_eq!(
            std::fs::read_to_string(tmp.path().join(CONFIG_FILE)).unwrap(),
            "1 2\n"
        );
    }

    #[test]
    fn another_kind_or_another_game_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        drop(
            training("chomp")
                .lock(tmp.path())
                .unwrap()
                .commit()
                .unwrap(),
        );
        let err = Opener::new(RunKind::Match, "chomp", "pjlab match")
            .lock(tmp.path())
            .unwrap_err();
        assert!(
            matches!(
                err,
                Error::OtherRun {
                    found: RunKind::Training,
                    kind: RunKind::Match,
                    ..
                }
            ),
            "{err:?}"
        );
        assert!(
            err.to_string()
                .contains("holds a training run of chomp, not a match run of chomp"),
            "{err}"
        );
        let err = training("pijersi").lock(tmp.path()).unwrap_err();
        assert!(
            err.to_string()
                .contains("of chomp, not a training run of pijersi"),
            "{err}"
        );
        // The run's own kind and game open again.
        training("chomp").lock(tmp.path()).unwrap();
    }

    #[test]
    fn a_second_process_is_refused_while_the_first_holds_the_run() {
        let tmp = tempfile::tempdir().unwrap();
        let first = training("chomp")
            .lock(tmp.path())
            .unwrap()
            .commit()
            .unwrap();
        let err = training("chomp").lock(tmp.path()).unwrap_err();
        assert!(matches!(err, Error::Busy(_)), "{err:?}");
        assert!(
            err.to_string()
                .contains(&format!("in use by process {}", std::process::id())),
            "{err}"
        );
        // Refused while locked and checking: an opening holds the lock too.
        drop(first);
        let opening = training("chomp").lock(tmp.path()).unwrap();
        assert!(matches!(
            training("chomp").lock(tmp.path()),
            Err(Error::Busy(_))
        ));
        drop(opening);
        training("chomp").lock(tmp.path()).unwrap();
    }

    #[test]
    fn a_directory_without_a_manifest_opens_and_gets_one_with_its_provenance() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("metrics.jsonl"), "").unwrap();
        let provenance = Provenance {
            command: "pjlab train".into(),
            ..Default::default()
        };
        let opening = training("chomp")
            .provenance(&provenance)
            .lock(tmp.path())
            .unwrap();
        assert_eq!(opening.found(), None);
        let run = opening.commit().unwrap();
        let line = run.provenance().unwrap().to_string();
        assert_eq!(
            run.footer(),
            vec![(PROVENANCE_KEY.to_string(), line.clone())]
        );
        let text = std::fs::read_to_string(tmp.path().join(PROVENANCE_FILE)).unwrap();
        assert_eq!(text, line + "\n");
        assert!(!tmp.path().join(CONFIG_FILE).exists());
        assert_eq!(
            Manifest::read(tmp.path()).unwrap(),
            Some(Manifest::new(RunKind::Training, "chomp"))
        );
    }

    #[test]
    fn a_snapshot_goes_into_the_file_the_opener_names() {
        let tmp = tempfile::tempdir().unwrap();
        let mut opening = Opener::new(RunKind::Atlas, "abalone", "pjlab atlas run")
            .config_file("atlas.toml")
            .lock(tmp.path())
            .unwrap();
        opening.snapshot("game = \"abalone\"\n".into());
        opening.commit().unwrap();
        assert!(tmp.path().join("atlas.toml").exists());
        assert!(!tmp.path().join(CONFIG_FILE).exists());
        assert!(
            std::fs::read_to_string(tmp.path().join("run.json"))
                .unwrap()
                .contains("\"atlas\"")
        );
    }
}
