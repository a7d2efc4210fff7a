//! Agents from their specs: [`build`], the spec errors, and the time-per-move rewrite.

use std::path::Path;
use std::time::Duration;

use pjlab_alphabeta::{Engine, Limits, Options as AbOptions};
use pjlab_core::GameKit;
use pjlab_core::spec::{self, Spec};
use pjlab_mcts::{
    Budget, Config as MctsConfig, GumbelConfig, HeuristicEvaluator, RolloutEvaluator,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::Agent;
use crate::players::{AlphaBetaAgent, LeafEval, MctsAgent, SimpleAgent};
/// A bad agent spec.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    /// No agent has this name.
    #[error("unknown agent `{name}` (known: random, greedy, alphabeta, mcts, ugi, net)")]
    UnknownAgent {
        /// The name given.
        name: String,
    },
    /// The agent has no such option.
    #[error("agent `{agent}` has no option `{key}` (options: {allowed})")]
    UnknownOption {
        /// The agent.
        agent: String,
        /// The option given.
        key: String,
        /// The options it has.
        allowed: String,
    },
    /// An option's value does not parse or is out of range, or a required option is absent
    /// (its value then empty).
    #[error("bad value `{value}` for `{key}`: {reason}")]
    BadValue {
        /// The option.
        key: String,
        /// Its value.
        value: String,
        /// What was expected.
        reason: String,
    },
    /// An option is not `key=value`.
    #[error("option `{0}` is not key=value")]
    Malformed(String),
    /// An option is given more than once.
    #[error("agent `{agent}` gives option `{key}` more than once")]
    Repeated {
        /// The agent.
        agent: String,
        /// The option repeated.
        key: String,
    },
    /// An evaluation's name is none of `hand`, `nnue:PATH`, `nnue-int:PATH`.
    #[error("{0:?} is none of hand, nnue:PATH, nnue-int:PATH")]
    EvalName(String),
    /// A learned evaluation's file does not load, or its network was trained for another game
    /// or feature set.
    #[error(transparent)]
    Nnue(pjlab_nnue::Error),
    /// A learned evaluation's accumulators have a width whose tracked positions are not built.
    #[error(
        "{}: accumulators of width {width} are not tracked (16, 32, 64, 128 or 256; an \
         alpha-beta agent's eval=nnue-refresh takes any)",
        path.display()
    )]
    Width {
        /// The network's file.
        path: std::path::PathBuf,
        /// Its accumulators' width.
        width: usize,
    },
    /// The game refused: bad evaluation weights, an unknown variant.
    #[error(transparent)]
    Game(#[from] pjlab_core::Error),
}

impl From<spec::SpecError> for SpecError {
    fn from(e: spec::SpecError) -> Self {
        match e {
            spec::SpecError::Malformed(option) => SpecError::Malformed(option),
            spec::SpecError::NoName => SpecError::UnknownAgent {
                name: String::new(),
            },
            spec::SpecError::UnknownOption { name, key, allowed } => SpecError::UnknownOption {
                agent: name,
                key,
                allowed,
            },
            spec::SpecError::BadValue {
                key,
                value,
                expected,
            } => SpecError::BadValue {
                key,
                value,
                reason: expected,
            },
            spec::SpecError::Repeated { name, key } => SpecError::Repeated { agent: name, key },
            spec::SpecError::Missing { key, .. } => SpecError::BadValue {
                key,
                value: String::new(),
                reason: "required".into(),
            },
        }
    }
}

/// Parses a duration such as `250ms`, `1s`, `1.5s` or `2m`.
///
/// # Errors
/// Anything else.
pub fn parse_duration(text: &str) -> Result<Duration, SpecError> {
    spec::duration(text).ok_or_else(|| SpecError::BadValue {
        key: "time".into(),
        value: text.into(),
        reason: spec::DURATION.into(),
    })
}

pub(crate) fn number<T: std::str::FromStr>(
    key: &str,
    value: &str,
    reason: &'static str,
) -> Result<T, SpecError> {
    value.parse().map_err(|_| SpecError::BadValue {
        key: key.into(),
        value: value.into(),
        reason: reason.into(),
    })
}

/// Whether the agent `spec` names chooses without a search (`random`, `greedy`): it has no
/// budget, and answers in microseconds.
pub fn is_searchless(spec: &str) -> bool {
    matches!(spec::split(spec.trim()).0, "random" | "greedy")
}

/// `spec` with a time budget of `time` a move: `time=` for `alphabeta`, `mcts` and `net`,
/// `movetime=` for `ugi`; the [searchless](is_searchless) `random` and `greedy` are unchanged.
///
/// # Errors
/// [`SpecError::BadValue`] when the spec sets a limit of its own (`depth`, `nodes`, `sims`,
/// `time`, `movetime`): a budget for every agent would not be equal then.
pub fn with_time_per_move(spec: &str, time: Duration) -> Result<String, SpecError> {
    let spec = spec.trim();
    let (name, options) = spec::split(spec);
    let options = options.unwrap_or("");
    if is_searchless(spec) {
        return Ok(spec.to_string());
    }
    let key = if name == "ugi" { "movetime" } else { "time" };
    for option in options.split(',') {
        let k = option.split_once('=').map_or(option, |(k, _)| k).trim();
        if ["depth", "nodes", "sims", "time", "movetime"].contains(&k) {
            return Err(SpecError::BadValue {
                key: k.to_string(),
                value: spec.to_string(),
                reason: "no limit of its own when every agent gets the same time per move".into(),
            });
        }
    }
    let ms = time.as_secs_f64() * 1000.0;
    let sep = if options.is_empty() { ":" } else { "," };
    Ok(format!("{spec}{sep}{key}={ms}ms"))
}

