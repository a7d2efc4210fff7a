//! UGI, the UCI-like engine protocol of board-game frontends, over the lab's searchers, for any
//! game of the registry (generic over its [`GameKit`]: positions and moves in the game's text
//! forms, its evaluation for alpha-beta, its perft).
//!
//! [`run`] reads commands line by line and answers on a shared writer; searches run on their own
//! thread, so `isready` and `stop` are answered while one runs. Bad input never ends the
//! session: an unknown command, a bad option or an illegal move answers `info error ...` and
//! leaves the state as it was. End of input ends the session cleanly.
//!
//! | command | answer |
//! |---|---|
//! | `ugi` | `id name`, `id author`, `option ...` lines, `ugiok` |
//! | `isready` | `readyok` (at once, even during a search) |
//! | `uginewgame` | (stops a search, resets the position and the engine's tables) |
//! | `position startpos\|fen <position text> [moves <m> ...]` | (the moves are checked by our rules; `startpos` is the game's first variant's start) |
//! | `go depth N \| movetime MS \| nodes N \| p1time MS p2time MS [p1inc MS p2inc MS] \| infinite` | `info depth .. score .. nodes .. nps .. time .. pv ..` lines, then `bestmove <m>` |
//! | `go perft N` | one `<move>: <count>` line per legal move, then `Nodes searched: <total>` |
//! | `stop` | ends the search: `bestmove` |
//! | `query gameover \| p1turn \| result \| islegal <m> \| fen` | `response <answer>` |
//! | `setoption name <X> value <Y>` or `setoption <X> <Y>` | (options below) |
//! | `quit` | (ends the session) |
//!
//! Commands that need the engine (`go`, `setoption`) wait for a running search with limits to
//! end; during `go infinite` (or `go` with no limit) they answer an error until `stop`.
//!
//! A position that is already over is not searched: `go` answers `info string game over:
//! <result>` and `bestmove none`.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use pjlab_alphabeta::{Engine, Limits, MATE, MATE_BOUND, Options as AbOptions};
use pjlab_core::{Game, GameKit, Outcome, SetupVariant, Side};
use pjlab_mcts::{Budget, Config as MctsConfig, Evaluator, Mcts, RolloutEvaluator};

/// Where answers go: one line at a time, flushed.
pub type Output = Arc<Mutex<Box<dyn Write + Send>>>;

fn say(out: &Output, line: &str) {
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// What a search may use.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Deepest iteration (alpha-beta).
    pub depth: Option<u32>,
    /// Wall-clock time.
    pub time: Option<Duration>,
    /// Nodes (alpha-beta) or simulations (MCTS).
    pub nodes: Option<u64>,
}

/// The score in an `info` line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum InfoScore {
    /// Centi-units for the side to move (MCTS: the expected value times 1,000).
    Cp(i32),
    /// A forced win (positive) or loss (negative) in this many moves of the side to move.
    Mate(i32),
}

/// One progress report of a search, with moves `M`.
#[derive(Clone, Debug, PartialEq)]
pub struct Info<M> {
    /// Completed depth (alpha-beta) or principal variation length (MCTS).
    pub depth: u32,
    /// The score.
    pub score: InfoScore,
    /// Nodes (alpha-beta) or simulations (MCTS).
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The principal variation.
    pub pv: Vec<M>,
}

/// A search behind the protocol, over positions of `G`.
pub trait Searcher<G: Game>: Send {
    /// Searches `position` within `limits` (none: until `stop` is raised, or a depth of 64),
    /// reporting progress to `info`; the move to play, if any.
    fn search(
        &mut self,
        position: &G,
        limits: &SearchLimits,
        stop: &Arc<AtomicBool>,
        info: &mut dyn FnMut(&Info<G::Move>),
    ) -> Option<G::Move>;

    /// Forgets what earlier games taught it.
    fn new_game(&mut self) {}
}

/// Alpha-beta with the game's evaluation.
pub struct AlphaBetaSearcher<K: GameKit> {
    engine: Engine<K::Game, K::Eval>,
}

