//! What the league's loop reads of a game's training config.

use pjlab_nn::NetConfig;
use pjlab_nn::pg::PgOptions;

use crate::Error;

/// The settings every league run has, as the game's config gives them (its keys, units and
/// defaults are documented there: `configs/chifoumi.toml` for Chifoumi).
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Iterations to run (iterations). Only this may change when a run resumes.
    pub iterations: u32,
    /// The run's seed: network initialisation, opponents, matches.
    pub seed: u64,
    /// Matches the learner plays each iteration (matches).
    pub matches_per_iteration: u32,
    /// The network's shape (hidden width and layers).
    pub network: NetConfig,
    /// Start from the weights of this checkpoint (a checkpoint directory or a run directory,
    /// its newest) with a fresh AdamW state, instead of weights drawn from `seed`.
    pub init: Option<String>,
    /// AdamW decoupled weight decay.
    pub weight_decay: f32,
    /// The policy-gradient step: its step size and the weights of the value loss and the
    /// entropy bonus.
    pub pg: PgOptions,
    /// Decisions per gradient step (decisions).
    pub batch_size: usize,
    /// Passes over an iteration's decisions.
    pub epochs: u32,
    /// The fixed opponents, as the game's player specs; evaluations play each of them.
    pub opponents: Vec<String>,
    /// Share of matches against a past self instead of a fixed opponent (0 to 1).
    pub self_play_share: f64,
    /// A snapshot of the learner joins the pool every this many iterations (iterations).
    pub snapshot_every: u32,
    /// Snapshots kept in the pool, the newest.
    pub pool_size: usize,
    /// Evaluate against every fixed opponent every this many iterations (0: never).
    pub eval_every: u32,
    /// Matches per fixed opponent at an evaluation (matches).
    pub eval_matches: u32,
    /// Checkpoints kept besides `latest`.
    pub keep_checkpoints: usize,
    /// Also keep every checkpoint whose iteration is a multiple of this (0: none).
    pub keep_every: u32,
}

impl Settings {
    /// Checks the ranges the loop needs.
    ///
    /// # Errors
    /// [`Error::Value`] naming the first bad key.
    pub fn check(&self) -> Result<(), Error> {
        let bad = |key: &'static str, why: &'static str| Err(Error::Value { key, why });
        if self.matches_per_iteration == 0 {
            return bad("matches_per_iteration", "at least 1");
        }
        if self.batch_size == 0 || self.epochs == 0 {
            return bad("batch_size and epochs", "at least 1");
        }
        if !(0.0..=1.0).contains(&self.self_play_share) {
            return bad("self_play_share", "between 0 and 1");
        }
        if self.pg.learning_rate.is_nan() || self.pg.learning_rate <= 0.0 {
            return bad("learning_rate", "positive");
        }
        if self.opponents.is_empty() && self.self_play_share < 1.0 {
            return bad(
                "opponents",
                "name at least one player, or set self_play_share = 1",
            );
        }
        if self.network.hidden == 0 || self.network.layers == 0 {
            return bad("network", "hidden and layers at least 1");
        }
        Ok(())
    }
}
