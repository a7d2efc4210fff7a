//! The rulebook's game notation, as pijersi-certu writes and reads it.
//!
//! ```text
//!    g16:sprspr f13:prs f4:ww f57:rsp
//!    b13:PSR b4:WW b57:SRP a16:RPSRPS
//!
//!    1 a4-b5=c4             2 f4=d5-d4
//!    3 d3=c2!-b3!
//! ```
//!
//! Optional prologue lines describe the board (no prologue: the classic setup). Each item is
//! `label:pieces`: a cell (`b4`) or a row with a column range (`a16` = a1..a6), one letter per
//! single cube; a stack has its own cell label and is written top then bottom (`RW` = rock on
//! wise). Then numbered turns: `-` when a cube moves, `=` when a stack moves, `!` after a
//! capturing action. Review scores after a move (`+12`, `-5*`) are ignored.
//!
//! ```
//! use pjlab_pijersi::notation;
//! let game = notation::parse_game("1 a4-b5=c4 2 f4=d5-d4")?;
//! assert_eq!(game.moves.len(), 2);
//! assert_eq!(game.moves[0].to_string(), "a4b5c4");
//! # Ok::<(), pjlab_pijersi::Error>(())
//! ```

use crate::Error;
use crate::geometry::{Cell, ROW_LEN};
use crate::moves::{Move, MoveKind};
use crate::piece::{Color, Piece, Role};
use crate::position::{Position, Rules, Setup};
use crate::variants::classic;

/// A game read from notation: its start and its turns, each legal when played.
pub type GameRecord = pjlab_core::GameRecord<Position>;

/// The notation of one turn in `position`, e.g. `d3=c2!-b3!`.
pub fn move_notation(position: &Position, mv: Move) -> String {
    let opp = position.pieces(position.side_to_move().other());
    let mark = |cell: Cell| if opp & cell.bit() != 0 { "!" } else { "" };
    let (s, e) = (mv.start(), mv.end());
    match mv.kind() {
        MoveKind::Cube | MoveKind::Unstack => format!("{s}-{e}{}", mark(e)),
        MoveKind::Stack => format!("{s}={e}{}", mark(e)),
        MoveKind::CubeThenStack | MoveKind::UnstackThenStack => {
            let m = mv.middle().expect("double moves have a middle");
            format!("{s}-{m}={e}{}", mark(e))
        }
        MoveKind::StackThenCube => {
            let m = mv.middle().expect("double moves have a middle");
            format!("{s}={m}{}-{e}{}", mark(m), mark(e))
        }
    }
}

/// Reads one turn's notation in `position` and checks that it is legal there.
///
/// # Errors
/// [`Error::MoveText`] saying what is wrong with the token.
pub fn parse_move_notation(position: &Position, token: &str) -> Result<Move, Error> {
    parse_turn(position, token).map_err(|reason| Error::MoveText {
        text: token.to_string(),
        reason,
    })
}

/// [`parse_move_notation`], its error the reason alone (a record's line number goes before it).
fn parse_turn(position: &Position, token: &str) -> Result<Move, String> {
    let bytes = token.as_bytes();
    let cell_at = |i: usize| -> Result<Cell, String> {
        bytes
            .get(i..i + 2)
            .and_then(|b| Cell::from_bytes(b[0], b[1]))
            .ok_or_else(|| format!("expected a cell at position {} of {token:?}", i + 1))
    };
    let start = cell_at(0)?;
    let mut actions: Vec<(u8, Cell, bool)> = Vec::new();
    let mut i = 2;
    while i < bytes.len() {
        let sep = bytes[i];
        if sep != b'-' && sep != b'=' {
            return Err(format!(
                "expected '-' or '=' at position {} of {token:?}",
                i + 1
            ));
        }
        let cell = cell_at(i + 1)?;
        i += 3;
        let capture = bytes.get(i) == Some(&b'!');
        if capture {
            i += 1;
        }
        actions.push((sep, cell, capture));
    }
    let piece = position
        .piece_at(start)
        .filter(|p| p.color == position.side_to_move())
        .ok_or_else(|| format!("{token:?}: no piece of the side to move on {start}"))?;
    let stack = piece.is_stack();
    let mv = match actions.as_slice() {
        [(b'-', e, _)] if stack => Move::new(MoveKind::Unstack, start, start, *e),
        [(b'-', e, _)] => Move::new(MoveKind::Cube, start, *e, *e),
        [(_, e, _)] => Move::new(MoveKind::Stack, start, *e, *e),
        [(b'-', m, _), (b'=', e, _)] if stack => {
            Move::new(MoveKind::UnstackThenStack, start, *m, *e)
        }
        [(b'-', m, _), (b'=', e, _)] => Move::new(MoveKind::CubeThenStack, start, *m, *e),
        [(b'=', m, _), (b'-', e, _)] => Move::new(MoveKind::StackThenCube, start, *m, *e),
        [] => return Err(format!("{token:?} has no action")),
        [_, _] => {
            return Err(format!(
                "{token:?}: a turn's two actions are one '-' and one '='"
            ));
        }
        _ => return Err(format!("{token:?} has more than two actions")),
    };
    if !position.is_legal(mv) {
        return Err(format!("{token:?} is not legal in {position}"));
    }
    let opp = position.pieces(position.side_to_move().other());
    for &(_, cell, marked) in &actions {
        if marked && opp & cell.bit() == 0 {
            return Err(format!(
                "{token:?} marks a capture on {cell}, where nothing is taken"
            ));
        }
    }
    Ok(mv)
}

