//! Chifoumi's league ([`pjlab_league`]): each iteration the learner plays matches against
//! opponents drawn from the pool (its past snapshots and the fixed opponents: scripted players
//! or trained networks), learns from its decisions by policy gradient, and writes a
//! checkpoint; every few iterations it is evaluated against every fixed opponent. What is
//! Chifoumi's: the matches under the config's rules, its players, and what a decision's
//! return is ([`crate::decisions`]).

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use pjlab_chifoumi::{Player, Rules, play_match, play_recorded_match};
use pjlab_core::Provenance;
use pjlab_league::{League, Opponent, Played, Settings};
use pjlab_nn::inference::PackedNet;
use pjlab_nn::model::{CHIFOUMI, chifoumi_encoder};
use pjlab_nn::{NetShape, NetworkFile};
use pjlab_players::chifoumi::{NetPlayer, Step, load_checked, parse_net_spec};
use pjlab_run::dir::Opening;

pub use pjlab_league::TrainSummary;

use crate::Error;
use crate::config::LearnConfig;
use crate::decisions::returns_of;
use crate::features::input_len;
use crate::metrics::IterationLog;

/// Outputs of the policy: one per [`pjlab_chifoumi::players::Intent`].
pub const ACTIONS: usize = pjlab_chifoumi::players::Intent::ALL.len();

/// The rules of training matches.
pub fn rules(config: &LearnConfig) -> Rules {
    Rules {
        games: config.games_per_match,
        ..Rules::default()
    }
}

/// The networks of the `net:` opponents, loaded once.
type Nets = HashMap<String, (Arc<PackedNet>, f32)>;

/// Loads the network of every `net:` spec of `specs`.
fn load_nets(specs: &[String]) -> Result<Nets, Error> {
    let mut nets = Nets::new();
    for spec in specs {
        if let Some((path, temperature)) = parse_net_spec(spec)? {
            let net = load_checked(&path, Rules::default().radius)?;
            nets.insert(spec.clone(), (Arc::new(net), temperature));
        }
    }
    Ok(nets)
}

/// A fixed opponent: a scripted player or a loaded network.
fn fixed_player(spec: &str, nets: &Nets) -> Result<Box<dyn Player + Send>, Error> {
    match nets.get(spec) {
        Some((net, t)) => Ok(Box::new(NetPlayer::new(net.clone(), *t, spec.into()))),
        None => Ok(pjlab_chifoumi::parse_player(spec)?),
    }
}

/// Chifoumi's league: a run's config, the league's settings from it, its matches' rules.
struct Chifoumi<'a> {
    config: &'a LearnConfig,
    settings: Settings,
    rules: Rules,
}

impl Chifoumi<'_> {
    fn new(config: &LearnConfig) -> Chifoumi<'_> {
        Chifoumi {
            config,
            settings: config.settings(),
            rules: rules(config),
        }
    }
}

