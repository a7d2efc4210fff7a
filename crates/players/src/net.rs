//! A player from a network, for any game's kit: MCTS (PUCT, no noise, MCTS-solver) with the
//! network as its evaluator, usable wherever a [`pjlab_agents::Agent`] is; and
//! [`load_network`], a trained network of a game with the encoder its inputs come from, from a
//! checkpoint (the packed CPU pass) or an `.onnx` model (tract), whoever trained it.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use burn::tensor::Device;
use pjlab_agents::shallow::{ShallowEval, ShallowValue, shallow_value};
use pjlab_agents::{Agent, Control, Decision, mcts_budget, run_mcts};
use pjlab_core::spec::{Spec, SpecError};
use pjlab_core::{Encoder, Game, GameKit, SetupVariant};
use pjlab_mcts::{BlendedValue, Budget, Config, Decisive, Evaluator, Mcts};

use pjlab_nn::card::Contract;
use pjlab_nn::onnx::OnnxEvaluator;
use pjlab_nn::{Model, NetEvaluator, PolicyValueNet, Source};

use crate::Error;

/// Positions a network player's evaluator caches.
const CACHE_POSITIONS: usize = 50_000;

/// A network's evaluator, whichever runtime runs it.
type BoxedEvaluator<G> = Box<dyn Evaluator<G> + Send>;

/// A kept search and the move it chose.
type Kept<G> = (Mcts<G>, Option<<G as Game>::Move>);

/// MCTS with a network evaluator: a number of simulations a move, or a time per move.
pub struct NetAgent<K: GameKit> {
    spec: String,
    evaluator: Decisive<BoxedEvaluator<K::Game>>,
    budget: Budget,
    seed: u64,
    /// The search's constants (PUCT's, first-play urgency, leaves per network call).
    config: Config,
    /// Keep the tree between moves: the last search and the move it chose, to be advanced
    /// along that move and the opponent's reply when the next position follows them.
    reuse: bool,
    last: Option<Kept<K::Game>>,
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
            Box::new(NetEvaluator::new(model, device, encoder, CACHE_POSITIONS));
        NetAgent::with_evaluator(evaluator, simulations, seed)
    }

    /// A player searching `simulations` a move with a loaded network `model` whose inputs
    /// `encoder` builds (see [`load_network`]).
    pub fn from_model(
        model: Model,
        encoder: K::Encoder,
        simulations: u32,
        seed: u64,
    ) -> NetAgent<K> {
        let evaluator: BoxedEvaluator<K::Game> = match model {
            Model::Packed { net, .. } => {
                Box::new(NetEvaluator::packed(net, encoder, CACHE_POSITIONS))
            }
            Model::Onnx(model) => Box::new(OnnxEvaluator::<K::Game, _>::new(model, encoder)),
        };
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
            config: Config {
                reuse_tree: false,
                ..Config::default()
            },
            reuse: false,
            last: None,
        }
    }

    /// Searches with these constants instead of [`Config::default`]'s (the tree's reuse
    /// between moves is [`NetAgent::set_reuse`]).
    pub fn set_config(&mut self, config: Config) {
        self.config = Config {
            reuse_tree: self.reuse,
            ..config
        };
        self.last = None;
    }

    /// Whether each search starts from the subtree the last one grew under the move it chose
    /// and the opponent's reply (off by default: each move is searched afresh).
    pub fn set_reuse(&mut self, on: bool) {
        self.reuse = on;
        self.config.reuse_tree = on;
        self.last = None;
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

    /// Blends `judge`'s value of each leaf into the network's, at `share` (0: the network's
    /// value alone, 1: the judge's): a shallow alpha-beta at the leaves ([`shallow_value`]).
    /// The priors stay the network's.
    pub fn set_leaf_judge(&mut self, judge: ShallowValue<K::Game>, share: f32) {
        let network = std::mem::replace(
            &mut self.evaluator.inner,
            Box::new(pjlab_mcts::UniformEvaluator),
        );
        self.evaluator.inner = Box::new(BlendedValue {
            inner: network,
            judge,
            share,
        });
        self.last = None;
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
        self.last = None;
    }

    fn decide(&mut self, position: &K::Game) -> Decision<<K::Game as Game>::Move> {
        let budget = self.budget;
        self.think(position, &budget, None, None)
    }

    fn search(
        &mut self,
        position: &K::Game,
        control: &mut Control<'_, <K::Game as Game>::Move>,
    ) -> Decision<<K::Game as Game>::Move> {
        let budget = mcts_budget(&self.budget, control.limits);
        let progress = &mut *control.progress;
        let decision = self.think(position, &budget, Some(&control.stop), Some(&mut *progress));
        progress(&decision);
        decision
    }
}

