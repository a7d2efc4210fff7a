//! A Chifoumi run from its directory, on the lab's run session ([`pjlab_run::session`]): a
//! new run or the one the directory holds, the matches (or arenas) it lacks played on worker
//! threads with the records saved every 30 s and at the end ([`pjlab_imperfect::play_session`]).

use std::path::Path;

use std::sync::atomic::AtomicBool;

use pjlab_run::session as run;

use crate::record::Records;
use crate::run::{Factory, Played};
use crate::{Error, RunKind, RunSpec};

impl run::Records for Records {
    type Item = Played;
    type Error = Error;

    fn kind(&self) -> &str {
        self.run.kind.name()
    }

    fn add(&mut self, played: Played) {
        match played {
            Played::Match(m) => self.matches.push(m),
            Played::Arena(a) => self.arenas.push(a),
        }
    }

    fn save(&self, dir: &Path) -> Result<(), Error> {
        self.write(dir)
    }
}

/// The run of kind `kind` in `out`: with `new`, that run (refused if `out` already holds a
/// run, or when the run cannot be played as asked); without, the run `out` holds (refused if
/// it is of another kind), with what it played.
///
/// # Errors
/// [`Error::Session`] or [`Error::NoRun`] for the refusals above, as [`RunSpec::check`] for a
/// new run.
pub fn open(out: &Path, kind: RunKind, new: Option<RunSpec>) -> Result<Records, Error> {
    let resume = new.is_none();
    run::open::<Records>(
        out,
        resume,
        kind.name(),
        Records::exist(out).then_some("a run"),
        || Records::read(out),
        || {
            let run = new.ok_or(Error::NoRun)?;
            run.check()?;
            Ok(Records::new(run))
        },
    )
}

/// Matches (or arenas) in the run's schedule.
pub fn scheduled(records: &Records) -> usize {
    records.run.schedule().len()
}

/// What the run counts: `matches`, or `arenas` in an arena run.
pub fn unit(kind: RunKind) -> &'static str {
    if kind == RunKind::Arena {
        "arenas"
    } else {
        "matches"
    }
}

/// Plays what the run in `out` lacks on `workers` threads, adding it to `records`, saving
/// them every 30 s and at the end; raising `stop` stops handing out matches (those in
/// progress finish). `progress` sees the records after each match.
///
/// # Errors
/// A player that cannot be built, an illegal action, a file that cannot be written.
pub fn play(
    records: &mut Records,
    out: &Path,
    factory: &Factory,
    workers: usize,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Records),
) -> Result<(), Error> {
    let todo = records.todo();
    let run = records.run.clone();
    let runner = crate::run::runner(&run, factory)?;
    pjlab_imperfect::play_session(&runner, records, &todo, out, workers, stop, progress)
}
