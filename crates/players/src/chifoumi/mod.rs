//! Chifoumi's players by spec ([`build`]: the scripted players, `ismcts`, and `net:`):
//! [`NetPlayer`], the learned player, with the trace of its decisions that training
//! (`pjlab-chifoumi-learn`) learns from, and [`IsmctsPlayer`], information-set MCTS on the lab's
//! search (with a model of its opponent, ISMCTS-BR: [`modelled`]).

mod ismcts;
pub mod modelled;

pub use ismcts::{IsmctsOptions, IsmctsPlayer, ismcts_player};

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use pjlab_chifoumi::players::{Intent, Memory, input_len};
use pjlab_chifoumi::{Action, ActionSet, Observation, Player, Rules};
use pjlab_nn::card::Contract;
use pjlab_nn::inference::PackedNet;
use pjlab_nn::model::{CHIFOUMI, chifoumi_encoder};
use pjlab_nn::{LOSS, Model, Source, WIN};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::Error;

/// One decision of the learned player, as training needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The network's input.
    pub input: Vec<f32>,
    /// The intents it could follow, bit `i` for [`Intent`] index `i`.
    pub legal: u8,
    /// The intent index chosen.
    pub action: u8,
    /// The network's value (P(win) - P(loss)) of the position: the baseline.
    pub value: f32,
    /// The game of the match (0-based).
    pub game: u16,
}

impl pjlab_nn::pg::Decision for Step {
    fn input(&self) -> &[f32] {
        &self.input
    }

    fn is_legal(&self, action: usize) -> bool {
        action < 8 && (self.legal >> action) & 1 == 1
    }

    fn action(&self) -> usize {
        usize::from(self.action)
    }

    fn value(&self) -> f32 {
        self.value
    }
}

/// The learned player: each turn the network's policy chooses an [`Intent`] (collect a type,
/// collect anything, flee, duel, hold), sampled at a temperature (0: the likeliest), and the scripted
/// movement carries it out; [`Memory`] of the match is in its input.
///
/// An intent is kept, without asking the network, while the opponent stays out of view, the
/// bag does not change and fewer than [`INTENT_TURNS`] of the player's turns have passed; in
/// view of the opponent it chooses every turn.
///
/// Choosing intents rather than single steps is decided here: the decisions that win a match
/// (which type to hold, when to call or refuse a duel) are a handful a game, while a game has
/// about fifty steps; over kept intents the policy gradient's credit falls on those few.
pub struct NetPlayer {
    net: Arc<PackedNet>,
    temperature: f32,
    memory: Memory,
    label: String,
    trace: Option<Vec<Step>>,
    input: Vec<f32>,
    /// The intent being followed, and what it was chosen on: the game, the turn, the bag
    /// and whether the opponent was in view.
    current: Option<(Intent, u16, u16, pjlab_chifoumi::Bag, bool)>,
}

/// Turns an intent is followed at most, out of the opponent's view, before the next choice.
pub const INTENT_TURNS: u16 = 10;

impl NetPlayer {
    /// A player of `net` at `temperature`, named `label` in records.
    pub fn new(net: Arc<PackedNet>, temperature: f32, label: String) -> NetPlayer {
        NetPlayer {
            input: vec![0.0; net.input_len()],
            net,
            temperature,
            memory: Memory::default(),
            label,
            trace: None,
            current: None,
        }
    }

    /// Loads the network of `path` (a training run directory, its newest checkpoint, or one
    /// checkpoint directory) for matches of `rules`.
    ///
    /// # Errors
    /// As [`load_checked`].
    pub fn load(
        path: &Path,
        rules: &Rules,
        temperature: f32,
        label: String,
    ) -> Result<NetPlayer, Error> {
        let net = load_checked(path, rules.radius)?;
        Ok(NetPlayer::new(Arc::new(net), temperature, label))
    }

    /// The packed network it plays.
    pub fn net(&self) -> Arc<PackedNet> {
        self.net.clone()
    }

    /// Starts recording every decision (training).
    pub fn record(&mut self) {
        self.trace = Some(Vec::new());
    }

    /// The decisions recorded since [`NetPlayer::record`].
    pub fn take_trace(&mut self) -> Vec<Step> {
        self.trace.take().unwrap_or_default()
    }
}

impl Player for NetPlayer {
    fn name(&self) -> String {
        self.label.clone()
    }

    fn new_match(&mut self) {
        self.memory.new_match();
        self.current = None;
    }

