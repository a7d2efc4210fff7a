//! The cell array every state holds (walls and objects), dealing, moving and windows.

use std::sync::Arc;

use rand::{Rng, RngExt};

use crate::map::{Cell, MAX_CELLS};
use crate::rules::{Layout, MAX_RADIUS, OBJECT_BITS, WALL};
use crate::{Action, Object};

/// Cells of the largest observation window.
pub const MAX_WINDOW: usize = (2 * MAX_RADIUS + 1) * (2 * MAX_RADIUS + 1);
/// Window code of a cell outside the grid (0 empty, 1-3 an object `1 + index`, 4 a wall).
pub const OFF_GRID: u8 = 5;

/// Walls and objects on the grid, with the layout they come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Board {
    pub layout: Arc<Layout>,
    pub cells: [u8; MAX_CELLS],
}

impl Board {
    /// The empty board (walls only).
    pub fn new(layout: Arc<Layout>) -> Board {
        let mut cells = [0u8; MAX_CELLS];
        cells.copy_from_slice(&layout.template);
        Board { layout, cells }
    }

    /// The object on `cell`, if any.
    #[inline]
    pub fn object_at(&self, cell: Cell) -> Option<Object> {
        object_of(self.cells[self.layout.index(cell)])
    }

    /// Whether `cell` is a wall.
    #[inline]
    pub fn is_wall(&self, cell: Cell) -> bool {
        self.cells[self.layout.index(cell)] == WALL
    }

    /// Puts `object` on the (free) `cell`, or clears it.
    pub fn set_object(&mut self, cell: Cell, object: Option<Object>) {
        let i = self.layout.index(cell);
        self.cells[i] = object.map_or(0, |o| 1 + o.index() as u8);
    }

    /// Removes and returns the object on `cell`.
    #[inline]
    pub fn take(&mut self, cell: Cell) -> Option<Object> {
        let i = self.layout.index(cell);
        let object = object_of(self.cells[i]);
        self.cells[i] &= !OBJECT_BITS;
        object
    }

    /// The cell one step from `cell` in direction `action` (`N`, `S`, `E`, `W`), if it is on
    /// the grid and not a wall. Any other action gives `None`.
    #[inline]
    pub fn step(&self, cell: Cell, action: Action) -> Option<Cell> {
        let (w, h) = (self.layout.width, self.layout.height);
        let next = match action {
            Action::N if cell.row > 0 => Cell::new(cell.row - 1, cell.col),
            Action::S if cell.row + 1 < h => Cell::new(cell.row + 1, cell.col),
            Action::E if cell.col + 1 < w => Cell::new(cell.row, cell.col + 1),
            Action::W if cell.col > 0 => Cell::new(cell.row, cell.col - 1),
            _ => return None,
        };
        (!self.is_wall(next)).then_some(next)
    }

    /// Removes every object and deals a fresh set: each type's zone objects on distinct random
    /// cells of its zone (Floyd's sampling), then its random objects on random free cells.
    pub fn deal_objects<R: Rng + ?Sized>(&mut self, rng: &mut R) {
        let layout = Arc::clone(&self.layout);
        self.cells.copy_from_slice(&layout.template);
        for object in Object::ALL {
            let zone = &layout.zone_cells[object.index()];
            let n = zone.len() as u32;
            let k = layout.zone_objects as u32;
            for j in n - k..n {
                let t = rng.random_range(0..=j);
                let pick = if self.cells[zone[t as usize] as usize] != 0 {
                    j
                } else {
                    t
                };
                self.cells[zone[pick as usize] as usize] = 1 + object.index() as u8;
            }
        }
        for object in Object::ALL {
            for _ in 0..layout.random_objects {
                let cell = self.random_empty(rng, &[]);
                self.set_object(cell, Some(object));
            }
        }
    }

    /// A uniformly random free cell without an object and outside `taken`. The rules checked
    /// that one exists.
    pub fn random_empty<R: Rng + ?Sized>(&self, rng: &mut R, taken: &[Cell]) -> Cell {
        let free = &self.layout.free_cells;
        let ok =
            |i: u16| self.cells[i as usize] == 0 && !taken.contains(&self.layout.cell(i as usize));
        for _ in 0..64 {
            let i = free[rng.random_range(0..free.len())];
            if ok(i) {
                return self.layout.cell(i as usize);
            }
        }
        // Crowded map: pick among the eligible cells by counting.
        let count = free.iter().filter(|&&i| ok(i)).count();
        let k = rng.random_range(0..count);
        let i = free
            .iter()
            .copied()
            .filter(|&i| ok(i))
            .nth(k)
            .expect("k < count");
        self.layout.cell(i as usize)
    }

    /// The window codes of the square of the layout's radius around `center`, row by row
    /// (0 empty, 1-3 an object, 4 a wall, 5 off the grid); the rest of the array is 0.
    pub fn window(&self, center: Cell) -> [u8; MAX_WINDOW] {
        let r = self.layout.radius as i32;
        let side = 2 * r + 1;
        let (w, h) = (self.layout.width as i32, self.layout.height as i32);
        let mut out = [0u8; MAX_WINDOW];
        for dr in -r..=r {
            for dc in -r..=r {
                let (row, col) = (center.row as i32 + dr, center.col as i32 + dc);
                let k = ((dr + r) * side + dc + r) as usize;
                out[k] = if row < 0 || col < 0 || row >= h || col >= w {
                    OFF_GRID
                } else {
                    self.cells[(row * w + col) as usize]
                };
            }
        }
        out
    }
}

/// The object coded in a cell or window code.
#[inline]
pub(crate) fn object_of(code: u8) -> Option<Object> {
    match code {
        1..=3 => Object::from_index(code as usize - 1),
        _ => None,
    }
}
