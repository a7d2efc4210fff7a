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
    /// A bad setting.
    #[error("config: {0}")]
    Config(String),
    /// Reading or writing records failed.
    #[error("records: {0}")]
    Record(String),
}
