//! Plays scheduled games on worker threads (one agent set per worker, one core each), through
//! the lab's one game loop ([`pjlab_agents::play_game`]).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;

use pjlab_agents::Agent;
pub use pjlab_agents::{Clock, Ending};
use pjlab_core::{Game, GameKit};

use crate::Error;
use pjlab_core::seed;

use crate::schedule::{GameSpec, Opening, Player, random_opening};

/// Builds an agent of game `G` from its spec and a seed (the binary passes one that knows
/// network agents).
pub type Factory<G> = dyn Fn(&str, u64) -> Result<Box<dyn Agent<G>>, String> + Sync;

/// A finished game of a game `G` with setup variants `V`. Two are equal when they are the same
/// game (schedule, start, moves, result, ending, forfeit), whatever time their moves took.
#[derive(Clone, Debug)]
pub struct PlayedGame<G: Game, V> {
    /// What was scheduled.
    pub spec: GameSpec<V>,
    /// The setup it started from.
    pub start: G,
    /// Every move, the random opening plies first.
    pub moves: Vec<G::Move>,
    /// From the first side's view: 1 a win, 0 a draw, -1 a loss.
    pub result: i8,
    /// How it ended.
    pub ending: Ending,
    /// The forfeiting seat's reason (`<side>: ...`, or `<side> seat <s>: ...` when a side has
    /// several seats), if any.
    pub forfeit: Option<String>,
    /// Each side's thinking time, first side first (zero in records made before clocks were
    /// kept).
    pub clocks: [Clock; 2],
}

impl<G: Game, V: PartialEq> PartialEq for PlayedGame<G, V> {
    fn eq(&self, other: &Self) -> bool {
        self.spec == other.spec
            && self.start == other.start
            && self.moves == other.moves
            && self.result == other.result
            && self.ending == other.ending
            && self.forfeit == other.forfeit
    }
}

/// A finished game of kit `K`'s game.
pub type Played<K> = PlayedGame<<K as GameKit>::Game, <K as GameKit>::Variant>;

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
    /// Decisions longer than this count as overruns in the clocks (runs with a time per move).
    pub overrun_after: Option<std::time::Duration>,
}

/// Plays one game, `agents[s]` at seat `s`; `None` if `stop` was raised first. Each seat's agent
/// is told of the new game with its own seed.
pub fn play_game<K: GameKit>(
    spec: &GameSpec<K::Variant>,
    agents: &mut [&mut dyn Agent<K::Game>],
    options: &PlayOptions,
    stop: &AtomicBool,
) -> Option<Played<K>> {
    let start = spec.start();
    for (seat, agent) in agents.iter_mut().enumerate() {
        // Streams 2 and 3 seed the first and second side's first seats, as when every game had
        // two seats; further seats get streams of their own.
        let stream = if seat < 2 {
            2 + seat as u64
        } else {
            8 + seat as u64
        };
        agent.new_game(seed::stream(options.seed, stream, spec.id));
    }
    let opening = random_opening::<K>(&start, options.opening, spec.opening_seed);
    let played = pjlab_agents::play_game(
        &start,
        &opening,
        agents,
        options.max_plies as usize,
        options.overrun_after,
        stop,
    )?;
    let seats = start.seats();
    let forfeit = played.forfeit.map(|(seat, why)| {
        let side = K::INFO.sides[seat % 2];
        if seats > 2 {
            format!("{side} seat {seat}: {why}")
        } else {
            format!("{side}: {why}")
        }
    });
    Some(PlayedGame {
        spec: spec.clone(),
        start,
        moves: played.moves,
        result: played.result,
        ending: played.ending,
        forfeit,
        clocks: played.clocks,
    })
}

/// Plays `games` on `options.workers` threads and hands each finished game to `on_game` (on the
/// calling thread, in the order they finish). Raising `stop` (Ctrl-C) stops handing out games and
/// abandons those in progress; finished ones have all been passed on when this returns. Agents
/// are built once per worker (one per player and seat) and told of every new game.
///
/// # Errors
/// [`Error::Agent`] when an agent cannot be built; games finished before that are kept.
pub fn play_games<K: GameKit>(
    games: &[GameSpec<K::Variant>],
    players: &[Player],
    factory: &Factory<K::Game>,
    options: &PlayOptions,
    stop: &AtomicBool,
    on_game: &mut dyn FnMut(Played<K>),
) -> Result<(), Error> {
    let seats = games.iter().map(|g| g.start().seats()).max().unwrap_or(2);
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let (tx, rx) = channel::<Result<Played<K>, Error>>();
    let mut first_error = None;
    std::thread::scope(|scope| {
        for worker in 0..options.workers.max(1) {
            let tx = tx.clone();
            let (next, failed) = (&next, &failed);
            scope.spawn(move || {
                // Slot `seats * player + seat`: one agent per player and seat.
                let mut agents: Vec<Option<Box<dyn Agent<K::Game>>>> =
                    (0..seats * players.len()).map(|_| None).collect();
                loop {
                    if stop.load(Ordering::Relaxed) || failed.load(Ordering::Relaxed) {
                        return;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(spec) = games.get(i) else { return };
                    let game_seats = spec.start().seats();
                    // (slot, player, seed index) of each seat: one agent per player and seat,
                    // seeded as when every game had two seats (index 2 player + side within a
                    // worker's block), further seats after them.
                    let slots: Vec<(usize, usize, usize)> = (0..game_seats)
                        .map(|seat| {
                            let player = if seat % 2 == 0 {
                                spec.first
                            } else {
                                spec.second
                            };
                            let index = worker * seats * players.len()
                                + (seat / 2) * 2 * players.len()
                                + 2 * player
                                + seat % 2;
                            (seats * player + seat, player, index)
                        })
                        .collect();
                    for &(slot, player, index) in &slots {
                        if agents[slot].is_none() {
                            let seed = seed::stream(options.seed, 4, index as u64);
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
                    let mut taken: Vec<Box<dyn Agent<K::Game>>> = slots
                        .iter()
                        .map(|&(slot, _, _)| agents[slot].take().expect("built"))
                        .collect();
                    let mut seated: Vec<&mut dyn Agent<K::Game>> = taken
                        .iter_mut()
                        .map(|a| a.as_mut() as &mut dyn Agent<K::Game>)
                        .collect();
                    let played = play_game::<K>(spec, &mut seated, options, stop);
                    drop(seated);
                    for (&(slot, _, _), agent) in slots.iter().zip(taken) {
                        agents[slot] = Some(agent);
                    }
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
