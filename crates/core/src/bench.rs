//! What a game's rules bench gives `pjlab bench`: named figures, and the few helpers every
//! game's bench shares (timing, seeded random positions).
//!
//! A game's crate measures its own hot paths in a `bench` module (perft from its starts, move
//! generation, copy-make play and counting over [`random_positions`]) and hands the figures to
//! the lab through [`GameKit::rules_bench`](crate::GameKit::rules_bench) and
//! [`GameKit::solver_bench`](crate::GameKit::solver_bench). Timed figures change from run to
//! run; counts (perft leaves, moves over the bench positions) are signatures that must not.

use std::hint::black_box;
use std::time::Instant;

use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use crate::Game;

/// One named figure of a bench.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// The figure's name, unique over the whole bench (`perft4_leaves`,
    /// `abalone_movegen_moves_per_second`).
    pub name: &'static str,
    /// Its value.
    pub value: f64,
    /// Its unit (`s`, `leaves`, `moves/s`).
    pub unit: &'static str,
}

impl Figure {
    /// A figure.
    pub fn new(name: &'static str, value: f64, unit: &'static str) -> Figure {
        Figure { name, value, unit }
    }
}

/// How a game's bench runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BenchOptions {
    /// Timed runs per figure; the median is reported.
    pub repeat: usize,
    /// Whether to say on stderr what is being measured.
    pub chatty: bool,
    /// Whether to run the game's slowest rules figure where the bench may skip it (Pijersi's
    /// perft(4), which `pjlab bench --no-perft` skips).
    pub perft: bool,
}

impl BenchOptions {
    /// Prints `text` on stderr when the bench is chatty.
    pub fn say(&self, text: &str) {
        if self.chatty {
            eprintln!("{text}");
        }
    }
}

/// The median of the runs (of a non-empty list).
fn median(mut runs: Vec<f64>) -> f64 {
    runs.sort_by(f64::total_cmp);
    runs[runs.len() / 2]
}

/// Runs `f` `repeat` times (at least once): the median time in seconds and the last result.
pub fn timed<T>(repeat: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut seconds = Vec::new();
    let mut last = None;
    for _ in 0..repeat.max(1) {
        let started = Instant::now();
        last = Some(black_box(f()));
        seconds.push(started.elapsed().as_secs_f64());
    }
    (median(seconds), last.expect("at least one run"))
}

/// The positions met in random games, one from each of `starts`, of at most `plies` uniformly
/// random legal moves drawn from one `ChaCha8Rng` seeded with `seed`: every position before a
/// move, in order. Equal arguments give equal positions on every machine.
pub fn random_positions<G: Game>(
    seed: u64,
    starts: impl IntoIterator<Item = G>,
    plies: usize,
) -> Vec<G> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    for mut position in starts {
        for _ in 0..plies {
            position.legal_moves(&mut moves);
            let Some(&mv) = moves.choose(&mut rng) else {
                break;
            };
            positions.push(position.clone());
            position.play_unchecked(mv);
        }
    }
    positions
}

/// The legal moves of each of `positions`.
pub fn legal_lists<G: Game>(positions: &[G]) -> Vec<Vec<G::Move>> {
    positions
        .iter()
        .map(|p| {
            let mut moves = Vec::new();
            p.legal_moves(&mut moves);
            moves
        })
        .collect()
}

/// The names a game gives the figures of [`rules_rates`].
#[derive(Clone, Copy, Debug)]
pub struct RateNames {
    /// Moves generated per second.
    pub movegen: &'static str,
    /// Moves played (copy-make) per second.
    pub play: &'static str,
    /// Positions counted in bulk per second.
    pub count: &'static str,
    /// The moves counted over the positions: the signature that must not change.
    pub signature: &'static str,
    /// The size of a move, in bytes.
    pub move_bytes: &'static str,
    /// The size of a position, in bytes.
    pub position_bytes: &'static str,
}

/// Move generation, copy-make play of every legal move and bulk counting over `positions`,
/// `rounds` passes a timed run, the median of `repeat` runs (see [`timed`]): three rates, the
/// signature, and the sizes of a move and a position. `probe` reads a played child (so that play is not optimised away);
/// `count_moves` is the game's bulk count of a position's legal moves.
pub fn rules_rates<G: Game>(
    positions: &[G],
    rounds: usize,
    repeat: usize,
    names: RateNames,
    probe: impl Fn(&G) -> u64,
    count_moves: impl Fn(&G) -> u64,
) -> Vec<Figure> {
    let lists = legal_lists(positions);
    let total_moves: usize = lists.iter().map(Vec::len).sum();
    let mut buffer = Vec::with_capacity(256);
    let (seconds, generated) = timed(repeat, || {
        let mut n = 0;
        for _ in 0..rounds {
            for p in positions {
                black_box(p).legal_moves(&mut buffer);
                n += buffer.len();
            }
        }
        n
    });
    let mut figures = vec![Figure::new(
        names.movegen,
        generated as f64 / seconds,
        "moves/s",
    )];
    let (seconds, played) = timed(repeat, || {
        let mut n = 0u64;
        for _ in 0..rounds {
            for (p, moves) in positions.iter().zip(&lists) {
                for &mv in moves {
                    let mut child = p.clone();
                    child.play_unchecked(black_box(mv));
                    n += probe(black_box(&child)) & 1;
                }
            }
        }
        n
    });
    black_box(played);
    figures.push(Figure::new(
        names.play,
        (total_moves * rounds) as f64 / seconds,
        "moves/s",
    ));
    let (seconds, counted) = timed(repeat, || {
        let mut n = 0;
        for _ in 0..rounds {
            for p in positions {
                n += count_moves(black_box(p));
            }
        }
        n
    });
    figures.push(Figure::new(
        names.count,
        (positions.len() * rounds) as f64 / seconds,
        "positions/s",
    ));
    figures.push(Figure::new(
        names.signature,
        (counted / rounds as u64) as f64,
        "moves",
    ));
    figures.push(Figure::new(
        names.move_bytes,
        std::mem::size_of::<G::Move>() as f64,
        "bytes",
    ));
    figures.push(Figure::new(
        names.position_bytes,
        std::mem::size_of::<G>() as f64,
        "bytes",
    ));
    figures
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_is_the_middle_run() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 3.0, 2.0]), 3.0);
        let (_, last) = timed(0, || 7);
        assert_eq!(last, 7);
    }
}