impl<K: GameKit> NetAgent<K> {
    /// One search from `position` within `budget`, stopped early if `stop` is raised, reporting
    /// to `progress` as it goes when given.
    fn think(
        &mut self,
        position: &K::Game,
        budget: &Budget,
        stop: Option<&Arc<AtomicBool>>,
        progress: Option<pjlab_agents::Progress<'_, <K::Game as Game>::Move>>,
    ) -> Decision<<K::Game as Game>::Move> {
        let started = Instant::now();
        let mut search = self
            .reused(position)
            .unwrap_or_else(|| Mcts::new(position.clone(), self.config.clone(), self.seed));
        // A kept tree keeps the flag of the search that grew it: this search gets its own.
        let flag = stop.map_or_else(|| Arc::new(AtomicBool::new(false)), Arc::clone);
        search.set_stop_flag(flag);
        // The time a move counts from the decision's start: moving a kept tree to its new root
        // takes some of it (at least a millisecond is left, so that a move is always found).
        let mut budget = *budget;
        budget.time = budget.time.map(|t| {
            t.saturating_sub(started.elapsed())
                .max(Duration::from_millis(1))
        });
        let decision = run_mcts(&mut search, &mut self.evaluator, &budget, started, progress);
        if self.reuse {
            self.last = Some((search, decision.best_move));
        }
        decision
    }

    /// The last search advanced to `position`, when reuse is on and `position` follows its root
    /// by the move it chose and one reply.
    fn reused(&mut self, position: &K::Game) -> Option<Mcts<K::Game>> {
        let (mut search, chosen) = self.last.take()?;
        if search.root() == position {
            return Some(search);
        }
        let chosen = chosen?;
        let mut after = search.root().clone();
        after.play(chosen).ok()?;
        let mut replies = Vec::new();
        after.legal_moves(&mut replies);
        let reply = replies.into_iter().find(|&r| {
            let mut next = after.clone();
            next.play_unchecked(r);
            next == *position
        })?;
        search.advance(chosen).ok()?;
        search.advance(reply).ok()?;
        Some(search)
    }
}

