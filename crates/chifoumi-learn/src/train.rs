//! The training loop: each iteration the learner plays matches against opponents drawn from the
//! pool (its past snapshots and the fixed opponents: scripted players or trained networks),
//! learns from its decisions by policy gradient, and writes a checkpoint; every few iterations
//! it is evaluated against every fixed opponent. Everything is drawn from generators seeded by (seed, iteration), so a run
//! stopped after any iteration resumes to the same weights.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use pjlab_chifoumi::{Player, Rules, play_match, play_recorded_match};
use pjlab_core::seed::mix2;
use pjlab_nn::NetShape;
use pjlab_nn::inference::PackedNet;
use pjlab_stats::stats::Wdl;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::Error;
use crate::checkpoint::{State, commit, latest, read_state};
use crate::config::LearnConfig;
use crate::decisions::{Played, batches, returns_of};
use crate::features::input_len;
use crate::metrics::{IterationLog, plot, read_metrics};
use pjlab_core::Provenance;
use pjlab_nn::pg::{PgLearner, PgMetrics};
use pjlab_players::chifoumi::{NetPlayer, load_checked, parse_net_spec};
use pjlab_run::dir::{MetricsLog, OpenRun, Opener, RunKind};

/// Outputs of the policy: one per [`pjlab_chifoumi::players::Intent`].
pub const ACTIONS: usize = pjlab_chifoumi::players::Intent::ALL.len();

/// What a call to [`train`] did.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainSummary {
    /// Iterations done in the run so far.
    pub iteration: u32,
    /// Iterations done by this call.
    pub done: u32,
}

/// The rules of training matches.
pub fn rules(config: &LearnConfig) -> Rules {
    Rules {
        games: config.games_per_match,
        ..Rules::default()
    }
}

/// The opponent of one match.
#[derive(Clone)]
enum Opponent {
    Snapshot(Arc<PackedNet>),
    Fixed(String),
}

/// The networks of the `net:` opponents, loaded once.
type Nets = HashMap<String, (Arc<PackedNet>, f32)>;

/// Loads the network of every `net:` spec of `specs`.
fn load_nets(specs: &[String]) -> Result<Nets, Error> {
    let mut nets = Nets::new();
    for spec in specs {
        if let Some((path, temperature)) = parse_net_spec(spec)? {
            let net = load_checked(&path, Rules::default().radius)?;
            nets.insert(spec.clone(), (Arc::new(net), temperature));
        }
    }
    Ok(nets)
}

/// A fixed opponent: a scripted player or a loaded network.
fn fixed_player(spec: &str, nets: &Nets) -> Result<Box<dyn Player + Send>, Error> {
    match nets.get(spec) {
        Some((net, t)) => Ok(Box::new(NetPlayer::new(net.clone(), *t, spec.into()))),
        None => Ok(pjlab_chifoumi::parse_player(spec)?),
    }
}

fn play_one(
    net: &Arc<PackedNet>,
    opponent: &Opponent,
    nets: &Nets,
    rules: &Rules,
    config: &LearnConfig,
    seed: u64,
    seat: usize,
) -> Result<Played, Error> {
    let mut learner = NetPlayer::new(net.clone(), config.temperature, "learner".into());
    learner.record();
    let mut other: Box<dyn Player + Send> = match opponent {
        Opponent::Snapshot(n) => {
            Box::new(NetPlayer::new(n.clone(), config.temperature, "self".into()))
        }
        Opponent::Fixed(spec) => fixed_player(spec, nets)?,
    };
    let (l, o): (&mut dyn Player, &mut dyn Player) = (&mut learner, other.as_mut());
    let mut seats = if seat == 0 { [l, o] } else { [o, l] };
    let (result, actions) = play_recorded_match(rules, &mut seats, seed)?;
    let steps = learner.take_trace();
    let (returns, classes) = returns_of(&steps, &result, seat, config);
    Ok(Played {
        steps,
        returns,
        classes,
        result: result.result_for(seat),
        env_steps: actions.iter().map(|a| a.len() as u64).sum(),
        against_self: matches!(opponent, Opponent::Snapshot(_)),
    })
}

