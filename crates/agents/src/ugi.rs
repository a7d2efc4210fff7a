//! An external engine speaking UGI, the UCI-like protocol of board-game engines, as an [`Agent`].
//!
//! The engine is started on first use and handshaken (`ugi` ... `ugiok`, `setoption`s, `isready`
//! ... `readyok`). Each move sends `position fen <start text> moves <m1> <m2> ...` (the game's
//! position text and move texts) and `go depth N`
//! or `go movetime MS`, then waits for `bestmove`. Our rules decide legality and the game's end:
//! a move that does not parse or is illegal forfeits the game, and so does an engine that answers
//! nothing within its time (`movetime` plus `timeout`, or `timeout` for a depth search) or exits.
//! A forfeiting engine is killed; the next game starts a fresh process.
//!
//! A search driven with a stop flag ([`Agent::search`]) looks at it every [`STOP_POLL`] while it
//! waits for the engine: once it is raised, the engine is sent `stop` and its `bestmove` within
//! [`STOP_GRACE`] is the answer; an engine that does not answer in time is killed, as a
//! forfeiting one is.
//!
//! The engine's stderr is appended to the `stderr` file when one is given; otherwise its last
//! lines are kept in memory and quoted in forfeit reasons.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pjlab_core::Game;

use crate::{Agent, Control, Decision, History, SpecError, number, parse_duration};

/// What `go` asks for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Go {
    /// `go depth N`.
    Depth(u32),
    /// `go movetime MS`.
    MoveTime(Duration),
}

/// Bytes of an engine's stderr kept in memory when it is not written to a file.
const STDERR_TAIL: usize = 4096;

/// How often a wait for the engine looks at the search's stop flag.
pub const STOP_POLL: Duration = Duration::from_millis(10);

/// How long an engine told to `stop` has to answer `bestmove` before it is killed.
pub const STOP_GRACE: Duration = Duration::from_millis(200);

/// The stop flag of searches that nobody stops.
static NEVER: AtomicBool = AtomicBool::new(false);

/// What waiting for the engine's next line gave.
enum Wait {
    /// The line.
    Line(String),
    /// The stop flag was raised first.
    Stopped,
    /// The deadline passed first.
    Late,
}

/// The move of a `bestmove <move> ...` line, `None` for any other line.
fn best_move_of(line: &str) -> Option<String> {
    let rest = line.trim().strip_prefix("bestmove")?;
    Some(rest.split_whitespace().next().unwrap_or("").to_string())
}

/// A running engine process.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The thread copying stderr into the tail, when it is not written to a file.
    stderr_reader: Option<std::thread::JoinHandle<()>>,
}

/// An external UGI engine.
pub struct UgiAgent {
    spec: String,
    program: PathBuf,
    args: Vec<String>,
    go: Go,
    timeout: Duration,
    stderr: Option<PathBuf>,
    options: Vec<(String, String)>,
    process: Option<Process>,
    engine_name: Option<String>,
    stderr_tail: Arc<Mutex<VecDeque<u8>>>,
    new_game_pending: bool,
}

impl UgiAgent {
    /// Builds the agent from the options of a `ugi:` spec (see the crate documentation).
    ///
    /// # Errors
    /// [`SpecError`] for a missing `cmd`, unknown options and bad values.
    pub(crate) fn from_options(
        spec: &str,
        pairs: &[(String, String)],
    ) -> Result<UgiAgent, SpecError> {
        const ALLOWED: &str = "cmd, arg, depth, movetime, timeout, stderr, option.<Name>";
        let mut program = None;
        let mut args = Vec::new();
        let mut go = None;
        let mut timeout = Duration::from_secs(30);
        let mut stderr = None;
        let mut options = Vec::new();
        // `arg` is a list, given once per argument; every other option is given at most once.
        for (i, (k, _)) in pairs.iter().enumerate() {
            if k != "arg" && pairs[..i].iter().any(|(seen, _)| seen == k) {
                return Err(SpecError::Repeated {
                    agent: "ugi".into(),
                    key: k.clone(),
                });
            }
        }
        // An engine is sent `go depth N` or `go movetime MS`, never both.
        if let Some((_, v)) = pairs.iter().find(|(k, _)| k == "movetime")
            && pairs.iter().any(|(k, _)| k == "depth")
        {
            return Err(SpecError::BadValue {
                key: "movetime".into(),
                value: v.clone(),
                reason: "give `depth` or `movetime`, not both: the engine is sent `go depth N` \
                         or `go movetime MS`"
                    .into(),
            });
        }
        for (k, v) in pairs {
            match k.as_str() {
                "cmd" => program = Some(PathBuf::from(v)),
                "arg" => args.push(v.clone()),
                "depth" => go = Some(Go::Depth(number(k, v, "a whole depth")?)),
                "movetime" => go = Some(Go::MoveTime(parse_duration(v)?)),
                "timeout" => timeout = parse_duration(v)?,
                "stderr" => stderr = Some(PathBuf::from(v)),
                _ => match k.strip_prefix("option.") {
                    Some(name) if !name.is_empty() => options.push((name.to_string(), v.clone())),
                    _ => {
                        return Err(SpecError::UnknownOption {
                            agent: "ugi".into(),
                            key: k.clone(),
                            allowed: ALLOWED.into(),
                        });
                    }
                },
            }
        }
        // `cmd=` (empty) names no binary either.
        let program = program.filter(|p| !p.as_os_str().is_empty());
        let program = program.ok_or_else(|| SpecError::BadValue {
            key: "cmd".into(),
            value: String::new(),
            reason: "the engine's binary is required: ugi:cmd=/path/to/engine".into(),
        })?;
        Ok(UgiAgent {
            spec: spec.to_string(),
            program,
            args,
            go: go.unwrap_or(Go::Depth(4)),
            timeout,
            stderr,
            options,
            process: None,
            engine_name: None,
            stderr_tail: Arc::new(Mutex::new(VecDeque::new())),
            new_game_pending: false,
        })
    }