/// Builds a network player of the game of kit `K` from a spec
/// `net:checkpoint=<path>[,sims=N][,time=T][,decisive=0|1][,cpuct=C][,fpu=F][,batch=B][,reuse=0|1]`:
/// `<path>` is a checkpoint, a run directory (its latest checkpoint), or an ONNX model ending in
/// `.onnx` ([`load_network`]); `sims` simulations a move (200), or `time` a move (`250ms`, `1s`;
/// with `sims` too, whichever comes first). The search's constants, each [`Config::default`]'s
/// when left out: `cpuct` (PUCT's exploration constant, 1.5), `fpu` (first-play urgency: an
/// unvisited move's value is its parent's minus this, in value units of -1..1, 0.2), `batch`
/// (leaves gathered under virtual loss for each network call, 1), `reuse` (keep the subtree of
/// the move played and the reply between moves, off).
///
/// A hybrid with alpha-beta: `leaf=EVAL` (`hand`, `nnue:FILE` or `nnue-int:FILE`) blends into
/// each leaf's value the score of an alpha-beta search of `leaf_depth` plies (1; 0 is the static
/// evaluation) with quiescence, as `tanh(score / leaf_scale)` (centi-units, 400: a learned
/// evaluation's win probability), at `leaf_share` (0 to 1, 0.5) of the value; the priors stay
/// the network's ([`NetAgent::set_leaf_judge`]).
///
/// # Errors
/// [`Error::Spec`] on a bad spec, and as [`load_network`].
pub fn net_agent<K: GameKit>(spec: &str, seed: u64) -> Result<NetAgent<K>, Error> {
    let bad = |e: SpecError| Error::Spec {
        spec: spec.to_string(),
        reason: e.to_string(),
    };
    let mut options = Spec::parse(spec).map_err(bad)?;
    if options.name() != "net" {
        return Err(Error::Spec {
            spec: spec.to_string(),
            reason: "not a net agent".into(),
        });
    }
    let read = |options: &mut Spec| -> Result<_, SpecError> {
        let checkpoint = options.take_path("checkpoint")?;
        let checkpoint = checkpoint.or(options.take_path("ckpt")?);
        let sims = options.take_with("sims", "a positive number", |v| {
            v.parse::<u32>().ok().filter(|&n| n > 0)
        })?;
        let time = options.take_duration("time")?;
        let switch = |v: &str| match v {
            "1" | "true" => Some(true),
            "0" | "false" => Some(false),
            _ => None,
        };
        let decisive = options.take_with("decisive", "true or false (or 1 or 0)", switch)?;
        let reuse = options.take_with("reuse", "true or false (or 1 or 0)", switch)?;
        let mut config = Config::default();
        let positive = |v: &str| v.parse::<f32>().ok().filter(|x| x.is_finite() && *x > 0.0);
        if let Some(c) = options.take_with("cpuct", "a positive number", positive)? {
            config.c_puct = c;
        }
        let finite = |v: &str| v.parse::<f32>().ok().filter(|x| x.is_finite() && *x >= 0.0);
        if let Some(f) = options.take_with("fpu", "a number of value units >= 0", finite)? {
            config.fpu_reduction = f;
        }
        let leaves = |v: &str| v.parse::<usize>().ok().filter(|n| (1..=256).contains(n));
        if let Some(n) = options.take_with("batch", "a number of leaves from 1 to 256", leaves)? {
            config.leaves_per_call = n;
        }
        let leaf = Leaf {
            eval: options.take_str("leaf")?,
            depth: options.take_u32("leaf_depth")?,
            share: options.take_with("leaf_share", "a share from 0 to 1", |v| {
                v.parse::<f32>().ok().filter(|x| (0.0..=1.0).contains(x))
            })?,
            scale: options.take_with("leaf_scale", "a positive number", positive)?,
        };
        options.finish()?;
        let checkpoint = checkpoint.ok_or_else(|| options.missing("checkpoint"))?;
        let search = (config, reuse.unwrap_or(false), leaf);
        Ok((checkpoint, sims, time, decisive.unwrap_or(true), search))
    };
    let (checkpoint, sims, time, decisive, (config, reuse, leaf)) =
        read(&mut options).map_err(bad)?;
    let judge = leaf.judge::<K>().map_err(|reason| Error::Spec {
        spec: spec.to_string(),
        reason,
    })?;
    let (model, encoder) = load_network::<K>(&checkpoint, None)?;
    let mut agent = NetAgent::<K>::from_model(model, encoder, sims.unwrap_or(200), seed);
    if let Some(time) = time {
        agent.set_time(time, sims);
    }
    agent.set_decisive(decisive);
    agent.set_config(config);
    agent.set_reuse(reuse);
    if let Some((judge, share)) = judge {
        agent.set_leaf_judge(judge, share);
    }
    Ok(agent.with_spec(spec))
}

/// A leaf judge and its share of the value.
type Judge<G> = (ShallowValue<G>, f32);

/// The `leaf*` options of a `net:` spec: the shallow alpha-beta judging each leaf.
struct Leaf {
    eval: Option<String>,
    depth: Option<u32>,
    share: Option<f32>,
    scale: Option<f32>,
}

impl Leaf {
    /// The judge and its share, `None` without `leaf=`.
    fn judge<K: GameKit>(&self) -> Result<Option<Judge<K::Game>>, String> {
        let Some(eval) = &self.eval else {
            if self.depth.is_some() || self.share.is_some() || self.scale.is_some() {
                return Err("leaf_depth, leaf_share and leaf_scale need leaf=EVAL".into());
            }
            return Ok(None);
        };
        let eval = ShallowEval::parse(eval).map_err(|e| format!("leaf: {e}"))?;
        let (depth, scale) = (self.depth.unwrap_or(1), self.scale.unwrap_or(400.0));
        let judge = shallow_value::<K>(&eval, depth, scale).map_err(|e| format!("leaf: {e}"))?;
        Ok(Some((judge, self.share.unwrap_or(0.5))))
    }
}

