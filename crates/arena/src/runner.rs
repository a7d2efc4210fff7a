//! Plays scheduled games on worker threads (one agent set per worker, one core each).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;

use pjlab_agents::{Agent, History};
use pjlab_core::{Game, Outcome, Side};
use pjlab_pijersi::{Move, Position};

use crate::Error;
use crate::schedule::{GameSpec, Opening, Player, derive, random_opening};

/// Builds an agent from its spec and a seed (the binary passes one that knows network agents).
pub type Factory = dyn Fn(&str, u64) -> Result<Box<dyn Agent<Position>>, String> + Sync;

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// By the rules: a win or the draw rule.
    Rules,
    /// A side gave no legal move in time (hung, crashed, illegal answer) and lost.
    Forfeit,
    /// Stopped at the ply cap, scored a draw.
    MaxPlies,
}

impl Ending {
    /// The `termination` column's value.
    pub fn name(self) -> &'static str {
        match self {
            Ending::Rules => "rules",
            Ending::Forfeit => "forfeit",
            Ending::MaxPlies => "max-plies",
        }
    }

    /// Parses [`Ending::name`].
    pub fn from_name(name: &str) -> Option<Ending> {
        [Ending::Rules, Ending::Forfeit, Ending::MaxPlies]
            .into_iter()
            .find(|e| e.name() == name)
    }
}

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame {
    /// What was scheduled.
    pub spec: GameSpec,
    /// The setup it started from.
    pub start: Position,
    /// Every move, the random opening plies first.
    pub moves: Vec<Move>,
    /// From White's view: 1 a White win, 0 a draw, -1 a Black win.
    pub result: i8,
    /// How it ended.
    pub ending: Ending,
    /// The forfeiting side's reason, if any.
    pub forfeit: Option<String>,
}

/// How games are played.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PlayOptions {
    /// Worker threads (each plays one game at a time with its own agents).
    pub workers: usize,
    /// Random plies before the agents take over, and how they are drawn.
    pub opening: Opening,
    /// Ply cap (a draw when reached).
    pub max_plies: u32,
    /// The run's seed (agents are reseeded from it at every game).
    pub seed: u64,
}

/// Plays one game between `white` and `black`; `None` if `stop` was raised first.
pub fn play_game(
    spec: &GameSpec,
    white: &mut dyn Agent<Position>,
    black: &mut dyn Agent<Position>,
    options: &PlayOptions,
    stop: &AtomicBool,
) -> Option<PlayedGame> {
    let start = spec.start();
    white.new_game(derive(options.seed, 2, spec.id));
    black.new_game(derive(options.seed, 3, spec.id));
    let mut moves = random_opening(&start, options.opening, spec.opening_seed);
    let mut position = start.clone();
    for &mv in &moves {
        position.play_unchecked(mv);
    }
    let mut forfeit = None;
    let ending = loop {
        if position.outcome().is_some() {
            break Ending::Rules;
        }
        if moves.len() >= options.max_plies as usize {
            break Ending::MaxPlies;
        }
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let mover = Game::side_to_move(&position);
        let history = History {
            start: &start,
            moves: &moves,
            position: &position,
        };
        let decision = if mover == Side::First {
            white.decide_in_game(history)
        } else {
            black.decide_in_game(history)
        };
        match decision.best_move {
            Some(mv) if position.is_legal(mv) => {
                position.play_unchecked(mv);
                moves.push(mv);
            }
            other => {
                let why = decision.forfeit.unwrap_or_else(|| match other {
                    Some(mv) => format!("illegal move {mv} in {position}"),
                    None => format!("no move in {position}"),
                });
                forfeit = Some((mover, why));
                break Ending::Forfeit;
            }
        }
    };
    let result = match (&forfeit, ending) {
        (Some((Side::First, _)), _) => -1,
        (Some((Side::Second, _)), _) => 1,
        (None, Ending::Rules) => match Game::outcome(&position) {
            Some(Outcome::Win(Side::First)) => 1,
            Some(Outcome::Win(Side::Second)) => -1,
            _ => 0,
        },
        _ => 0,
    };
    Some(PlayedGame {
        spec: spec.clone(),
        start,
        moves,
        result,
        ending,
        forfeit: forfeit.map(|(side, why)| {
            let colour = if side == Side::First {
                "white"
            } else {
                "black"
            };
            format!("{colour}: {why}")
        }),
    })
}

/// Plays `games` on `options.workers` threads and hands each finished game to `on_game` (on the
/// calling thread, in the order they finish). Raising `stop` (Ctrl-C) stops handing out games and
/// abandons those in progress; finished ones have all been passed on when this returns. Agents
/// are built once per worker (one per player and colour) and told of every new game.
///
/// # Errors
/// [`Error::Agent`] when an agent cannot be built; games finished before that are kept.
pub fn play_games(
    games: &[GameSpec],
    players: &[Player],
    factory: &Factory,
    options: &PlayOptions,
    stop: &AtomicBool,
    on_game: &mut dyn FnMut(PlayedGame),
) -> Result<(), Error> {
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let (tx, rx) = channel::<Result<PlayedGame, Error>>();
    let mut first_error = None;
    std::thread::scope(|scope| {
        for worker in 0..options.workers.max(1) {
            let tx = tx.clone();
            let (next, failed) = (&next, &failed);
            scope.spawn(move || {
                let mut agents: Vec<Option<Box<dyn Agent<Position>>>> =
                    (0..2 * players.len()).map(|_| None).collect();
                loop {
                    if stop.load(Ordering::Relaxed) || failed.load(Ordering::Relaxed) {
                        return;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(spec) = games.get(i) else { return };
                    for (slot, player) in [
                        (2 * spec.white, spec.white),
                        (2 * spec.black + 1, spec.black),
                    ] {
                        if agents[slot].is_none() {
                            let seed =
                                derive(options.seed, 4, (worker * agents.len() + slot) as u64);
                            match factory(&players[player].spec, seed) {
                                Ok(agent) => agents[slot] = Some(agent),
                                Err(why) => {
                                    failed.store(true, Ordering::Relaxed);
                                    let _ = tx.send(Err(Error::Agent(format!(
                                        "{}: {why}",
                                        players[player].label
                                    ))));
                                    return;
                                }
                            }
                        }
                    }
                    let mut white = agents[2 * spec.white].take().expect("built");
                    let mut black = agents[2 * spec.black + 1].take().expect("built");
                    let played = play_game(spec, white.as_mut(), black.as_mut(), options, stop);
                    agents[2 * spec.white] = Some(white);
                    agents[2 * spec.black + 1] = Some(black);
                    match played {
                        Some(game) => {
                            if tx.send(Ok(game)).is_err() {
                                return;
                            }
                        }
                        None => return,
                    }
                }
            });
        }
        drop(tx);
        for message in rx {
            match message {
                Ok(game) => on_game(game),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
    });
    first_error.map_or(Ok(()), Err)
}
