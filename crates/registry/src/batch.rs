//! [`Batch`]: N games of one kind stepped together, with automatic reset, for trainers that
//! want arrays rather than objects. Chance events (Chifoumi's deal and duel draws) are drawn
//! from each game's own seeded generator after every action: a batch's games are always at a
//! player's turn or just replaced.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::Error;
use crate::state::{State, check_len};

/// The most games one batch holds: its buffers (observations, masks) stay within a few GiB.
pub const MAX_GAMES: usize = 1 << 16;

/// Where [`Batch::observe`] and [`Batch::step`] write: one row per game, row-major.
pub struct Outputs<'a> {
    /// `n * observation_len`: the observation of each game's player to act.
    pub observations: &'a mut [f32],
    /// `n * num_actions`: each game's legal-action mask (1 legal, 0 not).
    pub masks: &'a mut [i8],
    /// `n`: each game's player to act.
    pub players: &'a mut [i64],
}

/// What [`Batch::step`] writes besides the next observations.
pub struct StepOutputs<'a> {
    /// The next observations, masks and players (of the new game where one ended).
    pub next: Outputs<'a>,
    /// `n * num_players`: what each player gained by this step (the final returns where a game
    /// ended, 0 elsewhere in games that score only at the end).
    pub rewards: &'a mut [f32],
    /// `n`: 1 where the game ended with this step (and was replaced by a new one).
    pub terminated: &'a mut [u8],
}