    /// The name the engine gave in its `id name` line, once it has been started.
    pub fn engine_name(&self) -> Option<&str> {
        self.engine_name.as_deref()
    }

    /// The last lines the engine wrote on stderr (when they are not written to a file).
    pub fn stderr_tail(&self) -> String {
        let tail = self
            .stderr_tail
            .lock()
            .map(|t| t.clone())
            .unwrap_or_default();
        String::from_utf8_lossy(&tail.into_iter().collect::<Vec<u8>>()).into_owned()
    }

    fn start(&mut self, stop: &AtomicBool) -> Result<(), String> {
        let stderr = match &self.stderr {
            Some(path) => Stdio::from(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| format!("cannot open {}: {e}", path.display()))?,
            ),
            None => Stdio::piped(),
        };
        let mut child = Command::new(&self.program)
            .args(&self.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", self.program.display()))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let stderr_reader = child.stderr.take().map(|mut err| {
            let tail = Arc::clone(&self.stderr_tail);
            std::thread::spawn(move || {
                let mut buf = [0u8; 512];
                while let Ok(n) = err.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    if let Ok(mut t) = tail.lock() {
                        t.extend(&buf[..n]);
                        while t.len() > STDERR_TAIL {
                            t.pop_front();
                        }
                    }
                }
            })
        });
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        self.process = Some(Process {
            child,
            stdin,
            lines,
            stderr_reader,
        });
        let deadline = Instant::now() + self.timeout;
        self.send("ugi")?;
        loop {
            let line = self.receive(deadline, "ugiok", stop)?;
            if let Some(name) = line.strip_prefix("id name ") {
                self.engine_name = Some(name.trim().to_string());
            }
            if line.trim() == "ugiok" {
                break;
            }
        }
        for (name, value) in self.options.clone() {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.ready(deadline, stop)
    }

    fn ready(&mut self, deadline: Instant, stop: &AtomicBool) -> Result<(), String> {
        self.send("isready")?;
        while self.receive(deadline, "readyok", stop)?.trim() != "readyok" {}
        Ok(())
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        let process = self.process.as_mut().ok_or("engine not running")?;
        writeln!(process.stdin, "{line}")
            .and_then(|()| process.stdin.flush())
            .map_err(|e| format!("engine stopped reading ({e})"))
    }

    /// The next line, or why there is none by `deadline` or before `stop` is raised.
    fn receive(
        &mut self,
        deadline: Instant,
        waiting_for: &str,
        stop: &AtomicBool,
    ) -> Result<String, String> {
        match self.next_line(deadline, stop)? {
            Wait::Line(line) => Ok(line),
            Wait::Stopped => Err(format!("stopped while waiting for `{waiting_for}`")),
            Wait::Late => Err(self.late(waiting_for)),
        }
    }

    /// The engine's next line by `deadline`, looking at `stop` every [`STOP_POLL`]; `Err` when
    /// the engine is not running or exits.
    fn next_line(&mut self, deadline: Instant, stop: &AtomicBool) -> Result<Wait, String> {
        let process = self.process.as_mut().ok_or("engine not running")?;
        loop {
            if stop.load(Ordering::Relaxed) {
                return Ok(Wait::Stopped);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match process.lines.recv_timeout(left.min(STOP_POLL)) {
                Ok(line) => return Ok(Wait::Line(line)),
                Err(RecvTimeoutError::Timeout) if left <= STOP_POLL => return Ok(Wait::Late),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    let status = process
                        .child
                        .wait()
                        .map(|s| s.to_string())
                        .unwrap_or_else(|e| e.to_string());
                    return Err(format!("engine exited ({status})"));
                }
            }
        }
    }

    /// Why a wait for `waiting_for` ended without it.
    fn late(&self, waiting_for: &str) -> String {
        format!(
            "no `{waiting_for}` within {:.1} s",
            self.timeout_for_message().as_secs_f64()
        )
    }

    /// The engine's move once told to `stop`, answered within [`STOP_GRACE`].
    fn answer_to_stop(&mut self) -> Result<String, String> {
        self.send("stop")?;
        let deadline = Instant::now() + STOP_GRACE;
        loop {
            match self.next_line(deadline, &NEVER)? {
                Wait::Line(line) => {
                    if let Some(answer) = best_move_of(&line) {
                        return Ok(answer);
                    }
                }
                Wait::Stopped | Wait::Late => {
                    return Err(format!(
                        "stopped, and no `bestmove` within {} ms of `stop`",
                        STOP_GRACE.as_millis()
                    ));
                }
            }
        }
    }

    fn timeout_for_message(&self) -> Duration {
        match self.go {
            Go::Depth(_) => self.timeout,
            Go::MoveTime(t) => t + self.timeout,
        }
    }

    /// Kills the process (if any) and waits for it, so no zombie is left; then gives its stderr
    /// reader up to a second to copy the last lines (they explain a crash).
    fn kill(&mut self) {
        if let Some(mut process) = self.process.take() {
            let _ = process.child.kill();
            let _ = process.child.wait();
            if let Some(reader) = process.stderr_reader {
                let until = Instant::now() + Duration::from_secs(1);
                while !reader.is_finished() && Instant::now() < until {
                    std::thread::sleep(Duration::from_millis(2));
                }
            }
        }
    }

    fn with_stderr(&self, reason: String) -> String {
        let tail = self.stderr_tail();
        let last: Vec<&str> = tail.lines().rev().take(3).collect();
        if self.stderr.is_some() || last.is_empty() {
            reason
        } else {
            let last: Vec<&str> = last.into_iter().rev().collect();
            format!("{reason}; stderr: {}", last.join(" | "))
        }
    }

    fn try_decide<G: Game>(
        &mut self,
        history: History<'_, G>,
        stop: &AtomicBool,
    ) -> Result<G::Move, String> {
        if self.process.is_none() {
            self.start(stop)?;
        } else if self.new_game_pending {
            self.send("uginewgame")?;
            self.ready(Instant::now() + self.timeout, stop)?;
        }
        self.new_game_pending = false;
        let mut command = format!("position fen {}", history.start.to_text());
        if !history.moves.is_empty() {
            command.push_str(" moves ");
            command.push_str(&history.start.line_to_text(history.moves).join(" "));
        }
        self.send(&command)?;
        let deadline = Instant::now() + self.timeout_for_message();
        match self.go {
            Go::Depth(d) => self.send(&format!("go depth {d}"))?,
            Go::MoveTime(t) => self.send(&format!("go movetime {}", t.as_millis()))?,
        }
        let answer = loop {
            match self.next_line(deadline, stop)? {
                Wait::Line(line) => {
                    if let Some(answer) = best_move_of(&line) {
                        break answer;
                    }
                }
                Wait::Stopped => break self.answer_to_stop()?,
                Wait::Late => return Err(self.late("bestmove")),
            }
        };
        let position = history.position;
        match position.parse_move(&answer) {
            Ok(mv) if is_legal(position, mv) => Ok(mv),
            _ => Err(format!("illegal move `{answer}` in {}", position.to_text())),
        }
    }
}

