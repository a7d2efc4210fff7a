//! Matching pennies through the league's exploitability run ([`pjlab_league::exploit`]): seat 0
//! wins a match when the two coins show the same side, seat 1 when they differ. Closed forms
//! check the run: a player that always shows heads is beaten by its best response and by an
//! exact model-based reply (near 0%), while the uniform player scores 50% against anyone, so
//! its worst score stays near 50%. A run stopped in its training resumes to the same records.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use pjlab_core::EncoderId;
use pjlab_core::seed::mix2;
use pjlab_league::checkpoint::load_packed;
use pjlab_league::exploit::{self, ExploitSpec, Exploitable, Progress, Stage};
use pjlab_league::{Error, IterationLog, League, Opponent, Played, Settings, TrainSummary, train};
use pjlab_nn::inference::PackedNet;
use pjlab_nn::pg::{Decision, PgOptions};
use pjlab_nn::{LOSS, NetConfig, NetShape, NetworkFile, WIN};
use pjlab_run::dir::Opening;
use pjlab_stats::stats::Wdl;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const TRAINER: &str = "the pennies test";
const SCRIPTED: [&str; 3] = ["heads", "tails", "mixed"];

/// A player: its probability of showing heads, or a network's policy (by seat).
enum Penny {
    Fixed(f64),
    Net(Arc<PackedNet>),
}

/// The network's input at `seat`.
fn input(seat: usize) -> Vec<f32> {
    vec![1.0, (seat == 0) as u8 as f32, (seat == 1) as u8 as f32, 0.0]
}

/// The network's probability of heads at `seat`, and its value (P(win) - P(loss)).
fn net_heads(net: &PackedNet, seat: usize) -> (f64, f32) {
    let (mut policy, mut value) = (vec![0.0; 2], vec![0.0; 3]);
    net.forward(&input(seat), &mut policy, &mut value);
    let p = 1.0 / (1.0 + f64::from(policy[1] - policy[0]).exp());
    let max = value.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let e: Vec<f32> = value.iter().map(|v| (v - max).exp()).collect();
    let sum: f32 = e.iter().sum();
    (p, (e[WIN] - e[LOSS]) / sum)
}

impl Penny {
    fn heads_probability(&self, seat: usize) -> f64 {
        match self {
            Penny::Fixed(p) => *p,
            Penny::Net(net) => net_heads(net, seat).0,
        }
    }

    /// Shows heads (true) or tails from `seed`.
    fn show(&self, seat: usize, seed: u64) -> bool {
        let u: f64 = ChaCha8Rng::seed_from_u64(seed).random();
        u < self.heads_probability(seat)
    }
}

/// The player of `spec` (ISMCTS-BR's stand-in, the exact reply, is [`reply_at`]).
fn build(spec: &str) -> Result<Penny, Error> {
    match spec {
        "heads" => Ok(Penny::Fixed(1.0)),
        "tails" => Ok(Penny::Fixed(0.0)),
        "mixed" => Ok(Penny::Fixed(0.5)),
        _ => match spec.strip_prefix("net:checkpoint=") {
            Some(path) => Ok(Penny::Net(Arc::new(load_packed(Path::new(path), TRAINER)?))),
            None => Err(Error::Missing {
                path: spec.into(),
                what: "player of the pennies test",
            }),
        },
    }
}

/// The exact best reply to `measured` at `seat`: 1 (heads) or 0.
fn reply_at(measured: &str, seat: usize) -> Result<f64, Error> {
    let model = build(measured)?;
    let other = model.heads_probability(1 - seat);
    // Seat 0 wins by matching, seat 1 by differing.
    let heads = if seat == 0 { other >= 0.5 } else { other < 0.5 };
    Ok(if heads { 1.0 } else { 0.0 })
}

/// One match from `seed`: `a` at seat `seat` against `b`; the result for `a`.
fn play_match(a: &Penny, b: &Penny, seat: usize, seed: u64) -> i8 {
    let mine = a.show(seat, mix2(seed, 1, 0));
    let theirs = b.show(1 - seat, mix2(seed, 1, 1));
    let seat0_wins = mine == theirs;
    if seat0_wins == (seat == 0) { 1 } else { -1 }
}

/// One decision of the learner.
struct Toss {
    input: Vec<f32>,
    action: usize,
    value: f32,
}

impl Decision for Toss {
    fn input(&self) -> &[f32] {
        &self.input
    }
    fn is_legal(&self, action: usize) -> bool {
        action < 2
    }
    fn action(&self) -> usize {
        self.action
    }
    fn value(&self) -> f32 {
        self.value
    }
}

/// The best response's league: the learner against the frozen player alone.
struct Learner {
    settings: Settings,
}

impl League for Learner {
    type Decision = Toss;
    type Fixed = ();
    type Error = Error;

    const GAME: &'static str = "pennies";
    const COMMAND: &'static str = "the pennies league";
    const TRAINER: &'static str = TRAINER;

    fn settings(&self) -> &Settings {
        &self.settings
    }

    fn shape(&self) -> NetShape {
        NetShape {
            input: 4,
            actions: 2,
        }
    }