/// Parses a whole game: optional prologue lines, then numbered turns.
///
/// # Errors
/// [`Error::Notation`] with the line and the item that is wrong: a malformed label, a letter
/// count that does not match its label, a turn number out of sequence, an illegal move, a move
/// after the end of the game.
pub fn parse_game(text: &str) -> Result<GameRecord, Error> {
    let mut setup: Option<Setup> = None;
    let mut start: Option<Position> = None;
    let mut position = classic();
    let mut moves = Vec::new();
    let mut expected_turn = 1usize;
    let mut expect_move = false;
    let mut last_line = 0;
    for (k, line) in text.lines().enumerate() {
        let line_no = k + 1;
        last_line = line_no;
        let err = |reason: String| Error::Notation {
            line: line_no,
            reason,
        };
        let mut tokens = line.split_whitespace().peekable();
        let Some(first) = tokens.peek() else { continue };
        if first.contains(':') {
            if start.is_some() {
                return Err(err("a prologue line after the first turn".into()));
            }
            let setup = setup.get_or_insert_with(Setup::empty);
            for item in tokens {
                parse_prologue_item(setup, item).map_err(&err)?;
            }
            continue;
        }
        if start.is_none() {
            let initial = match &setup {
                Some(s) => Position::from_setup(s, Rules::EndOfTurn)
                    .map_err(|e| err(format!("the prologue's board: {e}")))?,
                None => classic(),
            };
            position = initial.clone();
            start = Some(initial);
        }
        for token in tokens {
            if expect_move {
                if let Some(outcome) = position.outcome() {
                    return Err(err(format!(
                        "turn {}: the game is already over ({outcome:?})",
                        expected_turn - 1
                    )));
                }
                let mv = parse_turn(&position, token)
                    .map_err(|why| err(format!("turn {}: {why}", expected_turn - 1)))?;
                position.play_unchecked(mv);
                moves.push(mv);
                expect_move = false;
            } else if is_score(token) && !moves.is_empty() {
                continue;
            } else {
                let number: usize = token.trim_end_matches('.').parse().map_err(|_| {
                    err(format!(
                        "expected turn number {expected_turn}, found {token:?}"
                    ))
                })?;
                if number != expected_turn {
                    return Err(err(format!(
                        "expected turn number {expected_turn}, found {number}"
                    )));
                }
                expected_turn += 1;
                expect_move = true;
            }
        }
    }
    if expect_move {
        return Err(Error::Notation {
            line: last_line,
            reason: format!("turn {} has no move", expected_turn - 1),
        });
    }
    let start = match (start, setup) {
        (Some(start), _) => start,
        (None, Some(s)) => {
            Position::from_setup(&s, Rules::EndOfTurn).map_err(|e| Error::Notation {
                line: last_line,
                reason: format!("the prologue's board: {e}"),
            })?
        }
        (None, None) => classic(),
    };
    Ok(GameRecord { start, moves })
}

