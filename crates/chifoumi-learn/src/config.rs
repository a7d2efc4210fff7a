//! `configs/chifoumi.toml`: every setting of a training run, with its unit and default.

use pjlab_league::Settings;
use pjlab_nn::NetConfig;
use pjlab_nn::pg::PgOptions;
use serde::{Deserialize, Serialize};

use crate::Error;

/// A training run's settings. Every key may be left out (its default is used); unknown keys
/// are refused.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LearnConfig {
    /// Iterations to run (iterations; default 1500). Only this may change when a run resumes.
    pub iterations: u32,
    /// The run's seed: network initialisation, opponents, matches (default 1).
    pub seed: u64,
    /// Matches the learner plays each iteration (matches; default 96).
    pub matches_per_iteration: u32,
    /// Games in a match (games; default 10, the spec's).
    pub games_per_match: u16,
    /// The network's shape (hidden width and layers; default 128 x 2).
    pub network: NetConfig,
    /// Start from the weights of this checkpoint (a checkpoint directory of `pjlab chifoumi
    /// train` of the same shape, e.g. `experiments/chifoumi-learned/final`) with a fresh AdamW
    /// state, instead of weights drawn from `seed` (default: none).
    pub init: Option<String>,
    /// Adam step size (default 3e-4).
    pub learning_rate: f64,
    /// AdamW decoupled weight decay (default 1e-4).
    pub weight_decay: f32,
    /// Decisions per gradient step (decisions; default 512).
    pub batch_size: usize,
    /// Passes over an iteration's decisions (default 1: on-policy).
    pub epochs: u32,
    /// Discount per decision of the learner towards the game's end (default 0.99).
    pub gamma: f32,
    /// Weight of the value (baseline) loss (default 0.5).
    pub value_weight: f32,
    /// Weight of the entropy bonus (default 0.001).
    pub entropy_weight: f32,
    /// What calling a duel adds to the caller's return, for the match's tie-break
    /// (points; default 0.1).
    pub tie_break: f32,
    /// Weight of the match's result (win +1, draw 0, loss -1, the tie-break included) added,
    /// undiscounted, to the return of every decision of the match (default 1; 0: games only).
    pub match_weight: f32,
    /// Temperature the learner samples its actions at in training (default 1).
    pub temperature: f32,
    /// Fixed opponents of the pool, as player specs: scripted players, or trained networks as
    /// `net:checkpoint=DIR[,temp=T]` (a best response to one network has only that one;
    /// default: every scripted player). Evaluations play each of them. A run directory stands
    /// for its newest checkpoint when training starts or resumes: name a checkpoint folder for
    /// a run that reproduces.
    pub opponents: Vec<String>,
    /// Share of matches against a past self instead of a fixed opponent (0 to 1; default 0.4).
    pub self_play_share: f64,
    /// A snapshot of the learner joins the pool every this many iterations (default 10).
    pub snapshot_every: u32,
    /// Snapshots kept in the pool, the newest (default 10).
    pub pool_size: usize,
    /// Evaluate against every fixed opponent every this many iterations (default 20; 0: never).
    pub eval_every: u32,
    /// Matches per fixed opponent at an evaluation (matches; default 20).
    pub eval_matches: u32,
    /// Temperature of the learner at evaluations (default 1: it samples its policy).
    pub eval_temperature: f32,
    /// Checkpoints kept besides `latest` (default 3).
    pub keep_checkpoints: usize,
    /// Also keep every checkpoint whose iteration is a multiple of this (default 0: none).
    pub keep_every: u32,
}

impl Default for LearnConfig {
    fn default() -> LearnConfig {
        LearnConfig {
            iterations: 1500,
            seed: 1,
            matches_per_iteration: 96,
            games_per_match: 10,
            network: NetConfig {
                hidden: 128,
                layers: 2,
            },
            init: None,
            learning_rate: 3e-4,
            weight_decay: 1e-4,
            batch_size: 512,
            epochs: 1,
            gamma: 0.99,
            value_weight: 0.5,
            entropy_weight: 0.001,
            tie_break: 0.1,
            match_weight: 1.0,
            temperature: 1.0,
            opponents: pjlab_chifoumi::players::SCRIPTED_SPECS
                .map(String::from)
                .to_vec(),
            self_play_share: 0.4,
            snapshot_every: 10,
            pool_size: 10,
            eval_every: 20,
            eval_matches: 20,
            eval_temperature: 1.0,
            keep_checkpoints: 3,
            keep_every: 0,
        }
    }
}

impl LearnConfig {
    /// The policy-gradient step's settings.
    pub fn pg_options(&self) -> PgOptions {
        PgOptions {
            learning_rate: self.learning_rate,
            value_weight: self.value_weight,
            entropy_weight: self.entropy_weight,
        }
    }

    /// Reads a config from TOML text.
    ///
    /// # Errors
    /// [`Error::Toml`] for TOML that does not parse or an unknown key, as [`LearnConfig::check`]
    /// for a value out of range.
    pub fn parse(text: &str) -> Result<LearnConfig, Error> {
        let config: LearnConfig = toml::from_str(text)?;
        config.check()?;
        Ok(config)
    }

    /// What the league's loop reads of this config.
    pub fn settings(&self) -> Settings {
        Settings {
            iterations: self.iterations,
            seed: self.seed,
            matches_per_iteration: self.matches_per_iteration,
            network: self.network.clone(),
            init: self.init.clone(),
            weight_decay: self.weight_decay,
            pg: self.pg_options(),
            batch_size: self.batch_size,
            epochs: self.epochs,
            opponents: self.opponents.clone(),
            self_play_share: self.self_play_share,
            snapshot_every: self.snapshot_every,
            pool_size: self.pool_size,
            eval_every: self.eval_every,
            eval_matches: self.eval_matches,
            keep_checkpoints: self.keep_checkpoints,
            keep_every: self.keep_every,
        }
    }

    /// Checks the ranges: the league's ([`Settings::check`]), then Chifoumi's own keys and
    /// the opponents' specs.
    ///
    /// # Errors
    /// [`Error::Value`] (or the league's) naming the first bad key, [`Error::Opponent`] for an
    /// opponent that does not parse.
    pub fn check(&self) -> Result<(), Error> {
        self.settings().check()?;
        let bad = |key: &'static str, why: &'static str| Err(Error::Value { key, why });
        if self.games_per_match == 0 {
            return bad("games_per_match", "at least 1");
        }
        if !(0.0..=1.0).contains(&self.gamma) {
            return bad("gamma", "between 0 and 1");
        }
        for spec in &self.opponents {
            let net = pjlab_players::chifoumi::parse_net_spec(spec)
                .map_err(|e| Error::Opponent(Box::new(e)))?;
            if net.is_none() {
                pjlab_chifoumi::parse_player(spec).map_err(|e| Error::Opponent(Box::new(e)))?;
            }
        }
        Ok(())
    }
}
