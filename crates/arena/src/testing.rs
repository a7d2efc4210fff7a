//! Test support shared by the arena's unit tests.

use std::sync::atomic::AtomicBool;

use pjlab_pijersi::PijersiKit;

use crate::runner::Played;
use crate::schedule::{Opening, RunSpec};
use crate::{PlayOptions, play_games};

/// The games of `spec`'s part, played on one worker.
pub(crate) fn play(spec: &RunSpec) -> Vec<Played<PijersiKit>> {
    let factory = |s: &str, seed| {
        pjlab_agents::build::<PijersiKit>(s, seed).map_err(pjlab_core::BoxError::from)
    };
    let options = PlayOptions {
        workers: 1,
        opening: Opening {
            plies: spec.opening_plies,
            margin: None,
        },
        max_plies: spec.max_plies,
        seed: spec.seed,
        overrun_after: None,
    };
    let schedule = spec.shard_schedule::<PijersiKit>().unwrap();
    let mut games = Vec::new();
    let stop = AtomicBool::new(false);
    play_games::<PijersiKit>(
        &schedule,
        &spec.players,
        &factory,
        &options,
        &stop,
        &mut |g| {
            games.push(g);
        },
    )
    .unwrap();
    games
}
