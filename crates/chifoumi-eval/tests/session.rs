//! A run from its directory: a new run refuses a directory that holds one, a resume refuses a
//! run of another kind, and an interrupted session resumes to the records of a whole one.

use std::sync::atomic::{AtomicBool, Ordering};

use pjlab_chifoumi::{Player, Rules};
use pjlab_chifoumi_eval::record::Records;
use pjlab_chifoumi_eval::{RunKind, RunSpec, labels, session};

fn factory(spec: &str) -> Result<Box<dyn Player + Send>, pjlab_core::BoxError> {
    Ok(pjlab_chifoumi::parse_player(spec)?)
}

fn spec() -> RunSpec {
    let rules = Rules {
        games: 2,
        max_rounds: 30,
        ..Rules::default()
    };
    RunSpec {
        kind: RunKind::Tournament,
        players: labels(&["random".into(), "greedy".into(), "observer".into()]),
        matches: 4,
        seed: 3,
        rules,
        arena: None,
        sessions: Vec::new(),
    }
}

fn sorted(mut records: Records) -> Records {
    records.matches.sort_by_key(|m| m.spec.id);
    records
}

#[test]
fn an_interrupted_session_resumes_to_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let (whole, part) = (dir.path().join("whole"), dir.path().join("part"));
    for out in [&whole, &part] {
        std::fs::create_dir_all(out).unwrap();
    }
    let stop = AtomicBool::new(false);
    let mut records = session::open(&whole, RunKind::Tournament, Some(spec())).unwrap();
    session::play(&mut records, &whole, &factory, 2, &stop, &mut |_| {}).unwrap();
    assert_eq!(records.len(), session::scheduled(&records));

    let mut first = session::open(&part, RunKind::Tournament, Some(spec())).unwrap();
    // The stop is raised from the worker's side too, when it builds the players of its sixth
    // match (3 players checked first, then 2 a match): on a loaded machine the one worker can
    // otherwise finish every match before the progress callback below sees the fifth.
    let built = std::sync::atomic::AtomicUsize::new(0);
    let stopping_factory = |spec: &str| {
        if built.fetch_add(1, Ordering::SeqCst) + 1 > 3 + 2 * 5 {
            stop.store(true, Ordering::SeqCst);
        }
        factory(spec)
    };
    session::play(&mut first, &part, &stopping_factory, 1, &stop, &mut |r| {
        if r.len() == 5 {
            stop.store(true, Ordering::SeqCst);
        }
    })
    .unwrap();
    assert!(first.len() < session::scheduled(&first));
    let err = session::open(&part, RunKind::Tournament, Some(spec())).unwrap_err();
    assert!(err.to_string().contains("already holds a run"), "{err}");
    let err = session::open(&part, RunKind::Arena, None).unwrap_err();
    assert!(
        err.to_string()
            .contains("holds a tournament run, not a arena"),
        "{err}"
    );
    let stop = AtomicBool::new(false);
    let mut resumed = session::open(&part, RunKind::Tournament, None).unwrap();
    assert_eq!(resumed.len(), first.len());
    session::play(&mut resumed, &part, &factory, 2, &stop, &mut |_| {}).unwrap();
    assert_eq!(sorted(resumed), sorted(Records::read(&whole).unwrap()));
}
