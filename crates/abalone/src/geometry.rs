//! The board: 61 hexagonal cells inside a 9 x 9 rhombus, as bits of a `u128`.
//!
//! Cell (row `r`, diagonal `d`), both 0-based (row A = 0, diagonal 1 = 0), is bit `9 r + d`. The
//! rhombus has 81 bits; the 20 in its two cut-off corners (`|r - d| > 4`) are never set. With this
//! numbering every direction is one fixed index step (E +1, NE +10, NW +9, and their opposites),
//! so moving a set of cells one step is a shift of the bitboard, and a step off the board always
//! lands on a cut-off corner or outside the 81 bits: masking with [`ALL_CELLS`] removes it. (A step
//! east from diagonal 9 would wrap to diagonal 1 of a higher row, but that cell is a cut-off
//! corner; the same holds for every wrap.)
//!
//! Why a `u128` and not 61 bits of a `u64`: a hexagon of side 5 needs rows 9 apart for uniform
//! steps (rows of a stride 8 overlap), so no 64-bit layout has one shift per direction. On x86-64 a
//! `u128` shift, `and` or `popcnt` is two instructions.

use std::fmt;

/// A set of cells, bit `9 r + d` for the cell at row `r`, diagonal `d` (0-based).
pub type Bitboard = u128;

/// Every cell of the board (61 bits).
pub const ALL_CELLS: Bitboard = {
    let mut bits = 0;
    let mut r: usize = 0;
    while r < 9 {
        let mut d = 0;
        while d < 9 {
            if r.abs_diff(d) <= 4 {
                bits |= 1 << (9 * r + d);
            }
            d += 1;
        }
        r += 1;
    }
    bits
};

/// The board's dense numbering: `DENSE[bit]` is the cell's rank 0..61 among the cells, 255 for
/// the cut-off corners.
const DENSE: [u8; 81] = {
    let mut table = [255; 81];
    let mut rank = 0;
    let mut i = 0;
    while i < 81 {
        if ALL_CELLS >> i & 1 == 1 {
            table[i] = rank;
            rank += 1;
        }
        i += 1;
    }
    table
};

/// The inverse of [`DENSE`]: the bit of the cell of each rank.
const BIT_OF_RANK: [u8; 61] = {
    let mut table = [0; 61];
    let mut i = 0;
    while i < 81 {
        if DENSE[i] != 255 {
            table[DENSE[i] as usize] = i as u8;
        }
        i += 1;
    }
    table
};

/// A cell of the board, `a1` to `i9`.
///
/// Ordered as the notation orders cells (row letter, then diagonal digit), which is also the order
/// of the bits.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

const _: () = assert!(std::mem::size_of::<Cell>() == 1);

impl Cell {
    /// Number of cells.
    pub const COUNT: usize = 61;
    /// The centre, E5.
    pub const CENTRE: Cell = Cell(4 * 9 + 4);

    /// The cell at `row` (0 = A .. 8 = I) and `diagonal` (0 = 1 .. 8 = 9), if it is on the board.
    #[inline]
    pub const fn from_coords(row: usize, diagonal: usize) -> Option<Cell> {
        if row < 9 && diagonal < 9 && row.abs_diff(diagonal) <= 4 {
            Some(Cell((row * 9 + diagonal) as u8))
        } else {
            None
        }
    }

    /// The cell whose bit is `bit` (0..81), if that bit is a cell.
    #[inline]
    pub const fn from_bit_index(bit: u32) -> Option<Cell> {
        if bit < 81 && DENSE[bit as usize] != 255 {
            Some(Cell(bit as u8))
        } else {
            None
        }
    }

    /// The cell of dense rank `rank` (0..61, in notation order), if any.
    #[inline]
    pub const fn from_dense(rank: usize) -> Option<Cell> {
        if rank < Self::COUNT {
            Some(Cell(BIT_OF_RANK[rank]))
        } else {
            None
        }
    }

    /// Every cell, in notation order (`a1`, `a2`, ..., `i9`).
    pub fn all() -> impl Iterator<Item = Cell> {
        BIT_OF_RANK.iter().map(|&bit| Cell(bit))
    }

