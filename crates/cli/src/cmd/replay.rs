//! `pjlab replay`: read a game record and report where it ends.

use anyhow::{Context, Result, bail};
use pjlab_core::{Outcome, Side};
use pjlab_pijersi::notation::{parse_game, write_game};

use crate::cmd::game::{GameName, abalone_start, read_input};

/// Replay a game and check every move.
///
/// Pijersi: the rulebook notation (prologue optional). Abalone: Aba-Pro notation
/// (`1.a1b2 i5h5 2.a2b3 ...`) from the standard start, the start of `--variant`, or
/// `--position`. Prints the game as the lab writes it, then, as the last two lines, the final
/// position (PSN or position text) and the result: `white`, `black`, `draw` or `ongoing`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// File holding the game, or `-` for standard input.
    file: String,
    /// The game.
    #[arg(long, value_enum, default_value_t)]
    game: GameName,
    /// Abalone variant: its start, or its rules for `--position`.
    #[arg(long)]
    variant: Option<String>,
    /// Abalone position text the game starts from.
    #[arg(long)]
    position: Option<String>,
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let text = read_input(&args.file)?;
    match args.game {
        GameName::Pijersi => {
            if args.variant.is_some() || args.position.is_some() {
                bail!(
                    "--variant and --position are for --game abalone (a pijersi record holds its setup)"
                );
            }
            let game = parse_game(&text).with_context(|| format!("in {}", args.file))?;
            print!("{}", write_game(&game.start, &game.moves)?);
            let last = game.final_position();
            println!("{last}");
            println!("{}", result_name(last.outcome()));
        }
        GameName::Abalone => {
            use pjlab_abalone::notation;
            let start = abalone_start(args.variant.as_deref(), args.position.as_deref())?;
            let game =
                notation::parse_game(&text, &start).with_context(|| format!("in {}", args.file))?;
            print!("{}", notation::write_game(&game.start, &game.moves)?);
            let last = game.final_position();
            println!("{last}");
            println!("{}", pjlab_abalone::result_name(last.outcome()));
        }
    }
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
