//! The league's loop: each iteration the learner plays matches against opponents drawn from
//! the pool (its past snapshots and the fixed opponents), learns from its decisions by policy
//! gradient, and writes a checkpoint; every few iterations it is evaluated against every fixed
//! opponent. Everything is drawn from generators seeded by (seed, iteration), so a run stopped
//! after any iteration resumes to the same weights.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use pjlab_core::Provenance;
use pjlab_core::seed::mix2;
use pjlab_nn::inference::PackedNet;
use pjlab_nn::pg::{self, Decision, PgBatch, PgLearner, PgMetrics};
use pjlab_nn::{NetShape, NetworkFile};
use pjlab_run::dir::{MetricsLog, OpenRun, Opener, Opening, RunKind};
use pjlab_stats::stats::Wdl;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::checkpoint::{State, commit, latest, read_state, resolve, snapshot_dir};
use crate::metrics::{IterationLog, plot, read_metrics};
use crate::{Error, Settings};

/// What a call to [`train`] did.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainSummary {
    /// Iterations done in the run so far.
    pub iteration: u32,
    /// Iterations done by this call.
    pub done: u32,
}

/// The opponent of one training match.
#[derive(Clone)]
pub enum Opponent {
    /// A snapshot of the learner from the pool (the current network while the pool is empty).
    Snapshot(Arc<PackedNet>),
    /// A fixed opponent: its spec, one of [`Settings::opponents`].
    Fixed(String),
}

/// What one training match gave the learner.
pub struct Played<D> {
    /// The learner's decisions, in order.
    pub decisions: Vec<D>,
    /// Each decision's return.
    pub returns: Vec<f32>,
    /// Each decision's result class for the value head ([`pjlab_nn::WIN`], `DRAW`, `LOSS`).
    pub classes: Vec<usize>,
    /// The match's result for the learner (+1, 0, -1).
    pub result: i8,
    /// Turns played by both sides (environment steps).
    pub env_steps: u64,
}

/// What a game brings to a league run: its settings, its network's sizes, and how one match
/// of the learner is played.
pub trait League: Sync {
    /// A decision of the learner, as the policy gradient reads it.
    type Decision: Decision + Send + Sync;
    /// What the fixed opponents need loaded once (their networks).
    type Fixed: Sync;
    /// The game's error, into which the league's converts.
    type Error: From<Error> + Send;

    /// The game's registry name, for the run's manifest.
    const GAME: &'static str;
    /// The command that trains it (`pjlab chifoumi train`), for the manifest.
    const COMMAND: &'static str;
    /// The trainer as an error about a checkpoint of another trainer names it.
    const TRAINER: &'static str;

