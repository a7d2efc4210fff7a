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

use pjlab_chifoumi::{GameEnd, MatchResult, Player, Rules, play_match, play_recorded_match};
use pjlab_chifoumi_eval::derive;
use pjlab_nn::inference::PackedNet;
use pjlab_nn::{DRAW, LOSS, NetShape, WIN};
use pjlab_stats::plot::{Series, line_chart};
use pjlab_stats::stats::Wdl;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::checkpoint::{State, commit, latest, read_state};
use crate::config::LearnConfig;
use crate::features::input_len;
use crate::learner::{PgBatch, PgLearner, PgMetrics};
use crate::player::{NetPlayer, Step};
use pjlab_run::dir::{Manifest, MetricsLine, RunDir, RunKind};

/// Outputs of the policy: one per [`pjlab_chifoumi::players::Intent`].
pub const ACTIONS: usize = pjlab_chifoumi::players::Intent::ALL.len();

/// One iteration's line of `metrics.jsonl`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct IterationLog {
    /// The iteration (1-based).
    pub iteration: u32,
    /// Matches played.
    pub matches: u32,
    /// The learner's decisions trained on.
    pub decisions: usize,
    /// Turns played by both sides (environment steps).
    pub env_steps: u64,
    /// Seconds playing.
    pub play_s: f64,
    /// Seconds training.
    pub train_s: f64,
    /// Environment steps a second while playing (both sides' turns, all threads).
    pub env_steps_per_s: f64,
    /// Mean of the step losses and entropy.
    pub loss: PgMetrics,
    /// Mean discounted return of the learner's decisions.
    pub mean_return: f64,
    /// Match score (wins + draws / 2) against past selves this iteration, if any were met.
    pub score_self: Option<f64>,
    /// Match score against the fixed opponents this iteration, if any were met.
    pub score_fixed: Option<f64>,
    /// At evaluations: match score against each fixed opponent.
    pub eval: Vec<(String, f64)>,
}

/// What a call to [`train`] did.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainSummary {
    /// Iterations done in the run so far.
    pub iteration: u32,
    /// Iterations done by this call.
    pub done: u32,
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |e| Error::Io(format!("{}: {e}", path.display()))
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
        if let Some((path, temperature)) =
            crate::player::parse_net_spec(spec).map_err(Error::Config)?
        {
            let net = crate::player::load_checked(&path, Rules::default().radius)?;
            nets.insert(spec.clone(), (Arc::new(net), temperature));
        }
    }
    Ok(nets)
}

/// A fixed opponent: a scripted player or a loaded network.
fn fixed_player(spec: &str, nets: &Nets) -> Result<Box<dyn Player + Send>, Error> {
    match nets.get(spec) {
        Some((net, t)) => Ok(Box::new(NetPlayer::new(net.clone(), *t, spec.into()))),
        None => pjlab_chifoumi::parse_player(spec).map_err(|e| Error::Config(e.to_string())),
    }
}

/// The decisions of one match with their returns, and how it went.
struct Played {
    steps: Vec<Step>,
    returns: Vec<f32>,
    classes: Vec<usize>,
    result: i8,
    env_steps: u64,
    against_self: bool,
}

