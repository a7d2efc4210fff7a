//! The position text of the spec.
//!
//! Rows from I (top) down to A, separated by `/`; in each row the cells from the lowest diagonal
//! up: `b` Black, `w` White (in doubles `b` seat 0, `w` seat 1, `d` seat 2, `x` seat 3), a digit
//! 1-9 for a run of empty cells. Then:
//! - two players: the side to move (`b` or `w`), marbles Black has ejected, marbles White has
//!   ejected, plies since the last ejection, the move number;
//! - doubles: the seat to move (`0`-`3`), the junction flags (`-` or `b`, `-` or `w`), then the
//!   same four counters.
//!
//! Rules that differ from the defaults follow as `key=value` tokens (decided here, so that a
//! position alone decides its future): `order=0321` (doubles seat order), `draw=N` or
//! `draw=none` (plies without an ejection that draw; default 100), `maxplies=N` (ply cap; default
//! none). The standard start is `wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b 0 0 0 1`.

use std::fmt::Write;

use crate::Error;
use crate::geometry::Cell;
use crate::position::{
    Color, DEFAULT_NO_EJECTION_PLIES, Mode, Position, Rules, Seat, SeatOrder, Setup,
};

/// Cells of each row, A..I.
const ROW_LEN: [usize; 9] = [5, 6, 7, 8, 9, 8, 7, 6, 5];
/// Lowest diagonal (0-based) of each row, A..I.
const ROW_FIRST: [usize; 9] = [0, 0, 0, 0, 0, 1, 2, 3, 4];

/// The letter of a marble of `seat` in a position of `mode`.
fn marble_char(seat: Seat, mode: Mode) -> char {
    match (mode, seat.index()) {
        (Mode::TwoPlayers, 0) | (Mode::Doubles(_), 0) => 'b',
        (Mode::TwoPlayers, _) | (Mode::Doubles(_), 1) => 'w',
        (Mode::Doubles(_), 2) => 'd',
        _ => 'x',
    }
}

