//! Playing a run's units with players built afresh by spec: [`Runner`] over the game's
//! [`Contest`], and the schedule on worker threads ([`play_all`]) or from a run directory
//! ([`play_session`]).

use std::path::Path;
use std::sync::atomic::AtomicBool;

use pjlab_core::BoxError;
use pjlab_run::pool::{Order, Pool};
use pjlab_run::session::{Records, Saving, Session};

use crate::{MatchSpec, spec_of};

/// Builds a fresh player from its spec (`random`, `ismcts:sims=400`...); the error says why
/// not, naming the spec.
pub type Factory<'a, P> = dyn Fn(&str) -> Result<Box<P>, BoxError> + Sync + 'a;

/// A player of a run that its factory cannot build.
#[derive(Debug, thiserror::Error)]
pub enum Unbuilt {
    /// Found when the run starts: the factory's reason, which names the spec.
    #[error(transparent)]
    Spec(BoxError),
    /// Found at a match, of a player the factory built when the run started.
    #[error("player {label:?}: {reason}")]
    Player {
        /// The player's label.
        label: String,
        /// The factory's reason.
        reason: BoxError,
    },
}

/// What a game plays for one scheduled unit of a run: a match of several games, one hand, an
/// arena of many players.
pub trait Contest: Sync {
    /// The game's player: scripted, searching and learned players alike, as trait objects.
    type Player: ?Sized + Send;
    /// What one unit gives: its result and what the records keep of it.
    type Outcome: Send;
    /// The game's error, into which a player that cannot be built converts.
    type Error: Send + From<Unbuilt>;

    /// Plays unit `spec` with `seats` (the players of `spec.seats`, built afresh, in order).
    ///
    /// # Errors
    /// The game's: rules that do not play, an illegal action.
    fn play(
        &self,
        spec: &MatchSpec,
        seats: Vec<Box<Self::Player>>,
    ) -> Result<Self::Outcome, Self::Error>;
}

/// What the workers of a run share: the game's contest, the run's player labels and the
/// factory of its players.
pub struct Runner<'a, C: Contest> {
    contest: C,
    labels: &'a [String],
    factory: &'a Factory<'a, C::Player>,
}

impl<'a, C: Contest> Runner<'a, C> {
    /// The runner of `contest` between the players of `labels` (specs, with `#n` appended to
    /// repeats), once every one of them was built by `factory`.
    ///
    /// # Errors
    /// [`Unbuilt::Spec`] with the factory's reason for the first player it cannot build.
    pub fn new(
        contest: C,
        labels: &'a [String],
        factory: &'a Factory<'a, C::Player>,
    ) -> Result<Runner<'a, C>, Unbuilt> {
        for label in labels {
            factory(spec_of(label)).map_err(Unbuilt::Spec)?;
        }
        Ok(Runner {
            contest,
            labels,
            factory,
        })
    }

    /// The game's contest.
    pub fn contest(&self) -> &C {
        &self.contest
    }

    /// Plays unit `spec` with its players built afresh, seat by seat.
    ///
    /// # Errors
    /// [`Unbuilt::Player`] (converted) for a player that cannot be built; the contest's.
    pub fn play(&self, spec: &MatchSpec) -> Result<C::Outcome, C::Error> {
        let seats = spec
            .seats
            .iter()
            .map(|&p| {
                let label = &self.labels[p];
                (self.factory)(spec_of(label)).map_err(|reason| Unbuilt::Player {
                    label: label.clone(),
                    reason,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        self.contest.play(spec, seats)
    }
}

/// Plays `todo` on `workers` threads and hands each finished unit to `on_done` on the calling
/// thread, in the order they finish. Raising `stop` stops handing out units; those in
/// progress finish.
///
/// # Errors
/// The first failure; units finished before it have been passed on.
pub fn play_all<C: Contest>(
    runner: &Runner<C>,
    todo: &[MatchSpec],
    workers: usize,
    stop: &AtomicBool,
    on_done: &mut dyn FnMut(C::Outcome),
) -> Result<(), C::Error> {
    let pool = Pool {
        workers,
        order: Order::Finished,
        stop,
    };
    pool.run(todo, |_| (), |_, spec| runner.play(spec).map(Some), on_done)
}

/// Plays `todo` from the run directory `dir` on `workers` threads, adding each finished unit to
/// `records` and calling `progress` after it; the records are saved first (the directory then
/// holds the run before its first unit ends), every 30 s and at the end. Raising `stop` stops
/// handing out units (those in progress finish).
///
/// # Errors
/// A player that cannot be built, the contest's, a save that fails.
pub fn play_session<C, R>(
    runner: &Runner<C>,
    records: &mut R,
    todo: &[MatchSpec],
    dir: &Path,
    workers: usize,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&R),
) -> Result<(), C::Error>
where
    C: Contest,
    R: Records<Item = C::Outcome, Error = C::Error>,
{
    let session = Session {
        dir,
        pool: Pool {
            workers,
            order: Order::Finished,
            stop,
        },
        saving: Saving::default(),
    };
    records.save(dir)?;
    session.play(
        records,
        todo,
        |_| (),
        |_, spec| runner.play(spec).map(Some),
        progress,
    )
}
