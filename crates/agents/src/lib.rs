//! Players of any game behind one [`Agent`] trait, built from short specs by [`build`] for a
//! game's [`GameKit`]:
//!
//! | spec | player | options (defaults) |
//! |---|---|---|
//! | `random` | uniform legal move | `seed` |
//! | `greedy` | a win, else a tactical move (a capture, a push) by the game's evaluation, else random | `seed` |
//! | `alphabeta` | [`pjlab_alphabeta::Engine`] with the game's evaluation | `depth` (4 when no limit is given), `nodes`, `time`, `tt` (MiB, 16), `quiescence` (plies, 16), `eval` (TOML weights file, or `nnue:FILE`: a learned evaluation from `pjlab nnue train`) |
//! | `mcts` | [`pjlab_mcts::Mcts`] | `sims` (800), `time`, `nodes` (tree bound), `eval` (`rollout`, `uniform`, or `heuristic`: the game's alpha-beta evaluation as `tanh(eval / scale)`), `scale` (centi-units, 200), `cpuct` (1.5), `gumbel` (actions considered; 0 = PUCT root), `solver` (true), `seed` |
//! | `ugi` | an external engine speaking UGI ([`ugi::UgiAgent`]) | `cmd` (the binary, required), `arg` (one argument, repeatable), `depth`, `movetime` (one of them; `depth=4` when neither), `timeout` (per move beyond `movetime`, 30s), `stderr` (file the engine's stderr is appended to), `option.<Name>` (sent with `setoption`) |
//!
//! Network players (`net:checkpoint=<dir or model.onnx>,sims=N` or `time=T`) live in
//! `pjlab-train`, which needs Burn.
//!
//! Options follow a colon, comma-separated: `alphabeta:depth=6,tt=64`, `mcts:sims=200,eval=uniform`,
//! `alphabeta:time=1s`. Times take `ms`, `s` or `m`. Unknown agents, options and values are
//! errors ([`SpecError`]), never defaults in disguise.

mod control;
mod decision;
pub mod duel;
mod nnue;
pub mod ugi;

pub use control::{Control, SearchLimits, mcts_budget};
pub use decision::{Decision, Score};
pub use duel::{Clock, Ending, Played, play_game};

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use pjlab_alphabeta::{Engine, Limits, Options as AbOptions};
use pjlab_core::{Game, GameKit, Heuristic};
use pjlab_mcts::{
    Budget, Config as MctsConfig, GumbelConfig, HeuristicEvaluator, Mcts, RolloutEvaluator,
    UniformEvaluator,
};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

/// A game so far: where it started and the moves played since, for agents that want the history
/// (an external engine is sent `position fen <start> moves ...`).
#[derive(Debug)]
pub struct History<'a, G: Game> {
    /// The starting position.
    pub start: &'a G,
    /// The moves played from it.
    pub moves: &'a [G::Move],
    /// The position they lead to, where the agent is to move.
    pub position: &'a G,
}

impl<G: Game> Clone for History<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for History<'_, G> {}

/// A player of the game `G`.
pub trait Agent<G: Game>: Send {
    /// The spec it was built from.
    fn spec(&self) -> &str;
    /// Chooses a move in `position` (none if the game is over there).
    fn decide(&mut self, position: &G) -> Decision<G::Move>;

    /// Chooses a move knowing the game's history; by default [`Agent::decide`] on its position.
    fn decide_in_game(&mut self, history: History<'_, G>) -> Decision<G::Move> {
        self.decide(history.position)
    }

    /// Chooses a move under a caller's [`Control`]: its limits instead of the agent's own
    /// budget, its stop flag, progress reports. By default [`Agent::decide`], reported once:
    /// agents that do not search ignore limits and the flag.
    fn search(&mut self, position: &G, control: &mut Control<'_, G::Move>) -> Decision<G::Move> {
        let decision = self.decide(position);
        (control.progress)(&decision);
        decision
    }

    /// Forgets everything learned in earlier games (hash tables, engine state) and reseeds its
    /// random choices, so that a game's result does not depend on which games came before it.
    fn new_game(&mut self, _seed: u64) {}
}

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
        allowed: &'static str,
    },
    /// An option's value does not parse or is out of range.
    #[error("bad value `{value}` for `{key}`: {reason}")]
    BadValue {
        /// The option.
        key: String,
        /// Its value.
        value: String,
        /// What was expected.
        reason: &'static str,
    },
    /// An option is not `key=value`.
    #[error("option `{0}` is not key=value")]
    Malformed(String),
    /// The evaluation weights file is bad.
    #[error("{0}")]
    Eval(String),
}

