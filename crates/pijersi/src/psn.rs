//! PSN, the position notation of the UGI ecosystem: `<rows> <w|b> <halfmove> <fullmove>`.
//!
//! Rows run from g (top) to a, separated by `/`, cells left to right. A single cube is two
//! characters `X-`; a stack is two letters, bottom then top (`WR` = rock on wise); a digit is
//! that many empty cells. Upper case is White.
//!
//! ```
//! use pjlab_pijersi::Position;
//! let start: Position = "s-p-r-s-p-r-/p-r-s-wwr-s-p-/6/7/6/P-S-R-WWS-R-P-/R-P-S-R-P-S- w 0 1".parse()?;
//! assert_eq!(start, Position::default());
//! assert_eq!(start.to_string(), "s-p-r-s-p-r-/p-r-s-wwr-s-p-/6/7/6/P-S-R-WWS-R-P-/R-P-S-R-P-S- w 0 1");
//! # Ok::<(), pjlab_pijersi::Error>(())
//! ```

use std::fmt;
use std::str::FromStr;

use crate::Error;
use crate::geometry::{Cell, ROW_LEN};
use crate::piece::{Color, Piece, Role};
use crate::position::{Position, Rules, Setup};

impl Setup {
    /// Parses a PSN string without checking the position against the rules.
    ///
    /// # Errors
    /// [`Error::Psn`] naming the field, row or character that is wrong.
    pub fn from_psn(psn: &str) -> Result<Setup, Error> {
        let bad = |reason: String| Error::Psn {
            psn: psn.to_string(),
            reason,
        };
        let fields: Vec<&str> = psn.split_whitespace().collect();
        if fields.len() != 4 {
            return Err(bad(format!(
                "expected 4 fields (rows, side, half-move, full-move), found {}",
                fields.len()
            )));
        }
        let mut setup = Setup::empty();
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != 7 {
            return Err(bad(format!(
                "expected 7 rows separated by '/', found {}",
                rows.len()
            )));
        }
        for (k, text) in rows.iter().enumerate() {
            let row = 6 - k;
            let row_name = (b'a' + row as u8) as char;
            let len = ROW_LEN[row] as usize;
            let chars: Vec<char> = text.chars().collect();
            let mut col = 0;
            let mut i = 0;
            while i < chars.len() {
                let c = chars[i];
                if let Some(n) = c.to_digit(10) {
                    if n == 0 {
                        return Err(bad(format!("row {row_name}: 0 empty cells")));
                    }
                    col += n as usize;
                    i += 1;
                } else {
                    let Some(&next) = chars.get(i + 1) else {
                        return Err(bad(format!(
                            "row {row_name}: {c:?} is not followed by a second character"
                        )));
                    };
                    let piece = parse_piece(c, next)
                        .map_err(|why| bad(format!("row {row_name}, column {}: {why}", col + 1)))?;
                    if col < len {
                        setup.board[Cell::from_coords(row, col).expect("col < len").index()] =
                            Some(piece);
                    }
                    col += 1;
                    i += 2;
                }
                if col > len {
                    return Err(bad(format!("row {row_name} has more than {len} cells")));
                }
            }
            if col != len {
                return Err(bad(format!(
                    "row {row_name} has {col} cells, expected {len}"
                )));
            }
        }
        setup.side_to_move = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(bad(format!("side to move {other:?} is not w or b"))),
        };
        setup.halfmove = fields[2].parse().map_err(|_| {
            bad(format!(
                "half-move counter {:?} is not a number 0..=20",
                fields[2]
            ))
        })?;
        setup.fullmove = fields[3].parse().map_err(|_| {
            bad(format!(
                "full-move number {:?} is not a positive number",
                fields[3]
            ))
        })?;
        Ok(setup)
    }
}

fn parse_piece(first: char, second: char) -> Result<Piece, String> {
    let (color, role) =
        Role::from_letter(first).ok_or_else(|| format!("{first:?} is not a piece letter"))?;
    if second == '-' {
        return Ok(Piece::cube(color, role));
    }
    let (top_color, top) = Role::from_letter(second)
        .ok_or_else(|| format!("{second:?} is not '-' or a piece letter"))?;
    if top_color != color {
        return Err(format!("stack {first}{second} mixes colours"));
    }
    Ok(Piece::stack(color, top, role))
}

impl Position {
    /// Parses and validates a PSN string, under the rulebook's rules.
    ///
    /// # Errors
    /// [`Error::Psn`] for malformed text, [`Error::Position`] for a board the rules forbid.
    pub fn from_psn(psn: &str) -> Result<Position, Error> {
        Position::from_setup(&Setup::from_psn(psn)?, Rules::EndOfTurn)
    }

    /// The board part of the PSN (the rows only).
    pub fn board_psn(&self) -> String {
        let mut out = String::with_capacity(64);
        for row in (0..7).rev() {
            let mut empty = 0;
            for col in 0..ROW_LEN[row] as usize {
                match self.piece_at(Cell::from_coords(row, col).expect("on the board")) {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            out.push(char::from_digit(empty, 10).expect("at most 7"));
                            empty = 0;
                        }
                        out.push_str(&piece.to_string());
                    }
                }
            }
            if empty > 0 {
                out.push(char::from_digit(empty, 10).expect("at most 7"));
            }
            if row > 0 {
                out.push('/');
            }
        }
        out
    }
}

impl fmt::Display for Position {
    /// The PSN string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = match self.side {
            Color::White => 'w',
            Color::Black => 'b',
        };
        write!(
            f,
            "{} {side} {} {}",
            self.board_psn(),
            self.halfmove,
            self.fullmove
        )
    }
}

impl FromStr for Position {
    type Err = Error;

    fn from_str(psn: &str) -> Result<Position, Error> {
        Position::from_psn(psn)
    }
}
