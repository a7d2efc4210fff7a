//! The run's spec: what each generation plays, trains on and is gated by, read from a TOML file
//! and copied into the run's directory before its first game (`config.toml`), so that a
//! resumed run goes on with the same settings.

use std::path::PathBuf;

use pjlab_nnue::train::TrainOptions;
use serde::{Deserialize, Serialize};

use crate::Error;

/// A generations run's settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    /// The game, by its registry name (a game whose crate gives sparse features).
    pub game: String,
    /// Generations to run (each: data, a candidate, its gate). A finished run resumed with a
    /// larger number goes on; nothing else may change on resume.
    pub generations: u32,
    /// The run's seed: each generation's data, training and gate draw from their own streams
    /// of it, so a gate never replays the openings its candidate was trained on.
    #[serde(default = "one")]
    pub seed: u64,
    /// The first best player's network file, if any; none: the game's hand-written evaluation.
    #[serde(default)]
    pub start: Option<PathBuf>,
    /// The best player's own games.
    pub data: DataSpec,
    /// The candidate's training.
    #[serde(default)]
    pub train: TrainSpec,
    /// The match that promotes a candidate or not.
    pub gate: GateSpec,
}

/// The games each generation's best player plays against itself, labelled by its search.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DataSpec {
    /// Games a generation.
    pub games: usize,
    /// Depth of the search choosing each move and labelling each position, in plies.
    pub depth: u32,
    /// Setup variants, played in turn (each game a new seeded setup).
    pub variants: Vec<String>,
    /// Random plies at the start of each game, `[min, max]`.
    #[serde(default = "opening")]
    pub opening: [u32; 2],
    /// Share of the later moves played at random (still labelled), from 0 to 1.
    #[serde(default = "random_moves")]
    pub random_moves: f64,
    /// Longest game, in plies (then abandoned and labelled a draw).
    #[serde(default = "max_plies")]
    pub max_plies: u32,
    /// Generations of data a candidate trains on: this generation's and the ones before it,
    /// up to this many.
    #[serde(default = "one_u32")]
    pub window: u32,
}

/// How a candidate is trained: the network's settings, and which positions it learns from.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainSpec {
    /// Quiet positions only (no tactical move for the side to move).
    #[serde(default)]
    pub quiet: bool,
    /// Leave out positions whose search found a forced result.
    #[serde(default)]
    pub no_forced: bool,
    /// Positions from outside the run that every candidate also trains on, placed before its
    /// window's (so the held-out share stays the window's newest games): data directories
    /// (`pjlab nnue data`'s, or another run's `gen-NNN/data`), paths as `start`'s. None: the
    /// window's only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prior_data: Vec<PathBuf>,
    /// The trainer's options (`hidden`, `l2`, `epochs`, `batch`, `lr`, `lambda`,
    /// `label_scale`, `validation`, `residual`, `weight_decay`); its seed is each generation's
    /// own.
    #[serde(default)]
    pub options: TrainOptions,
}

/// The gate: the candidate against the best, colour pairs on seeded openings, stopped by an
/// SPRT or after `games`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GateSpec {
    /// Both players' search as an agent spec without its evaluation (each gets
    /// `eval=nnue:<its network>`, or the hand-written one): a fixed node or depth budget keeps
    /// the gate's games the same whatever else the machine runs.
    pub player: String,
    /// The most games (even: colour pairs); the SPRT usually stops before.
    pub games: u64,
    /// Setup variants, in turn.
    pub variants: Vec<String>,
    /// Random plies before the players take over (both games of a pair share them).
    #[serde(default = "gate_opening")]
    pub opening_plies: u32,
    /// Plies after which a game is a draw.
    #[serde(default = "max_plies")]
    pub max_plies: u32,
    /// Elo difference under H0 (the candidate is no better).
    #[serde(default)]
    pub elo0: f64,
    /// Elo difference under H1 (the candidate is better by this much).
    #[serde(default = "elo1")]
    pub elo1: f64,
    /// Probability of promoting a candidate that is not better (under H0).
    #[serde(default = "error_rate")]
    pub alpha: f64,
    /// Probability of keeping a candidate that is better by `elo1`.
    #[serde(default = "error_rate")]
    pub beta: f64,
}

fn one() -> u64 {
    1
}
fn one_u32() -> u32 {
    1
}
fn opening() -> [u32; 2] {
    [2, 8]
}
fn random_moves() -> f64 {
    0.05
}
fn max_plies() -> u32 {
    400
}
fn gate_opening() -> u32 {
    4
}
fn elo1() -> f64 {
    10.0
}
fn error_rate() -> f64 {
    0.05
}

impl Spec {
    /// Parses a spec file's text and checks its numbers.
    ///
    /// # Errors
    /// [`Error::Toml`] naming what does not parse, [`Error::Range`] what is out of range.
    pub fn parse(text: &str) -> Result<Spec, Error> {
        let spec: Spec = toml::from_str(text)?;
        spec.check()?;
        Ok(spec)
    }

    /// The spec as TOML (the run's `config.toml`).
    ///
    /// # Errors
    /// [`Error::TomlOut`] if it does not serialise (it always does).
    pub fn to_toml(&self) -> Result<String, Error> {
        Ok(toml::to_string_pretty(self)?)
    }

    /// Checks the numbers a run cannot start with.
    ///
    /// # Errors
    /// [`Error::Range`] naming the first one out of range.
    pub fn check(&self) -> Result<(), Error> {
        let bad = |m: &'static str| Err(Error::Range(m));
        let g = &self.gate;
        if self.generations == 0 {
            return bad("generations must be at least 1");
        }
        if self.data.games == 0 || self.data.depth == 0 || self.data.window == 0 {
            return bad("data.games, data.depth and data.window must be at least 1");
        }
        if self.data.variants.is_empty() || g.variants.is_empty() {
            return bad("data.variants and gate.variants need a variant each");
        }
        if self.data.opening[0] > self.data.opening[1] {
            return bad("data.opening is [min, max] with min <= max");
        }
        if !(0.0..=1.0).contains(&self.data.random_moves) {
            return bad("data.random_moves is a share from 0 to 1");
        }
        if g.games < 2 || !g.games.is_multiple_of(2) {
            return bad("gate.games must be even and at least 2 (colour pairs)");
        }
        if g.player.contains("eval=") {
            return bad("gate.player names the search only: each player gets its own eval=");
        }
        let rate = 0.0..0.5;
        if g.elo1 <= g.elo0 || !rate.contains(&g.alpha) || !rate.contains(&g.beta) {
            return bad("gate needs elo0 < elo1 and error rates alpha, beta in (0, 0.5)");
        }
        if g.alpha <= 0.0 || g.beta <= 0.0 {
            return bad("gate's error rates alpha and beta must be above 0");
        }
        Ok(())
    }

    /// The SPRT of the gate.
    pub fn sprt(&self) -> pjlab_stats::stats::Sprt {
        pjlab_stats::stats::Sprt {
            elo0: self.gate.elo0,
            elo1: self.gate.elo1,
            alpha: self.gate.alpha,
            beta: self.gate.beta,
        }
    }
}