    fn observe(&mut self, obs: &Observation) {
        self.memory.observe(obs);
    }

    fn act(&mut self, obs: &Observation, legal: ActionSet, rng: &mut ChaCha8Rng) -> Action {
        let in_view = obs.opponent.is_some();
        if let Some((intent, game, turn, bag, seen)) = self.current
            && !in_view
            && !seen
            && game == obs.info.game
            && bag == obs.bag
            && obs.turn < turn.saturating_add(2 * INTENT_TURNS)
            && intent.allowed(legal)
        {
            return intent.act(obs, self.memory.known(), legal, rng);
        }
        let actions = self.net.actions();
        self.memory.write(obs, &mut self.input);
        let mut logits = vec![0.0f32; actions];
        let mut value = [0.0f32; 3];
        self.net.forward(&self.input, &mut logits, &mut value);
        let allowed = |a: usize| Intent::from_index(a).is_some_and(|x| x.allowed(legal));
        let best = (0..actions)
            .filter(|&a| allowed(a))
            .max_by(|&a, &b| logits[a].total_cmp(&logits[b]));
        let Some(best) = best else {
            return legal.iter().next().unwrap_or(Action::Duel);
        };
        let chosen = if self.temperature <= 0.0 {
            best
        } else {
            let t = self.temperature;
            let weights: Vec<f32> = (0..actions)
                .map(|a| {
                    if allowed(a) {
                        ((logits[a] - logits[best]) / t).exp()
                    } else {
                        0.0
                    }
                })
                .collect();
            let total: f32 = weights.iter().sum();
            let mut u = rng.random::<f32>() * total;
            let mut pick = best;
            for (a, w) in weights.iter().enumerate() {
                if *w > 0.0 {
                    pick = a;
                    if u < *w {
                        break;
                    }
                    u -= w;
                }
            }
            pick
        };
        if let Some(trace) = self.trace.as_mut() {
            let top = value.iter().copied().fold(f32::MIN, f32::max);
            let e = value.map(|v| (v - top).exp());
            let sum: f32 = e.iter().sum();
            trace.push(Step {
                input: self.input.clone(),
                legal: (0..actions)
                    .filter(|&a| allowed(a))
                    .fold(0u8, |m, a| m | (1 << a)),
                action: chosen as u8,
                value: (e[WIN] - e[LOSS]) / sum,
                game: obs.info.game,
            });
        }
        let intent = Intent::from_index(chosen).unwrap_or(Intent::CollectAny);
        self.current = Some((intent, obs.info.game, obs.turn, obs.bag, in_view));
        intent.act(obs, self.memory.known(), legal, rng)
    }
}

/// What a learned player's network must read and answer for a visibility radius of
/// `radius`: the observation and memory of [`input_len`], one logit per [`Intent`].
pub fn contract(radius: u8) -> Contract {
    Contract {
        game: Some(CHIFOUMI.into()),
        encoder: chifoumi_encoder(),
        input_len: input_len(radius),
        actions: Intent::ALL.len(),
    }
}

/// The packed network of `path` (a run directory means its newest checkpoint), checked to be
/// Chifoumi's and to read the input of a visibility radius of `radius` ([`contract`]).
///
/// # Errors
/// [`Error::Net`] when it does not load or does not fit, [`Error::OtherGame`] for a board
/// game's network, [`Error::PlayerSpec`] for an ONNX model (the learned player runs checkpoints).
pub fn load_checked(path: &Path, radius: u8) -> Result<PackedNet, Error> {
    let source = Source::find(path)?;
    if let Some(found) = source.named_game()
        && found != CHIFOUMI
    {
        return Err(Error::OtherGame {
            path: path.display().to_string(),
            found,
            expected: CHIFOUMI,
        });
    }
    match Model::load(&source, &contract(radius))? {
        Model::Packed { net, .. } => Ok(net),
        Model::Onnx(_) => Err(Error::PlayerSpec {
            spec: path.display().to_string(),
            reason: "Chifoumi's learned player runs a checkpoint, not an ONNX model".into(),
        }),
    }
}

/// Networks loaded so far, by checkpoint path: every match builds its players afresh.
static NETS: Mutex<Vec<(PathBuf, Arc<PackedNet>)>> = Mutex::new(Vec::new());

