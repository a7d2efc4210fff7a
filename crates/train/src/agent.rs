//! A player from a network, for any game's kit: MCTS (PUCT, no noise, MCTS-solver) with the
//! network as its evaluator, usable wherever a [`pjlab_agents::Agent`] is.

use std::time::Instant;

use burn::tensor::Device;
use pjlab_agents::{Agent, Decision};
use pjlab_core::{Game, GameKit};
use pjlab_mcts::{Budget, Config, Decisive, Mcts};

use crate::evaluator::NetEvaluator;
use crate::net::PolicyValueNet;

/// MCTS with a network evaluator, a fixed number of simulations a move.
pub struct NetAgent<K: GameKit> {
    spec: String,
    evaluator: Decisive<NetEvaluator<K::Game, K::Encoder>>,
    simulations: u32,
    seed: u64,
}

impl<K: GameKit> NetAgent<K> {
    /// A player searching `simulations` a move with `model` (copied to `device`), whose inputs
    /// `encoder` builds (the one it was trained with).
    pub fn new(
        model: &PolicyValueNet,
        device: &Device,
        encoder: K::Encoder,
        simulations: u32,
        seed: u64,
    ) -> NetAgent<K> {
        NetAgent {
            spec: format!("net:sims={simulations}"),
            evaluator: Decisive::new(NetEvaluator::new(model, device, encoder, 50_000)),
            simulations: simulations.max(1),
            seed,
        }
    }

    /// Whether leaves with a move that wins at once are valued without the network (on by
    /// default; see [`Decisive`]).
    pub fn set_decisive(&mut self, on: bool) {
        self.evaluator.check = on;
    }

    /// Names the agent in reports (e.g. with its checkpoint).
    pub fn with_spec(mut self, spec: impl Into<String>) -> NetAgent<K> {
        self.spec = spec.into();
        self
    }
}

impl<K: GameKit> Agent<K::Game> for NetAgent<K> {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn new_game(&mut self, seed: u64) {
        self.seed = seed;
    }

    fn decide(&mut self, position: &K::Game) -> Decision<<K::Game as Game>::Move> {
        let started = Instant::now();
        let mut search = Mcts::new(position.clone(), Config::default(), self.seed);
        let result = search.search(&mut self.evaluator, &Budget::simulations(self.simulations));
        Decision::from_search(result, started)
    }
}

/// Builds a network player of the game of kit `K` from a spec
/// `net:checkpoint=<dir>[,sims=N][,decisive=0|1]`, where `<dir>` is a checkpoint or a run
/// directory (its latest checkpoint).
///
/// # Errors
/// [`crate::Error::Config`] on a bad spec, [`crate::Error::Checkpoint`] when the checkpoint does
/// not load or was trained on another game.
pub fn net_agent<K: GameKit>(spec: &str, seed: u64) -> Result<NetAgent<K>, crate::Error> {
    let bad = |why: String| crate::Error::Config(format!("agent `{spec}`: {why}"));
    let options = spec
        .strip_prefix("net")
        .ok_or_else(|| bad("not a net agent".into()))?;
    let options = options.strip_prefix(':').unwrap_or(options);
    let (mut checkpoint, mut sims, mut decisive) = (None, 200u32, true);
    for part in options.split(',').filter(|p| !p.is_empty()) {
        let (key, value) = part
            .split_once('=')
            .ok_or_else(|| bad(format!("expected key=value, got `{part}`")))?;
        match key {
            "checkpoint" | "ckpt" => checkpoint = Some(std::path::PathBuf::from(value)),
            "sims" => {
                sims =
                    value.parse().ok().filter(|&n| n > 0).ok_or_else(|| {
                        bad(format!("sims must be a positive number, got `{value}`"))
                    })?
            }
            "decisive" => {
                decisive = match value {
                    "1" | "true" => true,
                    "0" | "false" => false,
                    _ => {
                        return Err(bad(format!(
                            "decisive must be true or false, got `{value}`"
                        )));
                    }
                }
            }
            other => {
                return Err(bad(format!(
                    "unknown option `{other}` (checkpoint, sims, decisive)"
                )));
            }
        }
    }
    let checkpoint = checkpoint.ok_or_else(|| bad("needs checkpoint=<dir>".into()))?;
    let device = Device::default();
    let (model, config) = crate::checkpoint::load::<K>(&checkpoint, &device)?;
    let mut agent =
        NetAgent::<K>::new(&model, &device, K::encoder(&config.game), sims, seed).with_spec(spec);
    agent.set_decisive(decisive);
    Ok(agent)
}
