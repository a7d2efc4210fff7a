//! The board's twelve symmetries and the colour swap, as maps on cells, bitboards, directions,
//! moves, action indices and positions.
//!
//! - A [`Symmetry`] is one of the 12 isometries of the hexagon that fix E5: the 6 rotations by
//!   sixths of a turn, each with or without the left-right mirror that keeps every row. The rules
//!   read the board only through neighbourhoods and lines, which every isometry preserves, so each
//!   maps a position to one with the same game (legal moves, pushes, ejections, junctions)
//!   and is a free data augmentation for training. Board symmetries keep colours, seat labels,
//!   the side to move and every counter. `tests/symmetry.rs` checks all twelve against the move
//!   generator and play on positions from random games of every variant.
//! - The **colour swap** ([`Position::color_swapped`]) exchanges Black and White everywhere:
//!   marbles, seat labels (seat `s` becomes seat `s ^ 1`), the junction flags, the ejection
//!   counts and the side to move. In doubles the labels swap turns the seat order 0, 1, 2, 3 into
//!   1, 0, 3, 2, which is the order 0, 3, 2, 1, so the swap also reverses the seat order: the image
//!   is the same game under `doubles-0321` rules (and the reverse). The rules need no home rows,
//!   so the colour swap alone is a symmetry of them; [`Position::flipped`] adds the half turn so
//!   that the new mover's marbles stand where the old mover's opponents stood (Black's start
//!   rows are row A).
//!
//! **Move number and ply (decided here).** The move number grows after White's moves, so the ply
//! count `2 (move - 1) + (White to move)` of a position with White to move is odd: no position
//! with Black to move has the same ply. The colour swap keeps the move number, which makes it an
//! involution and keeps the draw counter (plies since the last ejection) exact; the ply count
//! moves by one (up when Black was to move, down when White was). A swapped position is valid
//! (the move number is at least 1 either way) and plays exactly the same game, except under a
//! `max_plies` cap, which the image reaches one ply later or earlier. No rule but that cap reads
//! the move number, and the default rules have no cap.
//!
//! Coordinates: a cell (row `r`, diagonal `d`) is `(x, y) = (d - 4, r - 4)` around E5, so that
//! the directions E, NE, NW, W, SW, SE are `(1, 0)`, `(1, 1)`, `(0, 1)` and their opposites. The
//! rotation by a sixth of a turn counter-clockwise is `(x, y) -> (x - y, x)` (E to NE, NE to NW,
//! ...); the mirror is `(x, y) -> (y - x, y)` (E to W, NE to NW, rows kept).

use std::sync::LazyLock;

use crate::action::{NUM_ACTIONS, action_index, action_move};
use crate::geometry::{ALL_CELLS, Bitboard, Cell, Direction, cells};
use crate::moves::{Broadside, Move};
use crate::position::{Color, Mode, Position, Seat, SeatOrder};

/// One of the 12 symmetries of the board: a rotation about E5 by `turns` sixths of a turn
/// counter-clockwise, applied after the left-right mirror when it is a reflection.
///
/// Index `k` in `0..12`: `turns = k % 6`, mirrored when `k >= 6`. Index 0 is the identity, 3
/// the half turn, 6 the mirror.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symmetry(u8);

const _: () = assert!(std::mem::size_of::<Symmetry>() == 1);

/// `CELL_MAP[k][bit]`: the bit of the image of the cell on `bit` by symmetry `k` (255 off the
/// board). Built at compile time from the coordinates.
const CELL_MAP: [[u8; 81]; Symmetry::COUNT] = {
    let mut table = [[255; 81]; Symmetry::COUNT];
    let mut k = 0;
    while k < Symmetry::COUNT {
        let mut bit = 0;
        while bit < 81 {
            if let Some(cell) = Cell::from_bit_index(bit as u32) {
                let mut x = cell.diagonal() as i32 - 4;
                let mut y = cell.row() as i32 - 4;
                if k >= 6 {
                    x = y - x;
                }
                let mut t = 0;
                while t < k % 6 {
                    let old_x = x;
                    x -= y;
                    y = old_x;
                    t += 1;
                }
                match Cell::from_coords((y + 4) as usize, (x + 4) as usize) {
                    Some(image) => table[k][bit] = image.bit_index() as u8,
                    None => panic!("a symmetry maps the board onto itself"),
                }
            }
            bit += 1;
        }
        k += 1;
    }
    table
};