/// The network of `path` for matches of `rules`, read once and shared by every player built
/// from it.
fn shared_net(path: &Path, rules: &Rules) -> Result<Arc<PackedNet>, Error> {
    let mut nets = NETS.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, net)) = nets.iter().find(|(p, _)| p == path) {
        return Ok(net.clone());
    }
    let net = Arc::new(load_checked(path, rules.radius)?);
    nets.push((path.to_path_buf(), net.clone()));
    Ok(net)
}

/// Every player spec [`build`] knows, for messages.
pub const KNOWN: &str = "random, focused:F|P|C, greedy, avoider, counter, counter-reset, \
                         observer, lurker, ismcts, net:checkpoint=DIR";

/// Builds a Chifoumi player from its spec for matches of `rules`: the scripted players
/// ([`pjlab_chifoumi::parse_player`]), `ismcts` ([`ismcts_player`]), and
/// `net:checkpoint=DIR[,temp=T]` (a training run or checkpoint of `pjlab chifoumi train`; the
/// policy sampled at temperature T, default 1; 0 plays the likeliest action). A network is
/// read once and shared by every player built from it.
///
/// # Errors
/// [`Error::UnknownPlayer`] for a name no player has; [`Error::PlayerSpec`] or
/// [`Error::Chifoumi`] for a bad option; as
/// [`load_checked`] when the network cannot be loaded.
pub fn build(spec: &str, rules: &Rules) -> Result<Box<dyn Player + Send>, Error> {
    let spec = spec.trim();
    let bad = |reason: String| Error::PlayerSpec {
        spec: spec.to_string(),
        reason,
    };
    match pjlab_core::spec::split(spec).0 {
        "net" => {
            let (path, temperature) =
                parse_net_spec(spec)?.ok_or_else(|| bad("net needs checkpoint=DIR".into()))?;
            let net = shared_net(&path, rules)?;
            Ok(Box::new(NetPlayer::new(net, temperature, spec.into())))
        }
        "ismcts" => {
            let player = ismcts_player(spec, rules).map_err(|e| bad(e.to_string()))?;
            Ok(Box::new(player))
        }
        name if pjlab_chifoumi::players::is_scripted(name) => {
            Ok(pjlab_chifoumi::parse_player(spec)?)
        }
        _ => Err(Error::UnknownPlayer {
            spec: spec.to_string(),
            known: KNOWN,
        }),
    }
}

/// Reads a learned player's spec, `net:checkpoint=DIR[,temp=T]`: `None` for a spec that is not
/// `net:`, else the checkpoint path and the temperature (default 1).
///
/// # Errors
/// [`Error::PlayerSpec`] for an unknown option, a bad temperature or no checkpoint.
pub fn parse_net_spec(spec: &str) -> Result<Option<(PathBuf, f32)>, Error> {
    if !spec.trim().starts_with("net:") {
        return Ok(None);
    }
    let bad = |reason: String| Error::PlayerSpec {
        spec: spec.to_string(),
        reason,
    };
    let mut options = pjlab_core::spec::Spec::parse(spec).map_err(|e| bad(e.to_string()))?;
    let path = options
        .take_path("checkpoint")
        .map_err(|e| bad(e.to_string()))?;
    let temperature = options
        .take_f64_in("temp", 0.0, 100.0)
        .map_err(|e| bad(e.to_string()))?;
    options.finish().map_err(|e| bad(e.to_string()))?;
    let path = path.ok_or_else(|| bad("net needs checkpoint=DIR".into()))?;
    Ok(Some((path, temperature.map_or(1.0, |t| t as f32))))
}

#[cfg(test)]
mod spec_tests {
    use super::parse_net_spec;

    #[test]
    fn net_specs_parse_and_other_players_are_left_to_their_parsers() {
        for other in ["focused:F", "random", "counter-reset", "ismcts:sims=10"] {
            assert!(parse_net_spec(other).unwrap().is_none(), "{other}");
        }
        assert_eq!(
            parse_net_spec("net:checkpoint=runs/x,temp=0.5").unwrap(),
            Some(("runs/x".into(), 0.5))
        );
        assert_eq!(
            parse_net_spec("net:checkpoint=runs/x").unwrap(),
            Some(("runs/x".into(), 1.0))
        );
        for bad in [
            "net:temp=200,checkpoint=x",
            "net:checkpoint=x,speed=3",
            "net:temp=1",
        ] {
            let err = parse_net_spec(bad).unwrap_err().to_string();
            assert!(err.starts_with(&format!("player {bad:?}: ")), "{err}");
        }
    }
}
