//! Alpha-beta's nodes a second at a fixed depth with the hand-written evaluation and with a
//! network on tracked positions, on positions from seeded random games of Pijersi's classic and
//! half-random setups: `cargo run --release -p pjlab-nnue --example search_speed -- NET
//! [DEPTH] [WHICH]` (`WHICH`: some of `hand`, `nnue` (float accumulators carried by the
//! positions, as `eval=nnue:FILE`) and `refresh` (recomputed at each evaluation), comma-
//! separated, or `all`; the default `hand,nnue`). One line a measurement (see `shared::run`).
//! `search_speed_int` measures the network in integers.

mod shared;

use pjlab_nnue::tracked::{Shared, Tracked, TrackedEval};
use pjlab_pijersi::{PijersiEval, Position};

fn main() {
    let (path, depth, which) = shared::arguments("hand,nnue");
    let eval = shared::evaluation(&path);
    let positions = shared::positions();
    if shared::wanted(&which, "hand") {
        shared::run("hand", PijersiEval::default(), &positions, depth);
    }
    if shared::wanted(&which, "nnue") {
        let shared = Shared::new::<_, 32>(&eval).expect("width 32");
        let tracked: Vec<Tracked<Position, 32>> = positions
            .iter()
            .map(|p| Tracked::new(p.clone(), shared.clone()))
            .collect();
        shared::run("nnue", TrackedEval::new(eval.clone()), &tracked, depth);
    }
    if shared::wanted(&which, "refresh") {
        shared::run("refresh", eval, &positions, depth);
    }
}