    /// The loop's settings, from the game's config.
    fn settings(&self) -> &Settings;
    /// The network's input and action sizes.
    fn shape(&self) -> NetShape;
    /// The `network.json` of the run's checkpoints.
    fn network_file(&self) -> NetworkFile;
    /// Checks the game's config against the run's `opening` (`resumed`: the directory holds a
    /// checkpoint) and hands it the config's text (`Opening::resume_config`).
    ///
    /// # Errors
    /// A config other than the run's; one that does not read or write.
    fn check_config(&self, opening: &mut Opening<'_>, resumed: bool) -> Result<(), Self::Error>;
    /// Loads what the fixed opponents of [`Settings::opponents`] need.
    ///
    /// # Errors
    /// An opponent that does not load.
    fn load_fixed(&self) -> Result<Self::Fixed, Self::Error>;
    /// One training match from `seed`: the learner `net` (sampling at the training
    /// temperature, recording its decisions) at seat `seat` against `opponent`.
    ///
    /// # Errors
    /// The game's.
    fn play(
        &self,
        net: &Arc<PackedNet>,
        opponent: &Opponent,
        fixed: &Self::Fixed,
        seed: u64,
        seat: usize,
    ) -> Result<Played<Self::Decision>, Self::Error>;
    /// One evaluation match from `seed`: `net` (at the evaluation temperature) at seat `seat`
    /// against the fixed opponent `spec`; the result for `net` (+1, 0, -1).
    ///
    /// # Errors
    /// The game's.
    fn evaluate(
        &self,
        net: &Arc<PackedNet>,
        spec: &str,
        fixed: &Self::Fixed,
        seed: u64,
        seat: usize,
    ) -> Result<i8, Self::Error>;
}

/// Match scores of `net` against each fixed opponent, [`Settings::eval_matches`] each (seats
/// alternating, each pair of matches on one seed), from seeds of `iteration`; the fixed
/// opponents loaded afresh.
///
/// # Errors
/// The game's, for an opponent that does not load or a match that does not play.
pub fn evaluate<L: League>(
    league: &L,
    net: &Arc<PackedNet>,
    iteration: u32,
) -> Result<Vec<(String, f64)>, L::Error> {
    let settings = league.settings();
    let fixed = league.load_fixed()?;
    settings
        .opponents
        .par_iter()
        .enumerate()
        .map(|(o, spec)| {
            let mut wdl = Wdl::default();
            for k in 0..settings.eval_matches {
                let seed = mix2(
                    settings.seed ^ 0xe7a1,
                    u64::from(iteration),
                    (o as u64) << 32 | u64::from(k / 2),
                );
                wdl.add(league.evaluate(net, spec, &fixed, seed, (k % 2) as usize)?);
            }
            Ok((spec.clone(), wdl.score()))
        })
        .collect()
}

/// Trains the run in `dir` until [`Settings::iterations`], `max_iterations` more, or `stop`;
/// calls `on_iteration` after each. A directory with a checkpoint resumes from it (the game's
/// config must match the run's, [`League::check_config`]); `provenance`, when given, is
/// appended to the run's `provenance.jsonl` once the directory is locked and checked.
///
/// Each iteration is four steps of a session: draw who the learner meets, play those matches,
/// take the policy-gradient steps, then evaluate, snapshot and write the checkpoint and
/// metrics.
///
/// # Errors
/// [`Error::Value`] for settings out of range; [`Error::Run`] for a directory of another run;
/// the game's; [`Error::Io`], [`Error::NotTrained`] and [`Error::Net`] on files that cannot be
/// read or written.
pub fn train<L: League>(
    league: &L,
    dir: &Path,
    provenance: Option<&Provenance>,
    max_iterations: Option<u32>,
    stop: &AtomicBool,
    on_iteration: &mut dyn FnMut(&IterationLog),
) -> Result<TrainSummary, L::Error> {
    let settings = league.settings();
    settings.check()?;
    let mut session = Session::open(league, dir, provenance)?;
    let first = session.state.iteration;
    let last = settings
        .iterations
        .min(max_iterations.map_or(u32::MAX, |m| first.saturating_add(m)));
    while session.state.iteration < last && !stop.load(Ordering::Relaxed) {
        let it = session.state.iteration + 1;
        let started = Instant::now();
        let net = Arc::new(PackedNet::new(session.learner.model()));
        session.load_pool()?;
        let mut rng = ChaCha8Rng::seed_from_u64(mix2(settings.seed, u64::from(it), 0));
        let opponents = session.opponents(&net, &mut rng);
        let played = session.play(&net, &opponents, it)?;
        let play_s = started.elapsed().as_secs_f64();
        let mut log = session.learn(&played, &opponents, &mut rng, it);
        log.play_s = play_s;
        log.env_steps_per_s = log.env_steps as f64 / play_s.max(1e-9);
        session.commit(&mut log, started)?;
        on_iteration(&log);
    }
    Ok(TrainSummary {
        iteration: session.state.iteration,
        done: session.state.iteration - first,
    })
}

/// A training run open in its directory: the learner, the checkpoint's state, the run's lock
/// and metrics, and what the fixed opponents need.
struct Session<'a, L: League> {
    league: &'a L,
    dir: &'a Path,
    shape: NetShape,
    learner: PgLearner,
    state: State,
    metrics: MetricsLog<IterationLog>,
    /// The pool's snapshots, loaded once each.
    pool_nets: HashMap<u32, Arc<PackedNet>>,
    fixed: L::Fixed,
    /// The run directory, locked while the session lives.
    _run: OpenRun,
}