impl<K: GameKit> AlphaBetaSearcher<K> {
    /// With a transposition table of `hash_mib` MiB.
    pub fn new(hash_mib: usize) -> AlphaBetaSearcher<K> {
        AlphaBetaSearcher {
            engine: Engine::new(
                K::evaluation(None).expect("the default evaluation"),
                AbOptions {
                    tt_mib: hash_mib,
                    ..AbOptions::default()
                },
            ),
        }
    }
}

fn mate_moves(score: i32) -> Option<i32> {
    (score.abs() >= MATE_BOUND).then(|| {
        let plies = MATE - score.abs();
        let moves = (plies + 1) / 2;
        if score > 0 { moves } else { -moves }
    })
}

impl<K: GameKit> Searcher<K::Game> for AlphaBetaSearcher<K> {
    fn search(
        &mut self,
        position: &K::Game,
        limits: &SearchLimits,
        stop: &Arc<AtomicBool>,
        info: &mut dyn FnMut(&Info<<K::Game as Game>::Move>),
    ) -> Option<<K::Game as Game>::Move> {
        self.engine.set_stop_flag(Arc::clone(stop));
        let limits = Limits {
            depth: limits.depth,
            nodes: limits.nodes,
            time: limits.time,
        };
        let result = self.engine.search_with(position, &limits, &mut |r| {
            info(&Info {
                depth: r.depth,
                score: mate_moves(r.score).map_or(InfoScore::Cp(r.score), InfoScore::Mate),
                nodes: r.nodes,
                elapsed: r.elapsed,
                pv: r.pv.clone(),
            });
        });
        result.best_move
    }

    fn new_game(&mut self) {
        self.engine.clear();
    }
}

/// MCTS (PUCT, MCTS-solver) with any evaluator: random rollouts, or a network.
pub struct MctsSearcher<G: Game> {
    evaluator: Box<dyn Evaluator<G> + Send>,
    simulations: u32,
    seed: u64,
}

impl<G: Game> MctsSearcher<G> {
    /// `simulations` a move unless `go` says otherwise.
    pub fn new(evaluator: Box<dyn Evaluator<G> + Send>, simulations: u32) -> MctsSearcher<G> {
        MctsSearcher {
            evaluator,
            simulations: simulations.max(1),
            seed: 0,
        }
    }
}

impl<G: Game> Searcher<G> for MctsSearcher<G> {
    fn search(
        &mut self,
        position: &G,
        limits: &SearchLimits,
        stop: &Arc<AtomicBool>,
        info: &mut dyn FnMut(&Info<G::Move>),
    ) -> Option<G::Move> {
        let started = Instant::now();
        self.seed = self.seed.wrapping_add(1);
        let mut search = Mcts::new(position.clone(), MctsConfig::default(), self.seed);
        search.set_stop_flag(Arc::clone(stop));
        let mut budget = Budget::simulations(self.simulations);
        if let Some(n) = limits.nodes {
            budget.simulations = n.min(u64::from(u32::MAX)) as u32;
        } else if limits.time.is_some() || limits.depth.is_none() {
            // A time limit, or no limit at all: search until the time or `stop`.
            budget.simulations = u32::MAX;
        }
        budget.time = limits.time;
        let result = search.search(self.evaluator.as_mut(), &budget);
        let score = match result.proof {
            pjlab_mcts::Proof::Win => InfoScore::Mate((result.pv.len() as i32 + 1) / 2),
            pjlab_mcts::Proof::Loss => InfoScore::Mate(-(result.pv.len() as i32 + 1) / 2),
            _ => InfoScore::Cp((result.value * 1000.0).round() as i32),
        };
        info(&Info {
            depth: result.pv.len() as u32,
            score,
            nodes: u64::from(result.simulations),
            elapsed: started.elapsed(),
            pv: result.pv.clone(),
        });
        result.best_move
    }
}

/// Which search the engine runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EngineKind {
    /// Alpha-beta.
    AlphaBeta,
    /// MCTS: with a network when `Checkpoint` is set, random rollouts otherwise.
    Mcts,
}

