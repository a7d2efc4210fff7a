//! A game's positions as the API speaks of them: a start (a position text, or a variant and a
//! seed) and moves played from it, each checked by the game's rules; the answers built from one.

use pjlab_core::{Game, GameKit, Outcome, SetupVariant, Side};
use serde_json::{Value, json};

use crate::ApiError;

/// The longest position text or record the API reads, in bytes.
pub const MAX_TEXT: usize = 16 * 1024;
/// The most moves a request may play from its start.
pub const MAX_MOVES: usize = 2_000;

/// Where a request's position stands: `position` (a position text) or `variant`
/// and `seed` (a variant's start; the game's first variant by default), then `moves` from it.
#[derive(Clone, Debug, Default)]
pub struct PositionRequest {
    /// A position text (Pijersi: PSN).
    pub position: Option<String>,
    /// A setup variant: its start, or its rules for `position`.
    pub variant: Option<String>,
    /// The seed of a random variant's start.
    pub seed: Option<u64>,
    /// Moves played from the start, in the game's move notation.
    pub moves: Vec<String>,
}

/// A start and the checked moves from it.
pub struct Line<K: GameKit> {
    /// The start.
    pub start: K::Game,
    /// The moves, each legal where it was played.
    pub moves: Vec<<K::Game as Game>::Move>,
    /// The position after them.
    pub position: K::Game,
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError::Bad(message.into())
}

/// The start a request names.
pub fn start<K: GameKit>(req: &PositionRequest) -> Result<K::Game, ApiError> {
    let variant = match &req.variant {
        Some(name) => Some(K::variant(name).map_err(|e| bad(e.to_string()))?),
        None => None,
    };
    match &req.position {
        Some(text) => {
            if text.len() > MAX_TEXT {
                return Err(bad(format!("position text over {MAX_TEXT} bytes")));
            }
            let position =
                K::Game::from_text(text.trim()).map_err(|e| bad(format!("bad position: {e}")))?;
            match variant {
                Some(v) => v.adopt(position).map_err(|e| bad(e.to_string())),
                None => Ok(position),
            }
        }
        None => Ok(variant
            .unwrap_or_else(|| K::variants()[0])
            .start(req.seed.unwrap_or(0))),
    }
}

/// The request's start and moves, each move checked against the rules.
pub fn line<K: GameKit>(req: &PositionRequest) -> Result<Line<K>, ApiError> {
    if req.moves.len() > MAX_MOVES {
        return Err(bad(format!("more than {MAX_MOVES} moves")));
    }
    let start = start::<K>(req)?;
    let mut position = start.clone();
    let mut moves = Vec::with_capacity(req.moves.len());
    for (k, text) in req.moves.iter().enumerate() {
        if position.outcome().is_some() {
            return Err(bad(format!(
                "move {} ({text}) after the end of the game",
                k + 1
            )));
        }
        let mv = position
            .parse_move(text)
            .map_err(|e| bad(format!("move {} ({text}): {e}", k + 1)))?;
        position
            .play(mv)
            .map_err(|e| bad(format!("move {} ({text}): {e}", k + 1)))?;
        moves.push(mv);
    }
    Ok(Line {
        start,
        moves,
        position,
    })
}

/// The legal moves of `position` in the game's notation (none once it is over).
pub fn legal_texts<G: Game>(position: &G) -> Vec<String> {
    let mut moves = Vec::new();
    if position.outcome().is_none() {
        position.legal_moves(&mut moves);
    }
    moves.iter().map(|&mv| position.move_to_text(mv)).collect()
}

/// The cells a move's text names, in order (`a4b5c4`: a4, b5, c4): what a board click selects.
pub fn cells_of(text: &str) -> Vec<String> {
    // Chomp: the square `row,col` itself.
    if let Some((r, c)) = text.split_once(',')
        && !r.is_empty()
        && !c.is_empty()
        && r.chars().chain(c.chars()).all(|ch| ch.is_ascii_digit())
    {
        return vec![text.to_string()];
    }
    let bytes = text.as_bytes();
    let mut cells = Vec::new();
    let mut i = 0;
    while i + 1 < bytes.len() {
        if bytes[i].is_ascii_alphabetic() && bytes[i + 1].is_ascii_digit() {
            let mut j = i + 1;
            while j < bytes.len() && bytes[j].is_ascii_digit() {
                j += 1;
            }
            cells.push(text[i..j].to_ascii_lowercase());
            i = j;
        } else {
            i += 1;
        }
    }
    cells
}

