//! The UGI client of `pjlab-agents` (the `ugi:` player) against this crate's stub engine, which
//! plays the first legal move of the position it was sent, and misbehaves on demand.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use pjlab_agents::{Agent, Control, Decision, History};
use pjlab_pijersi::{PijersiKit, Position, Variant};

fn build(spec: &str, seed: u64) -> Result<Box<dyn Agent<Position>>, pjlab_agents::SpecError> {
    pjlab_agents::build::<PijersiKit>(spec, seed)
}

const STUB: &str = env!("CARGO_BIN_EXE_pjlab-ugi-stub");

fn first_legal(position: &Position) -> pjlab_pijersi::Move {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    moves[0]
}

/// Plays `plies` plies with the engine for both sides from `start`; returns the forfeit reason, if
/// any, and the moves played.
fn play(
    agent: &mut dyn Agent<Position>,
    start: &Position,
    plies: usize,
) -> (Option<String>, usize) {
    let mut position = start.clone();
    let mut moves = Vec::new();
    while moves.len() < plies && position.outcome().is_none() {
        let decision = agent.decide_in_game(History {
            start,
            moves: &moves,
            position: &position,
        });
        if let Some(reason) = decision.forfeit {
            return (Some(reason), moves.len());
        }
        let mv = decision.best_move.expect("a move or a forfeit");
        // The stub rebuilt the position from `position fen ... moves ...` on its own: its choice
        // is our first legal move only if the history reached it intact.
        assert_eq!(mv, first_legal(&position), "after {} plies", moves.len());
        position.play_unchecked(mv);
        moves.push(mv);
    }
    (None, moves.len())
}

#[test]
fn a_well_behaved_engine_plays_whole_games_from_any_setup() {
    let mut agent = build(&format!("ugi:cmd={STUB},depth=2,timeout=10s"), 0).unwrap();
    for seed in 0..3 {
        agent.new_game(seed);
        let start = Variant::FullRandom.setup(seed);
        let (forfeit, plies) = play(agent.as_mut(), &start, 60);
        assert_eq!(forfeit, None);
        let mut end = start.clone();
        for _ in 0..plies {
            end.play_unchecked(first_legal(&end));
        }
        assert!(plies == 60 || end.outcome().is_some(), "{plies}");
    }
}

#[test]
fn a_hung_engine_forfeits_on_time_and_a_fresh_one_is_started() {
    let spec = format!("ugi:cmd={STUB},arg=hang,arg=3,movetime=20ms,timeout=300ms");
    let mut agent = build(&spec, 0).unwrap();
    let started = Instant::now();
    let (forfeit, plies) = play(agent.as_mut(), &Position::default(), 20);
    assert_eq!(plies, 3);
    let reason = forfeit.expect("a forfeit");
    assert!(reason.contains("no `bestmove` within"), "{reason}");
    assert!(started.elapsed() < Duration::from_secs(5));
    // The hung process was killed; the next game starts a fresh one, which behaves for 3 plies.
    agent.new_game(1);
    let (forfeit, plies) = play(agent.as_mut(), &Position::default(), 20);
    assert_eq!(plies, 3);
    assert!(forfeit.is_some());
}

#[test]
fn a_crashing_engine_forfeits_and_its_stderr_is_kept() {
    let mut agent = build(&format!("ugi:cmd={STUB},arg=crash,arg=1"), 0).unwrap();
    let (forfeit, plies) = play(agent.as_mut(), &Position::default(), 20);
    assert_eq!(plies, 1);
    let reason = forfeit.expect("a forfeit");
    assert!(reason.contains("engine exited"), "{reason}");
    assert!(reason.contains("crashing on purpose"), "{reason}");

    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("engine.stderr");
    let spec = format!("ugi:cmd={STUB},arg=crash,stderr={}", log.display());
    let mut agent = build(&spec, 0).unwrap();
    assert!(play(agent.as_mut(), &Position::default(), 5).0.is_some());
    let kept = std::fs::read_to_string(&log).unwrap();
    assert!(kept.contains("crashing on purpose"), "{kept}");
}

#[test]
fn illegal_answers_and_missing_binaries_forfeit() {
    let mut agent = build(&format!("ugi:cmd={STUB},arg=illegal"), 0).unwrap();
    let reason = play(agent.as_mut(), &Position::default(), 5).0.unwrap();
    assert!(reason.contains("illegal move `a1a1`"), "{reason}");

    let mut agent = build("ugi:cmd=/nonexistent/engine", 0).unwrap();
    let reason = play(agent.as_mut(), &Position::default(), 5).0.unwrap();
    assert!(reason.contains("cannot start"), "{reason}");
}

/// A search of `position` whose stop flag another thread raises after `after` (never when
/// `None`); the decision and how long the search took.
fn stopped_search(
    agent: &mut dyn Agent<Position>,
    position: &Position,
    after: Option<Duration>,
) -> (Decision<pjlab_pijersi::Move>, Duration) {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let raiser = after.map(|after| {
        std::thread::spawn(move || {
            std::thread::sleep(after);
            flag.store(true, Ordering::Relaxed);
        })
    });
    let started = Instant::now();
    let mut control = Control {
        limits: None,
        stop,
        progress: &mut |_| {},
    };
    let decision = agent.search(position, &mut control);
    let took = started.elapsed();
    if let Some(raiser) = raiser {
        raiser.join().unwrap();
    }
    (decision, took)
}

#[test]
fn a_stopped_search_takes_the_engines_answer_to_stop() {
    // The engine answers its first `go`, then waits for `stop` on every later one.
    let spec = format!("ugi:cmd={STUB},arg=wait,arg=1,timeout=20s");
    let mut agent = build(&spec, 0).unwrap();
    let start = Position::default();
    let (first, _) = stopped_search(agent.as_mut(), &start, None);
    assert_eq!(first.best_move, Some(first_legal(&start)));
    let (decision, took) = stopped_search(agent.as_mut(), &start, Some(Duration::from_millis(100)));
    assert_eq!(decision.forfeit, None);
    assert_eq!(decision.best_move, Some(first_legal(&start)));
    assert!(took < Duration::from_secs(2), "answered after {took:?}");
}

#[test]
fn a_stopped_engine_that_does_not_answer_is_killed_and_a_fresh_one_is_started() {
    // The engine answers its first `go`, then hangs, deaf to `stop`.
    let spec = format!("ugi:cmd={STUB},arg=hang,arg=1,timeout=20s");
    let mut agent = build(&spec, 0).unwrap();
    let start = Position::default();
    let (first, _) = stopped_search(agent.as_mut(), &start, None);
    assert_eq!(first.best_move, Some(first_legal(&start)));
    let (decision, took) = stopped_search(agent.as_mut(), &start, Some(Duration::from_millis(100)));
    let reason = decision.forfeit.expect("a forfeit");
    assert!(
        reason.contains("no `bestmove` within 200 ms of `stop`"),
        "{reason}"
    );
    assert!(took < Duration::from_secs(2), "stopped after {took:?}");
    // The hung process was killed: a fresh one answers its first search at once.
    let (next, took) = stopped_search(agent.as_mut(), &start, None);
    assert_eq!(next.best_move, Some(first_legal(&start)));
    assert!(took < Duration::from_secs(5), "answered after {took:?}");
}