    fn network_file(&self) -> NetworkFile {
        let encoder = EncoderId {
            name: "pennies".into(),
            version: 1,
        };
        NetworkFile::new(
            "pennies",
            encoder,
            self.settings.network.clone(),
            self.shape(),
            serde_json::Value::Null,
        )
    }

    fn check_config(&self, opening: &mut Opening<'_>, resumed: bool) -> Result<(), Error> {
        let text = format!("seed = {}\n", self.settings.seed);
        let saved = if resumed {
            opening.dir().config_text()?
        } else {
            None
        };
        opening.resume_config::<_, Error>(saved, &text, text.clone(), |_, _| {}, "nothing")
    }

    fn load_fixed(&self) -> Result<(), Error> {
        Ok(())
    }

    fn play(
        &self,
        net: &Arc<PackedNet>,
        opponent: &Opponent,
        _fixed: &(),
        seed: u64,
        seat: usize,
    ) -> Result<Played<Toss>, Error> {
        let other = match opponent {
            Opponent::Snapshot(n) => Penny::Net(n.clone()),
            Opponent::Fixed(spec) => build(spec)?,
        };
        let me = Penny::Net(net.clone());
        let result = play_match(&me, &other, seat, seed);
        let heads = me.show(seat, mix2(seed, 1, 0));
        let won = result > 0;
        Ok(Played {
            decisions: vec![Toss {
                input: input(seat),
                action: if heads { 0 } else { 1 },
                value: net_heads(net, seat).1,
            }],
            returns: vec![f32::from(result)],
            classes: vec![if won { WIN } else { LOSS }],
            result,
            env_steps: 2,
        })
    }

    fn evaluate(
        &self,
        net: &Arc<PackedNet>,
        spec: &str,
        _fixed: &(),
        seed: u64,
        seat: usize,
    ) -> Result<i8, Error> {
        let other = build(spec)?;
        Ok(play_match(&Penny::Net(net.clone()), &other, seat, seed))
    }
}

/// Matching pennies as an exploitability run sees it; a stage's records are `stage.json`
/// (`scheduled`, `results`: the measured player's, match by match).
struct Pennies;

fn read_stage(dir: &Path) -> Option<(usize, Vec<i8>)> {
    let text = std::fs::read_to_string(dir.join("stage.json")).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    let scheduled = v["scheduled"].as_u64()? as usize;
    let results = v["results"]
        .as_array()?
        .iter()
        .map(|r| r.as_i64().unwrap_or(0) as i8)
        .collect();
    Some((scheduled, results))
}

impl Exploitable for Pennies {
    type Error = Error;

    const GAME: &'static str = "pennies";
    const COMMAND: &'static str = "the pennies test";
    const TRAIN_COMMAND: &'static str = "the pennies league";
    const TRAINER: &'static str = TRAINER;
    const TRAINING_TITLE: &'static str = "Pennies training";

    fn scripted(&self) -> &[&str] {
        &SCRIPTED
    }

    fn check_player(&self, spec: &str) -> Result<(), Error> {
        build(spec).map(drop)
    }

    fn br_settings(&self, spec: &ExploitSpec) -> Settings {
        Settings {
            iterations: spec.br_iterations,
            seed: spec.stage_seed(10),
            matches_per_iteration: 64,
            network: NetConfig {
                hidden: 16,
                layers: 1,
            },
            init: None,
            weight_decay: 0.0,
            pg: PgOptions {
                learning_rate: 3e-2,
                value_weight: 0.5,
                entropy_weight: 0.0,
            },
            batch_size: 64,
            epochs: 1,
            opponents: vec![spec.player.clone()],
            self_play_share: 0.0,
            snapshot_every: 2,
            pool_size: 2,
            eval_every: spec.br_eval_every,
            eval_matches: spec.br_eval_matches,
            keep_checkpoints: 1,
            keep_every: 0,
        }
    }

    fn train_br(
        &self,
        spec: &ExploitSpec,
        out: &Path,
        stop: &AtomicBool,
        on_iteration: &mut dyn FnMut(&IterationLog),
    ) -> Result<TrainSummary, Error> {
        let learner = Learner {
            settings: self.br_settings(spec),
        };
        train(&learner, out, None, None, stop, on_iteration)
    }

    fn play_stage(
        &self,
        stage: &Stage<'_>,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<bool, Error> {
        let measured = &stage.spec.player;
        let (_, mut results) =
            read_stage(stage.out).unwrap_or((stage.matches as usize, Vec::new()));
        let total = u64::from(stage.matches);
        progress(results.len() as u64, total);
        let me = build(measured)?;
        for k in results.len()..stage.matches as usize {
            if stage.stop.load(Ordering::Relaxed) {
                break;
            }
            let seat = k % 2;
            let other = if stage.opponent.starts_with("ismcts-br:") {
                Penny::Fixed(reply_at(measured, 1 - seat)?)
            } else {
                build(stage.opponent)?
            };
            results.push(play_match(&me, &other, seat, mix2(stage.seed, 1, k as u64)));
            progress(results.len() as u64, total);
        }
        std::fs::create_dir_all(stage.out).unwrap();
        let json = serde_json::json!({ "scheduled": stage.matches, "results": results });
        std::fs::write(stage.out.join("stage.json"), json.to_string()).unwrap();
        Ok(results.len() as u64 >= total)
    }