impl<'a, L: League> Session<'a, L> {
    /// Opens the run in `dir` the one way every run opens ([`Opener`]): takes the lock and
    /// refuses a directory of another kind of run; resumes from the latest checkpoint (the
    /// game refusing a config other than the run's) or starts a new run (from
    /// [`Settings::init`] when set); then writes the manifest, the config and `provenance`.
    fn open(
        league: &'a L,
        dir: &'a Path,
        provenance: Option<&Provenance>,
    ) -> Result<Session<'a, L>, L::Error> {
        let settings = league.settings();
        let shape = league.shape();
        let mut learner = PgLearner::new(
            &settings.network,
            shape,
            settings.weight_decay,
            settings.seed,
            settings.pg,
        );
        let mut state = State {
            iteration: 0,
            shape,
            network: settings.network.clone(),
            pool: Vec::new(),
            elapsed_s: 0.0,
        };
        let mut opener = Opener::new(RunKind::Training, L::GAME, L::COMMAND);
        if let Some(p) = provenance {
            opener = opener.provenance(p);
        }
        let mut opening = opener.lock(dir).map_err(Error::from)?;
        let resumed = latest(dir);
        league.check_config(&mut opening, resumed.is_some())?;
        if let Some(ckpt) = &resumed {
            state = read_state(ckpt, L::TRAINER)?;
            learner.load(ckpt).map_err(Error::from)?;
        } else if let Some(init) = &settings.init {
            let from = resolve(Path::new(init))?;
            learner.load_weights(&from).map_err(Error::from)?;
        }
        let run = opening.commit().map_err(Error::from)?;
        let metrics = run.dir().metrics::<IterationLog>();
        metrics.resume(state.iteration).map_err(Error::from)?;
        Ok(Session {
            league,
            dir,
            shape,
            learner,
            state,
            metrics,
            pool_nets: HashMap::new(),
            fixed: league.load_fixed()?,
            _run: run,
        })
    }

    /// Loads the pool's snapshots not loaded yet, and forgets those that left it.
    fn load_pool(&mut self) -> Result<(), Error> {
        for &i in &self.state.pool {
            if let std::collections::hash_map::Entry::Vacant(e) = self.pool_nets.entry(i) {
                let net = pjlab_nn::checkpoint::load_packed(
                    &snapshot_dir(self.dir, i),
                    &self.league.settings().network,
                    self.shape,
                )?;
                e.insert(Arc::new(net));
            }
        }
        let pool = &self.state.pool;
        self.pool_nets.retain(|i, _| pool.contains(i));
        Ok(())
    }

    /// Step 1: the opponent of each of the iteration's matches, a snapshot of the pool (the
    /// current network while the pool is empty) with `self_play_share`, else a fixed opponent.
    fn opponents(&self, net: &Arc<PackedNet>, rng: &mut ChaCha8Rng) -> Vec<Opponent> {
        let (settings, pool) = (self.league.settings(), &self.state.pool);
        (0..settings.matches_per_iteration)
            .map(|_| {
                if settings.opponents.is_empty() || rng.random_bool(settings.self_play_share) {
                    let pick = if pool.is_empty() {
                        net.clone()
                    } else {
                        self.pool_nets[&pool[rng.random_range(0..pool.len())]].clone()
                    };
                    Opponent::Snapshot(pick)
                } else {
                    let k = rng.random_range(0..settings.opponents.len());
                    Opponent::Fixed(settings.opponents[k].clone())
                }
            })
            .collect()
    }

    /// Step 2: the matches of iteration `it`, in parallel, the learner's seat alternating.
    fn play(
        &self,
        net: &Arc<PackedNet>,
        opponents: &[Opponent],
        it: u32,
    ) -> Result<Vec<Played<L::Decision>>, L::Error> {
        let seed = self.league.settings().seed;
        opponents
            .par_iter()
            .enumerate()
            .map(|(k, opponent)| {
                let seed = mix2(seed, u64::from(it), 1 + k as u64);
                self.league.play(net, opponent, &self.fixed, seed, k % 2)
            })
            .collect()
    }

    /// Step 3: the policy-gradient steps on the decisions of `played` (against `opponents`);
    /// the iteration's log with its mean losses and training time (its playing figures are
    /// the caller's).
    fn learn(
        &mut self,
        played: &[Played<L::Decision>],
        opponents: &[Opponent],
        rng: &mut ChaCha8Rng,
        it: u32,
    ) -> IterationLog {
        let trained = Instant::now();
        let (batches, log_base) =
            batches(played, opponents, self.league.settings(), self.shape, rng);
        let mut sum = PgMetrics::default();
        for b in &batches {
            let m = self.learner.step(b);
            sum.policy_loss += m.policy_loss;
            sum.value_loss += m.value_loss;
            sum.entropy += m.entropy;
        }
        let steps = batches.len().max(1) as f64;
        IterationLog {
            iteration: it,
            loss: PgMetrics {
                policy_loss: sum.policy_loss / steps,
                value_loss: sum.value_loss / steps,
                entropy: sum.entropy / steps,
            },
            train_s: trained.elapsed().as_secs_f64(),
            ..log_base
        }
    }

    /// Step 4: the evaluation (every `eval_every`), the pool's snapshot (every
    /// `snapshot_every`), the checkpoint, the metrics line and the plots of iteration
    /// `log.iteration`, begun at `started`.
    fn commit(&mut self, log: &mut IterationLog, started: Instant) -> Result<(), L::Error> {
        let (settings, dir, it) = (self.league.settings(), self.dir, log.iteration);
        if settings.eval_every > 0 && it.is_multiple_of(settings.eval_every) {
            let net = Arc::new(PackedNet::new(self.learner.model()));
            log.eval = evaluate(self.league, &net, it)?;
        }
        if settings.snapshot_every > 0 && it.is_multiple_of(settings.snapshot_every) {
            let snap = snapshot_dir(dir, it);
            std::fs::create_dir_all(&snap).map_err(Error::io(&snap))?;
            self.learner.save(&snap).map_err(Error::from)?;
            let _ = std::fs::remove_file(snap.join("optimizer.bpk"));
            self.state.pool.push(it);
        }
        // Snapshots leave the pool in the checkpoint first and on disk after, so a crash in
        // between never leaves a checkpoint naming a deleted snapshot.
        let mut dropped = Vec::new();
        while self.state.pool.len() > settings.pool_size {
            dropped.push(self.state.pool.remove(0));
        }
        self.state.iteration = it;
        self.state.elapsed_s += started.elapsed().as_secs_f64();
        let learner = &self.learner;
        commit(
            dir,
            &self.state,
            &self.league.network_file(),
            settings.keep_checkpoints,
            settings.keep_every,
            |tmp| Ok(learner.save(tmp)?),
        )?;
        for old in dropped {
            let _ = std::fs::remove_dir_all(snapshot_dir(dir, old));
        }
        self.metrics.append(log).map_err(Error::from)?;
        plot(dir, &read_metrics(dir)?)?;
        Ok(())
    }
}