/// N games stepped together (an object-safe interface over [`VecBatch`]).
pub trait Batch: Send + Sync {
    /// Number of games.
    fn len(&self) -> usize;
    /// Always false: a batch holds at least one game.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Number of players of each game.
    fn num_players(&self) -> usize;
    /// Size of the action space.
    fn num_actions(&self) -> usize;
    /// Length of one observation.
    fn observation_len(&self) -> usize;
    /// The seed of each game in progress ([`VecBatch`] says how they are derived).
    fn seeds(&self) -> &[u64];
    /// How many games each slot has finished since the last reset.
    fn finished(&self) -> &[u64];
    /// The seed of the last reset (or of the batch's creation).
    fn seed(&self) -> u64;
    /// Restarts every game, seeding the batch anew with `seed`.
    ///
    /// # Errors
    /// When a game cannot be set up (never for the registry's games).
    fn reset(&mut self, seed: u64) -> Result<(), Error>;
    /// Writes the current observations, masks and players.
    ///
    /// # Errors
    /// [`Error::Shape`] when a buffer has the wrong length.
    fn observe(&mut self, out: Outputs<'_>) -> Result<(), Error>;
    /// Plays `actions[i]` in game `i` for its player to act; a game that ends is replaced by
    /// the slot's next game. Every action is checked before any is played: on an error no game
    /// has moved.
    ///
    /// # Errors
    /// [`Error::Shape`], or an [`Error::ActionOutOfRange`] / [`Error::IllegalAction`] placed at
    /// the first bad game (`env 3: ...`).
    fn step(&mut self, actions: &[i64], out: StepOutputs<'_>) -> Result<(), Error>;
    /// The state of game `i`, as a boxed copy.
    ///
    /// # Errors
    /// [`Error::Argument`] when `i >= len()`.
    fn state(&self, i: usize) -> Result<Box<dyn State>, Error>;
}

/// The seed of game number `game` (0, 1, ...) of slot `env` in a batch seeded with `seed`: seed
/// `game` of stream `env` under `seed`, the lab's seed derivation ([`pjlab_core::seed::stream`]).
///
/// A pure function, so a slot's games do not depend on how fast the other slots finish theirs,
/// and a single state made with the same seed replays the same game.
pub fn game_seed(seed: u64, env: usize, game: u64) -> u64 {
    pjlab_core::seed::stream(seed, env as u64, game)
}

/// `n` games of one state type `S`, made by a factory from a seed.
pub struct VecBatch<S, F> {
    states: Vec<S>,
    factory: F,
    seed: u64,
    seeds: Vec<u64>,
    finished: Vec<u64>,
    /// The last masks written, to check actions without generating moves again.
    masks: Vec<i8>,
    masks_fresh: bool,
    num_actions: usize,
    num_players: usize,
    observation_len: usize,
    before: Vec<f32>,
    after: Vec<f32>,
}

impl<S, F> VecBatch<S, F>
where
    S: State + Clone + 'static,
    F: Fn(u64) -> Result<S, Error> + Send + Sync,
{
    /// `n` games, game `k` of slot `i` started by `factory(game_seed(seed, i, k))`.
    ///
    /// # Errors
    /// [`Error::Argument`] for `n == 0`, or the factory's error.
    pub fn new(n: usize, seed: u64, factory: F) -> Result<VecBatch<S, F>, Error> {
        if n == 0 {
            return Err(Error::Argument("a batch needs at least one game".into()));
        }
        if n > MAX_GAMES {
            return Err(Error::Argument(format!(
                "a batch holds at most {MAX_GAMES} games, got {n}"
            )));
        }
        let states = (0..n)
            .map(|i| settled(&factory, game_seed(seed, i, 0)))
            .collect::<Result<Vec<S>, Error>>()?;
        let first = &states[0];
        let (num_actions, num_players, observation_len) = (
            first.num_actions(),
            first.num_players(),
            first.observation_len(),
        );
        Ok(VecBatch {
            seeds: (0..n).map(|i| game_seed(seed, i, 0)).collect(),
            finished: vec![0; n],
            states,
            factory,
            seed,
            masks: vec![0; n * num_actions],
            masks_fresh: false,
            num_actions,
            num_players,
            observation_len,
            before: vec![0.0; num_players],
            after: vec![0.0; num_players],
        })
    }

    /// The games.
    pub fn states(&self) -> &[S] {
        &self.states
    }

    fn check_outputs(&self, out: &Outputs<'_>) -> Result<(), Error> {
        let n = self.states.len();
        check_len(
            "observations",
            out.observations.len(),
            n * self.observation_len,
        )?;
        check_len("masks", out.masks.len(), n * self.num_actions)?;
        check_len("players", out.players.len(), n)
    }

    /// Writes game `i`'s observation, mask and player into `out` and the mask cache.
    fn write_one(&mut self, i: usize, out: &mut Outputs<'_>) -> Result<(), Error> {
        let state = &self.states[i];
        let player = state.current_player().unwrap_or(0);
        let (a, o) = (self.num_actions, self.observation_len);
        let mask = &mut self.masks[i * a..(i + 1) * a];
        state.legal_mask(mask)?;
        out.masks[i * a..(i + 1) * a].copy_from_slice(mask);
        state.network_input(&mut out.observations[i * o..(i + 1) * o])?;
        out.players[i] = player as i64;
        Ok(())
    }
}

impl<S, F> Batch for VecBatch<S, F>
where
    S: State + Clone + 'static,
    F: Fn(u64) -> Result<S, Error> + Send + Sync,
{
    fn len(&self) -> usize {
        self.states.len()
    }

    fn num_players(&self) -> usize {
        self.num_players
    }

    fn num_actions(&self) -> usize {
        self.num_actions
    }

    fn observation_len(&self) -> usize {
        self.observation_len
    }

    fn seeds(&self) -> &[u64] {
        &self.seeds
    }

    fn finished(&self) -> &[u64] {
        &self.finished
    }

    fn seed(&self) -> u64 {
        self.seed
    }

    fn reset(&mut self, seed: u64) -> Result<(), Error> {
        let states = (0..self.states.len())
            .map(|i| settled(&self.factory, game_seed(seed, i, 0)))
            .collect::<Result<Vec<S>, Error>>()?;
        self.states = states;
        self.seed = seed;
        for (i, s) in self.seeds.iter_mut().enumerate() {
            *s = game_seed(seed, i, 0);
        }
        self.finished.fill(0);
        self.masks_fresh = false;
        Ok(())
    }

    fn observe(&mut self, mut out: Outputs<'_>) -> Result<(), Error> {
        self.check_outputs(&out)?;
        for i in 0..self.states.len() {
            self.write_one(i, &mut out)?;
        }
        self.masks_fresh = true;
        Ok(())
    }

    fn step(&mut self, actions: &[i64], mut out: StepOutputs<'_>) -> Result<(), Error> {
        let n = self.states.len();
        check_len("actions", actions.len(), n)?;
        self.check_outputs(&out.next)?;
        check_len("rewards", out.rewards.len(), n * self.num_players)?;
        check_len("terminated", out.terminated.len(), n)?;
        // 1. Check every action before playing any (the masks of the last observe or step).
        if !self.masks_fresh {
            let mut mask = vec![0; self.num_actions];
            for (i, state) in self.states.iter().enumerate() {
                state.legal_mask(&mut mask)?;
                self.masks[i * self.num_actions..(i + 1) * self.num_actions].copy_from_slice(&mask);
            }
            self.masks_fresh = true;
        }
        let a = self.num_actions;
        for (i, (&action, state)) in actions.iter().zip(&self.states).enumerate() {
            let index = crate::state::check_range(state.game_name(), action, a)
                .map_err(|e| e.at(format!("env {i}")))?;
            if self.masks[i * a + index] == 0 {
                let mut probe = state.clone();
                let error = probe
                    .apply_action(action)
                    .err()
                    .unwrap_or_else(|| Error::Argument(format!("action {action} is not legal")));
                return Err(error.at(format!("env {i}")));
            }
        }
        // 2. Play, score, replace finished games, observe.
        let p = self.num_players;
        for (i, &action) in actions.iter().enumerate() {
            let state = &mut self.states[i];
            state.returns(&mut self.before)?;
            state.apply_legal(action as usize);
            state.settle_chance();
            state.returns(&mut self.after)?;
            for k in 0..p {
                out.rewards[i * p + k] = self.after[k] - self.before[k];
            }
            let ended = state.is_terminal();
            out.terminated[i] = u8::from(ended);
            if ended {
                self.finished[i] += 1;
                let seed = game_seed(self.seed, i, self.finished[i]);
                self.states[i] = settled(&self.factory, seed)?;
                self.seeds[i] = seed;
            }
            self.write_one(i, &mut out.next)?;
        }
        Ok(())
    }

    fn state(&self, i: usize) -> Result<Box<dyn State>, Error> {
        self.states.get(i).map(|s| s.clone_box()).ok_or_else(|| {
            Error::Argument(format!(
                "env {i} is out of range: the batch has envs 0..{}",
                self.states.len()
            ))
        })
    }
}

/// A new game from `factory(seed)` with its chance events drawn from its own generator: a
/// batch's games are always at a player's turn.
fn settled<S: State, F: Fn(u64) -> Result<S, Error>>(factory: &F, seed: u64) -> Result<S, Error> {
    let mut state = factory(seed)?;
    state.settle_chance();
    Ok(state)
}

/// Plays `steps` steps of `batch` with uniformly random legal actions drawn from the masks by a
/// generator seeded with `seed`, into buffers allocated once: the Rust-alone side of
/// `python/bench/batched.py`. Returns how many games finished. Once `stop` is raised (by
/// another thread: Python's Ctrl-C), it stops between two steps; the batch is then as after
/// its last step.
///
/// # Errors
/// Only what [`Batch::step`] reports (never with these actions).
pub fn random_steps(
    batch: &mut dyn Batch,
    steps: usize,
    seed: u64,
    stop: &AtomicBool,
) -> Result<u64, Error> {
    use rand::{RngExt, SeedableRng};
    let (n, a, o, p) = (
        batch.len(),
        batch.num_actions(),
        batch.observation_len(),
        batch.num_players(),
    );
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let (mut obs, mut masks, mut players) = (vec![0.0; n * o], vec![0i8; n * a], vec![0; n]);
    let (mut rewards, mut terminated) = (vec![0.0; n * p], vec![0; n]);
    let mut actions = vec![0i64; n];
    let mut finished = 0;
    batch.observe(Outputs {
        observations: &mut obs,
        masks: &mut masks,
        players: &mut players,
    })?;
    for _ in 0..steps {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        for (i, action) in actions.iter_mut().enumerate() {
            let row = &masks[i * a..(i + 1) * a];
            let count = row.iter().filter(|&&m| m != 0).count();
            let k = rng.random_range(0..count.max(1));
            *action = row
                .iter()
                .enumerate()
                .filter(|&(_, &m)| m != 0)
                .nth(k)
                .map_or(0, |(index, _)| index as i64);
        }
        batch.step(
            &actions,
            StepOutputs {
                next: Outputs {
                    observations: &mut obs,
                    masks: &mut masks,
                    players: &mut players,
                },
                rewards: &mut rewards,
                terminated: &mut terminated,
            },
        )?;
        finished += terminated.iter().map(|&t| u64::from(t)).sum::<u64>();
    }
    Ok(finished)
}