    /// The bit's index, 0..81 (`9 row + diagonal`).
    #[inline]
    pub const fn bit_index(self) -> usize {
        self.0 as usize
    }

    /// The dense rank, 0..61, in notation order.
    #[inline]
    pub const fn dense(self) -> usize {
        DENSE[self.0 as usize] as usize
    }

    /// This cell's bit.
    #[inline]
    pub const fn bit(self) -> Bitboard {
        1 << self.0
    }

    /// Row, 0 (A) to 8 (I).
    #[inline]
    pub const fn row(self) -> usize {
        self.0 as usize / 9
    }

    /// Diagonal, 0 (1) to 8 (9).
    #[inline]
    pub const fn diagonal(self) -> usize {
        self.0 as usize % 9
    }

    /// The neighbour one step in `dir`, if it is on the board.
    #[inline]
    pub const fn step(self, dir: Direction) -> Option<Cell> {
        let (dr, dd) = dir.delta();
        let row = self.row() as i32 + dr;
        let diagonal = self.diagonal() as i32 + dd;
        if row < 0 || diagonal < 0 {
            return None;
        }
        Cell::from_coords(row as usize, diagonal as usize)
    }

    /// The first cell of a bitboard (lowest bit), if any.
    #[inline]
    pub fn first(bits: Bitboard) -> Option<Cell> {
        (bits != 0).then(|| Cell(bits.trailing_zeros() as u8))
    }

    /// Parses a cell name: a row letter `a`..`i` (either case) and a diagonal digit `1`..`9`.
    pub fn parse(text: &str) -> Option<Cell> {
        let &[row, diagonal] = text.as_bytes() else {
            return None;
        };
        let row = row.to_ascii_lowercase().checked_sub(b'a')? as usize;
        let diagonal = diagonal.checked_sub(b'1')? as usize;
        Cell::from_coords(row, diagonal)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.row() as u8) as char,
            self.diagonal() + 1
        )
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// One of the six directions of the hexagonal grid, counter-clockwise from east.
///
/// The first three ([`Direction::AXES`]) point "up" the index order and name the three axes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// Along the row, towards higher diagonals: (0, +1).
    East,
    /// Up a row and a diagonal: (+1, +1).
    NorthEast,
    /// Up a row, same diagonal: (+1, 0).
    NorthWest,
    /// Along the row, towards lower diagonals: (0, -1).
    West,
    /// Down a row and a diagonal: (-1, -1).
    SouthWest,
    /// Down a row, same diagonal: (-1, 0).
    SouthEast,
}

impl Direction {
    /// The six directions, counter-clockwise from east; `ALL[i]` and `ALL[i + 3]` are opposite.
    pub const ALL: [Direction; 6] = [
        Direction::East,
        Direction::NorthEast,
        Direction::NorthWest,
        Direction::West,
        Direction::SouthWest,
        Direction::SouthEast,
    ];

    /// The three directions that name the axes (E-W, NE-SW, NW-SE), each pointing up the index
    /// order: a line along an axis is written from its lowest cell.
    pub const AXES: [Direction; 3] = [Direction::East, Direction::NorthEast, Direction::NorthWest];

    /// Index in [`Direction::ALL`], 0..6.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The axis this direction lies on: 0 (E-W), 1 (NE-SW) or 2 (NW-SE).
    #[inline]
    pub const fn axis(self) -> usize {
        self as usize % 3
    }

    /// The opposite direction.
    #[inline]
    pub const fn opposite(self) -> Direction {
        Direction::ALL[(self as usize + 3) % 6]
    }

