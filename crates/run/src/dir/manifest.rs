//! `run.json`: what a run directory holds, so that readers (`pjlab report`, the resume checks)
//! dispatch on it instead of guessing from the files present.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::{Error, io_error, json_error, write_atomic};

/// The manifest's file name.
pub const MANIFEST_FILE: &str = "run.json";

/// What kind of run a directory holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RunKind {
    /// Self-play training (`pjlab train`, its distributed learner and actors, `pjlab chifoumi
    /// train`): config, checkpoints, metrics.
    Training,
    /// Games between two players (`pjlab match`, `pjlab chifoumi match`).
    Match,
    /// A round robin (`pjlab tournament`, `pjlab chifoumi tournament`).
    Tournament,
    /// A first-player balance study (`pjlab balance`).
    Balance,
    /// Five-player Chifoumi arenas (`pjlab chifoumi arena`).
    Arena,
    /// Training positions for a learned alpha-beta evaluation (`pjlab nnue data`).
    NnueData,
    /// Generations of a learned alpha-beta evaluation, each gated against the best so far
    /// (`pjlab nnue generations`).
    NnueGenerations,
    /// A Chifoumi player's exploitability (`pjlab chifoumi exploit`): its matches against the
    /// scripted players, a best response trained against it and ISMCTS-BR.
    Exploit,
    /// A balance atlas (`pjlab atlas run`): its file (`atlas.toml`) and one balance run a level
    /// and protocol, and a ladder tournament, each a run directory of its own inside it.
    Atlas,
}

impl RunKind {
    /// The kind's name in `run.json`.
    pub fn name(self) -> &'static str {
        match self {
            RunKind::Training => "training",
            RunKind::Match => "match",
            RunKind::Tournament => "tournament",
            RunKind::Balance => "balance",
            RunKind::Arena => "arena",
            RunKind::NnueData => "nnue-data",
            RunKind::NnueGenerations => "nnue-generations",
            RunKind::Exploit => "exploit",
            RunKind::Atlas => "atlas",
        }
    }
}

/// `run.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// The kind of run.
    pub kind: RunKind,
    /// The game, by its registry name (`pijersi`, `abalone`, `chomp`, `chifoumi`).
    pub game: String,
    /// The manifest's schema version ([`Manifest::SCHEMA`] when written by this build).
    pub schema: u32,
}

impl Manifest {
    /// The schema version this build writes.
    pub const SCHEMA: u32 = 1;

    /// A manifest of this build's schema.
    pub fn new(kind: RunKind, game: &str) -> Manifest {
        Manifest {
            kind,
            game: game.to_string(),
            schema: Self::SCHEMA,
        }
    }

    /// The manifest of the run directory `dir`, if it has one.
    ///
    /// # Errors
    /// [`Error::Io`] when unreadable, [`Error::Json`] when it does not parse,
    /// [`Error::NewerSchema`] when it is of a newer schema.
    pub fn read(dir: &Path) -> Result<Option<Manifest>, Error> {
        let path = dir.join(MANIFEST_FILE);
        if !path.exists() {
            return Ok(None);
        }
        let text = std::fs::read_to_string(&path).map_err(io_error(&path))?;
        let manifest: Manifest = serde_json::from_str(&text).map_err(json_error(&path))?;
        if manifest.schema > Self::SCHEMA {
            return Err(Error::NewerSchema {
                path: path.display().to_string(),
                schema: manifest.schema,
                known: Self::SCHEMA,
            });
        }
        Ok(Some(manifest))
    }

    /// Writes it into `dir` (atomically).
    ///
    /// # Errors
    /// [`Error::Io`] when it cannot be written.
    pub fn write(&self, dir: &Path) -> Result<(), Error> {
        let path = dir.join(MANIFEST_FILE);
        let text = serde_json::to_string_pretty(self).map_err(json_error(&path))?;
        write_atomic(&path, &(text + "\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_reads_back_and_a_newer_schema_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        assert_eq!(Manifest::read(tmp.path()).unwrap(), None);
        let m = Manifest::new(RunKind::Balance, "abalone");
        m.write(tmp.path()).unwrap();
        assert_eq!(Manifest::read(tmp.path()).unwrap(), Some(m));
        let text = std::fs::read_to_string(tmp.path().join(MANIFEST_FILE)).unwrap();
        assert!(text.contains("\"balance\""), "{text}");
        std::fs::write(
            tmp.path().join(MANIFEST_FILE),
            r#"{"kind":"match","game":"chomp","schema":99}"#,
        )
        .unwrap();
        let err = Manifest::read(tmp.path()).unwrap_err().to_string();
        assert!(err.contains("schema 99"), "{err}");
    }
}