/// `ACTION_MAP[k][index]`: the action index of the image of action `index` by symmetry `k`.
static ACTION_MAP: LazyLock<Vec<[u16; NUM_ACTIONS]>> = LazyLock::new(|| {
    Symmetry::all()
        .map(|sym| {
            let mut table = [0; NUM_ACTIONS];
            for (index, slot) in table.iter_mut().enumerate() {
                let mv = action_move(index).expect("index in range");
                *slot = action_index(sym.map_move(mv)) as u16;
            }
            table
        })
        .collect()
});

impl Symmetry {
    /// Number of symmetries.
    pub const COUNT: usize = 12;
    /// The identity.
    pub const IDENTITY: Symmetry = Symmetry(0);
    /// The half turn about E5 (`a1 <-> i9`): the turn of [`Position::flipped`].
    pub const HALF_TURN: Symmetry = Symmetry(3);
    /// The left-right mirror, which keeps every row (`a1 <-> a5`, `e1 <-> e9`).
    pub const MIRROR: Symmetry = Symmetry(6);

    /// Symmetry number `index` (0..12), if it exists.
    #[inline]
    pub const fn new(index: usize) -> Option<Symmetry> {
        if index < Self::COUNT {
            Some(Symmetry(index as u8))
        } else {
            None
        }
    }

    /// The rotation by `turns` sixths of a turn counter-clockwise (taken modulo 6).
    #[inline]
    pub const fn rotation(turns: usize) -> Symmetry {
        Symmetry((turns % 6) as u8)
    }

    /// All twelve, the identity first.
    pub fn all() -> impl Iterator<Item = Symmetry> {
        (0..Self::COUNT as u8).map(Symmetry)
    }

    /// The index, 0..12.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Sixths of a turn of the rotation part, 0..6.
    #[inline]
    pub const fn turns(self) -> usize {
        self.0 as usize % 6
    }

    /// Whether this symmetry reverses orientation (includes the mirror).
    #[inline]
    pub const fn is_reflection(self) -> bool {
        self.0 >= 6
    }

    /// `self` first, then `next`: the symmetry mapping a cell `c` to
    /// `next.map_cell(self.map_cell(c))`.
    #[inline]
    pub const fn then(self, next: Symmetry) -> Symmetry {
        // next ∘ self = R^b M^m R^a M^n, and M R^a = R^-a M.
        let a = self.turns();
        let b = next.turns();
        let a = if next.is_reflection() { (6 - a) % 6 } else { a };
        let turns = (a + b) % 6;
        let mirrored = self.is_reflection() != next.is_reflection();
        Symmetry((turns + if mirrored { 6 } else { 0 }) as u8)
    }

    /// The inverse map: every reflection is its own inverse; a rotation's turns are undone.
    #[inline]
    pub const fn inverse(self) -> Symmetry {
        if self.is_reflection() {
            self
        } else {
            Symmetry(((6 - self.turns()) % 6) as u8)
        }
    }

    /// The image of a cell.
    #[inline]
    pub const fn map_cell(self, cell: Cell) -> Cell {
        match Cell::from_bit_index(CELL_MAP[self.0 as usize][cell.bit_index()] as u32) {
            Some(image) => image,
            None => panic!("a symmetry maps the board onto itself"),
        }
    }

    /// The image of a direction: the direction from the image of a cell to the image of its
    /// neighbour that way.
    #[inline]
    pub const fn map_direction(self, dir: Direction) -> Direction {
        let i = dir.index();
        let mirrored = if self.is_reflection() { (9 - i) % 6 } else { i };
        Direction::ALL[(mirrored + self.turns()) % 6]
    }

    /// The image of a set of cells (bits off the board are dropped).
    #[inline]
    pub fn map_bits(self, bits: Bitboard) -> Bitboard {
        let bits = bits & ALL_CELLS;
        match self {
            Symmetry::IDENTITY => bits,
            // (r, d) -> (8 - r, 8 - d) is bit i -> 80 - i: the 81 low bits reversed.
            Symmetry::HALF_TURN => bits.reverse_bits() >> (128 - 81),
            _ => {
                let table = &CELL_MAP[self.index()];
                cells(bits).fold(0, |acc, cell| acc | 1 << table[cell.bit_index()])
            }
        }
    }

    /// The image of a move: the same marbles' images moving in the image direction. A broadside
    /// is written again from its lowest cell along one of [`Direction::AXES`].
    pub fn map_move(self, mv: Move) -> Move {
        match mv {
            Move::Inline { trailing, dir } => Move::Inline {
                trailing: self.map_cell(trailing),
                dir: self.map_direction(dir),
            },
            Move::Broadside(line) => {
                let last = (1..line.len).fold(line.first, |c, _| c.step(line.axis).unwrap_or(c));
                let along = self.map_direction(line.axis);
                let (a, b) = (self.map_cell(line.first), self.map_cell(last));
                Move::Broadside(Broadside {
                    first: if along.index() < 3 { a } else { b },
                    axis: Direction::AXES[along.axis()],
                    len: line.len,
                    dir: self.map_direction(line.dir),
                })
            }
            Move::Pass => Move::Pass,
        }
    }