/// The engine's options (`setoption`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// `Engine`: `alphabeta` or `mcts`.
    pub engine: EngineKind,
    /// `Hash`: alpha-beta transposition table in MiB.
    pub hash_mib: usize,
    /// `Simulations`: MCTS simulations a move when `go` gives no limit of its own.
    pub simulations: u32,
    /// `Checkpoint`: a training checkpoint (or run directory), or an exported `.onnx` model, for
    /// MCTS; empty: rollouts.
    pub checkpoint: String,
    /// `Threads`: search threads (the searchers are single-threaded: 1).
    pub threads: usize,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            engine: EngineKind::AlphaBeta,
            hash_mib: 16,
            simulations: 800,
            checkpoint: String::new(),
            threads: 1,
        }
    }
}

impl EngineOptions {
    /// The `option` lines of the `ugi` answer.
    pub fn declarations() -> Vec<String> {
        let d = EngineOptions::default();
        vec![
            "option name Engine type combo default alphabeta var alphabeta var mcts".into(),
            format!(
                "option name Hash type spin default {} min 1 max 65536",
                d.hash_mib
            ),
            format!(
                "option name Simulations type spin default {} min 1 max 100000000",
                d.simulations
            ),
            "option name Checkpoint type string default <empty>".into(),
            "option name Threads type spin default 1 min 1 max 1".into(),
        ]
    }

    /// Sets option `name` (case-insensitive) to `value`.
    ///
    /// # Errors
    /// An unknown option or a bad value, in words.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let number = |min: u64, max: u64| -> Result<u64, String> {
            value
                .parse::<u64>()
                .ok()
                .filter(|n| (min..=max).contains(n))
                .ok_or_else(|| format!("{name} must be a whole number from {min} to {max}"))
        };
        match name.to_ascii_lowercase().as_str() {
            "engine" => {
                self.engine = match value.to_ascii_lowercase().as_str() {
                    "alphabeta" => EngineKind::AlphaBeta,
                    "mcts" => EngineKind::Mcts,
                    _ => return Err(format!("Engine must be alphabeta or mcts, not {value}")),
                }
            }
            "hash" => self.hash_mib = number(1, 65536)? as usize,
            "simulations" => self.simulations = number(1, 100_000_000)? as u32,
            "checkpoint" => {
                self.checkpoint = if value == "<empty>" {
                    String::new()
                } else {
                    value.to_string()
                }
            }
            "threads" => self.threads = number(1, 1)? as usize,
            _ => return Err(format!("unknown option {name}")),
        }
        Ok(())
    }
}

/// Builds the searcher the options ask for; the binary passes one that also loads networks.
pub type Factory<G> = dyn Fn(&EngineOptions) -> Result<Box<dyn Searcher<G>>, String>;

/// The searchers this crate knows: alpha-beta, and MCTS with random rollouts (a `Checkpoint`
/// needs the binary's factory).
///
/// # Errors
/// When a checkpoint is asked for.
pub fn builtin_searcher<K: GameKit>(
    options: &EngineOptions,
) -> Result<Box<dyn Searcher<K::Game>>, String> {
    match options.engine {
        EngineKind::AlphaBeta => Ok(Box::new(AlphaBetaSearcher::<K>::new(options.hash_mib))),
        EngineKind::Mcts if options.checkpoint.is_empty() => Ok(Box::new(MctsSearcher::new(
            Box::new(RolloutEvaluator::new(0)),
            options.simulations,
        ))),
        EngineKind::Mcts => Err("this engine cannot load network checkpoints".into()),
    }
}

/// What `go` asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct GoCommand {
    depth: Option<u32>,
    movetime: Option<u64>,
    nodes: Option<u64>,
    clocks: [Option<u64>; 4],
    infinite: bool,
    perft: Option<u32>,
}

fn parse_go(words: &[&str]) -> Result<GoCommand, String> {
    let mut go = GoCommand::default();
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        if key == "infinite" {
            go.infinite = true;
            i += 1;
            continue;
        }
        let value: u64 = words
            .get(i + 1)
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("go {key} needs a whole number"))?;
        match key {
            "depth" if value >= 1 => go.depth = Some(value.min(100) as u32),
            "movetime" => go.movetime = Some(value),
            "nodes" if value >= 1 => go.nodes = Some(value),
            "p1time" => go.clocks[0] = Some(value),
            "p2time" => go.clocks[1] = Some(value),
            "p1inc" => go.clocks[2] = Some(value),
            "p2inc" => go.clocks[3] = Some(value),
            "perft" => go.perft = Some(value.min(20) as u32),
            "depth" | "nodes" => return Err(format!("go {key} must be at least 1")),
            _ => return Err(format!("unknown go parameter {key}")),
        }
        i += 2;
    }
    Ok(go)
}

