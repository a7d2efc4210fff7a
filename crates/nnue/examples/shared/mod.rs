//! What the speed examples share: the positions, one timed search over them, and the network
//! file as an evaluation. Uses only what every version of the crates since the tracked
//! positions has, so that `scripts/bench-nnue.sh` builds it into an older commit too.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use pjlab_alphabeta::{Engine, Limits, Options};
use pjlab_core::{Game, Heuristic};
use pjlab_nnue::NnueEval;
use pjlab_pijersi::{PijersiEval, PijersiFeatures, Position, Variant};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

/// The arguments: the network file, the depth (5) and which measurements (`default`).
pub fn arguments(default: &str) -> (String, u32, String) {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).expect("usage: NET [DEPTH] [WHICH]").clone();
    let depth = args.get(2).map_or(5, |d| d.parse().expect("a depth"));
    let which = args.get(3).map_or(default, String::as_str).to_string();
    (path, depth, which)
}

/// Whether `name` is among the comma-separated `which` (or `which` is `all`).
pub fn wanted(which: &str, name: &str) -> bool {
    which == "all" || which.split(',').any(|w| w == name)
}

/// The network in `path` as an evaluation of Pijersi, over the hand-written one.
pub fn evaluation(path: &str) -> NnueEval<Position, PijersiEval> {
    let (card, network) = pjlab_nnue::file::load(Path::new(path)).expect("a network file");
    let eval = NnueEval::new(
        &card,
        Arc::new(network),
        Arc::new(PijersiFeatures),
        PijersiEval::default(),
    )
    .expect("a network for pijersi");
    assert_eq!(eval.network().hidden, 32, "tracked at width 32 only");
    eval
}

/// Positions at plies 6 and 12 of 16 seeded random games, classic and half-random setups.
pub fn positions() -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for i in 0..16u64 {
        let variant = if i % 2 == 0 {
            Variant::Classic
        } else {
            Variant::HalfRandom
        };
        let mut position = variant.setup(i);
        for ply in 0..=12 {
            if position.outcome().is_some() {
                break;
            }
            if ply == 6 || ply == 12 {
                out.push(position.clone());
            }
            position.legal_moves(&mut moves);
            position.play_unchecked(*moves.choose(&mut rng).unwrap());
        }
    }
    out
}

/// Nanoseconds this thread has run on a processor (Linux: `/proc/thread-self/schedstat`), which
/// a busy machine's other work does not inflate as it does the wall-clock time; `None` elsewhere.
fn cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Searches each of `positions` to `depth` with a fresh table and prints one line: `name`,
/// depth, positions, nodes, wall-clock and processor seconds, nodes a second by each, and a
/// checksum of the scores (equal checksums and nodes: the same search).
pub fn run<G: Game, H: Heuristic<G>>(name: &str, eval: H, positions: &[G], depth: u32) {
    let mut engine = Engine::new(eval, Options::default());
    let (mut nodes, mut checksum) = (0u64, 0i64);
    let (started, cpu_started) = (Instant::now(), cpu_ns());
    for position in positions {
        engine.clear();
        let result = engine.search(position, &Limits::depth(depth));
        nodes += result.nodes;
        checksum = checksum
            .wrapping_mul(31)
            .wrapping_add(i64::from(result.score));
    }
    let secs = started.elapsed().as_secs_f64();
    let cpu = cpu_ns()
        .zip(cpu_started)
        .map_or(secs, |(b, a)| (b - a) as f64 * 1e-9);
    println!(
        "{name} depth {depth} positions {} nodes {nodes} secs {secs:.3} cpu {cpu:.3} nps {:.0} \
         cpu_nps {:.0} checksum {checksum}",
        positions.len(),
        nodes as f64 / secs,
        nodes as f64 / cpu
    );
}
