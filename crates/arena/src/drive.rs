//! A match, tournament or balance run played to its end, as `pjlab match`, the atlas's cells and
//! the generations' gates play it: its directory opened on `pjlab-run`'s [`Opener`] (locked,
//! another kind or game refused, the manifest written), the run started or resumed from its
//! records ([`session::open`]), the games left
//! played ([`session::play`]), the report written from the records. The SPRT's decision is
//! returned in [`Finished`]; the caller's stop flag is only read.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use pjlab_core::{GameKit, Provenance};
use pjlab_run::dir::Opener;

use crate::fault::SpecFault;
use crate::runner::{Factory, Played};
use crate::schedule::RunSpec;
use crate::shard::Shard;
use crate::stats::{SprtDecision, SprtState};
use crate::{Error, record, report, session};

/// Where and how [`play_run`] plays a run.
#[derive(Clone, Copy, Debug)]
pub struct Launch<'a> {
    /// The run's directory.
    pub out: &'a Path,
    /// Continue the run in `out` rather than start one.
    pub resume: bool,
    /// The shard asked for, checked against a resumed run's.
    pub shard: Option<Shard>,
    /// Worker threads, each playing one game at a time.
    pub workers: usize,
    /// This session's line in the run's records.
    pub provenance: &'a Provenance,
    /// Who holds the run's lock, as another process is told (`pjlab <kind>` when unset).
    pub holder: Option<&'a str>,
    /// Raised to stop (Ctrl-C): the games finished are kept, the run resumes later.
    pub stop: &'a AtomicBool,
}

/// What [`play_run`] tells its caller as it goes.
pub enum Progress<'a, K: GameKit> {
    /// The run is open: its options, its games in all (a shard's: its part) and those played
    /// before this session.
    Opened {
        /// The run's options.
        spec: &'a RunSpec,
        /// Games in its schedule.
        scheduled: usize,
        /// Games played before.
        played: &'a [Played<K>],
    },
    /// A game was played: the games so far.
    Played {
        /// The run's options.
        spec: &'a RunSpec,
        /// Every game so far.
        played: &'a [Played<K>],
    },
}

/// How a session of a run ended.
#[derive(Clone, Debug)]
pub struct Finished<K: GameKit> {
    /// The run's options as its records hold them (this session's line included).
    pub spec: RunSpec,
    /// Every game of the run.
    pub games: Vec<Played<K>>,
    /// Games played before this session.
    pub before: usize,
    /// Games in the run's schedule (a shard's: its part).
    pub scheduled: usize,
    /// The SPRT's state over the games (none for a run without one).
    pub sprt: Option<SprtState>,
    /// The report's Markdown, as written into the run's directory.
    pub markdown: String,
}

impl<K: GameKit> Finished<K> {
    /// The SPRT's decision, once it has decided (this session or before).
    pub fn decision(&self) -> Option<SprtDecision> {
        self.sprt
            .as_ref()
            .map(|s| s.decision)
            .filter(|&d| d != SprtDecision::Continue)
    }

    /// Whether the run is over: every game played, or its SPRT decided.
    pub fn is_over(&self) -> bool {
        self.games.len() >= self.scheduled || self.decision().is_some()
    }
}

/// Opens the run `new` in `launch.out` (or resumes the one there), plays what is left of it
/// unless its SPRT has decided, and writes its report. `progress` hears when the run is open and
/// each game played. External engines (`ugi:` specs naming no `stderr=`) write their stderr
/// into a file beside the report.
///
/// # Errors
/// As [`session::open`] and [`session::play`]; [`Error::Spec`] when a resumed run is not of
/// the shard asked for, [`Error::Lock`] when the directory cannot be made, another process holds
/// it or its manifest names another kind of run or another game, and the report's errors.
pub fn play_run<K: GameKit>(
    new: RunSpec,
    launch: &Launch<'_>,
    factory: impl Fn(&str, u64) -> AgentResult<K::Game> + Sync + 'static,
    progress: &mut dyn FnMut(Progress<'_, K>),
) -> Result<Finished<K>, Error> {
    let out = launch.out;
    // One process a run directory: a second one on the same directory refuses, as does a
    // directory whose manifest names another kind of run or another game.
    let holder = launch
        .holder
        .map_or_else(|| format!("pjlab {}", new.kind.name()), str::to_string);
    let game = new.game.clone();
    // A run that cannot be played is refused before its directory is made: a fresh run's
    // schedule (its players, variants and games) and every player named (a resumed run's are
    // checked again once its records are read).
    if !launch.resume {
        new.shard_schedule::<K>()?;
    }
    for p in &new.players {
        factory(&p.spec, 0).map_err(|cause| Error::Agent {
            label: p.label.clone(),
            cause,
        })?;
    }
    let opening = Opener::new(new.kind, &game, &holder)
        .lock(out)
        .map_err(Error::Lock)?;
    let (mut spec, mut played) = session::open::<K>(out, new, launch.resume)?;
    if let Some(asked) = launch.shard.filter(|&s| spec.shard != Some(s)) {
        return Err(SpecFault::OtherShard {
            out: out.display().to_string(),
            held: spec.shard,
            asked,
        }
        .into());
    }
    spec.sessions.push(launch.provenance.clone());
    // The provenance is in the records' footer (the spec's sessions), not provenance.jsonl.
    let _run = opening.commit().map_err(Error::Lock)?;
    let factory: &Factory<K::Game> = &with_engine_logs(out, factory);
    let scheduled = spec.shard_schedule::<K>()?.len();
    progress(Progress::Opened {
        spec: &spec,
        scheduled,
        played: &played,
    });
    let before = played.len();
    let decided = |played: &[Played<K>]| {
        spec.sprt
            .as_ref()
            .is_some_and(|t| report::sprt_state(t, played).0.decision != SprtDecision::Continue)
    };
    if played.len() < scheduled && !decided(&played) {
        session::play::<K>(
            out,
            &spec,
            &mut played,
            factory,
            launch.workers,
            launch.stop,
            &mut |so_far| {
                progress(Progress::Played {
                    spec: &spec,
                    played: so_far,
                });
            },
        )?;
    }
    // The report is a function of the records: read the run's options back as the last save
    // wrote them (with this session's load at its end).
    let parquet = session::games_file(out);
    if parquet.exists() {
        spec = record::load_spec(&parquet)?;
    }
    let markdown = report::write::<K>(out, &spec, &played, scheduled)?;
    let sprt = spec.sprt.as_ref().map(|t| report::sprt_state(t, &played).0);
    Ok(Finished {
        spec,
        games: played,
        before,
        scheduled,
        sprt,
        markdown,
    })
}

/// What a [`Factory`] returns: an agent, or why it cannot be built.
pub type AgentResult<G> = Result<Box<dyn pjlab_agents::Agent<G>>, pjlab_core::BoxError>;

/// `factory`, with the stderr of an external engine whose spec names no file in a file of
/// `dir`.
fn with_engine_logs<G>(
    dir: &Path,
    factory: impl Fn(&str, u64) -> AgentResult<G> + Sync + 'static,
) -> impl Fn(&str, u64) -> AgentResult<G> + Sync + 'static {
    let dir = dir.to_path_buf();
    move |agent_spec: &str, seed: u64| {
        let mut agent_spec = agent_spec.to_string();
        if agent_spec.starts_with("ugi:") && !agent_spec.contains("stderr=") {
            let slug: String = agent_spec
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .take(40)
                .collect();
            let file = dir.join(format!("engine-{slug}.stderr"));
            agent_spec.push_str(&format!(",stderr={}", file.display()));
        }
        factory(&agent_spec, seed)
    }
}