impl GoCommand {
    /// The limits for the side to move (`white`): a clock gives a thirtieth of the time left
    /// plus three quarters of the increment, never more than half the time left.
    fn limits(&self, white: bool) -> SearchLimits {
        let mut limits = SearchLimits {
            depth: self.depth,
            time: self.movetime.map(Duration::from_millis),
            nodes: self.nodes,
        };
        let (time, inc) = if white {
            (self.clocks[0], self.clocks[2])
        } else {
            (self.clocks[1], self.clocks[3])
        };
        if let Some(left) = time {
            let inc = inc.unwrap_or(0);
            let share = (left / 30 + inc * 3 / 4).min(left / 2).max(1);
            limits.time = Some(Duration::from_millis(
                limits
                    .time
                    .map_or(share, |t| t.as_millis() as u64)
                    .min(share),
            ));
        }
        if self.infinite {
            limits = SearchLimits::default();
        }
        limits
    }
}

/// Whether `mv` is one of the legal moves of `position` (none once the game is over).
fn is_legal<G: Game>(position: &G, mv: G::Move) -> bool {
    let mut legal = Vec::new();
    position.legal_moves(&mut legal);
    legal.contains(&mv)
}

fn result_word<G: Game>(position: &G) -> &'static str {
    match position.outcome() {
        Some(Outcome::Win(Side::First)) => "p1win",
        Some(Outcome::Win(Side::Second)) => "p2win",
        Some(Outcome::Draw) => "draw",
        None => "none",
    }
}

/// The `info` line of a search from `root`.
fn info_line<G: Game>(root: &G, info: &Info<G::Move>) -> String {
    let ms = info.elapsed.as_millis().max(1);
    let score = match info.score {
        InfoScore::Cp(c) => format!("cp {c}"),
        InfoScore::Mate(m) => format!("mate {m}"),
    };
    let mut line = format!(
        "info depth {} score {score} nodes {} nps {} time {}",
        info.depth,
        info.nodes,
        u128::from(info.nodes) * 1000 / ms,
        info.elapsed.as_millis()
    );
    if !info.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&root.line_to_text(&info.pv).join(" "));
    }
    line
}

/// A running search: its thread (which hands the searcher back) and its stop flag.
struct Running<G: Game> {
    handle: JoinHandle<Box<dyn Searcher<G>>>,
    stop: Arc<AtomicBool>,
    /// Searching until `stop` (no limit given).
    unlimited: bool,
}

/// The protocol's state.
struct Session<'a, K: GameKit> {
    out: Output,
    factory: &'a Factory<K::Game>,
    options: EngineOptions,
    searcher: Option<Box<dyn Searcher<K::Game>>>,
    running: Option<Running<K::Game>>,
    start: K::Game,
    moves: Vec<<K::Game as Game>::Move>,
    position: K::Game,
    name: String,
}

/// The start `startpos` names: the game's first variant's.
fn startpos<K: GameKit>() -> K::Game {
    K::variants()[0].start(0)
}

