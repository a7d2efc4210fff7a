//! The UGI client of `pjlab-agents` (the `ugi:` player) against this crate's stub engine, which
//! plays the first legal move of the position it was sent, and misbehaves on demand.

use std::time::{Duration, Instant};

use pjlab_agents::{Agent, History};
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
