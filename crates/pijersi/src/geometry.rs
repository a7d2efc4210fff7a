//! The board: 45 hexagonal cells in 7 rows, as 45 bits of a `u64`.
//!
//! Cells are numbered row by row from White's back row: `a1..a6` = 0..5, `b1..b7` = 6..12,
//! `c1..c6` = 13..18, `d1..d7` = 19..25, `e1..e6` = 26..31, `f1..f7` = 32..38, `g1..g6` = 39..44.
//! With this numbering every direction is one fixed index step (+1 east, +7 north-east, +6
//! north-west, and their opposites), so moving a whole set of cells one step is a shift of the
//! bitboard, and repeating the same step walks a straight line (b4 -> c3 -> d3).

use std::fmt;

/// A set of cells, bit `i` for cell `i`. Bits 45..64 are always clear, so bit 63 can stand for
/// "off the board" in lookup tables.
pub type Bitboard = u64;

/// Every cell of the board.
pub const ALL_CELLS: Bitboard = (1 << 45) - 1;

/// First cell index of each row, a..g.
pub const ROW_START: [u8; 8] = [0, 6, 13, 19, 26, 32, 39, 45];

/// Number of cells of each row, a..g.
pub const ROW_LEN: [u8; 7] = [6, 7, 6, 7, 6, 7, 6];

/// Row a, White's back row (the row Black must reach).
pub const ROW_A: Bitboard = 0b111111;
/// Row g, Black's back row (the row White must reach).
pub const ROW_G: Bitboard = 0b111111 << 39;

/// Index used in tables for "no cell"; its bit is never set in a [`Bitboard`].
pub(crate) const NO_CELL: u8 = 63;

/// A cell of the board, `a1` to `g6`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

const _: () = assert!(std::mem::size_of::<Cell>() == 1);

impl Cell {
    /// Number of cells.
    pub const COUNT: usize = 45;

    /// The cell with this index (0..45), if any.
    #[inline]
    pub const fn new(index: usize) -> Option<Cell> {
        if index < Self::COUNT {
            Some(Cell(index as u8))
        } else {
            None
        }
    }

    /// The cell with this index; the caller guarantees `index < 45`.
    #[inline]
    pub(crate) const fn from_index(index: u8) -> Cell {
        debug_assert!((index as usize) < Self::COUNT);
        Cell(index)
    }

    /// Every cell, `a1` first.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..Self::COUNT as u8).map(Cell)
    }

    /// The cell at `row` (0 = a .. 6 = g) and `col` (0-based), if it exists.
    #[inline]
    pub const fn from_coords(row: usize, col: usize) -> Option<Cell> {
        if row < 7 && col < ROW_LEN[row] as usize {
            Some(Cell(ROW_START[row] + col as u8))
        } else {
            None
        }
    }

    /// The index, 0..45.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// This cell's bit.
    #[inline]
    pub const fn bit(self) -> Bitboard {
        1 << self.0
    }

    /// Row, 0 (a) to 6 (g).
    #[inline]
    pub const fn row(self) -> usize {
        let mut row = 0;
        while ROW_START[row + 1] <= self.0 {
            row += 1;
        }
        row
    }

    /// Column, 0-based (`b4` is column 3).
    #[inline]
    pub const fn col(self) -> usize {
        (self.0 - ROW_START[self.row()]) as usize
    }

    /// The cell's image by the board's central symmetry (`a1 <-> g6`, `b4 <-> f4`).
    #[inline]
    pub const fn rotated(self) -> Cell {
        Cell(44 - self.0)
    }

    /// The cell's image by the left-right mirror (`a1 <-> a6`, `b1 <-> b7`, `b4` fixed).
    #[inline]
    pub const fn mirrored(self) -> Cell {
        let row = self.row();
        Cell(ROW_START[row] + ROW_LEN[row] - 1 - (self.0 - ROW_START[row]))
    }

    /// The neighbouring cell in `direction`, if on the board.
    #[inline]
    pub fn step(self, direction: Direction) -> Option<Cell> {
        let to = NEIGHBOR[self.index()][direction as usize];
        (to != NO_CELL).then_some(Cell(to))
    }

    /// Parses `a1`..`g6`.
    pub fn parse(text: &str) -> Option<Cell> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        Self::from_bytes(bytes[0], bytes[1])
    }

    /// The cell named by a row letter and a column digit, e.g. `b'b', b'4'`.
    pub(crate) fn from_bytes(row: u8, col: u8) -> Option<Cell> {
        let row = row.checked_sub(b'a')? as usize;
        let col = (col.checked_sub(b'1')?) as usize;
        Cell::from_coords(row, col)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.row() as u8) as char, self.col() + 1)
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// One of the six directions of the hexagonal board. `d` and `d.opposite()` are 3 apart.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Direction {
    /// Same row, next column (+1).
    East = 0,
    /// Towards row g, to the right (+7).
    NorthEast = 1,
    /// Towards row g, to the left (+6).
    NorthWest = 2,
    /// Same row, previous column (-1).
    West = 3,
    /// Towards row a, to the left (-7).
    SouthWest = 4,
    /// Towards row a, to the right (-6).
    SouthEast = 5,
}

