//! Alpha-beta's nodes a second at a fixed depth with the hand-written evaluation and with a
//! network on tracked positions, on positions from seeded random games of Pijersi's classic and
//! half-random setups: `cargo run --release -p pjlab-nnue --example search_speed -- NET
//! [DEPTH] [WHICH]` (`WHICH`: some of `hand`, `nnue`, `quant` (the network in integers),
//! `refresh` and `diff`, comma-separated, or `all`; the default `hand,nnue`). `diff` measures
//! no speed: it compares the integer network's evaluation with the float one's on every
//! position of 200 seeded random games.
//! One line a measurement: name, depth, positions, nodes, wall-clock seconds, processor seconds
//! of the thread, nodes a second by each, and a checksum of the scores (equal checksums and
//! nodes: the same search).

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use pjlab_alphabeta::{Engine, Limits, Options};
use pjlab_core::{Game, Heuristic};
use pjlab_nnue::tracked::{Shared, Tracked, TrackedEval};
use pjlab_nnue::{NnueEval, QuantisedNetwork};
use pjlab_pijersi::{PijersiEval, PijersiFeatures, Position, Variant};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

/// Positions at plies 6 and 12 of 16 seeded random games, classic and half-random setups.
fn positions() -> Vec<Position> {
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

fn run<G: Game, H: Heuristic<G>>(name: &str, eval: H, positions: &[G], depth: u32) {
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

/// The largest and mean difference in centi-units between the integer and the float network's
/// evaluations, and how many are equal, on every position of 200 seeded random games.
fn diff(eval: &NnueEval<Position, PijersiEval>) {
    let float = Shared::new::<_, 32>(eval).expect("width 32");
    let quantised = Shared::quantised::<_, 32>(eval).expect("width 32, weights that fit");
    let q = quantised.network();
    let tracked_eval = TrackedEval::new(eval.clone());
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let (mut largest, mut total, mut equal, mut count) = (0i32, 0i64, 0u64, 0u64);
    let mut moves = Vec::new();
    for i in 0..200u64 {
        let variant = [Variant::Classic, Variant::HalfRandom][i as usize % 2];
        let mut a: Tracked<Position, 32> = Tracked::new(variant.setup(i), float.clone());
        let mut b: Tracked<Position, 32, QuantisedNetwork> =
            Tracked::new(variant.setup(i), quantised.clone());
        while a.outcome().is_none() {
            let d = (tracked_eval.evaluate(&a) - tracked_eval.evaluate(&b)).abs();
            largest = largest.max(d);
            total += i64::from(d);
            equal += u64::from(d == 0);
            count += 1;
            a.legal_moves(&mut moves);
            let mv = *moves.choose(&mut rng).unwrap();
            a.play_unchecked(mv);
            b.play_unchecked(mv);
        }
    }
    println!(
        "diff positions {count} largest {largest} mean {:.3} equal {equal} acc_scale {} w2_scale {}",
        total as f64 / count as f64,
        q.acc_scale,
        q.w2_scale
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args
        .get(1)
        .expect("usage: search_speed NET [DEPTH] [WHICH]");
    let depth = args.get(2).map_or(5, |d| d.parse().expect("a depth"));
    let which = args.get(3).map_or("hand,nnue", String::as_str);
    let which = |name: &str| which == "all" || which.split(',').any(|w| w == name);
    let (card, network) = pjlab_nnue::file::load(Path::new(path)).expect("a network file");
    let eval = NnueEval::new(
        &card,
        Arc::new(network),
        Arc::new(PijersiFeatures),
        PijersiEval::default(),
    )
    .expect("a network for pijersi");
    let positions = positions();
    if which("hand") {
        run("hand", PijersiEval::default(), &positions, depth);
    }
    if which("nnue") {
        assert_eq!(eval.network().hidden, 32, "tracked at width 32 only");
        let shared = Shared::new::<_, 32>(&eval).expect("width 32");
        let tracked: Vec<Tracked<Position, 32>> = positions
            .iter()
            .map(|p| Tracked::new(p.clone(), shared.clone()))
            .collect();
        run("nnue", TrackedEval::new(eval.clone()), &tracked, depth);
    }
    if which("quant") {
        let shared = Shared::quantised::<_, 32>(&eval).expect("width 32, weights that fit");
        let tracked: Vec<Tracked<Position, 32, QuantisedNetwork>> = positions
            .iter()
            .map(|p| Tracked::new(p.clone(), shared.clone()))
            .collect();
        run("quant", TrackedEval::new(eval.clone()), &tracked, depth);
    }
    if which("diff") {
        diff(&eval);
    }
    if which("refresh") {
        run("refresh", eval, &positions, depth);
    }
}
