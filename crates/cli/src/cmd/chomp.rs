//! `pjlab chomp`: the exact Chomp solver.

use std::time::Instant;

use anyhow::{Context, Result};
use pjlab_chomp::Solver;

use crate::Verbosity;

/// Chomp, the exact small game that checks the learning machinery.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    /// Solve an m x n bar: its winning first moves (1-based row,col) and its P-position count.
    Solve {
        /// Bar size, rows x columns, e.g. 8x10 (at most 16x16).
        size: String,
        /// Print one JSON object: rows, cols, positions, p_positions, winning_moves.
        #[arg(long)]
        json: bool,
    },
}

/// Parses `8x10`.
pub fn parse_size(text: &str) -> Result<(usize, usize)> {
    let (m, n) = text
        .split_once('x')
        .context(format!("bar size {text:?} is not <rows>x<cols>"))?;
    let parse = |s: &str| {
        s.parse::<usize>()
            .with_context(|| format!("bar size {text:?}: {s:?} is not a number"))
    };
    Ok((parse(m)?, parse(n)?))
}

/// Runs the command.
pub fn run(args: Args, verbosity: Verbosity) -> Result<()> {
    let Command::Solve { size, json } = args.command;
    let (rows, cols) = parse_size(&size)?;
    let started = Instant::now();
    let solver = Solver::new(rows, cols)?;
    let seconds = started.elapsed().as_secs_f64();
    let moves = solver.winning_moves(&solver.full());
    if json {
        let object = serde_json::json!({
            "rows": rows,
            "cols": cols,
            "positions": solver.positions(),
            "p_positions": solver.p_positions(),
            "winning_moves": moves.iter().map(|&(r, c)| [r, c]).collect::<Vec<_>>(),
        });
        println!("{object}");
    } else {
        println!(
            "{rows}x{cols}: {} diagrams, {} P-positions",
            solver.positions(),
            solver.p_positions()
        );
        let list: Vec<String> = moves.iter().map(|(r, c)| format!("({r},{c})")).collect();
        println!(
            "winning first moves: {}",
            if list.is_empty() {
                "none".into()
            } else {
                list.join(" ")
            }
        );
    }
    if verbosity == Verbosity::Verbose || (verbosity == Verbosity::Normal && !json) {
        eprintln!("solved in {seconds:.2} s");
    }
    Ok(())
}
