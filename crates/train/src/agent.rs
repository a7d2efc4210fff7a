//! A Pijersi player from a network: MCTS (PUCT, no noise, MCTS-solver) with the network as its
//! evaluator, usable wherever a [`pjlab_agents::Agent`] is.

use std::time::Instant;

use burn::tensor::Device;
use pjlab_agents::{Agent, Decision, Score};
use pjlab_mcts::{Budget, Config, Mcts, Proof};
use pjlab_pijersi::Position;
use pjlab_selfplay::PijersiEncoder;

use crate::evaluator::NetEvaluator;
use crate::net::PolicyValueNet;

/// MCTS with a network evaluator, a fixed number of simulations a move.
pub struct NetAgent {
    spec: String,
    evaluator: NetEvaluator<Position, PijersiEncoder>,
    simulations: u32,
    seed: u64,
}

impl NetAgent {
    /// A player searching `simulations` a move with `model` (copied to `device`).
    pub fn new(model: &PolicyValueNet, device: &Device, simulations: u32, seed: u64) -> NetAgent {
        NetAgent {
            spec: format!("net:sims={simulations}"),
            evaluator: NetEvaluator::new(model, device, PijersiEncoder, 50_000),
            simulations: simulations.max(1),
            seed,
        }
    }

    /// Names the agent in reports (e.g. with its checkpoint).
    pub fn with_spec(mut self, spec: impl Into<String>) -> NetAgent {
        self.spec = spec.into();
        self
    }
}

impl Agent for NetAgent {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn decide(&mut self, position: &Position) -> Decision {
        let started = Instant::now();
        let mut search = Mcts::new(position.clone(), Config::default(), self.seed);
        let result = search.search(&mut self.evaluator, &Budget::simulations(self.simulations));
        let score = match result.proof {
            Proof::Unknown => Score::Value(result.value),
            _ if result.value > 0.0 => Score::Mate(result.pv.len() as i32),
            _ if result.value < 0.0 => Score::Mate(-(result.pv.len() as i32)),
            _ => Score::Value(0.0),
        };
        Decision {
            best_move: result.best_move,
            score: Some(score),
            pv: result.pv,
            effort: u64::from(result.simulations),
            nodes: result.nodes as u64,
            elapsed: started.elapsed(),
        }
    }
}