impl Direction {
    /// All six, in index order.
    pub const ALL: [Direction; 6] = [
        Direction::East,
        Direction::NorthEast,
        Direction::NorthWest,
        Direction::West,
        Direction::SouthWest,
        Direction::SouthEast,
    ];

    /// The opposite direction.
    #[inline]
    pub const fn opposite(self) -> Direction {
        Self::ALL[(self as usize + 3) % 6]
    }
}

/// Index step of each direction.
const STEP: [i8; 6] = [1, 7, 6, -1, -7, -6];

/// Left-rotation implementing each direction's step on a bitboard (masked sources never wrap).
const ROTATE: [u32; 6] = [1, 7, 6, 63, 57, 58];

const fn neighbor(index: usize, dir: usize) -> u8 {
    let cell = Cell(index as u8);
    let (row, col) = (cell.row() as isize, cell.col() as isize);
    let short = ROW_LEN[row as usize] == 6;
    let (r, c) = match dir {
        0 => (row, col + 1),
        3 => (row, col - 1),
        1 => (row + 1, if short { col + 1 } else { col }),
        2 => (row + 1, if short { col } else { col - 1 }),
        5 => (row - 1, if short { col + 1 } else { col }),
        _ => (row - 1, if short { col } else { col - 1 }),
    };
    if r < 0 || r >= 7 || c < 0 || c >= ROW_LEN[r as usize] as isize {
        return NO_CELL;
    }
    let to = ROW_START[r as usize] as isize + c;
    // The numbering makes every direction a fixed step; the board's geometry must agree.
    assert!(to == index as isize + STEP[dir] as isize);
    to as u8
}

/// `NEIGHBOR[cell][direction]`: the adjacent cell, or [`NO_CELL`]. Rows 45..64 are all
/// [`NO_CELL`] so that a lookup from "no cell" stays off the board.
pub(crate) const NEIGHBOR: [[u8; 6]; 64] = {
    let mut table = [[NO_CELL; 6]; 64];
    let mut i = 0;
    while i < 45 {
        let mut d = 0;
        while d < 6 {
            table[i][d] = neighbor(i, d);
            d += 1;
        }
        i += 1;
    }
    table
};

/// `NEIGHBOR2[cell][direction]`: the cell two steps away in a straight line, or [`NO_CELL`].
pub(crate) const NEIGHBOR2: [[u8; 6]; 64] = {
    let mut table = [[NO_CELL; 6]; 64];
    let mut i = 0;
    while i < 45 {
        let mut d = 0;
        while d < 6 {
            table[i][d] = NEIGHBOR[NEIGHBOR[i][d] as usize][d];
            d += 1;
        }
        i += 1;
    }
    table
};

/// `NEIGHBORS[cell]`: the set of adjacent cells (empty for indices 45..64).
pub(crate) const NEIGHBORS: [Bitboard; 64] = {
    let mut table = [0; 64];
    let mut i = 0;
    while i < 45 {
        let mut d = 0;
        while d < 6 {
            if NEIGHBOR[i][d] != NO_CELL {
                table[i] |= 1 << NEIGHBOR[i][d];
            }
            d += 1;
        }
        i += 1;
    }
    table
};