/// `+12`, `-5*`: a review score, ignored on input.
fn is_score(token: &str) -> bool {
    let t = token.strip_suffix('*').unwrap_or(token);
    let digits = t.strip_prefix('+').or_else(|| t.strip_prefix('-'));
    digits.is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

fn parse_prologue_item(setup: &mut Setup, item: &str) -> Result<(), String> {
    let (label, letters) = item
        .split_once(':')
        .ok_or_else(|| format!("{item:?} is not label:pieces"))?;
    let lb = label.as_bytes();
    let row = match lb.first() {
        Some(b @ b'a'..=b'g') => (b - b'a') as usize,
        _ => {
            return Err(format!(
                "{item:?}: label {label:?} does not start with a row a..g"
            ));
        }
    };
    let col = |b: u8| -> Result<usize, String> {
        let c = b.wrapping_sub(b'1') as usize;
        if c < ROW_LEN[row] as usize {
            Ok(c)
        } else {
            Err(format!(
                "{item:?}: row {} has no column {}",
                lb[0] as char, b as char
            ))
        }
    };
    let (first, last) = match lb.len() {
        2 => (col(lb[1])?, col(lb[1])?),
        3 => (col(lb[1])?, col(lb[2])?),
        _ => {
            return Err(format!(
                "{item:?}: label {label:?} is not a cell or a column range"
            ));
        }
    };
    if first > last {
        return Err(format!("{item:?}: column range {label:?} runs backwards"));
    }
    let mut pieces: Vec<(Color, Role)> = Vec::new();
    for ch in letters.chars() {
        pieces.push(
            Role::from_letter(ch)
                .ok_or_else(|| format!("{item:?}: {ch:?} is not a piece letter"))?,
        );
    }
    let cells = last - first + 1;
    let place = |setup: &mut Setup, c: usize, piece: Piece| -> Result<(), String> {
        let cell = Cell::from_coords(row, c).expect("column checked");
        if setup.board[cell.index()].is_some() {
            return Err(format!("{item:?}: {cell} is described twice"));
        }
        setup.board[cell.index()] = Some(piece);
        Ok(())
    };
    if lb.len() == 2 && pieces.len() == 2 {
        let ((top_color, top), (color, bottom)) = (pieces[0], pieces[1]);
        if top_color != color {
            return Err(format!("{item:?}: a stack's cubes have one colour"));
        }
        return place(setup, first, Piece::stack(color, top, bottom));
    }
    if pieces.len() != cells {
        return Err(format!(
            "{item:?}: {label} names {cells} cell{} but {} letter{} follow",
            if cells == 1 { "" } else { "s" },
            pieces.len(),
            if pieces.len() == 1 { "" } else { "s" }
        ));
    }
    for (k, (color, role)) in pieces.into_iter().enumerate() {
        place(setup, first + k, Piece::cube(color, role))?;
    }
    Ok(())
}

/// The prologue describing `position`'s board: one line per non-empty row, g first; runs of
/// single cubes share a range label, stacks get their own cell label.
pub fn prologue(position: &Position) -> String {
    let mut lines = Vec::new();
    for row in (0..7).rev() {
        let mut items: Vec<String> = Vec::new();
        let mut run: Vec<(usize, Piece)> = Vec::new();
        let flush = |run: &mut Vec<(usize, Piece)>, items: &mut Vec<String>| {
            if let (Some(&(a, _)), Some(&(b, _))) = (run.first(), run.last()) {
                let row_char = (b'a' + row as u8) as char;
                let label = if a == b {
                    format!("{row_char}{}", a + 1)
                } else {
                    format!("{row_char}{}{}", a + 1, b + 1)
                };
                let letters: String = run.iter().map(|(_, p)| p.top.letter(p.color)).collect();
                items.push(format!("{label}:{letters}"));
            }
            run.clear();
        };
        for c in 0..ROW_LEN[row] as usize {
            let cell = Cell::from_coords(row, c).expect("on the board");
            match position.piece_at(cell) {
                None => flush(&mut run, &mut items),
                Some(p) if p.is_stack() => {
                    flush(&mut run, &mut items);
                    let bottom = p.bottom.expect("stack");
                    items.push(format!(
                        "{cell}:{}{}",
                        p.top.letter(p.color),
                        bottom.letter(p.color)
                    ));
                }
                Some(p) => run.push((c, p)),
            }
        }
        flush(&mut run, &mut items);
        if !items.is_empty() {
            lines.push(items.join(" "));
        }
    }
    lines.join("\n")
}

/// Writes a game in the rulebook's notation: the prologue (unless the start is the classic
/// board), a blank line, then two turns a line.
///
/// # Errors
/// [`Error::Notation`] if the start has Black to move or running counters (the notation cannot
/// say so), or a move is not legal where it is played.
pub fn write_game(start: &Position, moves: &[Move]) -> Result<String, Error> {
    let err = |reason: String| Error::Notation { line: 0, reason };
    if start.side_to_move() != Color::White || start.halfmove() != 0 || start.fullmove() != 1 {
        return Err(err(format!(
            "the rulebook notation starts with White to move and fresh counters, not {start}"
        )));
    }
    let mut out = String::new();
    if start.board_psn() != classic().board_psn() {
        out.push_str(&prologue(start));
        out.push_str("\n\n");
    }
    let mut position = start.clone();
    let mut line = String::new();
    for (k, &mv) in moves.iter().enumerate() {
        if !position.is_legal(mv) {
            return Err(err(format!(
                "turn {}: {mv} is not legal in {position}",
                k + 1
            )));
        }
        let cell = format!("{:>3} {}", k + 1, move_notation(&position, mv));
        if k % 2 == 0 {
            line = format!("{cell:<22}");
        } else {
            line.push_str(&cell);
            out.push_str(line.trim_end());
            out.push('\n');
            line.clear();
        }
        position.play_unchecked(mv);
    }
    if !line.is_empty() {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    Ok(out)
}