/// Match scores of `net` against each fixed opponent of `config`, `config.eval_matches`
/// each (seats alternating), from seeds of `iteration`.
///
/// # Errors
/// [`Error::Game`] when a match cannot be played; [`Error::Io`], [`Error::NotTrained`] or
/// [`Error::Net`] when a `net:` opponent does not load.
pub fn evaluate(
    net: &Arc<PackedNet>,
    config: &LearnConfig,
    iteration: u32,
) -> Result<Vec<(String, f64)>, Error> {
    let rules = rules(config);
    let nets = load_nets(&config.opponents)?;
    config
        .opponents
        .par_iter()
        .enumerate()
        .map(|(o, spec)| {
            let mut wdl = Wdl::default();
            for k in 0..config.eval_matches {
                let seat = (k % 2) as usize;
                let mut me = NetPlayer::new(net.clone(), config.eval_temperature, "net".into());
                let mut other = fixed_player(spec, &nets)?;
                let (l, x): (&mut dyn Player, &mut dyn Player) = (&mut me, other.as_mut());
                let mut seats = if seat == 0 { [l, x] } else { [x, l] };
                let seed = mix2(
                    config.seed ^ 0xe7a1,
                    u64::from(iteration),
                    (o as u64) << 32 | u64::from(k / 2),
                );
                let result = play_match(&rules, &mut seats, seed)?;
                wdl.add(result.result_for(seat));
            }
            Ok((spec.clone(), wdl.score()))
        })
        .collect()
}

fn snapshot_dir(run: &Path, i: u32) -> std::path::PathBuf {
    run.join("pool").join(format!("iter-{i:04}"))
}

