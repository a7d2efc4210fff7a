//! Self-play data without the network library: encoders (what the network sees), lock-step
//! self-play over any [`pjlab_mcts::Evaluator`], Parquet records of games and positions, and
//! the replay window that training samples from.
//!
//! The Burn network and the training loop live in `pjlab-train`; keeping them out of this crate
//! lets its tests build in seconds.

pub mod encode;
pub mod play;
pub mod record;
pub mod replay;
pub mod setups;

pub use encode::{ChompEncoder, Encoder, EncoderId, PijersiEncoder};
pub use play::{FinishedGame, Sample, SelfPlayConfig, SelfPlayStats, Termination, play_games};
pub use record::{
    GameRow, PositionRow, read_games, read_metadata, read_positions, write_game_rows, write_games,
};
pub use replay::{ReplayWindow, WindowConfig};
pub use setups::{ChompSetups, PijersiSetups, Setups, Start};

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
