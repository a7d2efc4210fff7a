//! UGI, the UCI-like engine protocol of board-game frontends, over the lab's agents, for any
//! game of the registry (generic over its [`GameKit`]: positions and moves in the game's text
//! forms, its perft). The engine's options name an agent spec ([`EngineOptions::spec`]); a `go`
//! drives that agent through [`Agent::search`] with the command's limits and a stop flag.
//!
//! [`run`] reads commands line by line and answers on a shared writer; searches run on their own
//! thread, so `isready` and `stop` are answered while one runs. Bad input never ends the
//! session: an unknown command, a bad option or an illegal move answers `info error ...` and
//! leaves the state as it was. End of input ends the session cleanly: a search with limits
//! first answers its `bestmove`, a search without (`go infinite`) is stopped and answers its
//! own.
//!
//! | command | answer |
//! |---|---|
//! | `ugi` | `id name`, `id author`, `option ...` lines, `ugiok` |
//! | `isready` | `readyok` (at once, even during a search) |
//! | `uginewgame` | (stops a search, resets the position and the engine's tables) |
//! | `position startpos\|fen <position text> [moves <m> ...]` | (the moves are checked by our rules; `startpos` is the game's first variant's start) |
//! | `go depth N \| movetime MS \| nodes N \| p1time MS p2time MS [p1inc MS p2inc MS] \| infinite` | `info depth .. score .. nodes .. nps .. time .. pv ..` lines, then `bestmove <m>` (times may be decimal) |
//! | `go manual <m>` | (plays the legal move `m` on the position, as Natural Selection does; nothing printed) |
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
//!
//! Scores: agents rate positions in centi-units, expected values or forced results in plies
//! ([`pjlab_agents::Score`]); `info` lines print `score cp <centi-units>` (an MCTS value times
//! 1,000) or `score mate <moves>`, the plies rounded up to the side to move's own moves,
//! negative when it loses. With `ScoreFormat` `natsel` (the option, or [`run_with`]'s options,
//! which `pjlab ugi --score-format natsel` sets), they print Natural Selection's way, which
//! pijersi-certu parses: `score <integer>` (centi-units; a forced win is [`NATSEL_WIN`] less its
//! plies, a loss the negative), depths strictly increasing along one search, and the last `info`
//! line before `bestmove` the search's final result.

mod error;
mod go;
mod info;
mod options;
mod session;

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

use pjlab_agents::Agent;
use pjlab_core::{GameKit, SetupVariant};

pub use error::Error;
pub use options::{EngineKind, EngineOptions, NATSEL_WIN, ScoreFormat};

/// Where answers go: one line at a time, flushed.
pub type Output = Arc<Mutex<Box<dyn Write + Send>>>;

fn say(out: &Output, line: &str) {
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// Builds the agent the options ask for (from [`EngineOptions::spec`]); the binary passes one
/// that also loads networks.
pub type Factory<G> = dyn Fn(&EngineOptions) -> Result<Box<dyn Agent<G>>, pjlab_core::BoxError>;

/// The agents `pjlab-agents` builds: alpha-beta, and MCTS with random rollouts (a `Checkpoint`
/// needs a factory that knows network agents).
///
/// # Errors
/// [`Error::NoCheckpoints`] when a checkpoint is asked for; [`Error::Agent`] when the agent
/// cannot be built.
pub fn builtin_agent<K: GameKit>(
    options: &EngineOptions,
) -> Result<Box<dyn Agent<K::Game>>, Error> {
    if options.engine == EngineKind::Mcts && !options.checkpoint.is_empty() {
        return Err(Error::NoCheckpoints);
    }
    Ok(pjlab_agents::build::<K>(&options.spec(), 0)?)
}

/// Runs a UGI session of `K`'s game: reads `input` to its end (or `quit`) and answers on `out`.
/// `name` goes into `id name`; `factory` builds the agent the options ask for.
pub fn run<K: GameKit>(input: impl BufRead, out: Output, factory: &Factory<K::Game>, name: &str) {
    run_with::<K>(input, out, factory, name, EngineOptions::default());
}

/// [`run`], starting from `options` instead of the defaults (`setoption` changes them as usual;
/// `ugi` declares their values as the defaults of `ScoreFormat`).
pub fn run_with<K: GameKit>(
    input: impl BufRead,
    out: Output,
    factory: &Factory<K::Game>,
    name: &str,
    options: EngineOptions,
) {
    let mut session = session::Session::<K>::new(out, factory, name, options);
    for line in input.lines() {
        let Ok(line) = line else { break };
        if !session.command(line.trim()) {
            return;
        }
    }
    // End of input: a search with limits finishes its move; one without (`go infinite`),
    // which only a `stop` that can no longer come would end, is stopped. Then the session ends.
    session.end_of_input();
}

/// The start `startpos` names: the game's first variant's.
fn startpos<K: GameKit>() -> K::Game {
    K::variants()[0].start(0)
}
