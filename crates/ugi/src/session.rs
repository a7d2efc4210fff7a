//! The protocol's state: the position, the engine's options and agent, a running search.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Instant;

use pjlab_agents::{Agent, Control, Decision, SearchLimits};
use pjlab_core::{Game, GameKit, Outcome, Side};

use crate::go::parse_go;
use crate::info::InfoLines;
use crate::{EngineOptions, Factory, Output, say, startpos};

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

/// A running search: its thread (which hands the agent back) and its stop flag.
struct Running<G: Game> {
    handle: JoinHandle<Box<dyn Agent<G>>>,
    stop: Arc<AtomicBool>,
    /// Searching until `stop` (no limit given).
    unlimited: bool,
}

/// The protocol's state.
pub(crate) struct Session<'a, K: GameKit> {
    out: Output,
    factory: &'a Factory<K::Game>,
    options: EngineOptions,
    agent: Option<Box<dyn Agent<K::Game>>>,
    /// Games begun with `uginewgame`: the seed of the agent's next game.
    games: u64,
    running: Option<Running<K::Game>>,
    start: K::Game,
    moves: Vec<<K::Game as Game>::Move>,
    position: K::Game,
    name: String,
}

impl<'a, K: GameKit> Session<'a, K> {
    /// A session at the start position, with the default options.
    pub(crate) fn new(
        out: Output,
        factory: &'a Factory<K::Game>,
        name: &str,
        options: EngineOptions,
    ) -> Session<'a, K> {
        Session {
            out,
            factory,
            options,
            agent: None,
            games: 0,
            running: None,
            start: startpos::<K>(),
            moves: Vec::new(),
            position: startpos::<K>(),
            name: name.to_string(),
        }
    }

    fn error(&self, message: &str) {
        say(&self.out, &format!("info error {message}"));
    }

    /// At the end of the input: waits for a search with limits, stops one without.
    pub(crate) fn end_of_input(&mut self) {
        let unlimited = self.running.as_ref().is_some_and(|r| r.unlimited);
        self.finish_search(unlimited);
    }

    /// Waits for a search (stopping it first if `stop`) and takes its agent back.
    pub(crate) fn finish_search(&mut self, stop: bool) {
        if let Some(running) = self.running.take() {
            if stop {
                running.stop.store(true, Ordering::SeqCst);
            }
            match running.handle.join() {
                Ok(agent) => self.agent = Some(agent),
                Err(_) => {
                    self.error("the search failed; the engine is rebuilt");
                    self.agent = (self.factory)(&self.options).ok();
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

    pub(crate) fn command(&mut self, line: &str) -> bool {
        self.reap();
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&first) = words.first() else {
            return true;
        };
        match first {
            "ugi" => {
                say(&self.out, &format!("id name {}", self.name));
                say(&self.out, "id author pjlab");
                for option in self.options.declarations() {
                    say(&self.out, &option);
                }
                say(&self.out, "ugiok");
            }
            "isready" => say(&self.out, "readyok"),
            "uginewgame" => {
                self.finish_search(true);
                self.set_position(startpos::<K>(), Vec::new());
                self.games += 1;
                if let Some(agent) = self.agent.as_mut() {
                    agent.new_game(self.games);
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
        if let Some(text) = go.manual {
            return self.play_manual(&text);
        }
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
        let mut agent = match self.agent.take() {
            Some(a) => a,
            None => match (self.factory)(&self.options) {
                Ok(a) => a,
                Err(e) => {
                    self.error(&e.to_string());
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
        let format = self.options.score_format;
        let handle = std::thread::spawn(move || {
            let mut lines = InfoLines::new(format);
            let mut report = |d: &Decision<<K::Game as Game>::Move>| {
                for line in lines.report(&position, d) {
                    say(&out, &line);
                }
            };
            let mut control = Control {
                limits: Some(limits),
                stop: flag,
                progress: &mut report,
            };
            let decision = agent.search(&position, &mut control);
            drop(control);
            for line in lines.finish(&position, &decision) {
                say(&out, &line);
            }
            let answer = decision
                .best_move
                .map_or_else(|| "none".to_string(), |mv| position.move_to_text(mv));
            say(&out, &format!("bestmove {answer}"));
            agent
        });
        let unlimited = limits == SearchLimits::default();
        self.running = Some(Running {
            handle,
            stop,
            unlimited,
        });
    }

    /// `go manual <move>`: plays a legal move on the position, as Natural Selection does; the
    /// position's history keeps it (`query fen` shows the position after it).
    fn play_manual(&mut self, text: &str) {
        if self.position.outcome().is_some() {
            return self.error(&format!("move {text} after the end of the game"));
        }
        match self.position.parse_move(text) {
            Ok(mv) if is_legal(&self.position, mv) => {
                self.position.play_unchecked(mv);
                self.moves.push(mv);
            }
            _ => self.error(&format!(
                "illegal move {text} in {}",
                self.position.to_text()
            )),
        }
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
            return self.error(&e.to_string());
        }
        // An option of the output alone (`ScoreFormat`) keeps the agent and its tables.
        if options.spec() == self.options.spec() && self.agent.is_some() {
            self.options = options;
            return;
        }
        match (self.factory)(&options) {
            Ok(agent) => {
                self.options = options;
                self.agent = Some(agent);
            }
            Err(e) => self.error(&e.to_string()),
        }
    }
}
