//! A game of one decision plays through the league: the learner guesses one of three doors
//! and wins when it names the third. Its policy must learn the door (a closed form: a uniform
//! policy scores 1/3), and a run stopped halfway resumes to the same weights and metrics.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use pjlab_core::EncoderId;
use pjlab_league::checkpoint::{latest, load_packed};
use pjlab_league::{Error, IterationLog, League, Opponent, Played, Settings, read_metrics, train};
use pjlab_nn::inference::PackedNet;
use pjlab_nn::pg::{Decision, PgOptions};
use pjlab_nn::{LOSS, NetConfig, NetShape, NetworkFile, WIN};
use pjlab_run::dir::Opening;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const DOORS: usize = 3;
const WINNING: usize = 2;
const TRAINER: &str = "the guessing test";

/// One guess: the (constant) input, the door and the network's value then.
struct Guess {
    input: Vec<f32>,
    door: usize,
    value: f32,
}

impl Decision for Guess {
    fn input(&self) -> &[f32] {
        &self.input
    }
    fn is_legal(&self, action: usize) -> bool {
        action < DOORS
    }
    fn action(&self) -> usize {
        self.door
    }
    fn value(&self) -> f32 {
        self.value
    }
}

struct Guessing {
    settings: Settings,
}

fn softmax(logits: &[f32]) -> Vec<f32> {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let exp: Vec<f32> = logits.iter().map(|l| (l - max).exp()).collect();
    let sum: f32 = exp.iter().sum();
    exp.iter().map(|e| e / sum).collect()
}

/// The door `net` samples from `seed`, and its value (P(win) - P(loss)).
fn guess(net: &PackedNet, seed: u64) -> Guess {
    let input = vec![1.0, 0.0, 0.0, 0.0];
    let (mut policy, mut value) = (vec![0.0; DOORS], vec![0.0; 3]);
    net.forward(&input, &mut policy, &mut value);
    let p = softmax(&policy);
    let mut u: f32 = ChaCha8Rng::seed_from_u64(seed).random();
    let mut door = DOORS - 1;
    for (d, q) in p.iter().enumerate() {
        if u < *q {
            door = d;
            break;
        }
        u -= q;
    }
    let v = softmax(&value);
    Guess {
        input,
        door,
        value: v[WIN] - v[LOSS],
    }
}

impl League for Guessing {
    type Decision = Guess;
    type Fixed = ();
    type Error = Error;

    const GAME: &'static str = "guessing";
    const COMMAND: &'static str = "the guessing test";
    const TRAINER: &'static str = TRAINER;

    fn settings(&self) -> &Settings {
        &self.settings
    }

    fn shape(&self) -> NetShape {
        NetShape {
            input: 4,
            actions: DOORS,
        }
    }

    fn network_file(&self) -> NetworkFile {
        let encoder = EncoderId {
            name: "guessing".into(),
            version: 1,
        };
        NetworkFile::new(
            "guessing",
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
        _opponent: &Opponent,
        _fixed: &(),
        seed: u64,
        _seat: usize,
    ) -> Result<Played<Guess>, Error> {
        let g = guess(net, seed);
        let won = g.door == WINNING;
        Ok(Played {
            returns: vec![if won { 1.0 } else { -1.0 }],
            classes: vec![if won { WIN } else { LOSS }],
            result: if won { 1 } else { -1 },
            env_steps: 1,
            decisions: vec![g],
        })
    }

    fn evaluate(
        &self,
        net: &Arc<PackedNet>,
        _spec: &str,
        _fixed: &(),
        seed: u64,
        _seat: usize,
    ) -> Result<i8, Error> {
        Ok(if guess(net, seed).door == WINNING {
            1
        } else {
            -1
        })
    }
}

fn league(iterations: u32) -> Guessing {
    Guessing {
        settings: Settings {
            iterations,
            seed: 5,
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
            opponents: vec!["judge".into()],
            self_play_share: 0.25,
            snapshot_every: 2,
            pool_size: 2,
            eval_every: 1,
            eval_matches: 100,
            keep_checkpoints: 1,
            keep_every: 0,
        },
    }
}

fn run(dir: &Path, iterations: u32, most: Option<u32>) -> Vec<IterationLog> {
    let stop = AtomicBool::new(false);
    train(&league(iterations), dir, None, most, &stop, &mut |_| {}).unwrap();
    read_metrics(dir).unwrap()
}

#[test]
fn the_learner_finds_the_winning_door() {
    let dir = tempfile::tempdir().unwrap();
    let logs = run(dir.path(), 30, None);
    assert_eq!(logs.len(), 30);
    let scores: Vec<f64> = logs.iter().map(|l| l.eval[0].1).collect();
    let (first, last) = (scores[0], scores[29]);
    // A uniform policy wins a third of its guesses; a learned one nearly all.
    assert!(first < 0.6, "iteration 1 already at {first}");
    assert!(last > 0.9, "iteration 30 at {last}");
    let matches: u32 = logs.iter().map(|l| l.matches).sum();
    assert_eq!(matches, 30 * 64);
}

#[test]
fn a_run_stopped_halfway_resumes_to_the_same_weights() {
    let (whole, parts) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = run(whole.path(), 8, None);
    run(parts.path(), 8, Some(3));
    let b = run(parts.path(), 8, None);
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(
            (x.iteration, x.decisions, &x.eval),
            (y.iteration, y.decisions, &y.eval)
        );
        assert_eq!(x.loss, y.loss);
        assert_eq!((x.score_self, x.score_fixed), (y.score_self, y.score_fixed));
    }
    let load = |d: &Path| load_packed(&latest(d).unwrap(), TRAINER).unwrap();
    assert_eq!(load(whole.path()), load(parts.path()));
}

#[test]
fn settings_out_of_range_and_a_foreign_state_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let stop = AtomicBool::new(false);
    let mut bad = league(2);
    bad.settings.matches_per_iteration = 0;
    let err = train(&bad, dir.path(), None, None, &stop, &mut |_| {}).unwrap_err();
    assert!(err.to_string().contains("matches_per_iteration"), "{err}");
    let mut lonely = league(2);
    lonely.settings.opponents.clear();
    let err = train(&lonely, dir.path(), None, None, &stop, &mut |_| {}).unwrap_err();
    assert!(err.to_string().contains("opponents"), "{err}");
    let foreign = dir.path().join("ckpt");
    std::fs::create_dir_all(&foreign).unwrap();
    std::fs::write(foreign.join("state.json"), "{\"moves\": 3}").unwrap();
    let err = pjlab_league::checkpoint::read_state(&foreign, TRAINER).unwrap_err();
    assert!(
        err.to_string()
            .contains("not a checkpoint of the guessing test"),
        "{err}"
    );
}