/// Discounted returns and result classes of `steps`, the learner at `seat` of `result`.
fn returns_of(
    steps: &[Step],
    result: &MatchResult,
    seat: usize,
    config: &LearnConfig,
) -> (Vec<f32>, Vec<usize>) {
    let mut returns = vec![0.0; steps.len()];
    let mut classes = vec![DRAW; steps.len()];
    let mut later = 0i32;
    let match_part = config.match_weight * f32::from(result.result_for(seat));
    for i in (0..steps.len()).rev() {
        if i + 1 < steps.len() && steps[i + 1].game == steps[i].game {
            later += 1;
        } else {
            later = 0;
        }
        let Some(game) = result.games.get(steps[i].game as usize) else {
            continue;
        };
        let value = game.end.value_for(seat);
        let mut r = value as f32;
        if let GameEnd::Duel(d) = game.end {
            r += if d.trigger as usize == seat {
                config.tie_break
            } else {
                -config.tie_break
            };
        }
        returns[i] = config.gamma.powi(later) * r + match_part;
        classes[i] = match value {
            1 => WIN,
            -1 => LOSS,
            _ => DRAW,
        };
    }
    (returns, classes)
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
/// [`Error::Game`] when a match cannot be played; [`Error::Checkpoint`] when a `net:`
/// opponent does not load.
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
                let seed = derive(
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
/// `config.toml` must match `config` except `iterations`).
///
/// # Errors
/// [`Error::Config`] for a config that does not match the run's; [`Error::Checkpoint`] and
/// [`Error::Io`] on files that cannot be read or written.
pub fn train(
    dir: &Path,
    config: &LearnConfig,
    max_iterations: Option<u32>,
    stop: &AtomicBool,
    on_iteration: &mut dyn FnMut(&IterationLog),
) -> Result<TrainSummary, Error> {
    config.check()?;
    let rules = rules(config);
    let shape = NetShape {
        input: input_len(rules.radius),
        actions: ACTIONS,
    };
    let mut learner = PgLearner::new(config, shape);
    let mut state = State {
        iteration: 0,
        shape,
        network: config.network.clone(),
        pool: Vec::new(),
        elapsed_s: 0.0,
    };
    let run = RunDir::create(dir)?;
    let _lock = run.lock("pjlab chifoumi train")?;
    if let Some(ckpt) = latest(dir) {
        let saved = match run.config_text()? {
            Some(text) => Some(LearnConfig::parse(&text)?),
            None => None,
        };
        run.check_resume(
            saved,
            config,
            |saved, config| saved.iterations = config.iterations,
            "`iterations`",
        )?;
        state = read_state(&ckpt)?;
        learner.load(&ckpt)?;
    } else {
        let text = toml::to_string(config).map_err(|e| Error::Config(e.to_string()))?;
        run.write_config(&text)?;
    }
    run.write_manifest(&Manifest::new(RunKind::Training, "chifoumi"))?;
    let metrics = run.metrics::<IterationLog>();
    metrics.resume(state.iteration)?;
    let mut pool_nets: HashMap<u32, Arc<PackedNet>> = HashMap::new();
    let fixed_nets = load_nets(&config.opponents)?;
    let first = state.iteration;
    let last = config
        .iterations
        .min(max_iterations.map_or(u32::MAX, |m| first.saturating_add(m)));
    while state.iteration < last && !stop.load(Ordering::Relaxed) {
        let it = state.iteration + 1;
        let started = Instant::now();
        let net = Arc::new(PackedNet::new(learner.model()));
        for &i in &state.pool {
            if let std::collections::hash_map::Entry::Vacant(e) = pool_nets.entry(i) {
                let net = pjlab_nn::checkpoint::load_packed(
                    &snapshot_dir(dir, i),
                    &config.network,
                    shape,
                )?;
                e.insert(Arc::new(net));
            }
        }
        pool_nets.retain(|i, _| state.pool.contains(i));
        let mut rng = ChaCha8Rng::seed_from_u64(derive(config.seed, u64::from(it), 0));
        let opponents: Vec<Opponent> = (0..config.matches_per_iteration)
            .map(|_| {
                if config.opponents.is_empty() || rng.random_bool(config.self_play_share) {
                    let pick = if state.pool.is_empty() {
                        net.clone()
                    } else {
                        pool_nets[&state.pool[rng.random_range(0..state.pool.len())]].clone()
                    };
                    Opponent::Snapshot(pick)
                } else {
                    Opponent::Fixed(
                        config.opponents[rng.random_range(0..config.opponents.len())].clone(),
                    )
                }
            })
            .collect();
        let played = opponents
            .par_iter()
            .enumerate()
            .map(|(k, opp)| {
                let seed = derive(config.seed, u64::from(it), 1 + k as u64);
                play_one(&net, opp, &fixed_nets, &rules, config, seed, k % 2)
            })
            .collect::<Result<Vec<Played>, Error>>()?;
        let play_s = started.elapsed().as_secs_f64();
        let trained = Instant::now();
        let (batches, log_base) = batches(&played, config, shape, &mut rng);
        let mut sum = PgMetrics::default();
        for b in &batches {
            let m = learner.step(b);
            sum.policy_loss += m.policy_loss;
            sum.value_loss += m.value_loss;
            sum.entropy += m.entropy;
        }
        let steps = batches.len().max(1) as f64;
        let mut log = IterationLog {
            iteration: it,
            loss: PgMetrics {
                policy_loss: sum.policy_loss / steps,
                value_loss: sum.value_loss / steps,
                entropy: sum.entropy / steps,
            },
            play_s,
            train_s: trained.elapsed().as_secs_f64(),
            ..log_base
        };
        log.env_steps_per_s = log.env_steps as f64 / play_s.max(1e-9);
        if config.eval_every > 0 && it.is_multiple_of(config.eval_every) {
            let net = Arc::new(PackedNet::new(learner.model()));
            log.eval = evaluate(&net, config, it)?;
        }
        if config.snapshot_every > 0 && it.is_multiple_of(config.snapshot_every) {
            let snap = snapshot_dir(dir, it);
            std::fs::create_dir_all(&snap).map_err(io(&snap))?;
            learner.save(&snap)?;
            let _ = std::fs::remove_file(snap.join("optimizer.bpk"));
            state.pool.push(it);
        }
        // Snapshots leave the pool in the checkpoint first and on disk after, so a crash in
        // between never leaves a checkpoint naming a deleted snapshot.
        let mut dropped = Vec::new();
        while state.pool.len() > config.pool_size {
            dropped.push(state.pool.remove(0));
        }
        state.iteration = it;
        state.elapsed_s += started.elapsed().as_secs_f64();
        commit(
            dir,
            &state,
            config.keep_checkpoints,
            config.keep_every,
            |tmp| learner.save(tmp),
        )?;
        for old in dropped {
            let _ = std::fs::remove_dir_all(snapshot_dir(dir, old));
        }
        metrics.append(&log)?;
        plot(dir)?;
        on_iteration(&log);
    }
    Ok(TrainSummary {
        iteration: state.iteration,
        done: state.iteration - first,
    })
}

/// Shuffled minibatches of every decision of `played`, advantages normalised, and the
/// iteration's counts.
fn batches(
    played: &[Played],
    config: &LearnConfig,
    shape: NetShape,
    rng: &mut ChaCha8Rng,
) -> (Vec<PgBatch>, IterationLog) {
    let mut rows: Vec<(&Step, f32, usize)> = Vec::new();
    let (mut own, mut fixed) = (Wdl::default(), Wdl::default());
    let mut env_steps = 0;
    for p in played {
        env_steps += p.env_steps;
        if p.against_self { &mut own } else { &mut fixed }.add(p.result);
        for (i, s) in p.steps.iter().enumerate() {
            rows.push((s, p.returns[i], p.classes[i]));
        }
    }
    let n = rows.len().max(1) as f32;
    let mean_return = rows.iter().map(|r| r.1).sum::<f32>() / n;
    let adv: Vec<f32> = rows.iter().map(|r| r.1 - r.0.value).collect();
    let mean = adv.iter().sum::<f32>() / n;
    let sd = (adv.iter().map(|a| (a - mean).powi(2)).sum::<f32>() / n)
        .sqrt()
        .max(1e-6);
    let mut order: Vec<usize> = (0..rows.len()).collect();
    let mut out = Vec::new();
    for _ in 0..config.epochs {
        order.shuffle(rng);
        for chunk in order.chunks(config.batch_size) {
            let mut b = PgBatch {
                rows: chunk.len(),
                ..PgBatch::default()
            };
            for &i in chunk {
                let (step, _, class) = rows[i];
                b.inputs.extend_from_slice(&step.input);
                for a in 0..shape.actions {
                    b.mask.push(if step.legal & (1 << a) != 0 {
                        0.0
                    } else {
                        -1e9
                    });
                    b.taken
                        .push(if a == step.action as usize { 1.0 } else { 0.0 });
                }
                b.advantage.push((adv[i] - mean) / sd);
                let mut r = [0.0; 3];
                r[class] = 1.0;
                b.result.extend_from_slice(&r);
            }
            out.push(b);
        }
    }
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

impl MetricsLine for IterationLog {
    fn iteration(&self) -> u32 {
        self.iteration
    }
}

/// Reads `metrics.jsonl` under the run directory's one reading policy
/// ([`pjlab_run::dir::MetricsLog`]: an iteration's last line, a line cut short at the end
/// ignored).
///
/// # Errors
/// When the file cannot be read or a line does not parse.
pub fn read_metrics(dir: &Path) -> Result<Vec<IterationLog>, Error> {
    let path = dir.join(pjlab_run::dir::METRICS_FILE);
    if !path.exists() {
        return Err(Error::Io(format!("{}: no metrics", path.display())));
    }
    Ok(RunDir::at(dir).metrics().read()?)
}

/// Draws `plots/eval.svg` (match score against each scripted player and their mean, by
/// iteration) and `plots/training.svg` (training scores, entropy).
fn plot(dir: &Path) -> Result<(), Error> {
    let logs = read_metrics(dir)?;
    let plots = dir.join("plots");
    std::fs::create_dir_all(&plots).map_err(io(&plots))?;
    let evals: Vec<&IterationLog> = logs.iter().filter(|l| !l.eval.is_empty()).collect();
    let err = |e: pjlab_stats::Error| Error::Io(e.to_string());
    if let Some(first) = evals.first() {
        let names: Vec<String> = first.eval.iter().map(|e| e.0.clone()).collect();
        let mut series: Vec<Series> = names
            .iter()
            .enumerate()
            .map(|(k, name)| Series {
                name,
                points: evals
                    .iter()
                    .filter_map(|l| l.eval.get(k).map(|e| (f64::from(l.iteration), 100.0 * e.1)))
                    .collect(),
            })
            .collect();
        series.push(Series {
            name: "mean",
            points: evals
                .iter()
                .map(|l| {
                    let m = l.eval.iter().map(|e| e.1).sum::<f64>() / l.eval.len() as f64;
                    (f64::from(l.iteration), 100.0 * m)
                })
                .collect(),
        });
        line_chart(
            &plots.join("eval.svg"),
            "Match score against the fixed opponents",
            "iteration",
            "match score %",
            &series,
        )
        .map_err(err)?;
    }
    let pick = |f: &dyn Fn(&IterationLog) -> Option<f64>| -> Vec<(f64, f64)> {
        logs.iter()
            .filter_map(|l| f(l).map(|v| (f64::from(l.iteration), v)))
            .collect()
    };
    let series = [
        Series {
            name: "score vs fixed opponents %",
            points: pick(&|l| l.score_fixed.map(|s| 100.0 * s)),
        },
        Series {
            name: "score vs past selves %",
            points: pick(&|l| l.score_self.map(|s| 100.0 * s)),
        },
        Series {
            name: "policy entropy x 100",
            points: pick(&|l| Some(100.0 * l.loss.entropy)),
        },
    ];
    line_chart(
        &plots.join("training.svg"),
        "Training",
        "iteration",
        "",
        &series,
    )
    .map_err(err)
}

#[cfg(test)]
mod tests {
    use pjlab_chifoumi::{Bag, Duel, GameSummary, Object};

    use super::*;

    fn step(game: u16) -> Step {
        Step {
            input: Vec::new(),
            legal: 0,
            action: 0,
            value: 0.0,
            game,
        }
    }

    /// Three decisions in a duel the learner (seat 1) called and won, two in a time-out: the
    /// returns are the result plus the tie-break, discounted by the decisions left in the game.
    #[test]
    fn returns_discount_within_a_game_and_count_the_tie_break() {
        let duel = Duel {
            trigger: 1,
            target: 0,
            draws: [Object::Potion, Object::Flamme],
        };
        let game = |end| GameSummary {
            end,
            first: 0,
            turns: 10,
            bags: [Bag::EMPTY; 2],
        };
        let result = MatchResult {
            score: [-1, 1],
            duels: [0, 1],
            games: vec![game(GameEnd::Duel(duel)), game(GameEnd::TimeOut)],
            winner: Some(1),
        };
        let config = LearnConfig {
            gamma: 0.5,
            tie_break: 0.1,
            match_weight: 0.0,
            ..LearnConfig::default()
        };
        let steps: Vec<Step> = [0, 0, 0, 1, 1].map(step).to_vec();
        let (returns, classes) = returns_of(&steps, &result, 1, &config);
        let won = 1.0 + 0.1;
        let expected = [0.25 * won, 0.5 * won, won, 0.0, 0.0];
        for (r, e) in returns.iter().zip(expected) {
            assert!((r - e).abs() < 1e-6, "{returns:?}");
        }
        assert_eq!(classes, vec![WIN, WIN, WIN, DRAW, DRAW]);
        // The other seat lost the duel it did not call.
        let (returns, classes) = returns_of(&steps[..3], &result, 0, &config);
        assert!((returns[2] - (-1.0 - 0.1)).abs() < 1e-6);
        assert_eq!(classes, vec![LOSS, LOSS, LOSS]);
        assert_eq!(result.result_for(1), 1);
        assert_eq!(result.result_for(0), -1);
        // With match_weight, the match's result is added to every decision, undiscounted.
        let weighted = LearnConfig {
            match_weight: 0.5,
            ..config.clone()
        };
        let (returns, _) = returns_of(&steps, &result, 1, &weighted);
        for (r, e) in returns.iter().zip(expected) {
            assert!((r - (e + 0.5)).abs() < 1e-6, "{returns:?}");
        }
        let (returns, _) = returns_of(&steps[..3], &result, 0, &weighted);
        assert!((returns[2] - (-1.0 - 0.1 - 0.5)).abs() < 1e-6);
    }
}