/// Shuffled minibatches of every decision of `played` (against `opponents`), advantages
/// normalised, and the iteration's counts.
fn batches<D: Decision>(
    played: &[Played<D>],
    opponents: &[Opponent],
    settings: &Settings,
    shape: NetShape,
    rng: &mut ChaCha8Rng,
) -> (Vec<PgBatch>, IterationLog) {
    let mut rows: Vec<(&D, f32, usize)> = Vec::new();
    let (mut own, mut fixed) = (Wdl::default(), Wdl::default());
    let mut env_steps = 0;
    for (p, opponent) in played.iter().zip(opponents) {
        env_steps += p.env_steps;
        let against_self = matches!(opponent, Opponent::Snapshot(_));
        if against_self { &mut own } else { &mut fixed }.add(p.result);
        for (i, d) in p.decisions.iter().enumerate() {
            rows.push((d, p.returns[i], p.classes[i]));
        }
    }
    let n = rows.len().max(1) as f32;
    let mean_return = rows.iter().map(|r| r.1).sum::<f32>() / n;
    let out = pg::batches(
        &rows,
        shape.actions,
        settings.batch_size,
        settings.epochs,
        rng,
    );
    let score = |w: &Wdl| (w.games() > 0).then(|| w.score());
    let log = IterationLog {
        matches: played.len() as u32,
        decisions: rows.len(),
        env_steps,
        mean_return: f64::from(mean_return),
        score_self: score(&own),
        score_fixed: score(&fixed),
        ..IterationLog::default()
    };
    (out, log)
}
