//! A run from start to report, as the command line drives it: starting or resuming from the
//! games file, playing the games left with periodic saves and the SPRT's early stop, and the
//! running score of a progress line ([`crate::drive`] plays a run to its end on them).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use pjlab_core::GameKit;
use pjlab_run::dir::{Manifest, RunKind};
use pjlab_run::pool::{Order, Pool};
use pjlab_run::session::{self as run, Records, Saving, Session};

use crate::fault::SpecFault;
use crate::runner::{Factory, PlayOptions, Played, Runner};
use crate::schedule::{GameSpec, Opening, Player, RunSpec};
use crate::stats::{SprtDecision, Wdl};
use crate::{Error, record, report};

/// Games are saved after this many new ones, or 30 s after the last save, whichever comes
/// first.
const SAVING: Saving = Saving {
    items: 50,
    interval: Duration::from_secs(30),
};

/// A run's games file in its output directory.
pub fn games_file(out: &Path) -> PathBuf {
    out.join("games.parquet")
}

/// A run's options and its games so far, as a session keeps them (in its games file).
struct Games<K: GameKit> {
    spec: RunSpec,
    played: Vec<Played<K>>,
}

impl<K: GameKit> Records for Games<K> {
    type Item = Played<K>;
    type Error = Error;

    fn kind(&self) -> &str {
        self.spec.kind.name()
    }

    fn add(&mut self, game: Played<K>) {
        self.played.push(game);
    }

    /// Saves the games with the machine's load now as this session's `load_end` (the run's
    /// records keep the load at each session's last save).
    fn save(&self, dir: &Path) -> Result<(), Error> {
        let mut spec = self.spec.clone();
        if let Some(session) = spec.sessions.last_mut() {
            session.load_end = pjlab_core::provenance::load_average();
        }
        record::save::<K>(&games_file(dir), &spec, &self.played)
    }
}

/// Writes the `run.json` manifest of a run of `spec` into its directory `dir` (a run played by
/// [`crate::drive::play_run`] has it from its opening).
///
/// # Errors
/// [`Error::Lock`] when it cannot be written.
pub fn write_manifest(dir: &Path, spec: &RunSpec) -> Result<(), Error> {
    Manifest::new(spec.kind, &spec.game)
        .write(dir)
        .map_err(Error::Lock)
}

/// The run in `out`: a new one from `spec` (refused if `out` already holds games), or with
/// `resume` the one its games file holds (refused if it is of another kind or game), with the
/// games already played.
///
/// # Errors
/// [`Error::Session`] for the refusals above, [`Error::Spec`] for a pool of replicates,
/// [`Error::Records`], [`Error::Footer`] or [`Error::Recorded`] for a file that does not read back.
pub fn open<K: GameKit>(
    out: &Path,
    spec: RunSpec,
    resume: bool,
) -> Result<(RunSpec, Vec<Played<K>>), Error> {
    let parquet = games_file(out);
    let games = run::open::<Games<K>>(
        out,
        resume,
        spec.kind.name(),
        parquet.exists().then_some("games"),
        || record::load::<K>(&parquet).map(|(spec, played)| Games { spec, played }),
        || {
            spec.shard_schedule::<K>()?;
            Ok(Games {
                spec: spec.clone(),
                played: Vec::new(),
            })
        },
    )?;
    if !games.spec.pooled_seeds.is_empty() {
        return Err(SpecFault::ResumePool(out.display().to_string()).into());
    }
    Ok((games.spec, games.played))
}

/// How a session of a run ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Ended {
    /// Games in the run's schedule (a shard's: its part).
    pub scheduled: usize,
    /// Games played before this session.
    pub before: usize,
    /// The SPRT's decision, if it stopped the run.
    pub sprt: Option<SprtDecision>,
}

/// How often the session's own stop flag looks at the caller's (a Ctrl-C reaches the games
/// within this time).
const WATCH: Duration = Duration::from_millis(10);

