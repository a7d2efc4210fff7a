//! The grid: [`Cell`], [`Map`] (size, walls, zones) and its text file format.
//!
//! # Map files
//! One line a row, the top row first; every row the same length, 1 to 32 rows and columns.
//! - `.` a free cell, `#` a wall;
//! - `F`, `P`, `C` a free cell of that type's zone (where its zone objects are dealt);
//! - lines starting with `;` are comments; blank lines and trailing spaces are ignored.
//!
//! A map without any zone letter gets the spec's zones (F rows 3-8 x columns 3-9, P rows 13-18 x
//! columns 3-9, C rows 13-18 x columns 13-18, 1-based) on the free cells of them that exist.
//!
//! ```text
//! ; a 6 x 4 arena with a pillar
//! FF....
//! ..##..
//! ..##..
//! PP..CC
//! ```

use std::fmt;

use crate::Object;

/// Largest number of rows or columns.
pub const MAX_SIDE: usize = 32;
/// Largest number of cells.
pub const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;

/// A cell, 0-based (row 0 is the top row, column 0 the left column).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// 0-based row, from the top.
    pub row: u8,
    /// 0-based column, from the left.
    pub col: u8,
}

impl Cell {
    /// The cell at `(row, col)`, 0-based.
    pub const fn new(row: u8, col: u8) -> Cell {
        Cell { row, col }
    }

    /// The Chebyshev (king-move) distance to `other`.
    #[inline]
    pub fn chebyshev(self, other: Cell) -> u8 {
        self.row
            .abs_diff(other.row)
            .max(self.col.abs_diff(other.col))
    }

    /// The Manhattan (4-connected) distance to `other`.
    #[inline]
    pub fn manhattan(self, other: Cell) -> u16 {
        self.row.abs_diff(other.row) as u16 + self.col.abs_diff(other.col) as u16
    }
}

impl fmt::Display for Cell {
    /// `r,c`, 0-based.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.row, self.col)
    }
}

/// A rectangle of cells, 1-based and inclusive as the rulebook writes zones
/// (`rows 3-8 x columns 3-9`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rect {
    /// First and last row, 1-based, inclusive.
    pub rows: (u8, u8),
    /// First and last column, 1-based, inclusive.
    pub cols: (u8, u8),
}

impl Rect {
    /// The spec's zone of `object` on the 20 x 20 grid.
    pub fn spec_zone(object: Object) -> Rect {
        match object {
            Object::Flamme => Rect {
                rows: (3, 8),
                cols: (3, 9),
            },
            Object::Potion => Rect {
                rows: (13, 18),
                cols: (3, 9),
            },
            Object::Citrouille => Rect {
                rows: (13, 18),
                cols: (13, 18),
            },
        }
    }

    /// Whether the 0-based `cell` lies inside.
    pub fn contains(self, cell: Cell) -> bool {
        let (r, c) = (cell.row as u16 + 1, cell.col as u16 + 1);
        (self.rows.0 as u16..=self.rows.1 as u16).contains(&r)
            && (self.cols.0 as u16..=self.cols.1 as u16).contains(&c)
    }
}

/// What is wrong with a map file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MapErrorKind {
    /// A character other than `.`, `#`, `F`, `P`, `C`.
    UnexpectedChar(char),
    /// A row whose length differs from the first row's.
    RaggedRow {
        /// The first row's length.
        expected: usize,
        /// This row's length.
        found: usize,
    },
    /// More than 32 rows or columns.
    TooLarge,
    /// No rows at all.
    Empty,
}

impl fmt::Display for MapErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MapErrorKind::UnexpectedChar(c) => write!(f, "unexpected character {c:?}"),
            MapErrorKind::RaggedRow { expected, found } => {
                write!(f, "row of {found} cells, expected {expected}")
            }
            MapErrorKind::TooLarge => write!(f, "more than {MAX_SIDE} rows or columns"),
            MapErrorKind::Empty => write!(f, "no rows"),
        }
    }
}

/// A map file that cannot be read, with where (1-based line and column of the file).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("map line {line}, column {column}: {kind}")]
pub struct ParseMapError {
    /// 1-based line of the file.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What is wrong.
    pub kind: MapErrorKind,
}

/// The static grid: size, walls, and the zone (if any) of every cell.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Map {
    width: u8,
    height: u8,
    walls: Vec<bool>,
    zones: Vec<Option<Object>>,
}

impl Default for Map {
    /// The spec's map: 20 x 20, no walls, its three zones.
    fn default() -> Map {
        let mut map = Map::open(20, 20).expect("20 x 20 fits");
        map.set_spec_zones();
        map
    }
}

