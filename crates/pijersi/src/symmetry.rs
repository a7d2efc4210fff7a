//! The board's two symmetries, as maps on cells, bitboards, moves, action indices and positions.
//!
//! - The left-right **mirror** keeps colours and the side to move: the rules are symmetric under
//!   it (every neighbourhood and line of the board maps to one of the same shape), which makes it
//!   a free data augmentation for training. `tests/symmetry.rs` checks it against move
//!   generation, play and game end on positions from random games.
//! - The **flip** turns the board half a turn and swaps the colours, so that the side to move
//!   becomes White. Encoders use it to show the network every position from the mover's side.

use std::sync::OnceLock;

use crate::action::{action_index, action_path, num_actions};
use crate::geometry::{ALL_CELLS, Bitboard, Cell, bits};
use crate::moves::Move;
use crate::piece::Color;
use crate::position::Position;

/// The image of a set of cells by the half turn (`a1 <-> g6`).
#[inline]
pub fn rotate_bits(cells: Bitboard) -> Bitboard {
    (cells & ALL_CELLS).reverse_bits() >> (64 - Cell::COUNT)
}

/// The image of a set of cells by the left-right mirror.
#[inline]
pub fn mirror_bits(cells: Bitboard) -> Bitboard {
    bits(cells & ALL_CELLS).fold(0, |acc, i| acc | Cell::from_index(i as u8).mirrored().bit())
}

fn map_move(mv: Move, f: impl Fn(Cell) -> Cell) -> Move {
    let start = f(mv.start());
    let end = f(mv.end());
    // One-action kinds ignore the middle passed in (see `Move::new`).
    let middle = mv.middle().map_or(start, &f);
    Move::new(mv.kind(), start, middle, end)
}

impl Move {
    /// The same move on the mirrored board.
    pub fn mirrored(self) -> Move {
        map_move(self, Cell::mirrored)
    }

    /// The same move on the board turned half a turn.
    pub fn rotated(self) -> Move {
        map_move(self, Cell::rotated)
    }
}

fn table(cell: &'static OnceLock<Vec<u16>>, f: fn(Cell) -> Cell) -> &'static [u16] {
    cell.get_or_init(|| {
        // Index paths by (start, end) first so the search above stays cheap enough.
        let mut by_ends: Vec<Vec<usize>> = vec![Vec::new(); Cell::COUNT * Cell::COUNT];
        for i in 0..num_actions() {
            let (c, _) = action_path(i).expect("index in range");
            by_ends[c[0].index() * Cell::COUNT + c[2].index()].push(i);
        }
        (0..num_actions())
            .map(|i| {
                let (cells, n) = action_path(i).expect("index in range");
                let [s, m, e] = cells.map(f);
                by_ends[s.index() * Cell::COUNT + e.index()]
                    .iter()
                    .copied()
                    .find(|&j| {
                        let (c, k) = action_path(j).expect("index in range");
                        k == n && (n == 2 || c[1] == m)
                    })
                    .expect("the action space is closed under the symmetries")
                    as u16
            })
            .collect()
    })
}

/// The action index of the mirrored path (a permutation of the action space, its own inverse).
pub fn mirrored_action(index: usize) -> usize {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    table(&TABLE, Cell::mirrored)[index] as usize
}

/// The action index of the path turned half a turn (a permutation, its own inverse).
pub fn rotated_action(index: usize) -> usize {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    table(&TABLE, Cell::rotated)[index] as usize
}

impl Position {
    fn map_cells(&self, f: impl Fn(Bitboard) -> Bitboard) -> Position {
        let mut out = self.clone();
        out.colors = self.colors.map(&f);
        out.tops = self.tops.map(&f);
        out.bottoms = self.bottoms.map(&f);
        out
    }

    /// The position on the mirrored board: same colours, side to move and counters.
    pub fn mirrored(&self) -> Position {
        self.map_cells(mirror_bits)
    }

    /// The position turned half a turn with the colours swapped, the side to move included:
    /// Black's problem seen as White's. The counters are kept (the full-move number, which no
    /// rule reads, then no longer matches the side to move).
    pub fn flipped(&self) -> Position {
        let mut out = self.map_cells(rotate_bits);
        out.colors.swap(0, 1);
        out.side = self.side.other();
        out
    }

    /// The position from the side to move's point of view: itself when White is to move,
    /// [`Position::flipped`] when Black is.
    pub fn from_mover(&self) -> Position {
        match self.side {
            Color::White => self.clone(),
            Color::Black => self.flipped(),
        }
    }
}

/// The action index `index` seen from the side to move of `position` (the identity for White,
/// the half turn for Black), matching [`Position::from_mover`].
pub fn action_from_mover(side: Color, index: usize) -> usize {
    match side {
        Color::White => index,
        Color::Black => rotated_action(index),
    }
}

/// The action index of `mv`, seen from the side to move `side`.
pub fn move_index_from_mover(side: Color, mv: Move) -> usize {
    action_from_mover(side, action_index(mv))
}