/// Whether `mv` is one of the legal moves of `position`.
fn is_legal<G: Game>(position: &G, mv: G::Move) -> bool {
    let mut legal = Vec::new();
    position.legal_moves(&mut legal);
    legal.contains(&mv)
}

impl<G: Game> Agent<G> for UgiAgent {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn decide(&mut self, position: &G) -> Decision<G::Move> {
        self.decide_in_game(History {
            start: position,
            moves: &[],
            position,
        })
    }

    fn decide_in_game(&mut self, history: History<'_, G>) -> Decision<G::Move> {
        self.decide_until(history, &NEVER)
    }

    /// [`Agent::decide`], stopped early by `control.stop` (see the module's documentation). The
    /// engine searches as its spec's `go` says: the caller's limits are not passed on.
    fn search(&mut self, position: &G, control: &mut Control<'_, G::Move>) -> Decision<G::Move> {
        let decision = self.decide_until(
            History {
                start: position,
                moves: &[],
                position,
            },
            &control.stop,
        );
        (control.progress)(&decision);
        decision
    }

    fn new_game(&mut self, _seed: u64) {
        self.new_game_pending = true;
    }
}

impl UgiAgent {
    /// The engine's move in `history`, or a forfeit (the engine then killed); `stop` ends the
    /// wait for the engine early.
    fn decide_until<G: Game>(
        &mut self,
        history: History<'_, G>,
        stop: &AtomicBool,
    ) -> Decision<G::Move> {
        let started = Instant::now();
        match self.try_decide(history, stop) {
            Ok(mv) => Decision {
                best_move: Some(mv),
                score: None,
                pv: vec![mv],
                effort: 0,
                depth: 0,
                nodes: 0,
                elapsed: started.elapsed(),
                forfeit: None,
            },
            Err(reason) => {
                self.kill();
                let reason = self.with_stderr(reason);
                Decision::forfeit(reason, started)
            }
        }
    }
}

impl Drop for UgiAgent {
    fn drop(&mut self) {
        if self.process.is_some() && self.send("quit").is_ok() {
            let process = self.process.as_mut().expect("checked");
            let until = Instant::now() + Duration::from_millis(500);
            while Instant::now() < until {
                if matches!(process.child.try_wait(), Ok(Some(_))) {
                    self.process = None;
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        self.kill();
    }
}