/// Writes the position text.
pub fn to_text(position: &Position) -> String {
    let rules = position.rules();
    let mut out = String::with_capacity(64);
    for row in (0..9).rev() {
        let mut empty = 0;
        for k in 0..ROW_LEN[row] {
            let cell = Cell::from_coords(row, ROW_FIRST[row] + k).expect("on the board");
            match position.seat_at(cell) {
                None => empty += 1,
                Some(seat) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(marble_char(seat, rules.mode));
                }
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if row > 0 {
            out.push('/');
        }
    }
    let counters = format!(
        "{} {} {} {}",
        position.ejected(Color::Black),
        position.ejected(Color::White),
        position.quiet_plies(),
        position.move_number()
    );
    match rules.mode {
        Mode::TwoPlayers => {
            let side = match position.color_to_move() {
                Color::Black => 'b',
                Color::White => 'w',
            };
            write!(out, " {side} {counters}").expect("string");
        }
        Mode::Doubles(order) => {
            let flag = |c: Color, ch: char| if position.junction(c) { ch } else { '-' };
            write!(
                out,
                " {} {} {} {counters}",
                position.seat().index(),
                flag(Color::Black, 'b'),
                flag(Color::White, 'w')
            )
            .expect("string");
            if order == SeatOrder::CounterClockwise {
                out.push_str(" order=0321");
            }
        }
    }
    match rules.no_ejection_plies {
        Some(DEFAULT_NO_EJECTION_PLIES) => {}
        Some(n) => write!(out, " draw={n}").expect("string"),
        None => out.push_str(" draw=none"),
    }
    if let Some(n) = rules.max_plies {
        write!(out, " maxplies={n}").expect("string");
    }
    out
}

/// Reads a position text into an unvalidated [`Setup`].
///
/// # Errors
/// [`Error::PositionText`] saying what is wrong and where.
pub fn parse_setup(text: &str) -> Result<Setup, Error> {
    let fail = |reason: String| Error::PositionText {
        text: text.to_string(),
        reason,
    };
    let mut tokens = text.split_whitespace();
    let board = tokens.next().ok_or_else(|| fail("empty text".into()))?;
    let mut setup = Setup::empty();
    // 1. Who moves decides the mode: a side letter, or a seat digit in doubles.
    let mover = tokens
        .next()
        .ok_or_else(|| fail("missing the side to move after the board".into()))?;
    match mover {
        "b" | "B" => setup.seat = Seat::first_of(Color::Black),
        "w" | "W" => setup.seat = Seat::first_of(Color::White),
        "0" | "1" | "2" | "3" => {
            setup.seat = Seat::new(usize::from(mover.as_bytes()[0] - b'0')).expect("0..4");
            setup.rules.mode = Mode::Doubles(SeatOrder::Clockwise);
            for (k, (color, letter)) in [(Color::Black, "b"), (Color::White, "w")]
                .into_iter()
                .enumerate()
            {
                let flag = tokens
                    .next()
                    .ok_or_else(|| fail(format!("missing the {} junction flag", color.name())))?;
                setup.junction[k] = match flag {
                    "-" => false,
                    f if f.eq_ignore_ascii_case(letter) => true,
                    f => {
                        return Err(fail(format!(
                            "{} junction flag {f:?} is neither - nor {letter}",
                            color.name()
                        )));
                    }
                };
            }
        }
        other => {
            return Err(fail(format!(
                "side to move {other:?} is neither b nor w (nor a doubles seat 0-3)"
            )));
        }
    }
    // 2. The board, now that the mode says which letters exist.
    parse_board(board, setup.rules.mode, &mut setup.board).map_err(fail)?;
    // 3. The counters.
    let mut number = |what: &str| -> Result<u64, Error> {
        let token = tokens
            .next()
            .ok_or_else(|| fail(format!("missing {what}")))?;
        token
            .parse::<u64>()
            .map_err(|_| fail(format!("{what} {token:?} is not a number")))
    };
    let ejected_black = number("Black's ejections")?;
    let ejected_white = number("White's ejections")?;
    let quiet = number("the plies since the last ejection")?;
    let move_number = number("the move number")?;
    let small = |value: u64, max: u64, what: &str| -> Result<u64, Error> {
        if value > max {
            Err(fail(format!("{what} {value} is more than {max}")))
        } else {
            Ok(value)
        }
    };
    setup.ejected = [
        small(ejected_black, 14, "Black's ejections")? as u8,
        small(ejected_white, 14, "White's ejections")? as u8,
    ];
    setup.quiet_plies = small(quiet, u64::from(u16::MAX), "plies since the last ejection")? as u16;
    setup.move_number = small(move_number, u64::from(u16::MAX), "the move number")? as u16;
    // 4. Rules that differ from the defaults.
    for token in tokens {
        parse_rule(token, &mut setup.rules).map_err(fail)?;
    }
    Ok(setup)
}

/// Reads one `key=value` rules token.
fn parse_rule(token: &str, rules: &mut Rules) -> Result<(), String> {
    let (key, value) = token
        .split_once('=')
        .ok_or_else(|| format!("unexpected {token:?} after the move number"))?;
    let plies = |value: &str| -> Result<u16, String> {
        value
            .parse()
            .map_err(|_| format!("{key} value {value:?} is not a number of plies"))
    };
    match key {
        "order" => match (rules.mode, value) {
            (Mode::Doubles(_), "0123") => rules.mode = Mode::Doubles(SeatOrder::Clockwise),
            (Mode::Doubles(_), "0321") => rules.mode = Mode::Doubles(SeatOrder::CounterClockwise),
            (Mode::Doubles(_), _) => {
                return Err(format!("seat order {value:?} is not 0123 or 0321"));
            }
            (Mode::TwoPlayers, _) => return Err("a seat order needs a doubles position".into()),
        },
        "draw" if value == "none" => rules.no_ejection_plies = None,
        "draw" => rules.no_ejection_plies = Some(plies(value)?),
        "maxplies" => rules.max_plies = Some(plies(value)?),
        _ => {
            return Err(format!(
                "unknown rule {key:?} (expected order, draw or maxplies)"
            ));
        }
    }
    Ok(())
}

/// Reads the board field into `board` (by dense rank).
fn parse_board(
    text: &str,
    mode: Mode,
    board: &mut [Option<Seat>; Cell::COUNT],
) -> Result<(), String> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != 9 {
        return Err(format!("{} rows, expected 9 (I down to A)", rows.len()));
    }
    for (row_text, row) in rows.into_iter().zip((0..9).rev()) {
        let letter = char::from(b'A' + row as u8);
        let mut filled = 0;
        for ch in row_text.chars() {
            if let Some(run) = ch.to_digit(10).filter(|&d| d >= 1) {
                filled += run as usize;
                continue;
            }
            let seat = match (ch.to_ascii_lowercase(), mode) {
                ('b', _) => 0,
                ('w', _) => 1,
                ('d', Mode::Doubles(_)) => 2,
                ('x', Mode::Doubles(_)) => 3,
                ('d' | 'x', Mode::TwoPlayers) => {
                    return Err(format!(
                        "row {letter}: {ch:?} marbles exist only in doubles (a seat 0-3 to move)"
                    ));
                }
                _ => return Err(format!("row {letter}: unexpected character {ch:?}")),
            };
            if filled < ROW_LEN[row] {
                let cell = Cell::from_coords(row, ROW_FIRST[row] + filled).expect("on the board");
                board[cell.dense()] = Some(Seat::new(seat).expect("0..4"));
            }
            filled += 1;
        }
        if filled != ROW_LEN[row] {
            return Err(format!(
                "row {letter} has {filled} cells, expected {}",
                ROW_LEN[row]
            ));
        }
    }
    Ok(())
}

impl Setup {
    /// Reads a position text. See the [module docs](self) for the format.
    ///
    /// # Errors
    /// [`Error::PositionText`] saying what is wrong and where.
    pub fn from_text(text: &str) -> Result<Setup, Error> {
        parse_setup(text)
    }
}

impl Position {
    /// Reads and validates a position text.
    ///
    /// # Errors
    /// [`Error::PositionText`] for text that cannot be read, [`Error::Position`] for a board the
    /// rules do not allow.
    pub fn from_text(text: &str) -> Result<Position, Error> {
        Position::from_setup(&parse_setup(text)?)
    }
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&to_text(self))
    }
}
