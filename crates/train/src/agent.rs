//! A player from a network, for any game's kit: MCTS (PUCT, no noise, MCTS-solver) with the
//! network as its evaluator, usable wherever a [`pjlab_agents::Agent`] is. The network is a
//! training checkpoint run by Burn, or an exported `.onnx` model run by tract.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use burn::tensor::Device;
use pjlab_agents::{Agent, Control, Decision, mcts_budget};
use pjlab_core::spec::{Spec, SpecError};
use pjlab_core::{Encoder, Game, GameKit, SetupVariant};
use pjlab_mcts::{Budget, Config, Decisive, Evaluator, Mcts};

use pjlab_nn::NetEvaluator;
use pjlab_nn::PolicyValueNet;
use pjlab_nn::card::Contract;
use pjlab_nn::onnx::{OnnxEvaluator, OnnxModel};

/// A network's evaluator, whichever runtime runs it.
type BoxedEvaluator<G> = Box<dyn Evaluator<G> + Send>;

/// MCTS with a network evaluator: a number of simulations a move, or a time per move.
pub struct NetAgent<K: GameKit> {
    spec: String,
    evaluator: Decisive<BoxedEvaluator<K::Game>>,
    budget: Budget,
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
        let evaluator: BoxedEvaluator<K::Game> =
            Box::new(NetEvaluator::new(model, device, encoder, 50_000));
        NetAgent::with_evaluator(evaluator, simulations, seed)
    }

    /// A player searching `simulations` a move with any network `evaluator`.
    pub fn with_evaluator(
        evaluator: BoxedEvaluator<K::Game>,
        simulations: u32,
        seed: u64,
    ) -> NetAgent<K> {
        NetAgent {
            spec: format!("net:sims={simulations}"),
            evaluator: Decisive::new(evaluator),
            budget: Budget::simulations(simulations.max(1)),
            seed,
        }
    }

    /// Searches for `time` a move instead of a number of simulations (`simulations` still
    /// bounds it when `Some`).
    pub fn set_time(&mut self, time: Duration, simulations: Option<u32>) {
        self.budget.time = Some(time);
        self.budget.simulations = simulations.unwrap_or(u32::MAX);
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
        let budget = self.budget;
        self.think(position, &budget, None)
    }

    fn search(
        &mut self,
        position: &K::Game,
        control: &mut Control<'_, <K::Game as Game>::Move>,
    ) -> Decision<<K::Game as Game>::Move> {
        let budget = mcts_budget(&self.budget, control.limits);
        let decision = self.think(position, &budget, Some(&control.stop));
        (control.progress)(&decision);
        decision
    }
}

impl<K: GameKit> NetAgent<K> {
    /// One search from `position` within `budget`, stopped early if `stop` is raised.
    fn think(
        &mut self,
        position: &K::Game,
        budget: &Budget,
        stop: Option<&Arc<AtomicBool>>,
    ) -> Decision<<K::Game as Game>::Move> {
        let started = Instant::now();
        let mut search = Mcts::new(position.clone(), Config::default(), self.seed);
        if let Some(flag) = stop {
            search.set_stop_flag(Arc::clone(flag));
        }
        let result = search.search(&mut self.evaluator, budget);
        Decision::from_search(result, started)
    }
}