impl<K: GameKit> Session<'_, K> {
    fn error(&self, message: &str) {
        say(&self.out, &format!("info error {message}"));
    }

    /// Waits for a search (stopping it first if `stop`) and takes its searcher back.
    fn finish_search(&mut self, stop: bool) {
        if let Some(running) = self.running.take() {
            if stop {
                running.stop.store(true, Ordering::SeqCst);
            }
            match running.handle.join() {
                Ok(searcher) => self.searcher = Some(searcher),
                Err(_) => {
                    self.error("the search failed; the engine is rebuilt");
                    self.searcher = (self.factory)(&self.options).ok();
                }
            }
        }
    }

    /// Before a command that needs the engine: waits for a limited search to end; refuses
    /// (false) while an unlimited one runs.
    fn wait_for_search(&mut self, what: &str) -> bool {
        if self.running.as_ref().is_some_and(|r| r.unlimited) {
            self.error(&format!("searching until stop: send stop before {what}"));
            return false;
        }
        self.finish_search(false);
        true
    }

    fn reap(&mut self) {
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.handle.is_finished())
        {
            self.finish_search(false);
        }
    }

    fn command(&mut self, line: &str) -> bool {
        self.reap();
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&first) = words.first() else {
            return true;
        };
        match first {
            "ugi" => {
                say(&self.out, &format!("id name {}", self.name));
                say(&self.out, "id author pjlab");
                for option in EngineOptions::declarations() {
                    say(&self.out, &option);
                }
                say(&self.out, "ugiok");
            }
            "isready" => say(&self.out, "readyok"),
            "uginewgame" => {
                self.finish_search(true);
                self.set_position(startpos::<K>(), Vec::new());
                if let Some(s) = self.searcher.as_mut() {
                    s.new_game();
                }
            }
            "position" => self.position_command(&words[1..]),
            "go" => self.go(&words[1..]),
            "stop" => self.finish_search(true),
            "query" => self.query(&words[1..]),
            "setoption" => self.setoption(&words[1..]),
            "quit" => {
                self.finish_search(true);
                return false;
            }
            other => self.error(&format!("unknown command {other}")),
        }
        true
    }

    fn set_position(&mut self, start: K::Game, moves: Vec<<K::Game as Game>::Move>) {
        let mut position = start.clone();
        for &mv in &moves {
            position.play_unchecked(mv);
        }
        self.start = start;
        self.moves = moves;
        self.position = position;
    }

    fn position_command(&mut self, words: &[&str]) {
        let split = words.iter().position(|&w| w == "moves");
        let (head, tail) = match split {
            Some(i) => (&words[..i], &words[i + 1..]),
            None => (words, &[][..]),
        };
        let start = match head {
            ["startpos"] => startpos::<K>(),
            ["fen", text @ ..] if !text.is_empty() => match K::Game::from_text(&text.join(" ")) {
                Ok(p) => p,
                Err(e) => return self.error(&format!("bad position: {e}")),
            },
            _ => {
                return self
                    .error("position needs startpos or fen <position text>, then moves ...");
            }
        };
        let mut position = start.clone();
        let mut moves = Vec::with_capacity(tail.len());
        for text in tail {
            if position.outcome().is_some() {
                return self.error(&format!("move {text} after the end of the game"));
            }
            match position.parse_move(text) {
                Ok(mv) if is_legal(&position, mv) => {
                    position.play_unchecked(mv);
                    moves.push(mv);
                }
                _ => {
                    return self.error(&format!("illegal move {text} in {}", position.to_text()));
                }
            }
        }
        self.set_position(start, moves);
    }

    fn go(&mut self, words: &[&str]) {
        if !self.wait_for_search("go") {
            return;
        }
        let go = match parse_go(words) {
            Ok(go) => go,
            Err(e) => return self.error(&e),
        };
        if let Some(depth) = go.perft {
            let started = Instant::now();
            let mut total = 0;
            for (mv, count) in K::divide(&self.position, depth.max(1)) {
                say(
                    &self.out,
                    &format!("{}: {count}", self.position.move_to_text(mv)),
                );
                total += count;
            }
            say(&self.out, "");
            say(&self.out, &format!("Nodes searched: {total}"));
            say(
                &self.out,
                &format!(
                    "info string perft {depth} in {} ms",
                    started.elapsed().as_millis()
                ),
            );
            return;
        }
        if self.position.outcome().is_some() {
            say(
                &self.out,
                &format!("info string game over: {}", result_word(&self.position)),
            );
            say(&self.out, "bestmove none");
            return;
        }
        let mut searcher = match self.searcher.take() {
            Some(s) => s,
            None => match (self.factory)(&self.options) {
                Ok(s) => s,
                Err(e) => {
                    self.error(&e);
                    say(&self.out, "bestmove none");
                    return;
                }
            },
        };
        let first = self.position.side_to_move() == Side::First;
        let limits = go.limits(first);
        let stop = Arc::new(AtomicBool::new(false));
        let position = self.position.clone();
        let out = Arc::clone(&self.out);
        let flag = Arc::clone(&stop);
        let handle = std::thread::spawn(move || {
            let limits = limits;
            let best = searcher.search(&position, &limits, &flag, &mut |info| {
                say(&out, &info_line(&position, info));
            });
            let answer = best.map_or_else(|| "none".to_string(), |mv| position.move_to_text(mv));
            say(&out, &format!("bestmove {answer}"));
            searcher
        });
        let unlimited = limits == SearchLimits::default();
        self.running = Some(Running {
            handle,
            stop,
            unlimited,
        });
    }

    fn query(&mut self, words: &[&str]) {
        let answer = match words {
            ["gameover"] => self.position.outcome().is_some().to_string(),
            ["p1turn"] => (self.position.side_to_move() == Side::First).to_string(),
            ["result"] => result_word(&self.position).to_string(),
            ["fen"] => self.position.to_text(),
            ["islegal", text] => self
                .position
                .parse_move(text)
                .is_ok_and(|mv| is_legal(&self.position, mv))
                .to_string(),
            _ => {
                return self.error("query gameover, p1turn, result, islegal <move> or fen");
            }
        };
        say(&self.out, &format!("response {answer}"));
    }

    fn setoption(&mut self, words: &[&str]) {
        if !self.wait_for_search("setoption") {
            return;
        }
        let (name, value) = match words {
            ["name", rest @ ..] => {
                let v = rest.iter().position(|&w| w == "value");
                match v {
                    Some(i) if i > 0 => (rest[..i].join(" "), rest[i + 1..].join(" ")),
                    _ => return self.error("setoption name <X> value <Y>"),
                }
            }
            [name, value @ ..] if !value.is_empty() => (name.to_string(), value.join(" ")),
            _ => return self.error("setoption name <X> value <Y>, or setoption <X> <Y>"),
        };
        let mut options = self.options.clone();
        if let Err(e) = options.set(&name, &value) {
            return self.error(&e);
        }
        match (self.factory)(&options) {
            Ok(searcher) => {
                self.options = options;
                self.searcher = Some(searcher);
            }
            Err(e) => self.error(&e),
        }
    }
}