/// A trained network of the game of kit `K` and the encoder its inputs come from, whoever
/// trained it: `path` is a checkpoint directory, a run directory (its latest checkpoint), or
/// an ONNX model ending in `.onnx` (one of `pjlab export`, or any model that follows the game's
/// model card: input and outputs by name and shape, checked with the card beside it if there is
/// one, see [`pjlab_nn::card`]).
///
/// A checkpoint's encoder is the one its model file names (built from the game's table it
/// keeps); an ONNX model's the one its card names ([`card_encoder`]), else the encoder of
/// `variant`'s positions (when given), else the one of the variants' (or the default config's)
/// whose input length is the model's (Chomp: the bar's size), else the first variant's.
///
/// # Errors
/// [`Error::OtherGame`] for a checkpoint of another game, [`Error::UnknownVariant`],
/// [`Error::GameTable`] when a checkpoint's game table does not parse, and
/// [`Error::Net`] when nothing loads there or the model does not fit the game's contract
/// (naming what differs: expected and found).
pub fn load_network<K: GameKit>(
    path: &Path,
    variant: Option<&str>,
) -> Result<(Model, K::Encoder), Error> {
    let source = Source::find(path)?;
    // A checkpoint of another game is refused by name; an ONNX model's card is checked with the
    // rest of its contract below (naming the game expected and found).
    if let Source::Checkpoint { file, .. } = &source
        && file.game != K::INFO.name
    {
        let found = file.game.clone();
        return Err(Error::OtherGame {
            path: path.display().to_string(),
            found,
            expected: K::INFO.name,
        });
    }
    let encoder = match &source {
        Source::Checkpoint { dir, file } => {
            let table = if file.game_config.is_null() {
                K::Config::default()
            } else {
                serde_json::from_value(file.game_config.clone()).map_err(|e| Error::GameTable {
                    path: dir.display().to_string(),
                    reason: e.to_string(),
                })?
            };
            K::encoder(&table)
        }
        Source::Onnx { card: None, .. } if variant.is_some() => {
            let name = variant.unwrap_or_default();
            let variant = K::variant(name).map_err(|reason| Error::UnknownVariant {
                game: K::INFO.name,
                variant: name.to_string(),
                reason: reason.to_string(),
            })?;
            K::position_encoder(&variant.start(0))
        }
        Source::Onnx { card: None, .. } => input_encoder::<K>(source.input_len()),
        Source::Onnx { card, .. } => card_encoder::<K>(card.as_ref()),
    };
    let contract = Contract::of(Some(K::INFO.name), &encoder);
    Ok((Model::load(&source, &contract)?, encoder))
}

/// The encoder of a card-less ONNX model of the game of kit `K` whose input holds `input_len`
/// values: among each variant's (the first is the game's default: Chomp's 3x4 bar) and the
/// default config's, the first of that input length; else the first variant's, and the model's
/// check then names the input shape expected and found.
fn input_encoder<K: GameKit>(input_len: Option<usize>) -> K::Encoder {
    let mut candidates: Vec<K::Encoder> = K::variants()
        .into_iter()
        .map(|v| K::position_encoder(&v.start(0)))
        .collect();
    candidates.push(K::encoder(&K::Config::default()));
    let at = input_len
        .and_then(|n| candidates.iter().position(|e| e.input_len() == n))
        .unwrap_or(0);
    candidates.swap_remove(at)
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
/// factory of every board-game player the lab has, for the binary, the UGI engine and the
/// bindings alike.
///
/// # Errors
/// [`Error::Agent`] on a bad spec of `pjlab_agents`, and as [`net_agent`].
pub fn build<K: GameKit>(spec: &str, seed: u64) -> Result<Box<dyn Agent<K::Game>>, Error> {
    if spec == "net" || spec.starts_with("net:") {
        Ok(Box::new(net_agent::<K>(spec, seed)?))
    } else {
        Ok(pjlab_agents::build::<K>(spec, seed)?)
    }
}