/// Builds a network player of the game of kit `K` from a spec
/// `net:checkpoint=<path>[,sims=N][,time=T][,decisive=0|1]`: `<path>` is a checkpoint, a run
/// directory (its latest checkpoint), or an ONNX model ending in `.onnx`: one from
/// `pjlab export` or any model that follows the game's model card (input and outputs by name
/// and shape, checked with the card beside it if there is one: see [`pjlab_nn::card`]), its
/// inputs built by the encoder its card names ([`card_encoder`]; the default config's without
/// a card); `sims` simulations a move (200),
/// or `time` a move (`250ms`, `1s`; with `sims` too, whichever comes first).
///
/// # Errors
/// [`crate::Error::Config`] on a bad spec, [`crate::Error::Checkpoint`] when the checkpoint does
/// not load or was trained on another game, [`crate::Error::Net`] when a model is missing or
/// does not fit the game's model card (naming what differs: expected and found).
pub fn net_agent<K: GameKit>(spec: &str, seed: u64) -> Result<NetAgent<K>, crate::Error> {
    let bad = |why: String| crate::Error::Config(format!("agent `{spec}`: {why}"));
    let mut options = Spec::parse(spec).map_err(|e| bad(e.to_string()))?;
    if options.name() != "net" {
        return Err(bad("not a net agent".into()));
    }
    let read = |options: &mut Spec| -> Result<_, SpecError> {
        let checkpoint = options
            .take_path("checkpoint")
            .or(options.take_path("ckpt"));
        let sims = options.take_with("sims", "a positive number", |v| {
            v.parse::<u32>().ok().filter(|&n| n > 0)
        })?;
        let time = options.take_duration("time")?;
        let decisive = options.take_with("decisive", "true or false (or 1 or 0)", |v| match v {
            "1" | "true" => Some(true),
            "0" | "false" => Some(false),
            _ => None,
        })?;
        options.finish()?;
        let checkpoint = checkpoint.ok_or_else(|| options.missing("checkpoint"))?;
        Ok((checkpoint, sims, time, decisive.unwrap_or(true)))
    };
    let (checkpoint, sims, time, decisive) = read(&mut options).map_err(|e| bad(e.to_string()))?;
    let mut agent = if checkpoint.extension().is_some_and(|e| e == "onnx") {
        let path = Path::new(&checkpoint);
        let card = pjlab_nn::card::read_card(path)?;
        let encoder = card_encoder::<K>(card.as_ref());
        let contract = Contract::of(Some(K::INFO.name), &encoder);
        let model = OnnxModel::load(path, &contract)?;
        let evaluator = OnnxEvaluator::<K::Game, _>::new(model, encoder);
        NetAgent::<K>::with_evaluator(Box::new(evaluator), sims.unwrap_or(200), seed)
    } else {
        let device = Device::default();
        let (model, config) = crate::checkpoint::load::<K>(&checkpoint, &device)?;
        let encoder = K::encoder(&config.game);
        NetAgent::<K>::new(&model, &device, encoder, sims.unwrap_or(200), seed)
    };
    if let Some(time) = time {
        agent.set_time(time, sims);
    }
    agent.set_decisive(decisive);
    Ok(agent.with_spec(spec))
}

/// The encoder of an ONNX model of the game of kit `K` whose card is `card`: among the default
/// config's, each variant's and the variant the encoder's name ends with (`chomp-5x6`: the
/// `5x6` bar), the one the card names (else one of the same name, else the default config's:
/// the card's check then says what differs).
pub fn card_encoder<K: GameKit>(card: Option<&serde_json::Value>) -> K::Encoder {
    let default = K::encoder(&K::Config::default());
    let Some(card) = card else {
        return default;
    };
    let (Some(name), Some(version)) = (
        card["encoder"]["name"].as_str(),
        card["encoder"]["version"].as_u64(),
    ) else {
        return default;
    };
    let named = name
        .strip_prefix(K::INFO.name)
        .and_then(|rest| rest.strip_prefix('-'))
        .and_then(|rest| K::variant(rest).ok());
    let mut candidates = vec![default];
    candidates.extend(
        K::variants()
            .into_iter()
            .chain(named)
            .map(|v| K::position_encoder(&v.start(0))),
    );
    // The same name and version; else the same name (the check then names the version).
    let exact = candidates.iter().position(|e| {
        let id = e.id();
        id.name == name && u64::from(id.version) == version
    });
    let by_name = || candidates.iter().position(|e| e.id().name == name);
    let at = exact.or_else(by_name).unwrap_or(0);
    candidates.swap_remove(at)
}

/// Builds a player of the game of kit `K` from its spec: `net:checkpoint=<dir>,...` (a network
/// trained on that game, see [`net_agent`]) or any spec of [`pjlab_agents::build`]. The one
/// factory of every player the lab has, for the binary and the bindings alike.
///
/// # Errors
/// [`crate::Error::Agent`] on a bad spec of `pjlab_agents`, and as [`net_agent`].
pub fn build<K: GameKit>(spec: &str, seed: u64) -> Result<Box<dyn Agent<K::Game>>, crate::Error> {
    if spec == "net" || spec.starts_with("net:") {
        Ok(Box::new(net_agent::<K>(spec, seed)?))
    } else {
        Ok(pjlab_agents::build::<K>(spec, seed)?)
    }
}
