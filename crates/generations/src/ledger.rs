//! `generations.jsonl`: one line a decided generation, read under the run directory's metrics
//! policy ([`pjlab_run::dir::MetricsLog`]), and the process CPU time each step is charged.

use serde::{Deserialize, Deserializer, Serialize};

/// Reads a number JSON wrote as `null` (NaN: a figure the system or the data could not give)
/// back as NaN.
fn nan_if_null<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
}

/// [`nan_if_null`] for each of three numbers.
fn nans_if_null<'de, D: Deserializer<'de>>(d: D) -> Result<[f64; 3], D::Error> {
    let values = <[Option<f64>; 3]>::deserialize(d)?;
    Ok(values.map(|v| v.unwrap_or(f64::NAN)))
}

/// A decided generation: what its data, training and gate gave, and whether its candidate was
/// promoted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Generation {
    /// The generation, from 1.
    pub generation: u32,
    /// The generation whose network was the best when this one started (0: the spec's start).
    pub best: u32,
    /// The best player's games.
    pub data: DataFigures,
    /// The candidate's training.
    pub train: TrainFigures,
    /// The candidate against the best.
    pub gate: GateFigures,
    /// Whether the candidate became the best.
    pub promoted: bool,
}

impl pjlab_run::dir::MetricsLine for Generation {
    fn iteration(&self) -> u32 {
        self.generation
    }
}

/// A generation's data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DataFigures {
    /// Games played.
    pub games: usize,
    /// Positions labelled.
    pub positions: usize,
    /// Process CPU seconds spent playing them, where the system says: a step resumed after a
    /// stop adds what the earlier sessions spent, as the positions table records it
    /// (`pjlab_nnue::data::CPU_KEY`); a table of an earlier build does not, and its step counts
    /// the session that finished it alone, as the other steps' figures do.
    #[serde(deserialize_with = "nan_if_null")]
    pub cpu_seconds: f64,
}

/// A candidate's training.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainFigures {
    /// Positions trained on (the data window's, after the filters).
    pub positions: usize,
    /// The pass kept (lowest held-out loss), from 1.
    pub kept_epoch: usize,
    /// Its held-out loss.
    #[serde(deserialize_with = "nan_if_null")]
    pub validation: f64,
    /// The hand-written evaluation's loss on the same held-out positions.
    #[serde(deserialize_with = "nan_if_null")]
    pub reference: f64,
    /// Process CPU seconds.
    #[serde(deserialize_with = "nan_if_null")]
    pub cpu_seconds: f64,
}

/// A gate's match, the candidate's view.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GateFigures {
    /// Games played.
    pub games: usize,
    /// Wins, draws and losses of the candidate.
    pub wdl: [u64; 3],
    /// The candidate's score and its 95% Wilson interval, from 0 to 1.
    #[serde(deserialize_with = "nans_if_null")]
    pub score: [f64; 3],
    /// The Elo difference (candidate minus best) the score gives, with the interval's.
    #[serde(deserialize_with = "nans_if_null")]
    pub elo: [f64; 3],
    /// The SPRT's log-likelihood ratio and its lower and upper bounds.
    #[serde(deserialize_with = "nans_if_null")]
    pub llr: [f64; 3],
    /// `H1` (better: promoted), `H0` (not better) or `cap` (the games ran out first: kept).
    pub decision: String,
    /// Process CPU seconds.
    #[serde(deserialize_with = "nan_if_null")]
    pub cpu_seconds: f64,
}

impl Generation {
    /// The CPU seconds of the whole generation.
    pub fn cpu_seconds(&self) -> f64 {
        self.data.cpu_seconds + self.train.cpu_seconds + self.gate.cpu_seconds
    }
}
