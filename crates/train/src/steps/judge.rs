//! Evaluation: how a run measures its network, and when.

use burn::tensor::Device;
use pjlab_core::{GameKit, Solved};
use pjlab_nn::PolicyValueNet;

use crate::Error;
use crate::config::{EvalConfig, RunConfig};
use crate::strength::{Strength, VersusAlphaBeta, optimal_share, versus_alphabeta};

/// How a run measures its network: by the kit's solved positions when it has them, otherwise by
/// games against alpha-beta.
enum Measure<K: GameKit> {
    /// Positions with their winning moves (Chomp).
    Solved(Solved<K::Game>),
    /// Colour-paired games against `alphabeta:depth=N`.
    Games(VersusAlphaBeta<K::Variant>),
}

/// The evaluation of a run: what it measures and when (the `[eval]` section, the run's last
/// iteration), with the game's table it measures on.
pub(crate) struct Judge<K: GameKit> {
    measure: Measure<K>,
    game: K::Config,
    every: u32,
    last: u32,
}

impl<K: GameKit> Judge<K> {
    /// The judge of `config`'s runs; `eval.variant` must name one of the game's variants when
    /// the strength is measured by games.
    pub(crate) fn new(config: &RunConfig<K>) -> Result<Judge<K>, Error> {
        let eval: &EvalConfig = &config.eval;
        let measure = match K::solved_positions(&config.game) {
            Some(solved) => Measure::Solved(solved),
            None => Measure::Games(VersusAlphaBeta {
                pairs: eval.pairs,
                depth: eval.depth,
                opponent: eval.opponent.clone(),
                simulations: eval.simulations,
                decisive: config.selfplay.decisive,
                variant: config.eval_variant()?,
                max_plies: eval.max_plies,
                opening_plies: eval.opening_plies,
                workers: config.workers,
            }),
        };
        if let Measure::Games(settings) = &measure {
            let spec = settings.opponent_spec();
            if let Err(cause) = pjlab_agents::build::<K>(&spec, 0) {
                return Err(Error::Opponent { spec, cause });
            }
        }
        Ok(Judge {
            measure,
            game: config.game.clone(),
            every: eval.every,
            last: config.iterations,
        })
    }

    /// Whether an evaluation is due after `iteration`: every `eval.every` iterations and at the
    /// last.
    pub(crate) fn due(&self, iteration: u32) -> bool {
        iteration == self.last || (self.every > 0 && iteration.is_multiple_of(self.every))
    }

    /// Units of work of one evaluation (for the progress display).
    pub(crate) fn units(&self) -> u64 {
        match &self.measure {
            Measure::Solved(_) => 1,
            Measure::Games(settings) => 2 * settings.pairs as u64,
        }
    }

    /// The strength of `model`, games seeded with `seed`; `tick` after each unit of work.
    pub(crate) fn measure(
        &self,
        model: &PolicyValueNet,
        device: &Device,
        seed: u64,
        tick: &(dyn Fn() + Sync),
    ) -> Strength {
        match &self.measure {
            Measure::Solved(solved) => {
                let s = optimal_share::<K>(model, device, &K::encoder(&self.game), solved);
                tick();
                s
            }
            Measure::Games(settings) => {
                versus_alphabeta::<K>(model, device, &self.game, settings, seed, tick)
            }
        }
    }
}
