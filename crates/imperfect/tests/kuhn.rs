//! The harness on a second imperfect-information game, Kuhn poker (three cards, one each, an
//! ante of 1, one bet of 1), written here in a few lines: a run of it schedules, plays,
//! resumes and reports through the same code as Chifoumi's.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use pjlab_imperfect::standings::{self, Standings, Words};
use pjlab_imperfect::{
    Contest, Factory, MatchSpec, Runner, Unbuilt, labels, play_all, play_session, schedule,
};
use pjlab_run::session::{Records, SessionError};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A Kuhn player: its card (0 jack, 1 queen, 2 king) and the bets so far give whether it bets
/// (or calls).
trait Kuhn: Send {
    fn bets(&mut self, card: u8, history: &[bool], rng: &mut ChaCha8Rng) -> bool;
}

struct Always(bool);

impl Kuhn for Always {
    fn bets(&mut self, _: u8, _: &[bool], _: &mut ChaCha8Rng) -> bool {
        self.0
    }
}

/// Bets or calls with the king only.
struct King;

impl Kuhn for King {
    fn bets(&mut self, card: u8, _: &[bool], _: &mut ChaCha8Rng) -> bool {
        card == 2
    }
}

/// One hand; the outcome is each seat's chips won.
struct Hand;

#[derive(Debug)]
enum Error {
    Unbuilt(Unbuilt),
    Session(SessionError),
}

impl From<Unbuilt> for Error {
    fn from(e: Unbuilt) -> Error {
        Error::Unbuilt(e)
    }
}

impl From<SessionError> for Error {
    fn from(e: SessionError) -> Error {
        Error::Session(e)
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Unbuilt(e) => write!(f, "{e}"),
            Error::Session(e) => write!(f, "{e}"),
        }
    }
}

impl Contest for Hand {
    type Player = dyn Kuhn;
    type Outcome = (MatchSpec, [i32; 2]);
    type Error = Error;

    fn play(
        &self,
        spec: &MatchSpec,
        mut seats: Vec<Box<dyn Kuhn>>,
    ) -> Result<Self::Outcome, Error> {
        let mut rng = ChaCha8Rng::seed_from_u64(spec.seed);
        let first = rng.random_range(0..3u8);
        let cards = [first, (first + rng.random_range(1..3u8)) % 3];
        let mut history = Vec::new();
        // Check-check, bet-fold and bet-call end it; check-bet asks the first player again.
        let mut turn = 0;
        let folded = loop {
            let bet = seats[turn].bets(cards[turn], &history, &mut rng);
            history.push(bet);
            match history.as_slice() {
                [false, false] => break None,
                [true, false] | [false, true, false] => break Some(turn),
                [true, true] | [false, true, true] => break None,
                _ => turn = 1 - turn,
            }
        };
        let (winner, stake) = match folded {
            Some(seat) => (1 - seat, 1),
            None => {
                let called = history.iter().filter(|&&b| b).count() == 2;
                (usize::from(cards[1] > cards[0]), 1 + i32::from(called))
            }
        };
        let mut chips = [-stake; 2];
        chips[winner] = stake;
        Ok((spec.clone(), chips))
    }
}

fn kuhn(spec: &str) -> Result<Box<dyn Kuhn>, pjlab_core::BoxError> {
    match spec {
        "bet" => Ok(Box::new(Always(true))),
        "pass" => Ok(Box::new(Always(false))),
        "king" => Ok(Box::new(King)),
        _ => Err(format!("no Kuhn player {spec:?}").into()),
    }
}

/// A run's hands in memory, saved as one line a hand.
struct Hands(Vec<(MatchSpec, [i32; 2])>);

impl Records for Hands {
    type Item = (MatchSpec, [i32; 2]);
    type Error = Error;

    fn kind(&self) -> &str {
        "tournament"
    }

    fn add(&mut self, item: Self::Item) {
        self.0.push(item);
    }

    fn save(&self, dir: &Path) -> Result<(), Error> {
        let text: String = self
            .0
            .iter()
            .map(|(s, c)| format!("{} {:?}\n", s.id, c))
            .collect();
        std::fs::write(dir.join("hands.txt"), text).expect("a temporary directory is writable");
        Ok(())
    }
}

const WORDS: Words = Words {
    unit: "hand",
    units: "hands",
    drawn: "never: a hand has a winner",
};

fn players() -> Vec<String> {
    labels(&["bet", "pass", "king", "bet"].map(String::from))
}