    /// The action index of the image of the move with action index `index`: a permutation of
    /// `0..NUM_ACTIONS` (the pass is fixed).
    ///
    /// # Panics
    /// If `index >= NUM_ACTIONS`.
    #[inline]
    pub fn map_action(self, index: usize) -> usize {
        if self == Symmetry::IDENTITY {
            assert!(index < NUM_ACTIONS, "action index {index} out of range");
            return index;
        }
        usize::from(ACTION_MAP[self.index()][index])
    }

    /// The image of a position: marbles and labels moved, everything else kept.
    pub fn map_position(self, position: &Position) -> Position {
        let mut out = position.clone();
        out.marbles = position.marbles.map(|b| self.map_bits(b));
        out.seconds = self.map_bits(position.seconds);
        out
    }
}

/// The seat order played backwards (what the colour swap does to it).
const fn reversed(order: SeatOrder) -> SeatOrder {
    match order {
        SeatOrder::Clockwise => SeatOrder::CounterClockwise,
        SeatOrder::CounterClockwise => SeatOrder::Clockwise,
    }
}

impl Position {
    /// The image of this position by a board symmetry (see [`Symmetry::map_position`]).
    pub fn transformed(&self, sym: Symmetry) -> Position {
        sym.map_position(self)
    }

    /// Black and White exchanged: marbles, seat labels (`s -> s ^ 1`), junction flags,
    /// ejection counts and the side to move; in doubles the seat order reversed. The board, the
    /// draw counter and the move number stay (see the [module docs](self) on the ply count). Its
    /// own inverse.
    pub fn color_swapped(&self) -> Position {
        let mut out = self.clone();
        out.marbles.swap(0, 1);
        // Seats 0 <-> 1 and 2 <-> 3: a marble's label stays a first or a second seat's.
        out.ejected.swap(0, 1);
        out.junction.swap(0, 1);
        out.seat = Seat::new(self.seat.index() ^ 1).expect("seats 0..4");
        if let Mode::Doubles(order) = self.rules.mode {
            out.rules.mode = Mode::Doubles(reversed(order));
        }
        out
    }

    /// The colour swap and the half turn together: the mover's problem as the other colour sees
    /// it from the other side of the board. Its own inverse.
    pub fn flipped(&self) -> Position {
        Symmetry::HALF_TURN.map_position(&self.color_swapped())
    }

    /// This position from the side to move's point of view: itself when Black is to move,
    /// [`Position::flipped`] when White is, so that the mover always plays Black, from row A up.
    pub fn from_mover(&self) -> Position {
        match self.color_to_move() {
            Color::Black => self.clone(),
            Color::White => self.flipped(),
        }
    }
}

impl Move {
    /// The image of this move by a board symmetry (see [`Symmetry::map_move`]).
    pub fn transformed(self, sym: Symmetry) -> Move {
        sym.map_move(self)
    }
}

/// The symmetry that takes a position of `mover` to the mover's view of [`Position::from_mover`]:
/// the identity for Black, the half turn for White.
#[inline]
pub const fn mover_symmetry(mover: Color) -> Symmetry {
    match mover {
        Color::Black => Symmetry::IDENTITY,
        Color::White => Symmetry::HALF_TURN,
    }
}

/// The action index `index`, seen from the side to move `mover` (matches
/// [`Position::from_mover`]).
#[inline]
pub fn action_from_mover(mover: Color, index: usize) -> usize {
    mover_symmetry(mover).map_action(index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_turn_bits_match_the_table() {
        for cell in Cell::all() {
            let image = Symmetry::HALF_TURN.map_cell(cell);
            assert_eq!(image.row(), 8 - cell.row());
            assert_eq!(image.diagonal(), 8 - cell.diagonal());
            assert_eq!(Symmetry::HALF_TURN.map_bits(cell.bit()), image.bit());
        }
        assert_eq!(Symmetry::HALF_TURN.map_bits(ALL_CELLS), ALL_CELLS);
    }

    #[test]
    fn mirror_keeps_rows() {
        for cell in Cell::all() {
            let image = Symmetry::MIRROR.map_cell(cell);
            assert_eq!(image.row(), cell.row());
            assert_eq!(image.diagonal(), cell.row() + 4 - cell.diagonal());
        }
        assert_eq!(
            Symmetry::MIRROR.map_direction(Direction::East),
            Direction::West
        );
    }
}
