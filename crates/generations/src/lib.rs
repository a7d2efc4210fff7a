//! Generations of a learned alpha-beta evaluation that improve themselves, as chess engines
//! improve their networks: the best player so far plays games against itself, labelled by its
//! search and the results ([`pjlab_nnue::data`]); a candidate network is trained on them
//! ([`pjlab_nnue::train`]); the candidate plays the best in colour pairs until an SPRT decides
//! (or a games cap is reached) on the arena's match ([`pjlab_arena::session`]); it is promoted
//! if H1 is accepted, kept out otherwise; and so on.
//!
//! A run is a directory ([`pjlab_run::dir`], kind `nnue-generations`):
//!
//! ```text
//! run.json, .lock, provenance.jsonl
//! config.toml          the spec (see [`Spec`]), written before the first game
//! generations.jsonl    one line a decided generation ([`Generation`])
//! gen-NNN/data/        the best player's games of generation NNN (a `pjlab nnue data` run)
//! gen-NNN/net.nnue     its candidate (and net.nnue.card.json)
//! gen-NNN/gate/        the candidate against the best (a `pjlab match` run: games, report)
//! report.md, plots/    the generations' table and Elo against CPU-hours ([`report`])
//! ```
//!
//! Every step resumes where it stopped: the data and gate runs keep their finished games, a
//! candidate is written whole or not at all, and a generation is decided once. The best
//! player is the last promoted candidate (or the spec's start), read from the ledger.
//!
//! No Burn: the networks are `pjlab-nnue`'s, trained by its small trainer.

mod ledger;
pub mod report;
mod run;
mod spec;
mod steps;

pub use ledger::{DataFigures, GateFigures, Generation, TrainFigures};
pub use pjlab_run::cpu_seconds;
pub use run::{Event, Outcome, Step, run};
pub use spec::{DataSpec, GateSpec, Spec, TrainSpec};

/// The ledger's file name in the run's directory.
pub const LEDGER_FILE: &str = "generations.jsonl";

/// What can go wrong in a generations run.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The spec is not TOML, or has an unknown key or a value of the wrong type.
    #[error("spec: {0}")]
    Toml(#[from] toml::de::Error),
    /// The spec cannot be written as TOML.
    #[error("spec: {0}")]
    TomlOut(#[from] toml::ser::Error),
    /// A number of the spec out of range (what it must be).
    #[error("spec: {0}")]
    Range(&'static str),
    /// A spec for another game than the one asked.
    #[error("spec: the spec is for {spec}, not {game}")]
    OtherGame {
        /// The spec's game.
        spec: String,
        /// The game asked.
        game: &'static str,
    },
    /// A game without sparse features, so without a learned evaluation.
    #[error("spec: {0} has no sparse features for a learned evaluation")]
    NoFeatures(&'static str),
    /// A `train.prior_data` entry that is not a directory.
    #[error(
        "spec: train.prior_data: {} is not a directory (of `pjlab nnue data` or a run's \
         gen-NNN/data)",
        .0.display()
    )]
    NoPriorData(std::path::PathBuf),
    /// A generation whose data hold no position to train on.
    #[error(
        "spec: generation {0} has no positions to train on (data.games, or the filters, leave \
         none)"
    )]
    NoPositions(u32),
    /// A directory without a generations run's `config.toml`.
    #[error("spec: {} has no config.toml: not a generations run", .0.display())]
    NotGenerations(std::path::PathBuf),
    /// The run directory: locked by another process, another kind of run or another spec,
    /// unwritable, or a ledger that does not read.
    #[error(transparent)]
    Run(#[from] pjlab_run::Error),
    /// A network, its data or its training.
    #[error(transparent)]
    Nnue(#[from] pjlab_nnue::Error),
    /// The gate's match.
    #[error("gate: {0}")]
    Gate(#[from] pjlab_arena::Error),
    /// The game's kit refused (a variant's name, its evaluation).
    #[error(transparent)]
    Game(#[from] pjlab_core::Error),
    /// A file of the run could not be written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A chart could not be drawn.
    #[error(transparent)]
    Plot(#[from] pjlab_stats::Error),
}

/// The [`Error::Io`] of `path`.
pub(crate) fn io(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> Error + '_ {
    move |source| Error::Io {
        path: path.display().to_string(),
        source,
    }
}
