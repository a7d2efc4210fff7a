//! Aba-Pro notation: moves (`a1b2`, `e6e8f6`, `pass`) and whole games (`1.a1b2 i5h5 2.a2b3 ...`).
//!
//! A move names only what the mover pushes: an in-line move is the trailing marble's cell and the
//! cell it moves to; a broadside is the two end cells of the moved line and where the first of
//! them goes (either end first when reading, the ends in notation order when writing). A game is
//! move numbers (`N.`, or `N...` before a White move that opens a record) and moves, with free
//! whitespace between tokens. The first number is the start position's move number (or 1, for a
//! record numbered from its own start); each later one is one more than the previous and stands
//! before a Black move. Numbers may be left out.

use std::fmt::Write;

use crate::Error;
use crate::geometry::{Cell, Direction};
use crate::moves::{Broadside, Move};
use crate::position::{Color, Position};

/// The direction from `from` to its neighbour `to`, if they are neighbours.
fn direction_between(from: Cell, to: Cell) -> Option<Direction> {
    Direction::ALL
        .into_iter()
        .find(|&d| from.step(d) == Some(to))
}

/// The cell named `part` (a slice of the move text `text`), or an error naming it.
fn cell_at(text: &str, part: &str) -> Result<Cell, Error> {
    Cell::parse(part).ok_or_else(|| Error::MoveText {
        text: text.to_string(),
        reason: format!("{part:?} is not a cell of the board (a1 to i9)"),
    })
}

/// Reads a move's text without a position: `pass`, 4 characters in-line, 6 characters broadside.
///
/// # Errors
/// [`Error::MoveText`] when the text is not a move of the notation (wrong length, cells off the
/// board, cells that are not neighbours, a broadside along its own line).
pub fn parse_move(text: &str) -> Result<Move, Error> {
    let fail = |reason: String| Error::MoveText {
        text: text.to_string(),
        reason,
    };
    if text.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    if !text.is_ascii() {
        return Err(fail(
            "expected ascii cell names such as a1b2 or e6e8f6".into(),
        ));
    }
    match text.len() {
        4 => {
            let (from, to) = (cell_at(text, &text[..2])?, cell_at(text, &text[2..])?);
            let dir = direction_between(from, to)
                .ok_or_else(|| fail(format!("{from} and {to} are not neighbours")))?;
            Ok(Move::Inline {
                trailing: from,
                dir,
            })
        }
        6 => {
            let (a, b, to) = (
                cell_at(text, &text[..2])?,
                cell_at(text, &text[2..4])?,
                cell_at(text, &text[4..])?,
            );
            let (first, last) = (a.min(b), a.max(b));
            let (axis, len) = Direction::AXES
                .into_iter()
                .find_map(|axis| {
                    let one = first.step(axis)?;
                    if one == last {
                        return Some((axis, 2));
                    }
                    (one.step(axis)? == last).then_some((axis, 3))
                })
                .ok_or_else(|| {
                    fail(format!(
                        "the ends {a} and {b} are not 1 or 2 cells apart on a line"
                    ))
                })?;
            let dir = direction_between(a, to)
                .ok_or_else(|| fail(format!("{to} is not a neighbour of {a}")))?;
            if dir.axis() == axis.axis() {
                return Err(fail(format!(
                    "{a} to {to} runs along the line {first}-{last}: an in-line move is written with its trailing marble and 4 characters"
                )));
            }
            if !crate::action::broadside_fits(first, axis, len, dir) {
                return Err(fail(format!(
                    "the line {first}-{last} moved {} leaves the board",
                    dir.name()
                )));
            }
            Ok(Move::Broadside(Broadside {
                first,
                axis,
                len,
                dir,
            }))
        }
        n => Err(fail(format!(
            "{n} characters; a move is 4 (in-line, a1b2), 6 (broadside, e6e8f6) or pass"
        ))),
    }
}

impl Position {
    /// Reads a move in Aba-Pro notation and checks it is legal here.
    ///
    /// # Errors
    /// [`Error::MoveText`] for text that is no move, [`Error::IllegalMove`] (with the rule that
    /// refuses it) for a move the position does not allow.
    pub fn parse_move(&self, text: &str) -> Result<Move, Error> {
        let mv = parse_move(text)?;
        match self.why_illegal(mv) {
            None => Ok(mv),
            Some(reason) => Err(Error::IllegalMove {
                mv: text.to_string(),
                reason,
                position: self.to_string(),
            }),
        }
    }
}

/// A game read from Aba-Pro notation: where it starts and the moves played, each legal where
/// it is played.
pub type GameRecord = pjlab_core::GameRecord<Position>;

