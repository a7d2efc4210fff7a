//! The dense action index space: every move that some position allows, and nothing else.
//!
//! - In-line moves: a trailing cell and a direction whose first step stays on the board
//!   (312 = the directed neighbour pairs of the board).
//! - Broadsides: a line of 2 or 3 cells along an axis and one of the 4 directions across it,
//!   every destination on the board.
//! - The pass, last.
//!
//! Indices run in that order (cells in notation order, then directions, axes and lengths). Every
//! index names a move that is legal in some position, so the policy head wastes no output; the
//! table is built at compile time from the coordinates.

use crate::geometry::{Cell, Direction};
use crate::moves::{Broadside, Move, across};

const NONE: u16 = u16::MAX;

/// Whether a line of `len` from `first` along `axis`, moved in `dir`, stays on the board.
pub(crate) const fn broadside_fits(first: Cell, axis: Direction, len: u8, dir: Direction) -> bool {
    let mut cell = first;
    let mut k = 0;
    while k < len {
        if cell.step(dir).is_none() {
            return false;
        }
        if k + 1 < len {
            match cell.step(axis) {
                Some(next) => cell = next,
                None => return false,
            }
        }
        k += 1;
    }
    true
}

/// Slot of a broadside in [`Tables::broadside`]: `((cell * 3 + axis) * 2 + len - 2) * 4 + k`.
const fn broadside_slot(first: Cell, axis: usize, len: u8, k: usize) -> usize {
    ((first.dense() * 3 + axis) * 2 + (len as usize - 2)) * 4 + k
}

/// The index tables, and the number of indices (the pass included).
struct Tables {
    inline: [u16; Cell::COUNT * 6],
    broadside: [u16; Cell::COUNT * 3 * 2 * 4],
    moves: [Move; MAX_ACTIONS],
    count: usize,
}

/// An upper bound of the table's size.
const MAX_ACTIONS: usize = Cell::COUNT * 6 + Cell::COUNT * 3 * 2 * 4 + 1;

const TABLES: Tables = {
    let mut t = Tables {
        inline: [NONE; Cell::COUNT * 6],
        broadside: [NONE; Cell::COUNT * 3 * 2 * 4],
        moves: [Move::Pass; MAX_ACTIONS],
        count: 0,
    };
    let mut rank = 0;
    while rank < Cell::COUNT {
        let cell = match Cell::from_dense(rank) {
            Some(cell) => cell,
            None => panic!("rank in range"),
        };
        let mut d = 0;
        while d < 6 {
            let dir = Direction::ALL[d];
            if cell.step(dir).is_some() {
                t.inline[rank * 6 + d] = t.count as u16;
                t.moves[t.count] = Move::Inline {
                    trailing: cell,
                    dir,
                };
                t.count += 1;
            }
            d += 1;
        }
        rank += 1;
    }
    let mut rank = 0;
    while rank < Cell::COUNT {
        let first = match Cell::from_dense(rank) {
            Some(cell) => cell,
            None => panic!("rank in range"),
        };
        let mut a = 0;
        while a < 3 {
            let axis = Direction::AXES[a];
            let mut len = 2;
            while len <= 3 {
                let dirs = across(axis);
                let mut k = 0;
                while k < 4 {
                    if broadside_fits(first, axis, len, dirs[k]) {
                        t.broadside[broadside_slot(first, a, len, k)] = t.count as u16;
                        t.moves[t.count] = Move::Broadside(Broadside {
                            first,
                            axis,
                            len,
                            dir: dirs[k],
                        });
                        t.count += 1;
                    }
                    k += 1;
                }
                len += 1;
            }
            a += 1;
        }
        rank += 1;
    }
    t.count += 1; // the pass keeps the default `Move::Pass` in `moves`
    t
};

/// Number of action indices: in-line moves, broadsides and the pass.
pub const NUM_ACTIONS: usize = TABLES.count;

static INLINE: [u16; Cell::COUNT * 6] = TABLES.inline;
static BROADSIDE: [u16; Cell::COUNT * 3 * 2 * 4] = TABLES.broadside;
static MOVES: [Move; MAX_ACTIONS] = TABLES.moves;

/// The index of a move.
///
/// # Panics
/// If `mv` names a move no position allows (a step off the board): generated and parsed moves
/// never do.
pub fn action_index(mv: Move) -> usize {
    let index = match mv {
        Move::Inline { trailing, dir } => INLINE[trailing.dense() * 6 + dir.index()],
        Move::Broadside(b) => {
            let k = across(b.axis).iter().position(|&d| d == b.dir);
            match (k, (2..=3).contains(&b.len)) {
                (Some(k), true) => BROADSIDE[broadside_slot(b.first, b.axis.axis(), b.len, k)],
                _ => NONE,
            }
        }
        Move::Pass => return NUM_ACTIONS - 1,
    };
    assert!(index != NONE, "{mv} has no action index");
    usize::from(index)
}

/// The move with this index (legal or not in any given position), if the index exists.
pub fn action_move(index: usize) -> Option<Move> {
    (index < NUM_ACTIONS).then(|| MOVES[index])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_round_trips() {
        for index in 0..NUM_ACTIONS {
            let mv = action_move(index).unwrap();
            assert_eq!(action_index(mv), index, "{mv}");
        }
        assert_eq!(action_move(NUM_ACTIONS), None);
        assert_eq!(action_move(NUM_ACTIONS - 1), Some(Move::Pass));
    }

    #[test]
    fn counts_by_closed_form() {
        // In-line: each of the 3 axes has lines of 5, 6, 7, 8, 9, 8, 7, 6, 5 cells, so 52
        // neighbour pairs, walked both ways.
        let inline = (0..NUM_ACTIONS)
            .filter(|&i| matches!(action_move(i), Some(Move::Inline { .. })))
            .count();
        assert_eq!(inline, 3 * 52 * 2);
        // Broadsides: count lines by brute force over coordinates.
        let mut broadsides = 0;
        for cell in Cell::all() {
            for axis in Direction::AXES {
                for len in 2..=3u8 {
                    let mut line = vec![cell];
                    while line.len() < len as usize {
                        match line.last().unwrap().step(axis) {
                            Some(next) => line.push(next),
                            None => break,
                        }
                    }
                    if line.len() < len as usize {
                        continue;
                    }
                    for dir in Direction::ALL {
                        if dir.axis() != axis.axis() && line.iter().all(|c| c.step(dir).is_some()) {
                            broadsides += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(NUM_ACTIONS, inline + broadsides + 1);
    }
}