/// Plays the games of `spec` (of its shard, if it has one) not in `played` (appending them),
/// saving the games file every 50 games or 30 s and at the end, stopping when `stop` is raised
/// or the SPRT decides. `stop` is only read: the session stops its games with a flag of its own,
/// raised by `stop`, by the SPRT's decision (returned in [`Ended::sprt`]) or by a failed save.
/// `progress` sees the games after each one.
///
/// # Errors
/// [`Error::Agent`] when an agent cannot be built, [`Error::Records`] or [`Error::Session`] when
/// saving fails (the run then stops; what could be saved is).
pub fn play<K: GameKit>(
    out: &Path,
    spec: &RunSpec,
    played: &mut Vec<Played<K>>,
    factory: &Factory<K::Game>,
    workers: usize,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&[Played<K>]),
) -> Result<Ended, Error> {
    let schedule = spec.shard_schedule::<K>()?;
    for p in &spec.players {
        factory(&p.spec, 0).map_err(|cause| Error::Agent {
            label: p.label.clone(),
            cause,
        })?;
    }
    let done: HashSet<u64> = played.iter().map(|g| g.spec.id).collect();
    let todo: Vec<GameSpec<K::Variant>> = schedule
        .iter()
        .filter(|g| !done.contains(&g.id))
        .cloned()
        .collect();
    let options = PlayOptions {
        workers: workers.max(1),
        opening: Opening {
            plies: spec.opening_plies,
            margin: spec.opening_margin,
        },
        max_plies: spec.max_plies,
        seed: spec.seed,
        overrun_after: spec
            .time_per_move_ms
            .map(|ms| crate::schedule::overrun_threshold(Duration::from_secs_f64(ms / 1000.0))),
    };
    let before = played.len();
    // The session's own stop: raised by the caller's (watched below, and read after each game),
    // by the SPRT, or by a failed save; the caller's flag is never written.
    let halt = AtomicBool::new(stop.load(Ordering::SeqCst));
    let ended = AtomicBool::new(false);
    let session = Session {
        dir: out,
        pool: Pool {
            workers: options.workers,
            order: Order::Finished,
            stop: &halt,
        },
        saving: SAVING,
    };
    let runner = Runner::<K>::new(&todo, &spec.players, factory, &options, &halt);
    let mut games = Games {
        spec: spec.clone(),
        played: std::mem::take(played),
    };
    let mut sprt = None;
    let outcome = std::thread::scope(|scope| {
        scope.spawn(|| {
            while !ended.load(Ordering::SeqCst) {
                if stop.load(Ordering::SeqCst) {
                    halt.store(true, Ordering::SeqCst);
                }
                std::thread::sleep(WATCH);
            }
        });
        let outcome = session.play(
            &mut games,
            &todo,
            |w| runner.worker(w),
            |w, game| runner.play(w, game),
            &mut |games: &Games<K>| {
                progress(&games.played);
                if stop.load(Ordering::SeqCst) {
                    halt.store(true, Ordering::SeqCst);
                }
                if let Some(test) = &spec.sprt {
                    let (state, _) = report::sprt_state(test, &games.played);
                    if state.decision != SprtDecision::Continue {
                        sprt = Some(state.decision);
                        halt.store(true, Ordering::SeqCst);
                    }
                }
            },
        );
        ended.store(true, Ordering::SeqCst);
        outcome
    });
    *played = games.played;
    outcome?;
    Ok(Ended {
        scheduled: schedule.len(),
        before,
        sprt,
    })
}

/// The players of specs. A spec's `name=` option, taken out of the spec, is its label in
/// reports (`alphabeta:depth=2,name=ab2` is the agent `alphabeta:depth=2` labelled `ab2`);
/// without one the label is the spec itself. Repeated labels are made unique with `#2`, `#3`.
///
/// # Errors
/// [`Error::Spec`] for an empty name, or a spec naming its agent twice.
pub fn players(specs: Vec<String>) -> Result<Vec<Player>, Error> {
    let mut out: Vec<Player> = Vec::new();
    let mut bases: Vec<String> = Vec::new();
    for text in specs {
        let (spec, name) = take_name(&text)?;
        let base = name.unwrap_or_else(|| spec.clone());
        let repeats = bases.iter().filter(|b| **b == base).count();
        let label = if repeats == 0 {
            base.clone()
        } else {
            format!("{base}#{}", repeats + 1)
        };
        bases.push(base);
        out.push(Player { label, spec });
    }
    Ok(out)
}

/// Splits the `name=` option off an agent spec: the spec without it, and the name.
fn take_name(text: &str) -> Result<(String, Option<String>), Error> {
    let text = text.trim();
    let (kind, Some(options)) = pjlab_core::spec::split(text) else {
        return Ok((text.to_string(), None));
    };
    let mut name = None;
    let mut kept = Vec::new();
    for option in options.split(',') {
        let Some(value) = option.trim().strip_prefix("name=") else {
            kept.push(option);
            continue;
        };
        let value = value.trim();
        if value.is_empty() {
            return Err(SpecFault::EmptyName(text.to_string()).into());
        }
        if name.replace(value.to_string()).is_some() {
            return Err(SpecFault::NamedTwice(text.to_string()).into());
        }
    }
    let spec = if kept.is_empty() {
        kind.to_string()
    } else {
        format!("{kind}:{}", kept.join(","))
    };
    Ok((spec, name))
}

