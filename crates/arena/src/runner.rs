//! Plays scheduled games on worker threads (one agent set per worker, one core each), through
//! the lab's one game loop ([`pjlab_agents::play_game`]).

use std::sync::atomic::AtomicBool;

use pjlab_agents::Agent;
pub use pjlab_agents::{Clock, Ending, MoveEffort};
use pjlab_core::{Game, GameKit};

use crate::Error;
use pjlab_core::seed;
use pjlab_run::pool::{Order, Pool};

use crate::schedule::{GameSpec, Opening, Player, random_opening};

/// Builds an agent of game `G` from its spec and a seed (the binary passes one that knows
/// network agents).
pub type Factory<G> = dyn Fn(&str, u64) -> Result<Box<dyn Agent<G>>, pjlab_core::BoxError> + Sync;

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
    /// Every decision's time and search effort, in order, the random opening excluded (empty in
    /// records made before they were kept).
    pub efforts: Vec<MoveEffort>,
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
        efforts: played.efforts,
    })
}

/// What the workers of a run share: the games they play, the players, the factory that
/// builds the players' agents and the options.
pub struct Runner<'a, K: GameKit> {
    players: &'a [Player],
    factory: &'a Factory<K::Game>,
    options: &'a PlayOptions,
    stop: &'a AtomicBool,
    /// The most seats a game of the run has (agents are built per player and seat).
    seats: usize,
}

/// One worker's agents, slot `seats * player + seat` (one agent per player and seat), built
/// when first needed, and the worker's number (part of their seeds).
pub struct Worker<K: GameKit> {
    number: usize,
    agents: Vec<Option<Box<dyn Agent<K::Game>>>>,
}

impl<'a, K: GameKit> Runner<'a, K> {
    /// The runner of `games` between `players`; raising `stop` abandons the games in
    /// progress.
    pub fn new(
        games: &[GameSpec<K::Variant>],
        players: &'a [Player],
        factory: &'a Factory<K::Game>,
        options: &'a PlayOptions,
        stop: &'a AtomicBool,
    ) -> Self {
        Runner {
            players,
            factory,
            options,
            stop,
            seats: games.iter().map(|g| g.start().seats()).max().unwrap_or(2),
        }
    }

    /// Worker `number`, with no agent built yet.
    pub fn worker(&self, number: usize) -> Worker<K> {
        Worker {
            number,
            agents: (0..self.seats * self.players.len()).map(|_| None).collect(),
        }
    }

    /// Plays game `spec` with `worker`'s agents (built on first use, told of every new game);
    /// `None` if the stop flag was raised first.
    ///
    /// # Errors
    /// [`Error::Agent`] when an agent cannot be built.
    pub fn play(
        &self,
        worker: &mut Worker<K>,
        spec: &GameSpec<K::Variant>,
    ) -> Result<Option<Played<K>>, Error> {
        let (seats, players) = (self.seats, self.players);
        // (slot, player, seed index) of each seat: one agent per player and seat, seeded as
        // when every game had two seats (index 2 player + side within a worker's block),
        // further seats after them.
        let slots: Vec<(usize, usize, usize)> = (0..spec.start().seats())
            .map(|seat| {
                let player = if seat % 2 == 0 {
                    spec.first
                } else {
                    spec.second
                };
                let index = worker.number * seats * players.len()
                    + (seat / 2) * 2 * players.len()
                    + 2 * player
                    + seat % 2;
                (seats * player + seat, player, index)
            })
            .collect();
        let agents = &mut worker.agents;
        for &(slot, player, index) in &slots {
            if agents[slot].is_none() {
                let seed = seed::stream(self.options.seed, 4, index as u64);
                let agent =
                    (self.factory)(&players[player].spec, seed).map_err(|cause| Error::Agent {
                        label: players[player].label.clone(),
                        cause,
                    })?;
                agents[slot] = Some(agent);
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
        let played = play_game::<K>(spec, &mut seated, self.options, self.stop);
        drop(seated);
        for (&(slot, _, _), agent) in slots.iter().zip(taken) {
            agents[slot] = Some(agent);
        }
        Ok(played)
    }
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
    let runner = Runner::<K>::new(games, players, factory, options, stop);
    let pool = Pool {
        workers: options.workers,
        order: Order::Finished,
        stop,
    };
    pool.run(
        games,
        |w| runner.worker(w),
        |w, spec| runner.play(w, spec),
        on_game,
    )
}
