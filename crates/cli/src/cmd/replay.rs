//! `pjlab replay`: read a game record and report where it ends.

use anyhow::{Context, Result, bail};
use pjlab_core::{Game, GameKit, Side};

use crate::cmd::game::{GameName, read_input, result_name, start};

/// Replay a game and check every move.
///
/// Pijersi: the rulebook notation (prologue optional). Abalone: Aba-Pro notation
/// (`1.a1b2 i5h5 2.a2b3 ...`) from the standard start, the start of `--variant`, or
/// `--position`. Prints the game as the lab writes it, then, as the last two lines, the final
/// position (PSN or position text) and the result: `white`, `black`, `draw` or `ongoing`. A game
/// whose record does not hold its start (Abalone, Chomp) is headed by a `start:` line, as
/// `pjlab play` heads it, so the output is itself a record `replay` and `show` read.
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
    if !K::RECORD_HOLDS_START {
        // The start the record is read from, so that this output replays as it is.
        println!("start: {}", start.to_text());
        println!();
    }
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
    let framed = unframe::<K>(text);
    if framed.body.trim().is_empty() {
        bail!("{file} holds no game");
    }
    let text = framed.body.as_str();
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
    } else if position.is_some() || variant.is_some() {
        start::<K>(position, variant, 0)?
    } else {
        start::<K>(framed.start.as_deref(), framed.variant.as_deref(), 0)
            .with_context(|| format!("the start {file} names"))?
    };
    let moves = K::parse_record(text, &start)
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("in {file}"))?;
    Ok((start, moves))
}

/// A record as `pjlab play` (and `replay`) frame it: the start and variant its header lines
/// name, and the record between the header and the final position and result.
#[derive(Debug, Default, PartialEq)]
pub struct Framed {
    /// The `start:` line's position text.
    pub start: Option<String>,
    /// The `variant:` line's variant.
    pub variant: Option<String>,
    /// The record itself.
    pub body: String,
}

/// Splits what `pjlab play` prints into its parts: the header (`KEY: VALUE` lines ended by a
/// blank line: `play`'s `white: SPEC`, `black: SPEC`, `variant: NAME` and `start: TEXT`,
/// `demo`'s `setup: ...`; only `start` and `variant` are read), the record, and the last two
/// lines (the final position and the result, which `pjlab replay` prints too). A text without
/// them is the record alone: no record line of a game's notation holds `": "`.
pub fn unframe<K: GameKit>(text: &str) -> Framed {
    let mut lines: Vec<&str> = text.lines().collect();
    let mut framed = Framed::default();
    let sides = [
        K::INFO.side_name(Side::First),
        K::INFO.side_name(Side::Second),
    ];
    let header_key = |line: &'_ str| -> Option<(String, String)> {
        let (key, value) = line.split_once(": ")?;
        Some((key.trim().to_string(), value.trim().to_string()))
    };
    let first = lines.iter().position(|l| !l.trim().is_empty());
    if let Some(first) = first.filter(|&k| header_key(lines[k]).is_some()) {
        let mut k = first;
        while k < lines.len() && !lines[k].trim().is_empty() {
            match header_key(lines[k]) {
                Some((key, value)) if key == "start" => framed.start = Some(value),
                Some((key, value)) if key == "variant" => framed.variant = Some(value),
                Some(_) => {}
                None => break,
            }
            k += 1;
        }
        lines.drain(..k);
    }
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    if let [.., last_position, result] = lines[..] {
        let results = [sides[0], sides[1], "draw", "ongoing"];
        if results.contains(&result.trim()) && K::Game::from_text(last_position.trim()).is_ok() {
            lines.truncate(lines.len() - 2);
        }
    }
    framed.body = lines.iter().map(|l| format!("{l}\n")).collect();
    framed
}