/// The tokens of a text with their 1-based line and column.
fn tokens(text: &str) -> impl Iterator<Item = (usize, usize, &str)> {
    text.lines().enumerate().flat_map(|(l, line)| {
        let mut out = Vec::new();
        let mut start = None;
        for (i, ch) in line
            .char_indices()
            .chain(std::iter::once((line.len(), ' ')))
        {
            match (ch.is_whitespace(), start) {
                (false, None) => start = Some(i),
                (true, Some(s)) => {
                    let column = line[..s].chars().count() + 1;
                    out.push((l + 1, column, &line[s..i]));
                    start = None;
                }
                _ => {}
            }
        }
        out
    })
}

/// Splits a leading move number off a token: `12.` -> (12, false, ""), `3...e5e6` -> (3, true,
/// "e5e6"). `None` if the token does not start with digits followed by dots.
fn move_number(token: &str) -> Option<Result<(u64, bool, &str), String>> {
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return None;
    }
    let rest = &token[digits..];
    let dots = rest.len() - rest.trim_start_matches('.').len();
    if dots == 0 {
        return None;
    }
    if dots != 1 && dots != 3 {
        return Some(Err(format!(
            "{token:?}: a move number is followed by one dot (or three before a White move)"
        )));
    }
    match token[..digits].parse() {
        Ok(n) => Some(Ok((n, dots == 3, &rest[dots..]))),
        Err(_) => Some(Err(format!("{token:?}: move number too large"))),
    }
}

/// Reads a game in Aba-Pro notation played from `start`, checking every move.
///
/// # Errors
/// [`Error::Game`] with the line and column of the first token that is not a move number or a
/// legal move, or of a move number out of sequence.
pub fn parse_game(text: &str, start: &Position) -> Result<GameRecord, Error> {
    let mut position = start.clone();
    let mut moves = Vec::new();
    let mut last_number: Option<u64> = None;
    for (line, column, token) in tokens(text) {
        let fail = |reason: String| Error::Game {
            line,
            column,
            reason,
        };
        let mut mv_text = token;
        if let Some(number) = move_number(token) {
            let (n, ellipsis, rest) = number.map_err(fail)?;
            let mover = position.color_to_move();
            match last_number {
                None if ellipsis && mover != Color::White => {
                    return Err(fail(format!(
                        "{token:?}: \"{n}...\" announces a White move but Black is to move"
                    )));
                }
                None if n != 1 && n != u64::from(position.move_number()) => {
                    return Err(fail(format!(
                        "the record starts at move {n} but the position is at move {}",
                        position.move_number()
                    )));
                }
                None => {}
                Some(_) if ellipsis => {
                    return Err(fail(format!(
                        "{token:?}: \"...\" may only open a record that starts with White to move"
                    )));
                }
                Some(previous) if n != previous + 1 => {
                    return Err(fail(format!(
                        "move number {n} after move number {previous}"
                    )));
                }
                Some(_) if mover != Color::Black => {
                    return Err(fail(format!(
                        "move number {n} before White has played move {}",
                        n - 1
                    )));
                }
                Some(_) => {}
            }
            last_number = Some(n);
            if rest.is_empty() {
                continue;
            }
            mv_text = rest;
        }
        if position.outcome().is_some() {
            return Err(fail(format!(
                "{mv_text:?} after the end of the game ({})",
                crate::result_name(position.outcome())
            )));
        }
        let mv = position.parse_move(mv_text).map_err(|e| {
            let what = match e {
                Error::IllegalMove { reason, .. } => format!("illegal move {mv_text:?}: {reason}"),
                other => other.to_string(),
            };
            fail(format!(
                "move {} ({}, seat {}): {what}",
                position.move_number(),
                position.color_to_move().name(),
                position.seat().index()
            ))
        })?;
        position.play_unchecked(mv);
        moves.push(mv);
    }
    Ok(GameRecord {
        start: start.clone(),
        moves,
    })
}

/// Writes a game in Aba-Pro notation, one move number a line: `1.a1b2 i5h5`, and `1... i5h5`
/// first when White moves first. In doubles a number covers one Black seat's move and the White
/// seat's move after it.
///
/// # Errors
/// [`Error::IllegalMove`] if a move is not legal where it is played.
pub fn write_game(start: &Position, moves: &[Move]) -> Result<String, Error> {
    let mut out = String::new();
    let mut position = start.clone();
    for (k, &mv) in moves.iter().enumerate() {
        let text = mv.to_string();
        let number = position.move_number();
        match position.color_to_move() {
            Color::Black => {
                if k > 0 {
                    out.push('\n');
                }
                write!(out, "{number}.{text}").expect("string");
            }
            Color::White if k == 0 => write!(out, "{number}... {text}").expect("string"),
            Color::White => write!(out, " {text}").expect("string"),
        }
        position.play(mv)?;
    }
    if !moves.is_empty() {
        out.push('\n');
    }
    Ok(out)
}
