//! `pjlab replay`: read a game record and report where it ends.

use anyhow::{Context, Result, bail};
use pjlab_core::{Game, GameKit};

use crate::cmd::game::{GameName, read_input, result_name, start};

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
    #[arg(long, value_parser = crate::cmd::game::game_arg(), default_value_t)]
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
    crate::with_game!(args.game, |K| replay::<K>(&args, &text))
}

/// Replays a record of a game of the registry: from the start the record holds (Pijersi), or
/// from the one `--position` and `--variant` give.
fn replay<K: GameKit>(args: &Args, text: &str) -> Result<()> {
    let (start, moves) = read_record::<K>(
        text,
        &args.file,
        args.position.as_deref(),
        args.variant.as_deref(),
    )?;
    print!("{}", K::write_record(&start, &moves));
    let mut last = start;
    for &mv in &moves {
        last.play_unchecked(mv);
    }
    println!("{}", last.to_text());
    println!("{}", result_name::<K>(last.outcome()));
    Ok(())
}

/// A game as a start and the moves played from it.
pub type Line<K> = (
    <K as GameKit>::Game,
    Vec<<<K as GameKit>::Game as pjlab_core::Game>::Move>,
);

/// A game record in the game's notation, read from `text` (which came from `file`): its start
/// (the one the record holds, or the one `position` and `variant` give) and its moves, each
/// checked. `pjlab replay` and `pjlab show` read records through this.
///
/// # Errors
/// When a start is given for a game whose records hold their own, or the record does not read
/// (naming the move number of an illegal move).
pub fn read_record<K: GameKit>(
    text: &str,
    file: &str,
    position: Option<&str>,
    variant: Option<&str>,
) -> Result<Line<K>> {
    let start = if K::RECORD_HOLDS_START {
        if variant.is_some() || position.is_some() {
            bail!(
                "--variant and --position are for --game {} (a {} record holds its setup)",
                GameName::names(|game| !crate::with_game!(game, |G| G::RECORD_HOLDS_START)),
                K::INFO.name
            );
        }
        K::record_start(text)
            .map_err(anyhow::Error::msg)
            .with_context(|| format!("in {file}"))?
    } else {
        start::<K>(position, variant, 0)?
    };
    let moves = K::parse_record(text, &start)
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("in {file}"))?;
    Ok((start, moves))
}