#[test]
fn a_run_of_a_second_game_plays_and_reports_through_the_harness() {
    let labels = players();
    assert_eq!(labels[3], "bet#2");
    let factory: &Factory<dyn Kuhn> = &kuhn;
    let runner = Runner::new(Hand, &labels, factory).unwrap();
    let todo = schedule::paired(&schedule::pairs(labels.len()), 40, 7);
    let mut hands = Vec::new();
    play_all(&runner, &todo, 2, &AtomicBool::new(false), &mut |h| {
        hands.push(h)
    })
    .unwrap();
    assert_eq!(hands.len(), 6 * 40);
    let mut standings = Standings::new(labels.len());
    for (spec, chips) in &hands {
        let result = chips[0].signum() as i8;
        standings.add([spec.seats[0], spec.seats[1]], result, chips.map(f64::from));
        assert_eq!(chips[0], -chips[1], "zero-sum");
    }
    // Against a player who never bets, one who always bets wins every hand, one chip each.
    let (bet, pass) = (0, 1);
    assert_eq!(standings.cross[bet][pass].wins, 40);
    assert_eq!(standings.cross[pass][bet].losses, 40);
    // Two always-betting players call every bet: the higher card wins two chips.
    let w = standings.cross[bet][3];
    assert_eq!(w.wins + w.losses, 40);
    let order = standings.order();
    assert_eq!(order[order.len() - 1], pass, "the passer is last");
    let mut out = String::new();
    standings::match_scores(&mut out, &WORDS, &labels, &standings, &order);
    standings::pairs(&mut out, &WORDS, &labels, &standings.cross, &order);
    assert!(
        out.starts_with("## Hand scores\n\nA hand won counts 1"),
        "{out}"
    );
    assert!(
        out.contains("| bet vs pass | 40 | 40-0-0 | 100.0 |"),
        "{out}"
    );
}

#[test]
fn an_interrupted_session_resumes_to_the_same_hands() {
    let labels = players();
    let factory: &Factory<dyn Kuhn> = &kuhn;
    let runner = Runner::new(Hand, &labels, factory).unwrap();
    let todo = schedule::paired(&schedule::pairs(labels.len()), 10, 3);
    let dir = tempfile::tempdir().unwrap();
    let whole = {
        let mut hands = Hands(Vec::new());
        play_session(
            &runner,
            &mut hands,
            &todo,
            dir.path(),
            2,
            &AtomicBool::new(false),
            &mut |_| {},
        )
        .unwrap();
        hands.0
    };
    let stop = AtomicBool::new(false);
    let mut first = Hands(Vec::new());
    play_session(&runner, &mut first, &todo, dir.path(), 1, &stop, &mut |h| {
        if h.0.len() == 17 {
            stop.store(true, Ordering::SeqCst);
        }
    })
    .unwrap();
    assert_eq!(first.0.len(), 17, "one worker stops where it is told");
    let done: Vec<u64> = first.0.iter().map(|(s, _)| s.id).collect();
    let rest: Vec<MatchSpec> = todo
        .iter()
        .filter(|m| !done.contains(&m.id))
        .cloned()
        .collect();
    play_session(
        &runner,
        &mut first,
        &rest,
        dir.path(),
        2,
        &AtomicBool::new(false),
        &mut |_| {},
    )
    .unwrap();
    let (mut a, mut b) = (whole, first.0);
    a.sort_by_key(|h| h.0.id);
    b.sort_by_key(|h| h.0.id);
    assert_eq!(a, b);
    let saved = std::fs::read_to_string(dir.path().join("hands.txt")).unwrap();
    assert_eq!(
        saved.lines().count(),
        todo.len(),
        "the last save holds every hand"
    );
}

#[test]
fn players_that_cannot_be_built_are_named() {
    let unknown = labels(&["bet".into(), "bluff".into()]);
    let factory: &Factory<dyn Kuhn> = &kuhn;
    let e = Runner::new(Hand, &unknown, factory).err().unwrap();
    assert_eq!(e.to_string(), "no Kuhn player \"bluff\"");
    // A factory that fails after the run started: the label is named.
    let built = AtomicUsize::new(0);
    let flaky = |spec: &str| {
        if built.fetch_add(1, Ordering::SeqCst) >= 2 {
            return Err("out of players".into());
        }
        kuhn(spec)
    };
    let two = labels(&["bet".into(), "pass".into()]);
    let runner = Runner::new(Hand, &two, &flaky).unwrap();
    let spec = &schedule::paired(&[(0, 1)], 1, 1)[0];
    let e = runner.play(spec).err().unwrap();
    assert_eq!(e.to_string(), "player \"bet\": out of players");
}
