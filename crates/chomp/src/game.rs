//! [`Chomp`] positions as a [`Game`].

use std::fmt;

use pjlab_core::{Game, Outcome, Side};

use crate::{Error, MAX_SIDE, check_size};

/// A bite: the square `(row, col)`, 0-based here, written 1-based as `row,col`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChompMove {
    /// 0-based row.
    pub row: u8,
    /// 0-based column.
    pub col: u8,
}

impl fmt::Display for ChompMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.row + 1, self.col + 1)
    }
}

/// A Chomp position: the bar's size, the remaining row lengths and the side to move.
///
/// Text form: `<m>x<n>:<row lengths, comma-separated>:<1|2>` (the side to move), e.g.
/// `3x4:4,2,1:2`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Chomp {
    rows: u8,
    cols: u8,
    side: Side,
    lengths: [u8; MAX_SIDE],
}

impl Chomp {
    /// The full `rows x cols` bar, first side to move.
    ///
    /// # Errors
    /// [`Error::Size`] outside 1x1..16x16.
    pub fn new(rows: usize, cols: usize) -> Result<Chomp, Error> {
        check_size(rows, cols)?;
        let mut lengths = [0; MAX_SIDE];
        lengths[..rows].fill(cols as u8);
        Ok(Chomp {
            rows: rows as u8,
            cols: cols as u8,
            side: Side::First,
            lengths,
        })
    }

    /// The remaining row lengths (one per row of the bar).
    pub fn lengths(&self) -> Vec<usize> {
        self.lengths[..self.rows as usize]
            .iter()
            .map(|&a| a as usize)
            .collect()
    }

    /// Rows of the bar.
    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    /// Columns of the bar.
    pub fn cols(&self) -> usize {
        self.cols as usize
    }

    fn is_legal(&self, mv: ChompMove) -> bool {
        (mv.row as usize) < self.rows()
            && mv.col < self.lengths[mv.row as usize]
            && (mv.row, mv.col) != (0, 0)
    }

    fn text_error(text: &str, reason: &str) -> Error {
        Error::Text {
            text: text.to_string(),
            reason: reason.to_string(),
        }
    }
}

impl fmt::Display for Chomp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lengths: Vec<String> = self.lengths().iter().map(usize::to_string).collect();
        let side = match self.side {
            Side::First => 1,
            Side::Second => 2,
        };
        write!(
            f,
            "{}x{}:{}:{side}",
            self.rows,
            self.cols,
            lengths.join(",")
        )
    }
}

impl Game for Chomp {
    type Move = ChompMove;
    type Error = Error;

    fn name(&self) -> &'static str {
        "chomp"
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, moves: &mut Vec<ChompMove>) {
        moves.clear();
        for row in 0..self.rows {
            let start = if row == 0 { 1 } else { 0 };
            for col in start..self.lengths[row as usize] {
                moves.push(ChompMove { row, col });
            }
        }
    }

    fn play(&mut self, mv: ChompMove) -> Result<(), Error> {
        if !self.is_legal(mv) {
            return Err(Error::IllegalMove {
                mv: mv.to_string(),
                position: self.to_string(),
            });
        }
        self.play_unchecked(mv);
        Ok(())
    }

    fn play_unchecked(&mut self, mv: ChompMove) {
        for len in &mut self.lengths[mv.row as usize..self.rows as usize] {
            *len = (*len).min(mv.col);
        }
        self.side = self.side.other();
    }

    fn outcome(&self) -> Option<Outcome> {
        // Only the poison left: the player to move has no move and loses.
        let only_poison = self.lengths[0] == 1 && self.lengths[1..].iter().all(|&a| a == 0);
        only_poison.then(|| Outcome::Win(self.side.other()))
    }

    fn hash(&self) -> u64 {
        // FNV-1a over the size, the lengths and the side.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let side = self.side.index() as u8;
        for &byte in [self.rows, self.cols, side].iter().chain(&self.lengths) {
            h = (h ^ byte as u64).wrapping_mul(0x0100_0000_01b3);
        }
        h
    }

    fn num_actions(&self) -> usize {
        self.rows() * self.cols()
    }

    fn action_index(&self, mv: ChompMove) -> usize {
        mv.row as usize * self.cols() + mv.col as usize
    }

    fn action_from_index(&self, index: usize) -> Option<ChompMove> {
        let mv = ChompMove {
            row: (index / self.cols()) as u8,
            col: (index % self.cols()) as u8,
        };
        (index < self.num_actions() && self.is_legal(mv)).then_some(mv)
    }

    fn move_to_text(&self, mv: ChompMove) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<ChompMove, Error> {
        let (r, c) = text
            .split_once(',')
            .ok_or_else(|| Self::text_error(text, "expected row,col"))?;
        let parse = |s: &str| {
            s.trim()
                .parse::<usize>()
                .ok()
                .filter(|&v| (1..=MAX_SIDE).contains(&v))
        };
        let (Some(row), Some(col)) = (parse(r), parse(c)) else {
            return Err(Self::text_error(text, "row and column are numbers from 1"));
        };
        let mv = ChompMove {
            row: (row - 1) as u8,
            col: (col - 1) as u8,
        };
        if self.is_legal(mv) {
            Ok(mv)
        } else {
            Err(Error::IllegalMove {
                mv: text.to_string(),
                position: self.to_string(),
            })
        }
    }

    fn to_text(&self) -> String {
        self.to_string()
    }

    fn from_text(text: &str) -> Result<Chomp, Error> {
        let bad = |reason: &str| Self::text_error(text, reason);
        let parts: Vec<&str> = text.trim().split(':').collect();
        let [size, lengths, side] = parts[..] else {
            return Err(bad("expected <m>x<n>:<lengths>:<1|2>"));
        };
        let (m, n) = size.split_once('x').ok_or_else(|| bad("size is <m>x<n>"))?;
        let (rows, cols): (usize, usize) = match (m.parse(), n.parse()) {
            (Ok(m), Ok(n)) => (m, n),
            _ => return Err(bad("size is <m>x<n> with numbers")),
        };
        let mut position = Chomp::new(rows, cols)?;
        let values: Vec<usize> = lengths
            .split(',')
            .map(|v| v.trim().parse::<usize>())
            .collect::<Result<_, _>>()
            .map_err(|_| bad("row lengths are numbers"))?;
        if values.len() != rows {
            return Err(bad("one length per row"));
        }
        for (i, &a) in values.iter().enumerate() {
            if a > cols || (i > 0 && a > values[i - 1]) {
                return Err(bad("row lengths must not grow and must fit the bar"));
            }
            position.lengths[i] = a as u8;
        }
        if values[0] == 0 {
            return Err(bad("the poison square is always there"));
        }
        position.side = match side {
            "1" => Side::First,
            "2" => Side::Second,
            _ => return Err(bad("side to move is 1 or 2")),
        };
        Ok(position)
    }
}