/// `outcome` in words: the winning side's name, `draw`, or `null` while the game goes on.
pub fn result_word<K: GameKit>(outcome: Option<Outcome>) -> Value {
    match outcome {
        Some(Outcome::Win(side)) => json!(K::INFO.side_name(side)),
        Some(Outcome::Draw) => json!("draw"),
        None => Value::Null,
    }
}

/// The game as a record `pjlab replay` reads: the game's notation, headed by a `start:` line
/// when the notation does not hold its start.
pub fn record<K: GameKit>(start: &K::Game, moves: &[<K::Game as Game>::Move]) -> String {
    let mut out = String::new();
    if !K::RECORD_HOLDS_START {
        out.push_str(&format!("start: {}\n\n", start.to_text()));
    }
    out.push_str(&K::write_record(start, moves));
    out
}

/// A start and the moves played from it.
pub type Played<K> = (
    <K as GameKit>::Game,
    Vec<<<K as GameKit>::Game as Game>::Move>,
);

/// Reads a record in the game's notation (a `start:` line first where the notation does not
/// hold its start, else the request's start), checking every move.
pub fn read_record<K: GameKit>(text: &str, req: &PositionRequest) -> Result<Played<K>, ApiError> {
    if text.len() > MAX_TEXT {
        return Err(bad(format!("record over {MAX_TEXT} bytes")));
    }
    if K::RECORD_HOLDS_START {
        let start = K::record_start(text).map_err(|e| bad(e.to_string()))?;
        let moves = K::parse_record(text, &start).map_err(|e| bad(e.to_string()))?;
        return Ok((start, moves));
    }
    let trimmed = text.trim_start();
    let (start, body) = match trimmed.strip_prefix("start:") {
        Some(rest) => {
            let (line, body) = rest.split_once('\n').unwrap_or((rest, ""));
            let req = PositionRequest {
                position: Some(line.trim().to_string()),
                ..req.clone()
            };
            (self::start::<K>(&req)?, body)
        }
        None => (self::start::<K>(req)?, trimmed),
    };
    let moves = K::parse_record(body, &start).map_err(|e| bad(e.to_string()))?;
    if moves.len() > MAX_MOVES {
        return Err(bad(format!("more than {MAX_MOVES} moves")));
    }
    Ok((start, moves))
}

/// Everything the page shows of a line: the position, whose turn, the legal moves with their
/// cells, the board, the moves played, the record, the result.
pub fn state_json<K: GameKit>(line: &Line<K>) -> Value {
    let position = &line.position;
    let last = line.moves.last().map(|&mv| {
        let mut before = line.start.clone();
        for &m in &line.moves[..line.moves.len() - 1] {
            before.play_unchecked(m);
        }
        (before, mv)
    });
    let svg = K::board_svg(position, last.as_ref().map(|(p, m)| (p, *m)));
    let legal: Vec<Value> = legal_texts(position)
        .into_iter()
        .map(|text| json!({ "move": text, "cells": cells_of(&text) }))
        .collect();
    let side = position.side_to_move();
    json!({
        "game": K::INFO.name,
        "start": line.start.to_text(),
        "position": position.to_text(),
        "moves": line.start.line_to_text(&line.moves),
        "side_to_move": K::INFO.side_name(side),
        "first_to_move": side == Side::First,
        "seat": position.seat(),
        "seats": position.seats(),
        "legal": legal,
        "over": position.outcome().is_some(),
        "result": result_word::<K>(position.outcome()),
        "svg": svg,
        "record": record::<K>(&line.start, &line.moves),
    })
}

/// The game's variants and sides, for the page's menus.
pub fn info_json<K: GameKit>() -> Value {
    let variants: Vec<String> = K::variants().iter().map(|v| v.to_string()).collect();
    json!({
        "name": K::INFO.name,
        "sides": K::INFO.sides,
        "variants": variants,
        "record_holds_start": K::RECORD_HOLDS_START,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_of_moves_in_both_notations() {
        assert_eq!(cells_of("a4b5c4"), ["a4", "b5", "c4"]);
        assert_eq!(cells_of("a1a1b2"), ["a1", "a1", "b2"]);
        assert_eq!(cells_of("e6e8f6"), ["e6", "e8", "f6"]);
        assert_eq!(cells_of("pass"), Vec::<String>::new());
        assert_eq!(cells_of("3,4"), ["3,4"]);
        assert_eq!(cells_of("3,"), Vec::<String>::new());
    }
}