/// Splits a comma-separated agent list where agents' own options also use commas: a piece
/// `key=value` whose key has no `:` continues the agent before it.
pub fn split_agents(lists: &[String]) -> Vec<String> {
    let mut agents: Vec<String> = Vec::new();
    for list in lists {
        let mut first_of_flag = true;
        for piece in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let continues = matches!(piece.split_once('='), Some((key, _)) if !key.contains(':'));
            match agents.last_mut() {
                Some(last) if continues && !first_of_flag => {
                    last.push(',');
                    last.push_str(piece);
                }
                _ => agents.push(piece.to_string()),
            }
            first_of_flag = false;
        }
    }
    agents
}

/// The running score for a progress line: the first player's score (match), the leader
/// (tournament), or the first side's score (balance).
pub fn running_score<K: GameKit>(spec: &RunSpec, played: &[Played<K>]) -> String {
    match spec.kind {
        RunKind::Match => {
            let mut a = Wdl::default();
            for g in played {
                a.add(if g.spec.first == 0 {
                    g.result
                } else {
                    -g.result
                });
            }
            let (lo, hi) = a.interval();
            format!(
                "{} {:.1}-{:.1} ({:.1}%, 95% {:.1}-{:.1})",
                spec.players[0].label,
                a.points(),
                a.games() as f64 - a.points(),
                100.0 * a.score(),
                100.0 * lo,
                100.0 * hi
            )
        }
        RunKind::Tournament => {
            let mut points = vec![0.0; spec.players.len()];
            for g in played {
                points[g.spec.first] += (f64::from(g.result) + 1.0) / 2.0;
                points[g.spec.second] += (1.0 - f64::from(g.result)) / 2.0;
            }
            let (best, top) = points
                .iter()
                .enumerate()
                .max_by(|a, b| a.1.total_cmp(b.1))
                .map_or((0, 0.0), |(i, &p)| (i, p));
            format!("leader {} {top:.1} points", spec.players[best].label)
        }
        _ => {
            let (score, lo, hi) = report::first_score(played);
            let mut first = K::INFO.sides[0].to_string();
            if let Some(c) = first.get_mut(..1) {
                c.make_ascii_uppercase();
            }
            format!(
                "{first} {:.1}% (95% {:.1}-{:.1})",
                100.0 * score,
                100.0 * lo,
                100.0 * hi
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_lists_keep_each_agents_options() {
        let lists = vec!["alphabeta:depth=2,tt=4,random,mcts:sims=100,cpuct=2".to_string()];
        assert_eq!(
            split_agents(&lists),
            ["alphabeta:depth=2,tt=4", "random", "mcts:sims=100,cpuct=2"]
        );
        let repeated = vec!["greedy".to_string(), "alphabeta:depth=1".to_string()];
        assert_eq!(split_agents(&repeated), ["greedy", "alphabeta:depth=1"]);
        let labels = players(vec!["random".into(), "random".into()]).unwrap();
        assert_eq!(labels[0].label, "random");
        assert_eq!(labels[1].label, "random#2");
    }

    #[test]
    fn a_name_option_labels_its_agent_and_leaves_the_spec() {
        let specs = [
            "alphabeta:depth=2,name=ab2,tt=4",
            "greedy:name=greedy player",
            "alphabeta:name=ab2,time=100ms",
            "random",
        ];
        let labelled = players(specs.iter().map(ToString::to_string).collect()).unwrap();
        let pairs: Vec<(&str, &str)> = labelled
            .iter()
            .map(|p| (p.label.as_str(), p.spec.as_str()))
            .collect();
        assert_eq!(
            pairs,
            [
                ("ab2", "alphabeta:depth=2,tt=4"),
                ("greedy player", "greedy"),
                ("ab2#2", "alphabeta:time=100ms"),
                ("random", "random"),
            ]
        );
        for bad in ["alphabeta:depth=2,name=", "alphabeta:name=a,name=b"] {
            let err = players(vec![bad.to_string()]).unwrap_err().to_string();
            assert!(err.contains(bad), "{err}");
        }
    }
}
