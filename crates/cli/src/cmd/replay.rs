//! `pjlab replay`: read a game record and report where it ends.

use anyhow::{Context, Result, bail};
use pjlab_core::{Outcome, Side};
use pjlab_pijersi::notation::{parse_game, write_game};

use crate::cmd::game::{GameName, read_input, start};
use pjlab_core::{Game, GameKit};

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
    /// Variant (Abalone, Chomp): its start, or its rules for `--position`.
    #[arg(long)]
    variant: Option<String>,
    /// Position text the game starts from (Abalone, Chomp).
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
        other => crate::with_game!(other, |K| replay::<K>(&args, &text))?,
    }
    Ok(())
}

/// Replays a record of any game of the registry but Pijersi (whose record holds its setup).
fn replay<K: GameKit>(args: &Args, text: &str) -> Result<()> {
    let start = start::<K>(args.position.as_deref(), args.variant.as_deref(), 0)?;
    let moves = K::parse_record(text, &start)
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("in {}", args.file))?;
    print!("{}", K::write_record(&start, &moves));
    let mut last = start;
    for &mv in &moves {
        last.play_unchecked(mv);
    }
    println!("{}", last.to_text());
    println!("{}", crate::cmd::game::result_name::<K>(last.outcome()));
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