/// `SOURCES[direction]`: the cells that have a neighbour in that direction.
const SOURCES: [Bitboard; 6] = {
    let mut table = [0; 6];
    let mut i = 0;
    while i < 45 {
        let mut d = 0;
        while d < 6 {
            if NEIGHBOR[i][d] != NO_CELL {
                table[d] |= 1 << i;
            }
            d += 1;
        }
        i += 1;
    }
    table
};

/// Every cell of `cells` moved one step in direction `dir` (index into [`Direction::ALL`]);
/// cells that would leave the board are dropped.
#[inline(always)]
pub fn shift(cells: Bitboard, dir: usize) -> Bitboard {
    (cells & SOURCES[dir]).rotate_left(ROTATE[dir])
}

/// Cells adjacent to at least one cell of `cells`.
#[inline(always)]
pub fn adjacent(cells: Bitboard) -> Bitboard {
    let mut out = 0;
    for d in 0..6 {
        out |= shift(cells, d);
    }
    out & ALL_CELLS
}

/// Iterates over the cell indices of a bitboard, lowest first.
#[inline(always)]
pub fn bits(mut cells: Bitboard) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if cells == 0 {
            None
        } else {
            let index = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            Some(index)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(name: &str) -> Cell {
        Cell::parse(name).unwrap()
    }

    #[test]
    fn names_round_trip() {
        for c in Cell::all() {
            assert_eq!(Cell::parse(&c.to_string()), Some(c));
        }
        assert_eq!(cell("a1").index(), 0);
        assert_eq!(cell("b1").index(), 6);
        assert_eq!(cell("g6").index(), 44);
        assert_eq!(Cell::parse("a7"), None);
        assert_eq!(Cell::parse("b8"), None);
        assert_eq!(Cell::parse("h1"), None);
    }

    #[test]
    fn rulebook_geometry() {
        // From b4 a stack reaches a3, a4, b5, b6 but never a5.
        let b4 = cell("b4");
        let mut two_step = Vec::new();
        for d in Direction::ALL {
            if let Some(one) = b4.step(d) {
                two_step.push(one);
                if let Some(two) = one.step(d) {
                    two_step.push(two);
                }
            }
        }
        for name in ["a3", "a4", "b5", "b6", "c3", "d3"] {
            assert!(two_step.contains(&cell(name)), "{name}");
        }
        assert!(!two_step.contains(&cell("a5")));
        // b4 -> c3 -> d3 is a straight line.
        assert_eq!(cell("c3").step(Direction::NorthWest), Some(cell("d3")));
        assert_eq!(b4.step(Direction::NorthWest), Some(cell("c3")));
    }

    #[test]
    fn adjacency_is_symmetric_and_matches_the_spec() {
        for a in Cell::all() {
            for d in Direction::ALL {
                if let Some(b) = a.step(d) {
                    assert_eq!(b.step(d.opposite()), Some(a));
                    // A 6-cell-row cell i touches cells i and i+1 of a neighbouring 7-cell row.
                    if a.row() != b.row() && ROW_LEN[a.row()] == 6 {
                        assert!(b.col() == a.col() || b.col() == a.col() + 1);
                    }
                }
            }
            let degree = NEIGHBORS[a.index()].count_ones();
            assert!((2..=6).contains(&degree));
        }
        // 45 cells; interior cells have 6 neighbours.
        assert_eq!(NEIGHBORS[cell("d4").index()].count_ones(), 6);
        assert_eq!(NEIGHBORS[cell("a1").index()].count_ones(), 3);
    }

    #[test]
    fn shifting_a_bitboard_steps_every_cell() {
        for d in 0..6 {
            for c in Cell::all() {
                let expect = c.step(Direction::ALL[d]).map_or(0, Cell::bit);
                assert_eq!(shift(c.bit(), d), expect, "{c} {d}");
            }
        }
    }

    #[test]
    fn symmetries_are_involutions() {
        for c in Cell::all() {
            assert_eq!(c.rotated().rotated(), c);
            assert_eq!(c.mirrored().mirrored(), c);
            assert_eq!(c.rotated().row(), 6 - c.row());
        }
        assert_eq!(cell("a1").rotated(), cell("g6"));
        assert_eq!(cell("b1").rotated(), cell("f7"));
        assert_eq!(cell("b4").rotated(), cell("f4"));
        assert_eq!(cell("b1").mirrored(), cell("b7"));
    }
}
