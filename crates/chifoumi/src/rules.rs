//! [`Rules`] (every parameter of the spec, public and unvalidated) and the validated layout the
//! states share.

use std::sync::Arc;

use crate::map::{Cell, MAX_CELLS, Map};
use crate::{Error, Object};

/// Largest visibility radius: the observation window is at most 11 x 11.
pub const MAX_RADIUS: usize = 5;
/// Largest number of players (the arena).
pub const MAX_PLAYERS: usize = 8;
/// Longest game (rounds): a game's turn count fits in 16 bits.
pub const MAX_ROUNDS: u16 = 10_000;
/// Longest match (games): scores fit in 16 bits.
pub const MAX_GAMES: u16 = 10_000;

/// The rules of a game and a match. `Default` is the spec's. Serialised (in run records) with
/// the map as its text.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Rules {
    /// The grid, walls and zones (default: 20 x 20, no walls, the spec's zones).
    pub map: Map,
    /// Objects of each type dealt inside its zone at each deal (objects; default 6).
    pub zone_objects: u8,
    /// Objects of each type dealt on uniformly random free cells at each deal, zones included
    /// (objects; default 4).
    pub random_objects: u8,
    /// Visibility radius, Chebyshev (cells; default 2, a 5 x 5 window; at most 5).
    pub radius: u8,
    /// Rounds without a duel after which a game is a draw (rounds of one turn per player;
    /// default 100, i.e. 200 turns).
    pub max_rounds: u16,
    /// Games in a match (games; default 10).
    pub games: u16,
    /// Whether the first mover alternates from game to game (default true; otherwise player 0
    /// always moves first).
    pub alternate_first: bool,
    /// Whether `STAY` (pass) is an action (default false).
    pub stay: bool,
    /// Whether the next game of a match keeps the uncollected objects instead of dealing anew
    /// (default false; the players are placed anew either way).
    pub keep_objects: bool,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            map: Map::default(),
            zone_objects: 6,
            random_objects: 4,
            radius: 2,
            max_rounds: 100,
            games: 10,
            alternate_first: true,
            stay: false,
            keep_objects: false,
        }
    }
}

/// Cell codes of a state's cell array: bits 0-1 the object (0 none, 1 + its index), bit 2 a wall.
pub(crate) const WALL: u8 = 4;
/// Mask of the object bits.
pub(crate) const OBJECT_BITS: u8 = 3;

/// The validated, static part of the rules every state of a game points to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    pub width: u8,
    pub height: u8,
    /// Walls coded as [`WALL`], free cells 0; `MAX_CELLS` long, only `width * height` used.
    pub template: Vec<u8>,
    /// The zone of each cell: 0 none, 1 + the object's index.
    pub zone: Vec<u8>,
    /// The cell indices of each type's zone.
    pub zone_cells: [Vec<u16>; 3],
    /// The cell indices of every free (non-wall) cell.
    pub free_cells: Vec<u16>,
    pub zone_objects: u8,
    pub random_objects: u8,
    pub radius: u8,
    pub max_rounds: u16,
    pub stay: bool,
}

impl Layout {
    /// Number of cells of the grid.
    #[inline]
    pub fn cells(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// The index of `cell` in the cell array.
    #[inline]
    pub fn index(&self, cell: Cell) -> usize {
        cell.row as usize * self.width as usize + cell.col as usize
    }

    /// The cell of an index.
    #[inline]
    pub fn cell(&self, index: usize) -> Cell {
        let w = self.width as usize;
        Cell::new((index / w) as u8, (index % w) as u8)
    }

    /// Objects of each type at a deal.
    pub fn objects_per_type(&self) -> u16 {
        self.zone_objects as u16 + self.random_objects as u16
    }
}

impl Rules {
    /// Checks the rules for `players` players.
    ///
    /// # Errors
    /// [`Error::Rules`] when a parameter is out of range or the map cannot hold the objects
    /// and players.
    pub fn check(&self, players: usize) -> Result<(), Error> {
        self.layout(players).map(|_| ())
    }

    /// The validated layout for `players` players.
    pub(crate) fn layout(&self, players: usize) -> Result<Arc<Layout>, Error> {
        let bad = |s: String| Err(Error::Rules(s));
        if self.radius as usize > MAX_RADIUS {
            return bad(format!("radius {} above {MAX_RADIUS}", self.radius));
        }
        if self.max_rounds == 0 || self.games == 0 {
            return bad("max_rounds and games must be at least 1".into());
        }
        if self.max_rounds > MAX_ROUNDS || self.games > MAX_GAMES {
            return bad(format!(
                "max_rounds at most {MAX_ROUNDS} and games at most {MAX_GAMES} (turns and points are counted in 16 bits)"
            ));
        }
        if !(2..=MAX_PLAYERS).contains(&players) {
            return bad(format!("{players} players, expected 2 to {MAX_PLAYERS}"));
        }
        let map = &self.map;
        let mut template = vec![0u8; MAX_CELLS];
        let mut zone = vec![0u8; MAX_CELLS];
        let mut zone_cells: [Vec<u16>; 3] = Default::default();
        let mut free_cells = Vec::new();
        for (i, cell) in map.cells().enumerate() {
            if map.is_wall(cell) {
                template[i] = WALL;
                continue;
            }
            free_cells.push(i as u16);
            if let Some(o) = map.zone(cell) {
                zone[i] = 1 + o.index() as u8;
                zone_cells[o.index()].push(i as u16);
            }
        }
        for cell in map.cells() {
            let open = |r: i32, c: i32| {
                r >= 0
                    && c >= 0
                    && map.contains(Cell::new(r as u8, c as u8))
                    && !map.is_wall(Cell::new(r as u8, c as u8))
            };
            let (r, c) = (cell.row as i32, cell.col as i32);
            let neighbours = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)];
            if !map.is_wall(cell) && !neighbours.iter().any(|&(r, c)| open(r, c)) {
                return bad(format!("free cell {cell} has no free neighbour"));
            }
        }
        for o in Object::ALL {
            let n = zone_cells[o.index()].len();
            if n < self.zone_objects as usize {
                return bad(format!(
                    "zone {o} has {n} free cells for {} objects",
                    self.zone_objects
                ));
            }
        }
        let needed = 3 * (self.zone_objects as usize + self.random_objects as usize) + players;
        if free_cells.len() < needed {
            return bad(format!(
                "{} free cells for {needed} objects and players",
                free_cells.len()
            ));
        }
        Ok(Arc::new(Layout {
            width: map.width() as u8,
            height: map.height() as u8,
            template,
            zone,
            zone_cells,
            free_cells,
            zone_objects: self.zone_objects,
            random_objects: self.random_objects,
            radius: self.radius,
            max_rounds: self.max_rounds,
            stay: self.stay,
        }))
    }
}