/// Builds the agent a spec names for the game of kit `K`; `seed` seeds its random choices unless
/// the spec sets `seed`.
///
/// # Errors
/// [`SpecError`] for unknown agents or options and bad values.
pub fn build<K: GameKit>(spec: &str, seed: u64) -> Result<Box<dyn Agent<K::Game>>, SpecError> {
    let mut options = Spec::parse(spec)?;
    let spec = options.text().to_string();
    match options.name() {
        "random" | "greedy" => {
            let seed = options
                .take_parsed("seed", "a whole number")?
                .unwrap_or(seed);
            let greedy = options.name() == "greedy";
            options.finish()?;
            Ok(Box::new(SimpleAgent {
                spec,
                greedy: greedy
                    .then(|| K::evaluation(None).map_err(SpecError::Game))
                    .transpose()?,
                rng: ChaCha8Rng::seed_from_u64(seed),
            }))
        }
        "alphabeta" | "ab" => {
            let depth = "a depth from 1 to 100";
            let mut limits = Limits {
                depth: options.take_with("depth", depth, |v| {
                    v.parse().ok().filter(|d| (1..=100).contains(d))
                })?,
                nodes: options.take_parsed("nodes", "a whole number of nodes")?,
                time: options.take_duration("time")?,
            };
            let mut engine = AbOptions::default();
            // A table this process cannot reserve is refused here: allocating it in the engine
            // would abort the process.
            let tt = "a size in MiB that this machine can reserve";
            if let Some(mib) = options.take_with("tt", tt, |v| {
                v.parse::<usize>().ok().filter(|&mib| can_reserve_mib(mib))
            })? {
                engine.tt_mib = mib;
            }
            if let Some(plies) = options.take_parsed("quiescence", "a number of plies")? {
                engine.quiescence_plies = plies;
            }
            let weights = options.take_path("eval")?;
            options.finish()?;
            if limits == Limits::default() {
                limits.depth = Some(4);
            }
            // `eval=nnue:FILE` / `nnue-refresh:FILE` / `nnue-int:FILE`: a learned evaluation
            // (`nnue.rs`).
            let learned = |prefix: &str| {
                let text = weights.as_deref()?.to_str()?;
                text.strip_prefix(prefix)
                    .map(|file| Path::new(file).to_path_buf())
            };
            use crate::nnue::Kind;
            for (prefix, kind) in [
                ("nnue:", Kind::Tracked),
                ("nnue-refresh:", Kind::Refresh),
                ("nnue-int:", Kind::Integer),
            ] {
                if let Some(file) = learned(prefix) {
                    return crate::nnue::agent::<K>(&spec, &file, kind, engine, limits);
                }
            }
            let eval = K::evaluation(weights.as_deref()).map_err(SpecError::Game)?;
            Ok(Box::new(AlphaBetaAgent {
                spec,
                engine: Engine::new(eval, engine),
                limits,
            }))
        }
        "ugi" => Ok(Box::new(crate::ugi::UgiAgent::from_options(
            &spec,
            options.options(),
        )?)),
        "mcts" => {
            let mut budget = Budget::simulations(800);
            let sims =
                options.take_with("sims", "a positive whole number of simulations", |v| {
                    v.parse::<u32>().ok().filter(|&n| n > 0)
                })?;
            if let Some(sims) = sims {
                budget.simulations = sims;
            }
            budget.time = options.take_duration("time")?;
            if let Some(nodes) = options.take_parsed("nodes", "a whole number of nodes")? {
                budget.max_nodes = nodes;
            }
            let leaf = options
                .take_with(
                    "eval",
                    "rollout, uniform or heuristic (networks come with training)",
                    |v| {
                        ["rollout", "uniform", "heuristic"]
                            .into_iter()
                            .find(|&e| e == v)
                    },
                )?
                .unwrap_or("rollout");
            let scale = options
                .take_with("scale", "a positive number of centi-units", |v| {
                    v.parse::<f32>().ok().filter(|s| s.is_finite() && *s > 0.0)
                })?
                .unwrap_or(200.0);
            let mut config = MctsConfig::default();
            if let Some(c) = options.take_parsed("cpuct", "a positive number")? {
                config.c_puct = c;
            }
            if let Some(k) =
                options.take_parsed::<usize>("gumbel", "a number of actions (0 = off)")?
            {
                config.gumbel = (k > 0).then(|| GumbelConfig {
                    considered: k,
                    ..GumbelConfig::default()
                });
            }
            if let Some(solver) = options.take_parsed("solver", "true or false")? {
                config.solver = solver;
            }
            let seed = options
                .take_parsed("seed", "a whole number")?
                .unwrap_or(seed);
            options.finish()?;
            if budget.time.is_some() && sims.is_none() {
                budget.simulations = u32::MAX;
            }
            let eval = match leaf {
                "rollout" => LeafEval::Rollout(Box::new(RolloutEvaluator::new(seed))),
                "uniform" => LeafEval::Uniform,
                _ => LeafEval::Heuristic(HeuristicEvaluator {
                    heuristic: K::evaluation(None).map_err(SpecError::Game)?,
                    scale,
                }),
            };
            Ok(Box::new(MctsAgent {
                spec,
                config,
                budget,
                eval,
                seed,
            }))
        }
        name => Err(SpecError::UnknownAgent {
            name: name.to_string(),
        }),
    }
}

/// Whether `mib` MiB can be reserved now (reserved and given back at once: with the kernel's
/// overcommit, only address space, not memory, is taken).
fn can_reserve_mib(mib: usize) -> bool {
    mib.checked_mul(1 << 20)
        .is_some_and(|bytes| Vec::<u8>::new().try_reserve_exact(bytes).is_ok())
}
