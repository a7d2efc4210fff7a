//! Self-play data without the network library: lock-step self-play over any
//! [`pjlab_mcts::Evaluator`] from any game's [`pjlab_core::Setups`], Parquet records of games and
//! positions, and the replay window that training samples from. It knows no particular game:
//! encoders and setups live in the games' crates (behind `pjlab_core`'s traits).
//!
//! The Burn network and the training loop live in `pjlab-train`; keeping them out of this crate
//! lets its tests build in seconds.

pub mod play;
pub mod record;
pub mod replay;

pub use play::{FinishedGame, Sample, SelfPlayConfig, SelfPlayStats, Termination, play_games};
pub use record::{
    GameRow, PositionRow, check_columns, list_of, read_games, read_metadata, read_positions,
    temporary_beside, write_game_rows, write_games,
};
pub use replay::{ReplayWindow, WindowConfig};

/// Errors of self-play data handling.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A games or positions table that cannot be written or read: I/O, another schema, a
    /// missing or mistyped column.
    #[error("records: {0}")]
    Table(#[from] pjlab_run::table::Error),
    /// A row that does not fit the columns of the table being written at `path`.
    #[error("records: {path}: {cause}")]
    Row {
        /// The table's file.
        path: String,
        /// What does not fit.
        cause: pjlab_run::table::SchemaError,
    },
    /// A position text in a positions table that the game does not read.
    #[error("records: position {text:?}: {cause}")]
    Position {
        /// The text.
        text: String,
        /// The game's reason.
        cause: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A saved replay window whose use counts are not one a row.
    #[error("records: window of {rows} rows but {uses} use counts")]
    WindowCounts {
        /// The rows saved.
        rows: usize,
        /// The use counts saved.
        uses: usize,
    },
}
