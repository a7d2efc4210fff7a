//! `pjlab replay`: read a game in the rulebook notation and report where it ends.

use std::io::Read;

use anyhow::{Context, Result};
use pjlab_core::{Outcome, Side};
use pjlab_pijersi::notation::{parse_game, write_game};

/// Replay a game written in the rulebook notation (prologue optional) and check every turn.
///
/// Prints the game as the lab writes it, then, as the last two lines, the final PSN and the
/// result: `white`, `black`, `draw` or `ongoing`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// File holding the game, or `-` for standard input.
    file: String,
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let text = if args.file == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("cannot read standard input")?;
        text
    } else {
        std::fs::read_to_string(&args.file).with_context(|| format!("cannot read {}", args.file))?
    };
    let game = parse_game(&text).with_context(|| format!("in {}", args.file))?;
    print!("{}", write_game(&game.start, &game.moves)?);
    let last = game.final_position();
    println!("{last}");
    println!("{}", result_name(last.outcome()));
    Ok(())
}

/// `white`, `black`, `draw` or `ongoing`.
pub fn result_name(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        Some(Outcome::Win(Side::First)) => "white",
        Some(Outcome::Win(Side::Second)) => "black",
        Some(Outcome::Draw) => "draw",
        None => "ongoing",
    }
}
