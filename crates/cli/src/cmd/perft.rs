//! `pjlab perft`: count move sequences, optionally split by first move.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::Result;
use pjlab_pijersi::perft::{divide, perft};
use pjlab_pijersi::{Move, Position, Rules};

use crate::Verbosity;

/// Count the move sequences of a given depth (a move is a whole turn; draws are ignored).
///
/// The last line of stdout is the leaf count alone. Timing goes to stderr.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Position in PSN (default: the classic start).
    #[arg(long)]
    psn: Option<String>,
    /// Number of plies (whole turns).
    #[arg(long, short)]
    depth: u32,
    /// Print each first move with its count (`a4b5c4: 186`) before the total.
    #[arg(long)]
    divide: bool,
    /// Use pijersi-rs's reading of the back-row win (a fighter passing over the back row wins).
    #[arg(long)]
    pass_through: bool,
    /// Threads sharing the first moves (1 = the single-thread figure `bench` reports).
    #[arg(long, short = 't', default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
}

/// perft split by first move, the first moves shared among `threads` threads.
fn parallel_divide(position: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    if depth == 0 || threads <= 1 || position.is_won() {
        return divide(position, depth);
    }
    // Same first moves, same order as `divide`: every move, draws ignored.
    let mut moves = Vec::new();
    position.generate_moves(&mut moves);
    let next = AtomicUsize::new(0);
    let counts: Vec<AtomicU64> = moves.iter().map(|_| AtomicU64::new(0)).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&mv) = moves.get(k) else { break };
                    counts[k].store(perft(&position.after(mv), depth - 1), Ordering::Relaxed);
                }
            });
        }
    });
    moves
        .into_iter()
        .zip(counts.into_iter().map(AtomicU64::into_inner))
        .collect()
}

/// Runs the command.
pub fn run(args: Args, verbosity: Verbosity) -> Result<()> {
    let position = match &args.psn {
        Some(psn) => Position::from_psn(psn)?,
        None => Position::default(),
    };
    let rules = if args.pass_through {
        Rules::PassThrough
    } else {
        Rules::EndOfTurn
    };
    let position = position.with_rules(rules);
    let started = Instant::now();
    let threads = args.threads as usize;
    let total = if args.divide {
        let mut total = 0;
        for (mv, count) in parallel_divide(&position, args.depth, threads) {
            println!("{mv}: {count}");
            total += count;
        }
        total
    } else if threads > 1 && args.depth > 1 {
        parallel_divide(&position, args.depth, threads)
            .iter()
            .map(|(_, n)| n)
            .sum()
    } else {
        perft(&position, args.depth)
    };
    let seconds = started.elapsed().as_secs_f64();
    if verbosity != Verbosity::Quiet {
        eprintln!(
            "perft({}) = {total} in {seconds:.3} s ({:.3e} leaves/s)",
            args.depth,
            total as f64 / seconds.max(1e-9)
        );
    }
    println!("{total}");
    Ok(())
}
