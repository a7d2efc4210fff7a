//! Searches: a player built by the binary's [`Players`], driven through
//! [`Agent::search`](pjlab_agents::Agent::search) on the [`Pool`](crate::pool::Pool) with the
//! request's limits and a stop flag, its reports sent to the waiting handler.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use pjlab_agents::{Agent, Control, Decision, Score, SearchLimits};
use pjlab_core::{Game, GameKit};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::ApiError;

/// Builds players from specs: the binary's (every player, networks included), or
/// [`BuiltinPlayers`] (the agents of `pjlab-agents`: no network, no Burn).
pub trait Players: Send + Sync + 'static {
    /// The player `spec` names for `K`'s game, its random choices seeded by `seed`.
    ///
    /// # Errors
    /// Why the player cannot be built, in words.
    fn build<K: GameKit>(&self, spec: &str, seed: u64) -> Result<Box<dyn Agent<K::Game>>, String>;
}

/// The agents `pjlab-agents` builds by spec: random, greedy, alpha-beta, MCTS with rollouts.
#[derive(Clone, Copy, Debug, Default)]
pub struct BuiltinPlayers;

impl Players for BuiltinPlayers {
    fn build<K: GameKit>(&self, spec: &str, seed: u64) -> Result<Box<dyn Agent<K::Game>>, String> {
        pjlab_agents::build::<K>(spec, seed).map_err(|e| e.to_string())
    }
}

/// The longest player spec, in bytes.
pub const MAX_SPEC: usize = 512;
/// The longest search a request may ask for.
pub const MAX_MOVETIME_MS: u64 = 60_000;
/// The deepest alpha-beta search a request may ask for.
pub const MAX_DEPTH: u32 = 64;
/// The most nodes (or simulations) a request may ask for.
pub const MAX_NODES: u64 = 100_000_000;
/// The largest alpha-beta table a spec may ask for (`tt=`), in MiB: each search allocates its own.
pub const MAX_TT_MIB: u64 = 512;

/// Checks a request's limits: `None` (no limit given) for the player's own budget.
///
/// # Errors
/// [`ApiError::Bad`] for a limit out of its range.
pub fn limits(
    movetime_ms: Option<u64>,
    depth: Option<u32>,
    nodes: Option<u64>,
) -> Result<Option<SearchLimits>, ApiError> {
    if let Some(ms) = movetime_ms
        && !(1..=MAX_MOVETIME_MS).contains(&ms)
    {
        return Err(ApiError::Bad(format!(
            "movetime_ms must be from 1 to {MAX_MOVETIME_MS}"
        )));
    }
    if let Some(d) = depth
        && !(1..=MAX_DEPTH).contains(&d)
    {
        return Err(ApiError::Bad(format!(
            "depth must be from 1 to {MAX_DEPTH}"
        )));
    }
    if let Some(n) = nodes
        && !(1..=MAX_NODES).contains(&n)
    {
        return Err(ApiError::Bad(format!(
            "nodes must be from 1 to {MAX_NODES}"
        )));
    }
    let limits = SearchLimits {
        depth,
        time: movetime_ms.map(Duration::from_millis),
        nodes,
    };
    Ok((limits != SearchLimits::default()).then_some(limits))
}

/// Refuses specs the server does not run: too long, or an external program (`ugi:cmd=...`),
/// which a web request must never start.
pub fn check_spec(spec: &str) -> Result<(), ApiError> {
    let spec = spec.trim();
    if spec.is_empty() {
        return Err(ApiError::Player("player: an agent spec is needed".into()));
    }
    if spec.len() > MAX_SPEC {
        return Err(ApiError::Player(format!(
            "player spec over {MAX_SPEC} bytes"
        )));
    }
    let name = spec.split(':').next().unwrap_or("").trim();
    if name.eq_ignore_ascii_case("ugi") {
        return Err(ApiError::Player(
            "ugi players run external programs: the server does not start them".into(),
        ));
    }
    // Options that size what a search allocates.
    let options = spec.split_once(':').map_or("", |(_, o)| o);
    for option in options.split(',') {
        let Some((key, value)) = option.split_once('=') else {
            continue;
        };
        let (key, value) = (key.trim(), value.trim());
        let bound = match key {
            "tt" => MAX_TT_MIB,
            "sims" | "nodes" => MAX_NODES,
            _ => continue,
        };
        if value.parse::<u64>().map_or(true, |v| v > bound) {
            return Err(ApiError::Player(format!(
                "player {key}={value}: at most {bound} here"
            )));
        }
    }
    Ok(())
}

