//! The lab's statistics and plots, shared by the arena and training (neither depends on the
//! other for them).
//!
//! - [`stats`]: Wilson intervals, win-draw-loss tallies, BayesElo-style maximum-likelihood
//!   ratings with draws and a first-mover advantage, the SPRT, the chi-square test of
//!   homogeneity, Holm's adjustment for a family of tests, the median.
//! - [`scores`]: tests on mean scores across groups (one-way F test), the largest difference the
//!   games do not exclude, games needed for a given power.
//! - [`plot`]: SVG line charts and interval charts.
//! - [`table`]: Markdown tables and cross tables as the reports write them.
//!
//! ```
//! let (low, high) = pjlab_stats::stats::wilson(7.0, 10.0);
//! assert!(low < 0.7 && 0.7 < high);
//! ```

pub mod plot;
pub mod scores;
pub mod stats;
pub mod table;

/// What can go wrong: a chart that cannot be drawn.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be written.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// What failed.
        message: String,
    },
}
