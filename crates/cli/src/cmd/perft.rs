//! `pjlab perft`: count move sequences, optionally split by first move.

use std::time::Instant;

use anyhow::Result;
use pjlab_pijersi::perft::{divide, perft};
use pjlab_pijersi::{Position, Rules};

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
    let total = if args.divide {
        let mut total = 0;
        for (mv, count) in divide(&position, args.depth) {
            println!("{mv}: {count}");
            total += count;
        }
        total
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
