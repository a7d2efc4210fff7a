//! Playing a run's matches and arenas on worker threads: Chifoumi's [`Contest`] on the runner
//! every imperfect-information game shares ([`pjlab_imperfect`]).

use std::sync::atomic::AtomicBool;

use pjlab_chifoumi::players::{ArenaResult, ArenaSeat, play_arena};
use pjlab_chifoumi::{Action, ArenaRules, MatchResult, Player, Rules, play_recorded_match};
use pjlab_imperfect::Contest;

use crate::{Error, MatchSpec, RunKind, RunSpec};

/// Builds a fresh player from its spec (`random`, `ismcts:sims=400`...); the error says why not.
pub type Factory<'a> = pjlab_imperfect::Factory<'a, dyn Player + Send>;

/// What the workers of a run share: the run's contest, its players and their factory.
pub type Runner<'a> = pjlab_imperfect::Runner<'a, Chifoumi>;

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

/// What a Chifoumi run plays for one scheduled unit: a match of its rules (match and
/// tournament runs) or an arena (arena runs).
pub struct Chifoumi {
    rules: Rules,
    /// The arena's rules, in an arena run.
    arena: Option<ArenaRules>,
}

impl Chifoumi {
    /// The contest of `run`.
    pub fn of(run: &RunSpec) -> Chifoumi {
        Chifoumi {
            rules: run.rules.clone(),
            arena: (run.kind == RunKind::Arena).then(|| run.arena_rules()),
        }
    }
}

impl Contest for Chifoumi {
    type Player = dyn Player + Send;
    type Outcome = Played;
    type Error = Error;

    fn play(&self, spec: &MatchSpec, seats: Vec<Box<dyn Player + Send>>) -> Result<Played, Error> {
        let spec = spec.clone();
        if let Some(arena) = &self.arena {
            let mut seats: Vec<ArenaSeat> = seats.into_iter().map(ArenaSeat::new).collect();
            let result = play_arena(arena, &mut seats, spec.seed)?;
            return Ok(Played::Arena(PlayedArena { spec, result }));
        }
        let [mut a, mut b]: [Box<dyn Player + Send>; 2] =
            seats.try_into().map_err(|seats: Vec<_>| Error::Players {
                kind: RunKind::Match,
                found: seats.len(),
            })?;
        let (result, actions) =
            play_recorded_match(&self.rules, &mut [a.as_mut(), b.as_mut()], spec.seed)?;
        Ok(Played::Match(PlayedMatch {
            spec,
            result,
            actions,
        }))
    }
}

/// The runner of `run`'s matches or arenas, once every player of the run was built.
///
/// # Errors
/// [`Error::Unbuilt`] with the factory's reason for a player that cannot be built (it names
/// the player).
pub fn runner<'a>(run: &'a RunSpec, factory: &'a Factory<'a>) -> Result<Runner<'a>, Error> {
    Ok(Runner::new(Chifoumi::of(run), &run.players, factory)?)
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
    pjlab_imperfect::play_all(&runner(run, factory)?, todo, workers, stop, on_done)
}