/// Parses a duration such as `250ms`, `1s`, `1.5s` or `2m`.
///
/// # Errors
/// Anything else.
pub fn parse_duration(text: &str) -> Result<Duration, SpecError> {
    let bad = || SpecError::BadValue {
        key: "time".into(),
        value: text.into(),
        reason: "a duration such as 250ms, 1s, 1.5s or 2m",
    };
    let (number, scale) = if let Some(n) = text.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = text.strip_suffix('m') {
        (n, 60.0)
    } else {
        return Err(bad());
    };
    let value: f64 = number.parse().map_err(|_| bad())?;
    if !(value.is_finite() && value > 0.0 && value * scale < 1e6) {
        return Err(bad());
    }
    Ok(Duration::from_secs_f64(value * scale))
}

fn number<T: std::str::FromStr>(
    key: &str,
    value: &str,
    reason: &'static str,
) -> Result<T, SpecError> {
    value.parse().map_err(|_| SpecError::BadValue {
        key: key.into(),
        value: value.into(),
        reason,
    })
}

/// `spec` with a time budget of `time` a move: `time=` for `alphabeta`, `mcts` and `net`,
/// `movetime=` for `ugi`; `random` and `greedy` are unchanged.
///
/// # Errors
/// [`SpecError::BadValue`] when the spec sets a limit of its own (`depth`, `nodes`, `sims`,
/// `time`, `movetime`): a budget for every agent would not be equal then.
pub fn with_time_per_move(spec: &str, time: Duration) -> Result<String, SpecError> {
    let spec = spec.trim();
    let (name, options) = spec.split_once(':').unwrap_or((spec, ""));
    let key = match name {
        "random" | "greedy" => return Ok(spec.to_string()),
        "ugi" => "movetime",
        _ => "time",
    };
    for option in options.split(',') {
        let k = option.split_once('=').map_or(option, |(k, _)| k).trim();
        if ["depth", "nodes", "sims", "time", "movetime"].contains(&k) {
            return Err(SpecError::BadValue {
                key: k.to_string(),
                value: spec.to_string(),
                reason: "no limit of its own when every agent gets the same time per move",
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
    let spec = spec.trim();
    let (name, options) = spec.split_once(':').unwrap_or((spec, ""));
    let mut pairs = Vec::new();
    for option in options.split(',').filter(|o| !o.trim().is_empty()) {
        let (k, v) = option
            .split_once('=')
            .ok_or_else(|| SpecError::Malformed(option.to_string()))?;
        pairs.push((k.trim().to_string(), v.trim().to_string()));
    }
    let unknown = |key: &str, allowed: &'static str| SpecError::UnknownOption {
        agent: name.to_string(),
        key: key.to_string(),
        allowed,
    };
    match name {
        "random" | "greedy" => {
            let mut seed = seed;
            for (k, v) in &pairs {
                match k.as_str() {
                    "seed" => seed = number(k, v, "a whole number")?,
                    _ => return Err(unknown(k, "seed")),
                }
            }
            Ok(Box::new(SimpleAgent {
                spec: spec.to_string(),
                greedy: (name == "greedy")
                    .then(|| K::evaluation(None).map_err(SpecError::Eval))
                    .transpose()?,
                rng: ChaCha8Rng::seed_from_u64(seed),
            }))
        }
        "alphabeta" | "ab" => {
            const ALLOWED: &str = "depth, nodes, time, tt, quiescence, eval";
            let mut limits = Limits::default();
            let mut options = AbOptions::default();
            let mut weights = None;
            for (k, v) in &pairs {
                match k.as_str() {
                    "depth" => {
                        let d: u32 = number(k, v, "a depth from 1 to 100")?;
                        if !(1..=100).contains(&d) {
                            return Err(SpecError::BadValue {
                                key: k.clone(),
                                value: v.clone(),
                                reason: "a depth from 1 to 100",
                            });
                        }
                        limits.depth = Some(d);
                    }
                    "nodes" => limits.nodes = Some(number(k, v, "a whole number of nodes")?),
                    "time" => limits.time = Some(parse_duration(v)?),
                    "tt" => options.tt_mib = number(k, v, "a size in MiB")?,
                    "quiescence" => options.quiescence_plies = number(k, v, "a number of plies")?,
                    "eval" => weights = Some(v.clone()),
                    _ => return Err(unknown(k, ALLOWED)),
                }
            }
            if limits == Limits::default() {
                limits.depth = Some(4);
            }
            // `eval=nnue:FILE` / `eval=nnue-refresh:FILE`: a learned evaluation (`nnue.rs`).
            if let Some(file) = weights.as_deref().and_then(|w| w.strip_prefix("nnue:")) {
                return nnue::agent::<K>(spec, Path::new(file), false, options, limits);
            }
            if let Some(file) = weights
                .as_deref()
                .and_then(|w| w.strip_prefix("nnue-refresh:"))
            {
                return nnue::agent::<K>(spec, Path::new(file), true, options, limits);
            }
            let eval = K::evaluation(weights.as_deref().map(Path::new)).map_err(SpecError::Eval)?;
            Ok(Box::new(AlphaBetaAgent {
                spec: spec.to_string(),
                engine: Engine::new(eval, options),
                limits,
            }))
        }
        "ugi" => Ok(Box::new(ugi::UgiAgent::from_options(spec, &pairs)?)),
        "mcts" => {
            const ALLOWED: &str = "sims, time, nodes, eval, scale, cpuct, gumbel, solver, seed";
            let mut budget = Budget::simulations(800);
            let mut config = MctsConfig::default();
            let mut leaf = "rollout";
            let mut scale = 200.0f32;
            let mut seed = seed;
            let mut sims_given = false;
            for (k, v) in &pairs {
                match k.as_str() {
                    "sims" => {
                        budget.simulations = number(k, v, "a whole number of simulations")?;
                        sims_given = true;
                    }
                    "time" => budget.time = Some(parse_duration(v)?),
                    "nodes" => budget.max_nodes = number(k, v, "a whole number of nodes")?,
                    "eval" => {
                        leaf = match v.as_str() {
                            "rollout" => "rollout",
                            "uniform" => "uniform",
                            "heuristic" => "heuristic",
                            _ => {
                                return Err(SpecError::BadValue {
                                    key: k.clone(),
                                    value: v.clone(),
                                    reason: "rollout, uniform or heuristic (networks come with \
                                             training)",
                                });
                            }
                        }
                    }
                    "scale" => {
                        scale = number(k, v, "a positive number of centi-units")?;
                        if !(scale.is_finite() && scale > 0.0) {
                            return Err(SpecError::BadValue {
                                key: k.clone(),
                                value: v.clone(),
                                reason: "a positive number of centi-units",
                            });
                        }
                    }
                    "cpuct" => config.c_puct = number(k, v, "a positive number")?,
                    "gumbel" => {
                        let k_actions: usize = number(k, v, "a number of actions (0 = off)")?;
                        config.gumbel = (k_actions > 0).then(|| GumbelConfig {
                            considered: k_actions,
                            ..GumbelConfig::default()
                        });
                    }
                    "solver" => config.solver = number(k, v, "true or false")?,
                    "seed" => seed = number(k, v, "a whole number")?,
                    _ => return Err(unknown(k, ALLOWED)),
                }
            }
            if budget.time.is_some() && !sims_given {
                budget.simulations = u32::MAX;
            }
            let eval = match leaf {
                "rollout" => LeafEval::Rollout(Box::new(RolloutEvaluator::new(seed))),
                "uniform" => LeafEval::Uniform,
                _ => LeafEval::Heuristic(HeuristicEvaluator {
                    heuristic: K::evaluation(None).map_err(SpecError::Eval)?,
                    scale,
                }),
            };
            Ok(Box::new(MctsAgent {
                spec: spec.to_string(),
                config,
                budget,
                eval,
                seed,
            }))
        }
        _ => Err(SpecError::UnknownAgent {
            name: name.to_string(),
        }),
    }
}

/// Random moves, or with an evaluation (greedy) a win, else a tactical move, else random.
struct SimpleAgent<H> {
    spec: String,
    greedy: Option<H>,
    rng: ChaCha8Rng,
}

impl<G: Game, H: Heuristic<G> + Send> Agent<G> for SimpleAgent<H> {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn new_game(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }

    fn decide(&mut self, position: &G) -> Decision<G::Move> {
        let started = Instant::now();
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        if let Some(eval) = &self.greedy {
            let (mut wins, mut captures) = (Vec::new(), Vec::new());
            for &mv in &moves {
                if position.wins_at_once(mv) {
                    wins.push(mv);
                } else if eval.is_tactical(position, mv) {
                    captures.push(mv);
                }
            }
            if !wins.is_empty() {
                moves = wins;
            } else if !captures.is_empty() {
                moves = captures;
            }
        }
        Decision::just(moves.choose(&mut self.rng).copied(), started)
    }
}

struct AlphaBetaAgent<G: Game, H: Heuristic<G>> {
    spec: String,
    engine: Engine<G, H>,
    limits: Limits,
}

impl<G: Game, H: Heuristic<G> + Send> Agent<G> for AlphaBetaAgent<G, H> {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn new_game(&mut self, _seed: u64) {
        self.engine.clear();
    }

    fn decide(&mut self, position: &G) -> Decision<G::Move> {
        let result = self.engine.search(position, &self.limits);
        alphabeta_decision(result)
    }

    fn search(&mut self, position: &G, control: &mut Control<'_, G::Move>) -> Decision<G::Move> {
        self.engine.set_stop_flag(Arc::clone(&control.stop));
        let limits = control.limits.map_or(self.limits, |l| Limits {
            depth: l.depth,
            nodes: l.nodes,
            time: l.time,
        });
        let progress = &mut *control.progress;
        let result = self.engine.search_with(position, &limits, &mut |r| {
            progress(&alphabeta_decision(r.clone()));
        });
        self.engine.set_stop_flag(Arc::new(AtomicBool::new(false)));
        alphabeta_decision(result)
    }
}

/// An alpha-beta result as a decision: a mate score in plies, else centi-units.
fn alphabeta_decision<M>(result: pjlab_alphabeta::SearchResult<M>) -> Decision<M> {
    let score = match result.mate_in() {
        Some(n) => Score::Mate(n),
        None => Score::Centi(result.score),
    };
    Decision {
        best_move: result.best_move,
        score: Some(score),
        pv: result.pv,
        effort: u64::from(result.depth),
        depth: result.depth,
        nodes: result.nodes,
        elapsed: result.elapsed,
        forfeit: None,
    }
}

/// What an `mcts` agent evaluates leaves with.
enum LeafEval<H> {
    Rollout(Box<RolloutEvaluator>),
    Uniform,
    Heuristic(HeuristicEvaluator<H>),
}

struct MctsAgent<H> {
    spec: String,
    config: MctsConfig,
    budget: Budget,
    eval: LeafEval<H>,
    seed: u64,
}

impl<H> MctsAgent<H> {
    /// One search from `position` within `budget`, stopped early if `stop` is raised.
    fn think<G: Game>(
        &mut self,
        position: &G,
        budget: &Budget,
        stop: Option<&Arc<AtomicBool>>,
    ) -> Decision<G::Move>
    where
        H: Heuristic<G>,
    {
        let started = Instant::now();
        self.seed = self.seed.wrapping_add(1);
        let mut search = Mcts::new(position.clone(), self.config.clone(), self.seed);
        if let Some(flag) = stop {
            search.set_stop_flag(Arc::clone(flag));
        }
        let result = match &mut self.eval {
            LeafEval::Rollout(r) => search.search(r.as_mut(), budget),
            LeafEval::Uniform => search.search(&mut UniformEvaluator, budget),
            LeafEval::Heuristic(h) => search.search(h, budget),
        };
        Decision::from_search(result, started)
    }
}

impl<G: Game, H: Heuristic<G> + Send> Agent<G> for MctsAgent<H> {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn new_game(&mut self, seed: u64) {
        self.seed = seed;
        if let LeafEval::Rollout(r) = &mut self.eval {
            **r = RolloutEvaluator::new(seed);
        }
    }

    fn decide(&mut self, position: &G) -> Decision<G::Move> {
        let budget = self.budget;
        self.think(position, &budget, None)
    }

    fn search(&mut self, position: &G, control: &mut Control<'_, G::Move>) -> Decision<G::Move> {
        let budget = mcts_budget(&self.budget, control.limits);
        let decision = self.think(position, &budget, Some(&control.stop));
        (control.progress)(&decision);
        decision
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pjlab_pijersi::{PijersiKit, Position};

    #[test]
    fn specs_parse_or_fail_clearly() {
        for good in [
            "random",
            "greedy:seed=3",
            "alphabeta",
            "alphabeta:depth=2",
            "ab:time=50ms",
            "alphabeta:nodes=1000,tt=1,quiescence=0",
            "mcts",
            "mcts:sims=50,eval=uniform,gumbel=8,solver=false,cpuct=2",
            "mcts:sims=50,eval=heuristic,scale=150",
            "mcts:time=20ms",
        ] {
            let mut agent = build::<PijersiKit>(good, 1).unwrap_or_else(|e| panic!("{good}: {e}"));
            assert_eq!(agent.spec(), good);
            let position = Position::default();
            let mut moves = Vec::new();
            position.legal_moves(&mut moves);
            let decision = agent.decide(&position);
            assert!(
                moves.contains(&decision.best_move.expect("a move")),
                "{good}"
            );
        }
        for bad in [
            "minimax",
            "alphabeta:depth=0",
            "alphabeta:depth=x",
            "alphabeta:speed=3",
            "alphabeta:depth",
            "alphabeta:time=3",
            "alphabeta:eval=/nonexistent.toml",
            "mcts:eval=network",
            "mcts:sims=-1",
            "mcts:scale=0",
            "random:depth=3",
        ] {
            assert!(
                build::<PijersiKit>(bad, 1).is_err(),
                "{bad} should be refused"
            );
        }
    }

    #[test]
    fn a_driven_search_is_the_spec_search_with_the_callers_limits() {
        let position = Position::default();
        let expected = build::<PijersiKit>("alphabeta:depth=3", 1)
            .unwrap()
            .decide(&position);
        for spec in ["alphabeta:depth=1", "alphabeta:time=1m"] {
            let mut agent = build::<PijersiKit>(spec, 1).unwrap();
            let mut depths = Vec::new();
            let mut progress = |d: &Decision<_>| depths.push(d.depth);
            let mut control = Control {
                limits: Some(SearchLimits {
                    depth: Some(3),
                    ..SearchLimits::default()
                }),
                stop: Arc::new(AtomicBool::new(false)),
                progress: &mut progress,
            };
            let got = agent.search(&position, &mut control);
            assert_eq!(
                (got.best_move, got.score, got.depth),
                (expected.best_move, expected.score, 3),
                "{spec}"
            );
            assert_eq!(depths, [1, 2, 3], "{spec}");
        }
        // A raised stop flag ends searches with no limit: alpha-beta after depth 1, MCTS at once;
        // both still answer a move.
        for spec in ["alphabeta", "mcts"] {
            let mut agent = build::<PijersiKit>(spec, 1).unwrap();
            let mut reports = 0;
            let mut progress = |_: &Decision<_>| reports += 1;
            let mut control = Control {
                limits: Some(SearchLimits::default()),
                stop: Arc::new(AtomicBool::new(true)),
                progress: &mut progress,
            };
            let got = agent.search(&position, &mut control);
            assert!(got.best_move.is_some(), "{spec}");
            assert!(got.depth <= 1 || spec == "mcts", "{spec}: {got:?}");
            assert_eq!(reports, 1, "{spec}");
            // The flag does not outlive the search.
            assert!(agent.decide(&position).effort > 1, "{spec}");
        }
    }

    #[test]
    fn a_time_per_move_replaces_the_agents_own_limits() {
        let t = Duration::from_millis(50);
        assert_eq!(
            with_time_per_move("alphabeta", t).unwrap(),
            "alphabeta:time=50ms"
        );
        assert_eq!(
            with_time_per_move("mcts:eval=heuristic", t).unwrap(),
            "mcts:eval=heuristic,time=50ms"
        );
        assert_eq!(
            with_time_per_move("ugi:cmd=x", t).unwrap(),
            "ugi:cmd=x,movetime=50ms"
        );
        assert_eq!(with_time_per_move("random", t).unwrap(), "random");
        for own in ["alphabeta:depth=3", "mcts:sims=10", "ugi:cmd=x,movetime=1s"] {
            assert!(with_time_per_move(own, t).is_err(), "{own}");
        }
        // What it writes parses, and the budget holds (give or take the last node).
        let mut agent =
            build::<PijersiKit>(&with_time_per_move("alphabeta", t).unwrap(), 1).unwrap();
        let d = agent.decide(&Position::default());
        assert!(d.best_move.is_some() && d.elapsed < Duration::from_secs(5));
    }

    #[test]
    fn durations() {
        assert_eq!(
            parse_duration("250ms").ok(),
            Some(Duration::from_millis(250))
        );
        assert_eq!(
            parse_duration("1.5s").ok(),
            Some(Duration::from_millis(1500))
        );
        assert_eq!(parse_duration("2m").ok(), Some(Duration::from_secs(120)));
        for bad in ["", "s", "-1s", "1h", "nan s", "1e9m"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }
}
