//! The dense action index space: every path of cells a move can take on an empty board.
//!
//! Paths are listed start cell by start cell (a1 first); for each start, the 2-cell paths `se`
//! by end cell, then the 3-cell paths `sme` by middle then end cell. The middle is the start
//! (top cube of a stack leaving), a cell one or two steps away in a line (a stack's first
//! action), and the end is a neighbour of the middle or a cell a stack can reach from it. A
//! move's index depends only on its path, never on the position, so policy targets, legal masks
//! and golden files agree; in one position a path names at most one move.

use std::sync::OnceLock;

use crate::geometry::{Cell, NEIGHBOR, NEIGHBOR2, NEIGHBORS, bits};
use crate::moves::Move;
use crate::position::Position;

/// Middle value used in the lookup key of 2-cell paths.
const NO_MIDDLE_KEY: usize = 45;

struct Table {
    /// Path of each index: start, middle (or 45), end.
    paths: Vec<[u8; 3]>,
    /// `index[(s * 46 + m) * 45 + e]` = action index + 1, 0 when no such path.
    index: Vec<u16>,
}

/// Cells a stack on `s` can reach in one or two steps in a line (on an empty board).
fn reach2(s: usize) -> u64 {
    let mut out = 0;
    for (&one, &two) in NEIGHBOR[s].iter().zip(&NEIGHBOR2[s]) {
        // Off-board entries are NO_CELL (63), whose bit is masked away below.
        out |= (1u64 << one) | (1u64 << two);
    }
    out & crate::geometry::ALL_CELLS
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut paths = Vec::new();
        for (s, &neighbors) in NEIGHBORS.iter().enumerate().take(Cell::COUNT) {
            for e in bits(neighbors) {
                paths.push([s as u8, NO_MIDDLE_KEY as u8, e as u8]);
            }
            let middles = reach2(s) | 1 << s;
            for m in bits(middles) {
                let ends = if m == s {
                    neighbors
                } else if neighbors >> m & 1 == 1 {
                    reach2(m)
                } else {
                    NEIGHBORS[m] | 1 << m
                };
                // A stack's one-action move `see` has its end as middle.
                let ends = if m != s { ends | 1 << m } else { ends };
                for e in bits(ends) {
                    paths.push([s as u8, m as u8, e as u8]);
                }
            }
        }
        let mut index = vec![0u16; 45 * 46 * 45];
        for (i, p) in paths.iter().enumerate() {
            index[key(p[0] as usize, p[1] as usize, p[2] as usize)] = (i + 1) as u16;
        }
        Table { paths, index }
    })
}

#[inline]
fn key(s: usize, m: usize, e: usize) -> usize {
    (s * 46 + m) * 45 + e
}

/// Number of actions (paths).
pub fn num_actions() -> usize {
    table().paths.len()
}

/// The index of a move's path.
pub fn action_index(mv: Move) -> usize {
    let m = mv.middle().map_or(NO_MIDDLE_KEY, Cell::index);
    let i = table().index[key(mv.start().index(), m, mv.end().index())];
    debug_assert!(i > 0, "every move's path is in the table: {mv}");
    i as usize - 1
}

/// The path of an index: its cells and how many of them (2 or 3).
pub fn action_path(index: usize) -> Option<([Cell; 3], usize)> {
    let p = table().paths.get(index)?;
    let cell = |i: u8| Cell::new(i as usize).expect("table cells are on the board");
    Some(if p[1] as usize == NO_MIDDLE_KEY {
        ([cell(p[0]), cell(p[2]), cell(p[2])], 2)
    } else {
        ([cell(p[0]), cell(p[1]), cell(p[2])], 3)
    })
}

/// The legal move with this index in `position`, if any.
pub fn action_move(position: &Position, index: usize) -> Option<Move> {
    let (cells, n) = action_path(index)?;
    position
        .move_from_path(cells, n)
        .filter(|&mv| position.is_legal(mv))
}