    /// (rows, diagonals) moved by one step.
    #[inline]
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Direction::East => (0, 1),
            Direction::NorthEast => (1, 1),
            Direction::NorthWest => (1, 0),
            Direction::West => (0, -1),
            Direction::SouthWest => (-1, -1),
            Direction::SouthEast => (-1, 0),
        }
    }

    /// The bit index step, `9 rows + diagonals`.
    #[inline]
    pub const fn step(self) -> i32 {
        let (dr, dd) = self.delta();
        9 * dr + dd
    }

    /// The short name: `E`, `NE`, `NW`, `W`, `SW`, `SE`.
    pub const fn name(self) -> &'static str {
        match self {
            Direction::East => "E",
            Direction::NorthEast => "NE",
            Direction::NorthWest => "NW",
            Direction::West => "W",
            Direction::SouthWest => "SW",
            Direction::SouthEast => "SE",
        }
    }
}

/// Shifts every bit by `step` places (up for positive, down for negative), keeping only bits that
/// land inside the 81-bit rhombus. Not masked to the board: callers mask or intersect.
#[inline(always)]
pub(crate) const fn shift_by(bits: Bitboard, step: i32) -> Bitboard {
    if step >= 0 {
        bits << step
    } else {
        bits >> -step
    }
}

/// Every cell of `bits` moved one step in `dir`; what leaves the board is dropped.
#[inline(always)]
pub const fn shift(bits: Bitboard, dir: Direction) -> Bitboard {
    shift_by(bits, dir.step()) & ALL_CELLS
}

/// The cells next to a cell of `bits`, in any direction (those of `bits` included if adjacent to
/// another).
#[inline]
pub const fn neighbours(bits: Bitboard) -> Bitboard {
    (shift_by(bits, 1)
        | shift_by(bits, -1)
        | shift_by(bits, 10)
        | shift_by(bits, -10)
        | shift_by(bits, 9)
        | shift_by(bits, -9))
        & ALL_CELLS
}

/// Iterates over the cells of a bitboard, lowest bit first.
pub fn cells(mut bits: Bitboard) -> impl Iterator<Item = Cell> {
    std::iter::from_fn(move || {
        let cell = Cell::first(bits)?;
        bits &= bits - 1;
        Some(cell)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixty_one_cells_in_notation_order() {
        assert_eq!(ALL_CELLS.count_ones(), 61);
        let names: Vec<String> = Cell::all().map(|c| c.to_string()).collect();
        assert_eq!(names.len(), 61);
        assert_eq!(&names[..6], ["a1", "a2", "a3", "a4", "a5", "b1"]);
        assert_eq!(names[60], "i9");
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(sorted, names);
        for (rank, cell) in Cell::all().enumerate() {
            assert_eq!(cell.dense(), rank);
            assert_eq!(Cell::from_dense(rank), Some(cell));
            assert_eq!(Cell::parse(&cell.to_string()), Some(cell));
            assert_eq!(Cell::parse(&cell.to_string().to_uppercase()), Some(cell));
        }
        assert_eq!(Cell::parse("a6"), None);
        assert_eq!(Cell::parse("i4"), None);
        assert_eq!(Cell::parse("e0"), None);
        assert_eq!(Cell::parse("j5"), None);
    }

    #[test]
    fn shifts_agree_with_coordinate_steps() {
        // The shift of a single cell is its coordinate neighbour, or nothing off the board.
        for cell in Cell::all() {
            for dir in Direction::ALL {
                let by_shift = Cell::first(shift(cell.bit(), dir));
                assert_eq!(by_shift, cell.step(dir), "{cell} {dir:?}");
                assert_eq!(
                    by_shift.and_then(|n| n.step(dir.opposite())),
                    by_shift.map(|_| cell)
                );
            }
        }
        // The spec's examples: A1's upper neighbours are B1 and B2; E1's only upper one is F2.
        let a1 = Cell::parse("a1").unwrap();
        assert_eq!(a1.step(Direction::NorthWest), Cell::parse("b1"));
        assert_eq!(a1.step(Direction::NorthEast), Cell::parse("b2"));
        let e1 = Cell::parse("e1").unwrap();
        assert_eq!(e1.step(Direction::NorthEast), Cell::parse("f2"));
        assert_eq!(e1.step(Direction::NorthWest), None);
        let centre_ring = neighbours(Cell::CENTRE.bit());
        assert_eq!(centre_ring.count_ones(), 6);
        assert_eq!(neighbours(a1.bit()).count_ones(), 3);
    }
}