impl League for Chifoumi<'_> {
    type Decision = Step;
    type Fixed = Nets;
    type Error = Error;

    const GAME: &'static str = CHIFOUMI;
    const COMMAND: &'static str = "pjlab chifoumi train";
    const TRAINER: &'static str = crate::checkpoint::TRAINER;

    fn settings(&self) -> &Settings {
        &self.settings
    }

    fn shape(&self) -> NetShape {
        NetShape {
            input: input_len(self.rules.radius),
            actions: ACTIONS,
        }
    }

    fn network_file(&self) -> NetworkFile {
        NetworkFile::new(
            CHIFOUMI,
            chifoumi_encoder(),
            self.config.network.clone(),
            self.shape(),
            serde_json::Value::Null,
        )
    }

    fn check_config(&self, opening: &mut Opening<'_>, resumed: bool) -> Result<(), Error> {
        let text = toml::to_string(self.config)?;
        let saved = match (resumed, opening.dir().config_text()?) {
            (true, Some(text)) => Some(LearnConfig::parse(&text)?),
            _ => None,
        };
        opening.resume_config::<_, Error>(
            saved,
            self.config,
            text,
            |saved, config| saved.iterations = config.iterations,
            "`iterations`",
        )
    }

    fn load_fixed(&self) -> Result<Nets, Error> {
        load_nets(&self.config.opponents)
    }

    fn play(
        &self,
        net: &Arc<PackedNet>,
        opponent: &Opponent,
        nets: &Nets,
        seed: u64,
        seat: usize,
    ) -> Result<Played<Step>, Error> {
        let temperature = self.config.temperature;
        let mut learner = NetPlayer::new(net.clone(), temperature, "learner".into());
        learner.record();
        let mut other: Box<dyn Player + Send> = match opponent {
            Opponent::Snapshot(n) => {
                Box::new(NetPlayer::new(n.clone(), temperature, "self".into()))
            }
            Opponent::Fixed(spec) => fixed_player(spec, nets)?,
        };
        let (l, o): (&mut dyn Player, &mut dyn Player) = (&mut learner, other.as_mut());
        let mut seats = if seat == 0 { [l, o] } else { [o, l] };
        let (result, actions) = play_recorded_match(&self.rules, &mut seats, seed)?;
        let decisions = learner.take_trace();
        let (returns, classes) = returns_of(&decisions, &result, seat, self.config);
        Ok(Played {
            decisions,
            returns,
            classes,
            result: result.result_for(seat),
            env_steps: actions.iter().map(|a| a.len() as u64).sum(),
        })
    }

    fn evaluate(
        &self,
        net: &Arc<PackedNet>,
        spec: &str,
        nets: &Nets,
        seed: u64,
        seat: usize,
    ) -> Result<i8, Error> {
        let mut me = NetPlayer::new(net.clone(), self.config.eval_temperature, "net".into());
        let mut other = fixed_player(spec, nets)?;
        let (l, x): (&mut dyn Player, &mut dyn Player) = (&mut me, other.as_mut());
        let mut seats = if seat == 0 { [l, x] } else { [x, l] };
        Ok(play_match(&self.rules, &mut seats, seed)?.result_for(seat))
    }
}

/// Match scores of `net` against each fixed opponent of `config`, `config.eval_matches`
/// each (seats alternating), from seeds of `iteration`.
///
/// # Errors
/// [`Error::Game`] when a match cannot be played; [`Error::Io`], [`Error::Net`] or
/// [`Error::Player`] when a `net:` opponent does not load.
pub fn evaluate(
    net: &Arc<PackedNet>,
    config: &LearnConfig,
    iteration: u32,
) -> Result<Vec<(String, f64)>, Error> {
    pjlab_league::evaluate(&Chifoumi::new(config), net, iteration)
}

/// Trains the run in `dir` with `config` until `config.iterations`, `max_iterations` more, or
/// `stop`; calls `on_iteration` after each ([`pjlab_league::train`]). A directory with a
/// checkpoint resumes from it (its `config.toml` must match `config` except `iterations`);
/// `provenance`, when given, is appended to the run's `provenance.jsonl` once the directory is
/// locked and checked.
///
/// # Errors
/// [`Error::Value`] or [`Error::Opponent`] for a config that does not check; [`Error::Run`]
/// for a config that does not match the run's; [`Error::League`] on files that cannot be read
/// or written (a checkpoint of another trainer among them).
pub fn train(
    dir: &Path,
    config: &LearnConfig,
    provenance: Option<&Provenance>,
    max_iterations: Option<u32>,
    stop: &AtomicBool,
    on_iteration: &mut dyn FnMut(&IterationLog),
) -> Result<TrainSummary, Error> {
    config.check()?;
    pjlab_league::train(
        &Chifoumi::new(config),
        dir,
        provenance,
        max_iterations,
        stop,
        on_iteration,
    )
}
