//! `metrics.jsonl` of a Chifoumi training run and its plots: the league's
//! ([`pjlab_league::metrics`]).

pub use pjlab_league::metrics::{IterationLog, plot, read_metrics};
