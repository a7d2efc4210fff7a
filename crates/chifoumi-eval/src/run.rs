//! Playing a run's matches and arenas on worker threads.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;

use pjlab_chifoumi::players::{ArenaResult, ArenaSeat, play_arena};
use pjlab_chifoumi::{Action, MatchResult, Player, play_recorded_match};

use crate::{Error, MatchSpec, RunSpec, spec_of};

/// Builds a fresh player from its spec (`random`, `ismcts:sims=400`...); the error says why not.
pub type Factory<'a> = dyn Fn(&str) -> Result<Box<dyn Player + Send>, String> + Sync + 'a;

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

fn build(factory: &Factory, label: &str) -> Result<Box<dyn Player + Send>, Error> {
    factory(spec_of(label)).map_err(|reason| Error::Player {
        label: label.to_string(),
        reason,
    })
}

/// Plays `todo` (matches of `run`) on `workers` threads and hands each finished match to
/// `on_done` on the calling thread, in the order they finish. Players are built afresh for
/// every match. Raising `stop` stops handing out matches; those in progress finish.
///
/// # Errors
/// The first failure (a player that cannot be built, an illegal action); matches finished
/// before it have been passed on.
pub fn play_matches(
    run: &RunSpec,
    todo: &[MatchSpec],
    factory: &Factory,
    workers: usize,
    stop: &AtomicBool,
    on_done: &mut dyn FnMut(PlayedMatch),
) -> Result<(), Error> {
    let rules = run.rules()?;
    for label in &run.players {
        build(factory, label)?;
    }
    let play = |spec: &MatchSpec| -> Result<PlayedMatch, Error> {
        let mut a = build(factory, &run.players[spec.seats[0]])?;
        let mut b = build(factory, &run.players[spec.seats[1]])?;
        let (result, actions) =
            play_recorded_match(&rules, &mut [a.as_mut(), b.as_mut()], spec.seed)?;
        Ok(PlayedMatch {
            spec: spec.clone(),
            result,
            actions,
        })
    };
    drive(todo, workers, stop, &play, on_done)
}

/// Plays `todo` (arenas of `run`) as [`play_matches`] plays matches.
///
/// # Errors
/// As [`play_matches`].
pub fn play_arenas(
    run: &RunSpec,
    todo: &[MatchSpec],
    factory: &Factory,
    workers: usize,
    stop: &AtomicBool,
    on_done: &mut dyn FnMut(PlayedArena),
) -> Result<(), Error> {
    let rules = run.arena_rules()?;
    for label in &run.players {
        build(factory, label)?;
    }
    let play = |spec: &MatchSpec| -> Result<PlayedArena, Error> {
        let mut seats = spec
            .seats
            .iter()
            .map(|&p| build(factory, &run.players[p]).map(ArenaSeat::new))
            .collect::<Result<Vec<_>, _>>()?;
        let result = play_arena(&rules, &mut seats, spec.seed)?;
        Ok(PlayedArena {
            spec: spec.clone(),
            result,
        })
    };
    drive(todo, workers, stop, &play, on_done)
}

/// Hands `todo` out to `workers` threads running `play`, results to `on_done` in finishing
/// order; stops handing out on `stop` or the first error.
fn drive<T: Send>(
    todo: &[MatchSpec],
    workers: usize,
    stop: &AtomicBool,
    play: &(dyn Fn(&MatchSpec) -> Result<T, Error> + Sync),
    on_done: &mut dyn FnMut(T),
) -> Result<(), Error> {
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let (tx, rx) = channel::<Result<T, Error>>();
    let mut first_error = None;
    std::thread::scope(|scope| {
        for _ in 0..workers.max(1) {
            let tx = tx.clone();
            let (next, failed) = (&next, &failed);
            scope.spawn(move || {
                loop {
                    if stop.load(Ordering::Relaxed) || failed.load(Ordering::Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(spec) = todo.get(i) else { break };
                    let result = play(spec);
                    if result.is_err() {
                        failed.store(true, Ordering::Relaxed);
                    }
                    if tx.send(result).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for result in rx {
            match result {
                Ok(done) => on_done(done),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
    });
    first_error.map_or(Ok(()), Err)
}
