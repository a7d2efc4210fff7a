//! The loop: open (or resume) the run, then for each generation not yet decided its data, its
//! candidate and its gate, the ledger line and the report.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use pjlab_core::{GameKit, Provenance};
use pjlab_run::dir::{MetricsLog, Opener, RunKind};

use crate::ledger::Generation;
use crate::{Error, LEDGER_FILE, Spec, report, steps};

/// A generation's steps.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The best player's games.
    Data,
    /// The candidate's training (progress in passes).
    Train,
    /// The candidate against the best.
    Gate,
}

impl Step {
    /// The step's name in progress lines.
    pub fn name(self) -> &'static str {
        match self {
            Step::Data => "data",
            Step::Train => "train",
            Step::Gate => "gate",
        }
    }
}

/// What the loop reports as it goes.
#[derive(Debug)]
pub enum Event<'a> {
    /// A step of a generation has `done` of its `total` games (or passes).
    Progress {
        /// The generation, from 1.
        generation: u32,
        /// The step.
        step: Step,
        /// Done so far (earlier sessions' included).
        done: u64,
        /// In all (for the gate: the cap; the SPRT usually stops before).
        total: u64,
    },
    /// A generation was decided.
    Decided(&'a Generation),
}

/// How a call of [`run`] ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every generation of the spec is decided.
    Finished,
    /// `stop` was raised; running again resumes.
    Stopped,
}

/// Runs (or resumes) the generations of `spec` for kit `K`'s game in the run directory `dir`,
/// `workers` threads playing games, until all are decided or `stop` is raised. `events` hears
/// each step's progress and each decision.
///
/// # Errors
/// [`Error::Range`] for a number out of range, [`Error::OtherGame`] when the spec is not for
/// this game, [`Error::NoFeatures`] when the game has no learned evaluation, [`Error::Game`]
/// when its variants are unknown, [`Error::NoPriorData`] when a `train.prior_data` directory
/// is missing,
/// [`Error::Run`] when the directory is locked, holds another kind of run or another spec
/// (only `generations` may change on resume), and the errors of the steps.
pub fn run<K: GameKit>(
    dir: &Path,
    spec: &Spec,
    workers: usize,
    provenance: &Provenance,
    stop: &AtomicBool,
    events: &mut dyn FnMut(Event),
) -> Result<Outcome, Error> {
    spec.check()?;
    if spec.game != K::INFO.name {
        return Err(Error::OtherGame {
            spec: spec.game.clone(),
            game: K::INFO.name,
        });
    }
    if K::sparse_features().is_none() {
        return Err(Error::NoFeatures(K::INFO.name));
    }
    for v in spec.data.variants.iter().chain(&spec.gate.variants) {
        K::variant(v)?;
    }
    // Found now rather than after the first generation's games.
    if let Some(missing) = spec.train.prior_data.iter().find(|p| !p.is_dir()) {
        return Err(Error::NoPriorData(missing.clone()));
    }
    let mut opening = Opener::new(
        RunKind::NnueGenerations,
        K::INFO.name,
        "pjlab nnue generations",
    )
    .provenance(provenance)
    .lock(dir)?;
    let previous = match opening.dir().config_text()? {
        Some(text) => Some(Spec::parse(&text)?),
        None => None,
    };
    opening.resume_config::<_, Error>(
        previous,
        spec,
        spec.to_toml()?,
        |previous, new| previous.generations = new.generations,
        "generations",
    )?;
    let open = opening.commit()?;
    let run = open.dir();

    let ledger = MetricsLog::<Generation>::new(run.join(LEDGER_FILE));
    let mut decided = ledger.read()?;
    let mut best = decided
        .iter()
        .rev()
        .find(|g| g.promoted)
        .map_or(0, |g| g.generation);
    let path = run.path();
    for generation in decided.len() as u32 + 1..=spec.generations {
        if stop.load(Ordering::SeqCst) {
            return Ok(Outcome::Stopped);
        }
        let net = steps::best_net(path, spec, best);
        let data = steps::data::<K>(
            path,
            spec,
            generation,
            net.as_deref(),
            workers,
            provenance,
            stop,
            events,
        )?;
        if data.games < spec.data.games {
            return Ok(Outcome::Stopped);
        }
        let train = steps::train::<K>(path, spec, generation, provenance, events)?;
        let Some(gate) = steps::gate::<K>(
            path, spec, generation, best, workers, provenance, stop, events,
        )?
        else {
            return Ok(Outcome::Stopped);
        };
        let line = Generation {
            generation,
            best,
            promoted: gate.decision == "H1",
            data,
            train,
            gate,
        };
        ledger.append(&line)?;
        if line.promoted {
            best = generation;
        }
        events(Event::Decided(&line));
        decided.push(line);
        report::write(path, spec, &decided)?;
    }
    report::write(path, spec, &decided)?;
    Ok(Outcome::Finished)
}
