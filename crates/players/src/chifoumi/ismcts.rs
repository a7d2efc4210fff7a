//! `ismcts`: the information-set MCTS player of Chifoumi, on the lab's [`pjlab_mcts::ismcts()`]
//! (its iterations end early when [`Player::act_until`]'s flag is raised).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use pjlab_chifoumi::players::Memory;
use pjlab_chifoumi::{
    Action, ActionSet, Bag, DuelOdds, Game, GameEnd, Observation, OpponentPrior, Player, Rules,
};
use pjlab_core::spec::{Spec, SpecError};
use pjlab_mcts::{IsmctsConfig, LeafValue, ismcts_until};
use rand_chacha::ChaCha8Rng;

use super::modelled::{Model, Modelled, OnGame};

/// The settings of [`IsmctsPlayer`], and its spec's options.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct IsmctsOptions {
    /// Iterations a decision, one determinization each (`sims`, default 400).
    pub iterations: u32,
    /// UCB1 exploration constant (`c`, default 0.7).
    pub exploration: f32,
    /// A leaf's value: this weight times the exact expected duel value of the two bags
    /// (`leaf`, default 0.5: a duel may not happen).
    pub leaf_weight: f32,
    /// Probability that an object the player never saw is already in the opponent's bag
    /// (`hidden`, default 0.1).
    pub hidden_pickup: f64,
    /// What calling a duel is worth besides its result, for the match's tie-break (more duels
    /// called wins a match of equal points): added to the caller's return, taken from the
    /// other's (`tie`, default 0.1).
    pub tie_break: f32,
}

impl Default for IsmctsOptions {
    fn default() -> IsmctsOptions {
        IsmctsOptions {
            iterations: 400,
            exploration: 0.7,
            leaf_weight: 0.5,
            hidden_pickup: 0.1,
            tie_break: 0.1,
        }
    }
}

impl IsmctsOptions {
    /// Reads `sims=400,c=0.7,leaf=0.5,hidden=0.1,tie=0.1` (any subset, any order; empty for the
    /// defaults).
    ///
    /// # Errors
    /// [`SpecError`] for an unknown key or a value out of range.
    pub fn parse(options: &str) -> Result<IsmctsOptions, SpecError> {
        let mut spec = Spec::parse(&format!("ismcts:{options}"))?;
        IsmctsOptions::take(&mut spec)
    }

    /// Takes the options from an `ismcts` spec and finishes it.
    ///
    /// # Errors
    /// [`SpecError`] for an unknown key or a value out of range.
    pub fn take(spec: &mut Spec) -> Result<IsmctsOptions, SpecError> {
        let d = IsmctsOptions::default();
        let options = IsmctsOptions {
            iterations: spec
                .take_f64_in("sims", 1.0, 1e7)?
                .map_or(d.iterations, |v| v as u32),
            exploration: spec
                .take_f64_in("c", 0.0, 100.0)?
                .map_or(d.exploration, |v| v as f32),
            leaf_weight: spec
                .take_f64_in("leaf", 0.0, 1.0)?
                .map_or(d.leaf_weight, |v| v as f32),
            hidden_pickup: spec
                .take_f64_in("hidden", 0.0, 1.0)?
                .unwrap_or(d.hidden_pickup),
            tie_break: spec
                .take_f64_in("tie", 0.0, 1.0)?
                .map_or(d.tie_break, |v| v as f32),
        };
        spec.finish()?;
        Ok(options)
    }
}

/// The information-set MCTS player of the spec `ismcts[:options]` (see [`IsmctsOptions`]) for
/// matches of `rules`.
///
/// # Errors
/// The spec's unknown option or bad value.
pub fn ismcts_player(spec: &str, rules: &Rules) -> Result<IsmctsPlayer, SpecError> {
    let options = Spec::parse(spec).and_then(|mut s| IsmctsOptions::take(&mut s))?;
    Ok(IsmctsPlayer::new(rules.clone(), options))
}

/// Values a leaf at `weight` times the exact expected duel value of the bags, and a duel's
/// end at its result plus `tie` for its caller.
struct DuelLeaf {
    weight: f32,
    tie: f32,
}

impl LeafValue<Game> for DuelLeaf {
    fn values(&mut self, state: &Game, out: &mut [f32]) {
        let v = DuelOdds::new(state.bag(0), state.bag(1)).value().to_f64() as f32;
        out[0] = self.weight * v;
        out[1] = -out[0];
    }