/// A score as the API writes it: centi-units, a forced result, or an MCTS value, with the side
/// to move's chance of winning (a logistic of centi-units, 400 to a factor of e; an MCTS value
/// mapped linearly; 1 or 0 for a forced result).
pub fn score_json(score: Option<Score>) -> Value {
    match score {
        Some(Score::Centi(c)) => json!({
            "cp": c,
            "win_probability": round3(1.0 / (1.0 + (-f64::from(c) / 400.0).exp())),
        }),
        Some(Score::Value(v)) => json!({
            "cp": (v * 1000.0).round() as i64,
            "value": round3(f64::from(v)),
            "win_probability": round3((f64::from(v) + 1.0) / 2.0),
        }),
        Some(Score::Mate(plies)) => json!({
            "mate_plies": plies,
            "win_probability": if plies >= 0 { 1.0 } else { 0.0 },
        }),
        None => Value::Null,
    }
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// A decision as the API writes it, from `root`.
pub fn decision_json<G: Game>(root: &G, d: &Decision<G::Move>) -> Value {
    json!({
        "move": d.best_move.map(|mv| root.move_to_text(mv)),
        "score": score_json(d.score),
        "pv": root.line_to_text(&d.pv),
        "depth": d.depth,
        "nodes": d.nodes,
        "effort": d.effort,
        "time_ms": d.elapsed.as_millis() as u64,
    })
}

/// What a running search sends: its reports, then its end (the final decision, or an error).
#[derive(Debug)]
pub enum Report {
    /// A report during the search.
    Info(Value),
    /// The final decision.
    Done(Value),
    /// The player could not be built, or the search failed.
    Failed(ApiError),
}

/// Sets a search's stop flag when dropped: the handler that waits for it is gone.
pub struct StopOnDrop(pub Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// The job a worker runs: builds the player, searches `position` under `limits` until done or
/// `stop`, and sends its reports on `out` (ignoring a receiver that is gone).
pub fn search_job<K: GameKit, P: Players>(
    players: Arc<P>,
    spec: String,
    seed: u64,
    position: K::Game,
    limits: Option<SearchLimits>,
    stop: Arc<AtomicBool>,
    out: mpsc::UnboundedSender<Report>,
) -> impl FnOnce() + Send + 'static {
    move || {
        if stop.load(Ordering::SeqCst) {
            return; // the client left while the search waited
        }
        let run = std::panic::AssertUnwindSafe(|| {
            let mut agent = match players.build::<K>(&spec, seed) {
                Ok(a) => a,
                Err(e) => return Report::Failed(ApiError::Player(e)),
            };
            agent.new_game(seed);
            let info = out.clone();
            let mut report = |d: &Decision<<K::Game as Game>::Move>| {
                let _ = info.send(Report::Info(decision_json(&position, d)));
            };
            let mut control = Control {
                limits,
                stop: Arc::clone(&stop),
                progress: &mut report,
            };
            let decision = agent.search(&position, &mut control);
            Report::Done(decision_json(&position, &decision))
        });
        let end = std::panic::catch_unwind(run)
            .unwrap_or_else(|_| Report::Failed(ApiError::Internal("the search panicked".into())));
        let _ = out.send(end);
    }
}

/// The deepest search [`rank_job`] makes after each move.
pub const MAX_RANK_DEPTH: u32 = 5;

/// A score of the position after a move, turned to the mover's point of view (a forced result
/// one ply longer).
fn for_mover(score: Option<Score>) -> Option<Score> {
    Some(match score? {
        Score::Centi(c) => Score::Centi(-c),
        Score::Value(v) => Score::Value(-v),
        Score::Mate(p) if p >= 0 => Score::Mate(-(p + 1)),
        Score::Mate(p) => Score::Mate(-p + 1),
    })
}

/// An order on scores: quicker wins first, then evaluations, then slower losses.
fn rank_key(score: Option<Score>) -> f64 {
    match score {
        Some(Score::Mate(p)) if p >= 0 => 1e9 - f64::from(p),
        Some(Score::Mate(p)) => -1e9 - f64::from(p),
        Some(Score::Centi(c)) => f64::from(c),
        Some(Score::Value(v)) => f64::from(v) * 1000.0,
        None => f64::MIN,
    }
}

/// The job that ranks every legal move of `position`: each move played, the position after it
/// searched `depth - 1` plies deep by the player (`depth` in all, as a whole search would look),
/// the best `count` sent as one [`Report::Done`] `{"depth", "moves": [{"move", "score", "pv"}]}`.
/// A move that ends the game is scored by its result.
#[allow(clippy::too_many_arguments)]
pub fn rank_job<K: GameKit, P: Players>(
    players: Arc<P>,
    spec: String,
    seed: u64,
    position: K::Game,
    depth: u32,
    count: usize,
    stop: Arc<AtomicBool>,
    out: mpsc::UnboundedSender<Report>,
) -> impl FnOnce() + Send + 'static {
    move || {
        if stop.load(Ordering::SeqCst) {
            return;
        }
        let run = std::panic::AssertUnwindSafe(|| {
            let mut agent = match players.build::<K>(&spec, seed) {
                Ok(a) => a,
                Err(e) => return Report::Failed(ApiError::Player(e)),
            };
            let mut moves = Vec::new();
            position.legal_moves(&mut moves);
            let mut ranked = Vec::with_capacity(moves.len());
            for mv in moves {
                if stop.load(Ordering::SeqCst) {
                    return Report::Failed(ApiError::Bad("stopped".into()));
                }
                let mut child = position.clone();
                child.play_unchecked(mv);
                let (score, mut line) = match child.outcome() {
                    Some(pjlab_core::Outcome::Win(side)) if side == position.side_to_move() => {
                        (Some(Score::Mate(1)), Vec::new())
                    }
                    Some(pjlab_core::Outcome::Win(_)) => (Some(Score::Mate(-1)), Vec::new()),
                    Some(pjlab_core::Outcome::Draw) => (Some(Score::Centi(0)), Vec::new()),
                    None => {
                        let mut quiet = |_: &Decision<<K::Game as Game>::Move>| {};
                        let mut control = Control {
                            limits: Some(SearchLimits {
                                depth: Some(depth.saturating_sub(1).max(1)),
                                time: Some(Duration::from_millis(MAX_MOVETIME_MS)),
                                nodes: None,
                            }),
                            stop: Arc::clone(&stop),
                            progress: &mut quiet,
                        };
                        let d = agent.search(&child, &mut control);
                        (for_mover(d.score), d.pv)
                    }
                };
                line.insert(0, mv);
                ranked.push((rank_key(score), score, line));
            }
            ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
            let best: Vec<Value> = ranked
                .into_iter()
                .take(count)
                .map(|(_, score, line)| {
                    json!({
                        "move": position.move_to_text(line[0]),
                        "score": score_json(score),
                        "pv": position.line_to_text(&line),
                    })
                })
                .collect();
            Report::Done(json!({ "depth": depth, "moves": best }))
        });
        let end = std::panic::catch_unwind(run)
            .unwrap_or_else(|_| Report::Failed(ApiError::Internal("the ranking panicked".into())));
        let _ = out.send(end);
    }
}