impl Map {
    /// A `width x height` grid without walls or zones (`None` outside 1..=32 each).
    pub fn open(width: usize, height: usize) -> Option<Map> {
        let fits = (1..=MAX_SIDE).contains(&width) && (1..=MAX_SIDE).contains(&height);
        fits.then(|| Map {
            width: width as u8,
            height: height as u8,
            walls: vec![false; width * height],
            zones: vec![None; width * height],
        })
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.width as usize
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.height as usize
    }

    fn index(&self, cell: Cell) -> usize {
        cell.row as usize * self.width() + cell.col as usize
    }

    /// Whether `cell` is on the grid.
    pub fn contains(&self, cell: Cell) -> bool {
        (cell.row as usize) < self.height() && (cell.col as usize) < self.width()
    }

    /// Whether `cell` (on the grid) is a wall.
    pub fn is_wall(&self, cell: Cell) -> bool {
        self.walls[self.index(cell)]
    }

    /// The zone `cell` (on the grid) belongs to.
    pub fn zone(&self, cell: Cell) -> Option<Object> {
        self.zones[self.index(cell)]
    }

    /// Makes `cell` (on the grid) a wall or a free cell. A wall belongs to no zone.
    pub fn set_wall(&mut self, cell: Cell, wall: bool) {
        let i = self.index(cell);
        self.walls[i] = wall;
        if wall {
            self.zones[i] = None;
        }
    }

    /// Puts the free cells of `rect` into `object`'s zone.
    pub fn set_zone(&mut self, object: Object, rect: Rect) {
        for i in 0..self.walls.len() {
            let cell = self.cell(i);
            if rect.contains(cell) && !self.walls[i] {
                self.zones[i] = Some(object);
            }
        }
    }

    /// Puts the spec's three zones on the free cells of them that exist.
    pub fn set_spec_zones(&mut self) {
        for object in Object::ALL {
            self.set_zone(object, Rect::spec_zone(object));
        }
    }

    fn cell(&self, index: usize) -> Cell {
        Cell::new((index / self.width()) as u8, (index % self.width()) as u8)
    }

    /// Every cell, row by row.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.walls.len()).map(|i| self.cell(i))
    }

    /// Reads a map file (see the module docs).
    ///
    /// # Errors
    /// [`ParseMapError`] with the line and column of the first fault.
    pub fn parse(text: &str) -> Result<Map, ParseMapError> {
        let mut rows: Vec<(usize, Vec<char>)> = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim_end();
            if line.is_empty() || line.starts_with(';') {
                continue;
            }
            let chars: Vec<char> = line.chars().collect();
            let err = |column, kind| ParseMapError {
                line: n + 1,
                column,
                kind,
            };
            if let Some((_, first)) = rows.first()
                && first.len() != chars.len()
            {
                let kind = MapErrorKind::RaggedRow {
                    expected: first.len(),
                    found: chars.len(),
                };
                return Err(err(chars.len().min(first.len()) + 1, kind));
            }
            if chars.len() > MAX_SIDE || rows.len() == MAX_SIDE {
                return Err(err(1, MapErrorKind::TooLarge));
            }
            if let Some(col) = chars.iter().position(|c| !".#FPC".contains(*c)) {
                return Err(err(col + 1, MapErrorKind::UnexpectedChar(chars[col])));
            }
            rows.push((n + 1, chars));
        }
        let Some((_, first)) = rows.first() else {
            let line = text.lines().count().max(1);
            return Err(ParseMapError {
                line,
                column: 1,
                kind: MapErrorKind::Empty,
            });
        };
        let mut map = Map::open(first.len(), rows.len()).expect("size checked above");
        let mut any_zone = false;
        for (r, (_, chars)) in rows.iter().enumerate() {
            for (c, &ch) in chars.iter().enumerate() {
                let i = r * map.width() + c;
                map.walls[i] = ch == '#';
                map.zones[i] = Object::from_letter(ch);
                any_zone |= map.zones[i].is_some();
            }
        }
        if !any_zone {
            map.set_spec_zones();
        }
        Ok(map)
    }

    /// The map file text ([`Map::parse`] reads it back to an equal map when it has a zone; a
    /// map without zones reads back with the spec's zones).
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for r in 0..self.height() {
            for c in 0..self.width() {
                let i = r * self.width() + c;
                out.push(match (self.walls[i], self.zones[i]) {
                    (true, _) => '#',
                    (false, Some(o)) => o.letter(),
                    (false, None) => '.',
                });
            }
            out.push('\n');
        }
        out
    }
}

/// A map is kept (in run records, JSON and TOML) as its map-file text.
impl serde::Serialize for Map {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_text())
    }
}

impl<'de> serde::Deserialize<'de> for Map {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Map, D::Error> {
        let text = String::deserialize(deserializer)?;
        Map::parse(&text).map_err(serde::de::Error::custom)
    }
}