/// Trains the run in `dir` with `config` until `config.iterations`, `max_iterations` more, or
/// `stop`; calls `on_iteration` after each. A directory with a checkpoint resumes from it (its
/// `config.toml` must match `config` except `iterations`); `provenance`, when given, is
/// appended to the run's `provenance.jsonl` once the directory is locked and checked.
///
/// Each iteration is four steps of a [`Session`]: [`Session::opponents`] draws who the learner
/// meets, [`Session::play`] plays those matches, [`Session::learn`] takes the policy-gradient
/// steps, and [`Session::commit`] evaluates, snapshots and writes the checkpoint and metrics.
///
/// # Errors
/// [`Error::Run`] for a config that does not match the run's; [`Error::Io`],
/// [`Error::NotTrained`] and [`Error::Net`] on files that cannot be read or written.
pub fn train(
    dir: &Path,
    config: &LearnConfig,
    provenance: Option<&Provenance>,
    max_iterations: Option<u32>,
    stop: &AtomicBool,
    on_iteration: &mut dyn FnMut(&IterationLog),
) -> Result<TrainSummary, Error> {
    config.check()?;
    let mut session = Session::open(dir, config, provenance)?;
    let first = session.state.iteration;
    let last = config
        .iterations
        .min(max_iterations.map_or(u32::MAX, |m| first.saturating_add(m)));
    while session.state.iteration < last && !stop.load(Ordering::Relaxed) {
        let it = session.state.iteration + 1;
        let started = Instant::now();
        let net = Arc::new(PackedNet::new(session.learner.model()));
        session.load_pool()?;
        let mut rng = ChaCha8Rng::seed_from_u64(mix2(config.seed, u64::from(it), 0));
        let opponents = session.opponents(&net, &mut rng);
        let played = session.play(&net, &opponents, it)?;
        let play_s = started.elapsed().as_secs_f64();
        let mut log = session.learn(&played, &mut rng, it);
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
/// and metrics, and the networks its matches use.
struct Session<'a> {
    dir: &'a Path,
    config: &'a LearnConfig,
    rules: Rules,
    shape: NetShape,
    learner: PgLearner,
    state: State,
    metrics: MetricsLog<IterationLog>,
    /// The pool's snapshots, loaded once each.
    pool_nets: HashMap<u32, Arc<PackedNet>>,
    /// The `net:` opponents of the config.
    fixed_nets: Nets,
    /// The run directory, locked while the session lives.
    _run: OpenRun,
}

impl<'a> Session<'a> {
    /// Opens the run in `dir` the one way every run opens ([`Opener`]): takes the lock and
    /// refuses a directory of another kind of run; resumes from the latest checkpoint (refusing
    /// a config other than the run's but for `iterations`) or starts a new run (from `init`
    /// when set); then writes the manifest, the config and `provenance` (when given).
    fn open(
        dir: &'a Path,
        config: &'a LearnConfig,
        provenance: Option<&Provenance>,
    ) -> Result<Session<'a>, Error> {
        let rules = rules(config);
        let shape = NetShape {
            input: input_len(rules.radius),
            actions: ACTIONS,
        };
        let mut learner = PgLearner::new(
            &config.network,
            shape,
            config.weight_decay,
            config.seed,
            config.pg_options(),
        );
        let mut state = State {
            iteration: 0,
            shape,
            network: config.network.clone(),
            pool: Vec::new(),
            elapsed_s: 0.0,
        };
        let mut opener = Opener::new(RunKind::Training, "chifoumi", "pjlab chifoumi train");
        if let Some(p) = provenance {
            opener = opener.provenance(p);
        }
        let mut opening = opener.lock(dir)?;
        let text = toml::to_string(config)?;
        let resumed = latest(dir);
        let saved = match (&resumed, opening.dir().config_text()?) {
            (Some(_), Some(text)) => Some(LearnConfig::parse(&text)?),
            _ => None,
        };
        opening.resume_config::<_, Error>(
            saved,
            config,
            text,
            |saved, config| saved.iterations = config.iterations,
            "`iterations`",
        )?;
        if let Some(ckpt) = &resumed {
            state = read_state(ckpt)?;
            learner.load(ckpt)?;
        } else if let Some(init) = &config.init {
            let from = crate::checkpoint::resolve(Path::new(init))?;
            learner.load_weights(&from)?;
        }
        let run = opening.commit()?;
        let metrics = run.dir().metrics::<IterationLog>();
        metrics.resume(state.iteration)?;
        Ok(Session {
            dir,
            config,
            rules,
            shape,
            learner,
            state,
            metrics,
            pool_nets: HashMap::new(),
            fixed_nets: load_nets(&config.opponents)?,
            _run: run,
        })
    }

    /// Loads the pool's snapshots not loaded yet, and forgets those that left it.
    fn load_pool(&mut self) -> Result<(), Error> {
        for &i in &self.state.pool {
            if let std::collections::hash_map::Entry::Vacant(e) = self.pool_nets.entry(i) {
                let net = pjlab_nn::checkpoint::load_packed(
                    &snapshot_dir(self.dir, i),
                    &self.config.network,
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
        let (config, pool) = (self.config, &self.state.pool);
        (0..config.matches_per_iteration)
            .map(|_| {
                if config.opponents.is_empty() || rng.random_bool(config.self_play_share) {
                    let pick = if pool.is_empty() {
                        net.clone()
                    } else {
                        self.pool_nets[&pool[rng.random_range(0..pool.len())]].clone()
                    };
                    Opponent::Snapshot(pick)
                } else {
                    Opponent::Fixed(
                        config.opponents[rng.random_range(0..config.opponents.len())].clone(),
                    )
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
    ) -> Result<Vec<Played>, Error> {
        opponents
            .par_iter()
            .enumerate()
            .map(|(k, opp)| {
                let seed = mix2(self.config.seed, u64::from(it), 1 + k as u64);
                play_one(
                    net,
                    opp,
                    &self.fixed_nets,
                    &self.rules,
                    self.config,
                    seed,
                    k % 2,
                )
            })
            .collect()
    }

    /// Step 3: the policy-gradient steps on the decisions of `played`; the iteration's log with
    /// its mean losses and training time (its playing figures are the caller's).
    fn learn(&mut self, played: &[Played], rng: &mut ChaCha8Rng, it: u32) -> IterationLog {
        let trained = Instant::now();
        let (batches, log_base) = batches(played, self.config, self.shape, rng);
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
    fn commit(&mut self, log: &mut IterationLog, started: Instant) -> Result<(), Error> {
        let (config, dir, it) = (self.config, self.dir, log.iteration);
        if config.eval_every > 0 && it.is_multiple_of(config.eval_every) {
            let net = Arc::new(PackedNet::new(self.learner.model()));
            log.eval = evaluate(&net, config, it)?;
        }
        if config.snapshot_every > 0 && it.is_multiple_of(config.snapshot_every) {
            let snap = snapshot_dir(dir, it);
            std::fs::create_dir_all(&snap).map_err(Error::io(&snap))?;
            self.learner.save(&snap)?;
            let _ = std::fs::remove_file(snap.join("optimizer.bpk"));
            self.state.pool.push(it);
        }
        // Snapshots leave the pool in the checkpoint first and on disk after, so a crash in
        // between never leaves a checkpoint naming a deleted snapshot.
        let mut dropped = Vec::new();
        while self.state.pool.len() > config.pool_size {
            dropped.push(self.state.pool.remove(0));
        }
        self.state.iteration = it;
        self.state.elapsed_s += started.elapsed().as_secs_f64();
        let learner = &self.learner;
        commit(
            dir,
            &self.state,
            config.keep_checkpoints,
            config.keep_every,
            |tmp| Ok(learner.save(tmp)?),
        )?;
        for old in dropped {
            let _ = std::fs::remove_dir_all(snapshot_dir(dir, old));
        }
        self.metrics.append(log)?;
        plot(dir, &read_metrics(dir)?)?;
        Ok(())
    }
}