    fn terminal_values(&mut self, state: &Game, out: &mut [f32]) {
        let mut v = state.end().map_or(0, |e| e.value_for(0)) as f32;
        if let Some(GameEnd::Duel(duel)) = state.end() {
            v += if duel.trigger == 0 {
                self.tie
            } else {
                -self.tie
            };
        }
        out[0] = v;
        out[1] = -v;
    }
}

/// Information-set MCTS: at each decision, `iterations` determinizations drawn with
/// [`Game::resample_with`] from what it observed this game (the opponent's bag at the game's
/// start estimated as the `observer` player does, from the match so far) share one tree; leaves
/// are valued by the exact expected duel value of the determinized bags.
///
/// With a model ([`IsmctsPlayer::modelling`]), ISMCTS-BR: the opponent's actions in the search
/// are the model's, not the tree's (see [`super::modelled`]).
pub struct IsmctsPlayer {
    rules: Rules,
    options: IsmctsOptions,
    memory: Memory,
    model: Option<Arc<Model>>,
}

impl IsmctsPlayer {
    /// A player for matches of `rules` (public: the map, the deal's counts).
    pub fn new(rules: Rules, options: IsmctsOptions) -> IsmctsPlayer {
        IsmctsPlayer {
            rules,
            options,
            memory: Memory::default(),
            model: None,
        }
    }

    /// ISMCTS-BR: a player for matches of `rules` whose search plays the opponent's turns with
    /// a fresh copy of the modelled player from each determinization's root on (`model` builds
    /// one), instead of choosing them by the tree.
    pub fn modelling(rules: Rules, options: IsmctsOptions, model: Arc<Model>) -> IsmctsPlayer {
        IsmctsPlayer {
            model: Some(model),
            ..IsmctsPlayer::new(rules, options)
        }
    }

    fn prior(&self) -> OpponentPrior {
        let c = self.memory.carried().map(|x| x.round().max(0.0) as u16);
        OpponentPrior {
            start_bag: Bag::new(c[0], c[1], c[2]),
            hidden_pickup: self.options.hidden_pickup,
        }
    }
}

impl Player for IsmctsPlayer {
    fn name(&self) -> String {
        let o = &self.options;
        let name = if self.model.is_some() {
            "ismcts-br"
        } else {
            "ismcts"
        };
        format!(
            "{name}:sims={},c={},leaf={},hidden={},tie={}",
            o.iterations, o.exploration, o.leaf_weight, o.hidden_pickup, o.tie_break
        )
    }

    fn new_match(&mut self) {
        self.memory.new_match();
    }

    fn observe(&mut self, obs: &Observation) {
        self.memory.observe(obs);
    }

    fn act(&mut self, obs: &Observation, legal: ActionSet, rng: &mut ChaCha8Rng) -> Action {
        self.act_until(obs, legal, rng, &AtomicBool::new(false))
    }

    /// Searches its iterations, or fewer once `stop` is raised (at least one).
    fn act_until(
        &mut self,
        obs: &Observation,
        legal: ActionSet,
        rng: &mut ChaCha8Rng,
        stop: &AtomicBool,
    ) -> Action {
        let fallback = legal.iter().next().unwrap_or(Action::Duel);
        if legal.len() <= 1 {
            return fallback;
        }
        // The length of a game is public: an arena seat's view counts it in the arena's rounds.
        let rules = Rules {
            max_rounds: obs.max_rounds,
            ..self.rules.clone()
        };
        let Ok(root) = Game::from_observation(&rules, obs) else {
            return fallback;
        };
        let me = obs.player as usize;
        // A view the two-player game cannot search from (an arena seat's, past the game's
        // length in rounds): nothing to search, the first legal action.
        if pjlab_core::ImperfectGame::current_player(&root) != Some(me) {
            return fallback;
        }
        let prior = self.prior();
        let config = IsmctsConfig {
            iterations: self.options.iterations,
            exploration: self.options.exploration,
        };
        let known = self.memory.known();
        let mut leaf = DuelLeaf {
            weight: self.options.leaf_weight,
            tie: self.options.tie_break,
        };
        let result = match &self.model {
            None => ismcts_until(
                me,
                &config,
                |r| root.resample_with(me, known, prior, r),
                &mut leaf,
                rng,
                stop,
            ),
            Some(model) => ismcts_until(
                me,
                &config,
                |r| Modelled::new(root.resample_with(me, known, prior, r), me, model.as_ref()),
                &mut OnGame(&mut leaf),
                rng,
                stop,
            ),
        };
        result
            .best
            .and_then(Action::from_index)
            .filter(|&a| legal.contains(a))
            .unwrap_or(fallback)
    }
}
