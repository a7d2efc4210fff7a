//! The training run's configuration: one TOML file, every key optional with a default.
//! `configs/README.md` documents every key with its unit.

use std::path::Path;

use pjlab_selfplay::{SelfPlayConfig, WindowConfig};
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::learner::TrainConfig;
use crate::net::NetConfig;

/// Which game a run trains.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    /// Pijersi, judged against the alpha-beta baseline.
    Pijersi,
    /// Chomp on a small bar, judged by the exact solver.
    Chomp,
}

/// A whole run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RunConfig {
    /// The game.
    pub game: GameKind,
    /// Seed of everything random in the run (weights, setups, searches, batches).
    pub seed: u64,
    /// Iterations (self-play, training, maybe evaluation, checkpoint).
    pub iterations: u32,
    /// Self-play games per iteration.
    pub games_per_iteration: usize,
    /// Worker threads for self-play and evaluation (one core each).
    pub workers: usize,
    /// Positions each worker's evaluator caches.
    pub cache_positions: usize,
    /// Network shape.
    pub network: NetConfig,
    /// Self-play search and play.
    pub selfplay: SelfPlayConfig,
    /// Replay window.
    pub window: WindowConfig,
    /// Optimiser and losses.
    pub train: TrainConfig,
    /// Pijersi settings.
    pub pijersi: PijersiConfig,
    /// Chomp settings.
    pub chomp: ChompConfig,
    /// Periodic evaluation.
    pub eval: EvalConfig,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            game: GameKind::Pijersi,
            seed: 1,
            iterations: 10,
            games_per_iteration: 64,
            workers: 2,
            cache_positions: 200_000,
            network: NetConfig::default(),
            selfplay: SelfPlayConfig::default(),
            window: WindowConfig::default(),
            train: TrainConfig::default(),
            pijersi: PijersiConfig::default(),
            chomp: ChompConfig::default(),
            eval: EvalConfig::default(),
        }
    }
}

/// Pijersi settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PijersiConfig {
    /// Setup mix for self-play: `variant:weight,...` over classic, full-random, half-random,
    /// pijersi-24, pijersi-36, pijersi-1296, pijersi-8100.
    pub setups: String,
}

impl Default for PijersiConfig {
    fn default() -> Self {
        PijersiConfig {
            setups: "classic:1,half-random:4,full-random:2,pijersi-8100:1".into(),
        }
    }
}

/// Chomp settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ChompConfig {
    /// Rows of the bar.
    pub rows: usize,
    /// Columns of the bar.
    pub cols: usize,
    /// Share of games (0..=1) starting from a random diagram instead of the full bar.
    pub random_share: f64,
}

impl Default for ChompConfig {
    fn default() -> Self {
        ChompConfig {
            rows: 5,
            cols: 6,
            random_share: 0.5,
        }
    }
}

/// Periodic evaluation: Pijersi against the alpha-beta baseline on colour-paired setups; Chomp
/// by the exact solver.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EvalConfig {
    /// Evaluate every this many iterations (and after the last); 0 only after the last.
    pub every: u32,
    /// Setups per evaluation, each played twice with colours swapped.
    pub pairs: usize,
    /// Depth of the alpha-beta baseline, in plies.
    pub depth: u32,
    /// Simulations a move of the network player.
    pub simulations: u32,
    /// Setup variant of the evaluation games.
    pub variant: String,
    /// Games longer than this many plies are scored as draws.
    pub max_plies: u32,
}

impl Default for EvalConfig {
    fn default() -> Self {
        EvalConfig {
            every: 2,
            pairs: 16,
            depth: 2,
            simulations: 64,
            variant: "half-random".into(),
            max_plies: 300,
        }
    }
}

impl RunConfig {
    /// Parses a TOML configuration.
    ///
    /// # Errors
    /// [`Error::Config`] on TOML errors, unknown keys or values out of range.
    pub fn from_toml(text: &str) -> Result<RunConfig, Error> {
        let config: RunConfig = toml::from_str(text).map_err(|e| Error::Config(e.to_string()))?;
        config.validate()?;
        Ok(config)
    }

    /// Reads a TOML configuration file.
    ///
    /// # Errors
    /// [`Error::Io`] when unreadable, else as [`RunConfig::from_toml`].
    pub fn from_file(path: &Path) -> Result<RunConfig, Error> {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
            path: path.display().to_string(),
            source,
        })?;
        RunConfig::from_toml(&text).map_err(|e| Error::Config(format!("{}: {e}", path.display())))
    }

    /// The configuration as TOML.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).unwrap_or_default()
    }

    /// Checks values that parse but make no sense.
    ///
    /// # Errors
    /// [`Error::Config`] naming the key.
    pub fn validate(&self) -> Result<(), Error> {
        let bad = |key: &str, why: &str| Err(Error::Config(format!("{key}: {why}")));
        if self.games_per_iteration == 0 {
            return bad("games_per_iteration", "must be at least 1");
        }
        if self.workers == 0 {
            return bad("workers", "must be at least 1");
        }
        if self.network.layers == 0 || self.network.hidden == 0 {
            return bad("network", "layers and hidden must be at least 1");
        }
        if self.train.batch_size == 0 {
            return bad("train.batch_size", "must be at least 1");
        }
        if !(self.train.learning_rate > 0.0 && self.train.learning_rate.is_finite()) {
            return bad("train.learning_rate", "must be a positive number");
        }
        if !(self.train.train_ratio >= 0.0 && self.train.train_ratio.is_finite()) {
            return bad("train.train_ratio", "must be >= 0");
        }
        if !(0.0..=1.0).contains(&self.selfplay.full_search_share) {
            return bad("selfplay.full_search_share", "must be within 0..=1");
        }
        if !(0.0..=1.0).contains(&self.selfplay.playout_share) {
            return bad("selfplay.playout_share", "must be within 0..=1");
        }
        if self.selfplay.simulations == 0 || self.selfplay.games_in_flight == 0 {
            return bad(
                "selfplay",
                "simulations and games_in_flight must be at least 1",
            );
        }
        if self.window.max_uses == 0 {
            return bad("window.max_uses", "must be at least 1");
        }
        if self.window.max_size < self.window.min_size {
            return bad("window.max_size", "must be at least window.min_size");
        }
        if self.game == GameKind::Pijersi {
            pjlab_selfplay::PijersiSetups::parse(&self.pijersi.setups).map_err(Error::Config)?;
            if self.eval.variant.parse::<pjlab_pijersi::Variant>().is_err() {
                return bad("eval.variant", "unknown setup variant");
            }
        } else {
            pjlab_selfplay::ChompSetups::new(
                self.chomp.rows,
                self.chomp.cols,
                self.chomp.random_share,
            )
            .map_err(|e| Error::Config(e.to_string()))?;
        }
        Ok(())
    }
}
