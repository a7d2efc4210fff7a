//! Playing a run's matches and arenas on worker threads.

use std::sync::atomic::AtomicBool;

use pjlab_chifoumi::players::{ArenaResult, ArenaSeat, play_arena};
use pjlab_chifoumi::{Action, ArenaRules, MatchResult, Player, Rules, play_recorded_match};
use pjlab_run::pool::{Order, Pool};

use crate::{Error, MatchSpec, RunKind, RunSpec, spec_of};

/// Builds a fresh player from its spec (`random`, `ismcts:sims=400`...); the error says why not.
pub type Factory<'a> =
    dyn Fn(&str) -> Result<Box<dyn Player + Send>, pjlab_core::BoxError> + Sync + 'a;

/// A finished match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMatch {
    /// What was scheduled.
    pub spec: MatchSpec,
    /// Points, duels, each game, the winner (seat 0 is `spec.seats[0]`).
    pub result: MatchResult,
    /// The actions of each game.
    pub actions: Vec<Vec<Action>>,
}

/// A finished arena.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedArena {
    /// What was scheduled.
    pub spec: MatchSpec,
    /// Scores and duels by seat (seat `s` is player `spec.seats[s]`).
    pub result: ArenaResult,
}

/// A finished match or arena, as the run's kind plays them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Played {
    /// A match (match and tournament runs).
    Match(PlayedMatch),
    /// An arena (arena runs).
    Arena(PlayedArena),
}

/// What the workers of a run share: the run, its rules and the factory of its players.
pub struct Runner<'a> {
    run: &'a RunSpec,
    factory: &'a Factory<'a>,
    rules: Rules,
    arena: ArenaRules,
}

impl<'a> Runner<'a> {
    /// The runner of `run`'s matches or arenas, once every player of the run was built.
    ///
    /// # Errors
    /// [`Error::Factory`] with the factory's reason for a player that cannot be built (it names
    /// the player); [`Error::Game`] for rules that do not read.
    pub fn new(run: &'a RunSpec, factory: &'a Factory<'a>) -> Result<Runner<'a>, Error> {
        for label in &run.players {
            factory(spec_of(label)).map_err(Error::Factory)?;
        }
        Ok(Runner {
            run,
            factory,
            rules: run.rules.clone(),
            arena: run.arena_rules(),
        })
    }

    fn build(&self, player: usize) -> Result<Box<dyn Player + Send>, Error> {
        let label = &self.run.players[player];
        (self.factory)(spec_of(label)).map_err(|reason| Error::Player {
            label: label.clone(),
            reason: reason.to_string(),
        })
    }

    /// Plays match `spec` with players built afresh.
    ///
    /// # Errors
    /// A player that cannot be built, an illegal action.
    pub fn play_match(&self, spec: &MatchSpec) -> Result<PlayedMatch, Error> {
        let mut a = self.build(spec.seats[0])?;
        let mut b = self.build(spec.seats[1])?;
        let (result, actions) =
            play_recorded_match(&self.rules, &mut [a.as_mut(), b.as_mut()], spec.seed)?;
        Ok(PlayedMatch {
            spec: spec.clone(),
            result,
            actions,
        })
    }

    /// Plays arena `spec` with players built afresh.
    ///
    /// # Errors
    /// As [`Runner::play_match`].
    pub fn play_arena(&self, spec: &MatchSpec) -> Result<PlayedArena, Error> {
        let mut seats = spec
            .seats
            .iter()
            .map(|&p| self.build(p).map(ArenaSeat::new))
            .collect::<Result<Vec<_>, _>>()?;
        let result = play_arena(&self.arena, &mut seats, spec.seed)?;
        Ok(PlayedArena {
            spec: spec.clone(),
            result,
        })
    }

    /// Plays `spec` as the run's kind says: an arena, else a match.
    ///
    /// # Errors
    /// As [`Runner::play_match`].
    pub fn play(&self, spec: &MatchSpec) -> Result<Played, Error> {
        if self.run.kind == RunKind::Arena {
            self.play_arena(spec).map(Played::Arena)
        } else {
            self.play_match(spec).map(Played::Match)
        }
    }
}

/// Plays `todo` (matches of `run`, or arenas in an arena run) on `workers` threads and hands
/// each finished one to `on_done` on the calling thread, in the order they finish. Players are
/// built afresh for every match. Raising `stop` stops handing out matches; those in progress
/// finish.
///
/// # Errors
/// The first failure (a player that cannot be built, an illegal action); matches finished
/// before it have been passed on.
pub fn play_all(
    run: &RunSpec,
    todo: &[MatchSpec],
    factory: &Factory,
    workers: usize,
    stop: &AtomicBool,
    on_done: &mut dyn FnMut(Played),
) -> Result<(), Error> {
    let runner = Runner::new(run, factory)?;
    let pool = Pool {
        workers,
        order: Order::Finished,
        stop,
    };
    pool.run(todo, |_| (), |_, spec| runner.play(spec).map(Some), on_done)
}