    fn stage_score(&self, dir: &Path) -> Result<Option<(usize, Wdl)>, Error> {
        Ok(read_stage(dir).map(|(scheduled, results)| {
            let mut wdl = Wdl::default();
            for r in results {
                wdl.add(r);
            }
            (scheduled, wdl)
        }))
    }
}

fn spec(player: &str) -> ExploitSpec {
    ExploitSpec {
        scripted_matches: 400,
        br_iterations: 30,
        br_eval_every: 10,
        br_eval_matches: 100,
        br_matches: 400,
        ismcts_sims: 1,
        ismcts_matches: 400,
        ..ExploitSpec::new(player)
    }
}

fn provenance() -> pjlab_core::Provenance {
    pjlab_core::Provenance {
        version: "test".into(),
        commit: "test".into(),
        dirty: false,
        profile: "test".into(),
        features: String::new(),
        cpu: "test".into(),
        cores: 1,
        command: "test".into(),
        started: "2026-01-01T00:00:00Z".into(),
        load_start: None,
        load_end: None,
    }
}

/// Runs the exploitability of `player` in `dir` to its end: the report's rows and text.
fn measure(dir: &Path, player: &str) -> (Vec<exploit::report::Row>, String) {
    let never = AtomicBool::new(false);
    let spec = exploit::open(dir, Some(spec(player))).unwrap();
    assert!(exploit::run(&Pennies, dir, spec, provenance(), 1, &never, &mut |_| {}).unwrap());
    let spec = ExploitSpec::read(dir).unwrap().unwrap();
    let rows = exploit::report::rows(&Pennies, dir, &spec).unwrap();
    (
        rows,
        std::fs::read_to_string(dir.join("report.md")).unwrap(),
    )
}

#[test]
fn a_pure_player_is_exploited_and_the_uniform_one_is_not() {
    let tmp = tempfile::tempdir().unwrap();
    let (rows, text) = measure(&tmp.path().join("heads"), "heads");
    assert_eq!(rows.len(), 5);
    let score = |name: &str| {
        let row = rows.iter().find(|r| r.opponent == name).unwrap();
        row.percent().0
    };
    // Against the fixed players, alternating seats: exactly half (heads and tails), about half
    // against the uniform one.
    assert_eq!(score("heads"), 50.0);
    assert_eq!(score("tails"), 50.0);
    assert!((score("mixed") - 50.0).abs() < 10.0, "{text}");
    // The exact reply wins every match; the trained best response nearly every one.
    assert_eq!(score("ismcts-br:sims=1"), 0.0, "{text}");
    assert!(score("best-response") < 10.0, "{text}");
    let last = text.lines().last().unwrap();
    assert!(last.starts_with("worst: ismcts-br:sims=1 0.0% ("), "{last}");
    assert!(
        text.contains("## The best response's learning curve"),
        "{text}"
    );

    let (rows, text) = measure(&tmp.path().join("mixed"), "mixed");
    // Whatever it meets, the uniform player's expected score is 50%: 400 matches each put
    // every row within 10 points of it (four standard deviations).
    for r in &rows {
        let s = r.percent().0;
        assert!((s - 50.0).abs() < 10.0, "{}: {s}\n{text}", r.opponent);
    }
}

#[test]
fn a_run_stopped_in_its_training_resumes_to_the_same_records() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    measure(&whole, "heads");
    let cut = tmp.path().join("cut");
    for stop_at in ["versus-tails", "best-response", ""] {
        let stop = AtomicBool::new(false);
        let new = (stop_at.is_empty() || !cut.exists()).then(|| spec("heads"));
        let spec = exploit::open(&cut, new).unwrap();
        let finished = exploit::run(
            &Pennies,
            &cut,
            spec,
            provenance(),
            1,
            &stop,
            &mut |p: &Progress| {
                if p.stage == stop_at && p.done >= 1 {
                    stop.store(true, Ordering::Relaxed);
                }
            },
        )
        .unwrap();
        assert_eq!(finished, stop_at.is_empty(), "{stop_at}");
    }
    for stage in [
        "versus-heads",
        "versus-tails",
        "versus-mixed",
        "versus-best-response",
    ] {
        assert_eq!(
            read_stage(&cut.join(stage)),
            read_stage(&whole.join(stage)),
            "{stage}"
        );
    }
    let metrics = |d: &Path| -> Vec<String> {
        let text = std::fs::read_to_string(exploit::br_dir(d).join("metrics.jsonl")).unwrap();
        text.lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                format!("{} {} {}", v["iteration"], v["loss"], v["eval"])
            })
            .collect()
    };
    assert_eq!(metrics(&cut), metrics(&whole));
    // Another player in the same directory is refused, naming the run's.
    let err = exploit::open(&cut, Some(spec("tails"))).unwrap_err();
    assert!(
        err.to_string().contains("exploitability run of heads"),
        "{err}"
    );
}
