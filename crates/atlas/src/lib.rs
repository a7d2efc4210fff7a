//! A balance atlas: first-player balance of a game's setup variants measured at several strength
//! levels under several opening protocols, plus a round robin of the levels that puts them on
//! one Elo ladder (`pjlab atlas`).
//!
//! - [`spec`]: the atlas file ([`Atlas`]), expanded into [`Cell`]s, each an ordinary balance run
//!   (the ladder a tournament) of `pjlab-arena` in a directory of its own.
//! - [`drive`]: the atlas's directory opened ([`open`]), its cells played in order, each run to
//!   its end by `pjlab-arena` ([`run`]), counted ([`status`]), its shards joined ([`merge`]).
//! - [`report`]: `report.md`, `atlas.csv` and the charts, from the cells' records ([`results`]);
//!   [`publish`] adds `index.html` ([`page`]) and example games drawn as boards.
//!
//! ```
//! let text = r#"
//! game = "chomp"
//! seed = 1
//! [[levels]]
//! name = "d1"
//! agent = "alphabeta:depth=1"
//! [[protocols]]
//! name = "plain"
//! [[protocols.runs]]
//! variants = ["3x4"]
//! games_per_variant = 10
//! opening_plies = 0
//! "#;
//! let atlas = pjlab_atlas::Atlas::parse(text).unwrap();
//! assert_eq!(atlas.cells().len(), 1);
//! ```

use std::path::{Path, PathBuf};

mod answer;
mod charts;
mod compare;
mod cost;
pub mod drive;
pub mod page;
mod rank;
pub mod report;
pub mod results;
mod sections;
pub mod spec;
mod text;

pub use drive::{
    CellStatus, DrawGame, Event, Merged, Opened, Published, Ran, RunOptions, merge, open,
    open_shards, publish, run, status,
};
pub use spec::{Atlas, AtlasError, Cell, Invalid, Ladder, Level, Protocol, ProtocolRun, SPEC_FILE};

/// What can go wrong with an atlas: its file, its directory, a cell's run or its report. A
/// variant's `cause` is part of its message, not chained as a source, so that it prints once.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The atlas file `path` is not a valid atlas.
    #[error("{path}: {cause}")]
    Spec {
        /// The file.
        path: PathBuf,
        /// Why.
        cause: AtlasError,
    },
    /// The directory holds another atlas than the file given.
    #[error(
        "{dir} holds another atlas than {spec}: give a new --out, or leave out --spec to go on \
         with the one there"
    )]
    OtherAtlas {
        /// The atlas's directory.
        dir: PathBuf,
        /// The file given.
        spec: PathBuf,
    },
    /// The directory holds no atlas and no file was given.
    #[error("{0} holds no atlas (atlas.toml): start it with --spec FILE")]
    NoAtlas(PathBuf),
    /// Two shards of an atlas hold different atlases.
    #[error("{0} and {1} hold different atlases")]
    DifferentShards(PathBuf, PathBuf),
    /// `--only` names no level of the atlas.
    #[error("--only {name}: no such level (the atlas's are {known}, and ladder)")]
    UnknownLevel {
        /// The name given.
        name: String,
        /// The atlas's levels, comma-separated.
        known: String,
    },
    /// A cell's directory holds a run of other options than the atlas gives it.
    #[error(
        "{0} was started with other options than the atlas gives its cell (players, variants, \
         games, seed, openings or shard)"
    )]
    CellOptions(PathBuf),
    /// A level's agent cannot be built.
    #[error("level {level}: {cause}")]
    Agent {
        /// The level's label.
        level: String,
        /// Why.
        cause: pjlab_core::BoxError,
    },
    /// A cell's schedule, records, run or report.
    #[error(transparent)]
    Arena(#[from] pjlab_arena::Error),
    /// A cell's schedule, named by the cell.
    #[error("{cell}: {cause}")]
    Cell {
        /// The cell's directory, relative to the atlas's.
        cell: PathBuf,
        /// Why.
        cause: pjlab_arena::Error,
    },
    /// The atlas's directory as a run: its lock (another process plays it), another run in it,
    /// its `run.json` or file not written.
    #[error(transparent)]
    Run(#[from] pjlab_run::Error),
    /// A chart could not be drawn.
    #[error(transparent)]
    Plot(#[from] pjlab_stats::Error),
    /// A cell's games could not be read for its example games.
    #[error("{cell}: {cause}")]
    Games {
        /// The cell's directory.
        cell: PathBuf,
        /// Why.
        cause: pjlab_selfplay::Error,
    },
    /// An example game could not be drawn as a board.
    #[error("example game {index} of {cell}: {cause}")]
    Board {
        /// The cell's directory.
        cell: PathBuf,
        /// The game's index in its games file.
        index: usize,
        /// Why.
        cause: pjlab_core::BoxError,
    },
    /// A file or directory could not be read or written.
    #[error("{path}: {cause}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        cause: std::io::Error,
    },
}

/// The [`Error::Io`] of `path`.
pub(crate) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> Error + '_ {
    move |cause| Error::Io {
        path: path.to_path_buf(),
        cause,
    }
}