/// Runs a UGI session of `K`'s game: reads `input` to its end (or `quit`) and answers on `out`.
/// `name` goes into `id name`; `factory` builds the searcher the options ask for.
pub fn run<K: GameKit>(input: impl BufRead, out: Output, factory: &Factory<K::Game>, name: &str) {
    let mut session = Session::<K> {
        out,
        factory,
        options: EngineOptions::default(),
        searcher: None,
        running: None,
        start: startpos::<K>(),
        moves: Vec::new(),
        position: startpos::<K>(),
        name: name.to_string(),
    };
    for line in input.lines() {
        let Ok(line) = line else { break };
        if !session.command(line.trim()) {
            return;
        }
    }
    // End of input: let a running search finish its move, then end.
    session.finish_search(false);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_parameters_and_clocks() {
        let go = parse_go(&["p1time", "60000", "p2time", "30000", "p1inc", "1000"]).unwrap();
        // White: 60000 / 30 + 750 = 2750 ms; Black: 1000 ms.
        assert_eq!(go.limits(true).time, Some(Duration::from_millis(2750)));
        assert_eq!(go.limits(false).time, Some(Duration::from_millis(1000)));
        let go = parse_go(&["depth", "3", "movetime", "50"]).unwrap();
        assert_eq!(go.limits(true).depth, Some(3));
        assert_eq!(go.limits(true).time, Some(Duration::from_millis(50)));
        assert_eq!(
            parse_go(&["infinite"]).unwrap().limits(true),
            SearchLimits::default()
        );
        for bad in [
            &["depth"][..],
            &["depth", "x"],
            &["depth", "0"],
            &["speed", "3"],
        ] {
            assert!(parse_go(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn options_take_both_spellings_and_refuse_bad_values() {
        let mut o = EngineOptions::default();
        o.set("engine", "MCTS").unwrap();
        assert_eq!(o.engine, EngineKind::Mcts);
        o.set("Hash", "64").unwrap();
        assert_eq!(o.hash_mib, 64);
        assert!(o.set("Hash", "0").is_err());
        assert!(o.set("Threads", "2").is_err());
        assert!(o.set("Colour", "red").is_err());
        assert_eq!(o.hash_mib, 64);
    }
}
