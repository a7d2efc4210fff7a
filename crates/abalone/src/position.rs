//! The game state: who holds which cell, who moves, the counters and the rules in force.

use pjlab_core::Outcome;

use crate::Error;
use crate::geometry::{ALL_CELLS, Bitboard, Cell, cells, neighbours};
pub use crate::seat::{Color, Mode, Seat, SeatOrder};

/// Marbles each side starts with.
pub const MARBLES: u32 = 14;
/// Ejections that win.
pub const EJECTIONS_TO_WIN: u8 = 6;
/// Default of [`Rules::no_ejection_plies`].
pub const DEFAULT_NO_EJECTION_PLIES: u16 = 100;

/// The rules in force: parameters, not board state. Part of the position (and of its text, where
/// they differ from the defaults) so that a position alone decides its future.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Two players or doubles (with its seat order).
    pub mode: Mode,
    /// Plies in a row without an ejection after which the game is drawn (the official rules have
    /// no draw; the lab needs one). `None`: never. Default 100 plies.
    pub no_ejection_plies: Option<u16>,
    /// Hard cap: the game is drawn once this many plies have been played since move 1 (counted
    /// from the move number and the side to move). `None` (default): no cap.
    pub max_plies: Option<u16>,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            mode: Mode::TwoPlayers,
            no_ejection_plies: Some(DEFAULT_NO_EJECTION_PLIES),
            max_plies: None,
        }
    }
}

impl Rules {
    /// Whether these are rules of doubles.
    #[inline]
    pub const fn is_doubles(&self) -> bool {
        matches!(self.mode, Mode::Doubles(_))
    }
}

/// An unvalidated position: what a parser yields and what [`Position::from_setup`] checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The marble on each cell (by dense rank, in notation order), labelled with its seat. In the
    /// two-player game Black's marbles are seat 0 and White's seat 1.
    pub board: [Option<Seat>; Cell::COUNT],
    /// The seat to move (its colour is the side to move).
    pub seat: Seat,
    /// Whether each colour's junction is made (doubles only).
    pub junction: [bool; 2],
    /// Marbles each colour has ejected (pushed off), by the ejecting colour.
    pub ejected: [u8; 2],
    /// Plies since the last ejection.
    pub quiet_plies: u16,
    /// Move number, from 1; grows after each White move.
    pub move_number: u16,
    /// The rules in force.
    pub rules: Rules,
}

impl Setup {
    /// An empty board, Black to move, move 1, default two-player rules.
    pub fn empty() -> Setup {
        Setup {
            board: [None; Cell::COUNT],
            seat: Seat(0),
            junction: [false; 2],
            ejected: [0; 2],
            quiet_plies: 0,
            move_number: 1,
            rules: Rules::default(),
        }
    }

    /// Puts a marble of `seat` on each named cell (the built-in layouts).
    ///
    /// # Panics
    /// If a name is not a cell.
    pub(crate) fn place(&mut self, seat: Seat, names: &str) -> &mut Setup {
        for name in names.split_whitespace() {
            let cell = Cell::parse(name).unwrap_or_else(|| panic!("no cell {name:?}"));
            self.board[cell.dense()] = Some(seat);
        }
        self
    }
}

/// A validated position: bitboards by colour and by label, counters, rules. `Clone` is the search
/// primitive (80 bytes, no heap).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// Marbles by colour.
    pub(crate) marbles: [Bitboard; 2],
    /// Marbles labelled with seat 2 or 3 (doubles; always empty in the two-player game).
    pub(crate) seconds: Bitboard,
    pub(crate) ejected: [u8; 2],
    pub(crate) seat: Seat,
    pub(crate) junction: [bool; 2],
    pub(crate) quiet_plies: u16,
    pub(crate) move_number: u16,
    pub(crate) rules: Rules,
}

const _: () = assert!(std::mem::size_of::<Position>() <= 80);

impl Position {
    /// Checks a setup against the rules.
    ///
    /// A doubles setup whose daisies already touch gets its junction flag set (the rule checks
    /// after every move, so a reachable position always has it).
    ///
    /// # Errors
    /// When a colour has more than 14 marbles on the board (or more than 14 with those the
    /// opponent ejected), more than 6 ejections, both sides have won, a seat does not exist in the
    /// mode, or the move number is 0.
    pub fn from_setup(setup: &Setup) -> Result<Position, Error> {
        let doubles = setup.rules.is_doubles();
        let mut marbles = [0; 2];
        let mut seconds = 0;
        let mut per_seat = [0u32; 4];
        for (cell, seat) in Cell::all().zip(setup.board) {
            let Some(seat) = seat else { continue };
            if !doubles && seat.is_second() {
                return Err(Error::Position(format!(
                    "seat {} on {cell} in a two-player game",
                    seat.index()
                )));
            }
            marbles[seat.color().index()] |= cell.bit();
            if seat.is_second() {
                seconds |= cell.bit();
            }
            per_seat[seat.index()] += 1;
        }
        if !doubles && setup.seat.is_second() {
            return Err(Error::Position(format!(
                "seat {} to move in a two-player game",
                setup.seat.index()
            )));
        }
        for color in Color::BOTH {
            let on_board = marbles[color.index()].count_ones();
            let lost = u32::from(setup.ejected[color.other().index()]);
            if on_board + lost > MARBLES {
                return Err(Error::Position(format!(
                    "{} has {on_board} marbles on the board and {lost} ejected, more than {MARBLES}",
                    color.name()
                )));
            }
            if setup.ejected[color.index()] > EJECTIONS_TO_WIN {
                return Err(Error::Position(format!(
                    "{} has ejected {} marbles, more than {EJECTIONS_TO_WIN}",
                    color.name(),
                    setup.ejected[color.index()]
                )));
            }
        }
        if setup.ejected.iter().all(|&e| e >= EJECTIONS_TO_WIN) {
            return Err(Error::Position("both sides have ejected 6 marbles".into()));
        }
        if doubles && let Some(seat) = (0..4).find(|&s| per_seat[s] > MARBLES / 2) {
            return Err(Error::Position(format!(
                "seat {seat} has {} marbles, more than {}",
                per_seat[seat],
                MARBLES / 2
            )));
        }
        if setup.move_number == 0 {
            return Err(Error::Position("move numbers start at 1".into()));
        }
        let mut position = Position {
            marbles,
            seconds,
            ejected: setup.ejected,
            seat: setup.seat,
            junction: if doubles { setup.junction } else { [false; 2] },
            quiet_plies: setup.quiet_plies,
            move_number: setup.move_number,
            rules: setup.rules,
        };
        position.update_junctions();
        Ok(position)
    }

    /// The unvalidated form of this position.
    pub fn to_setup(&self) -> Setup {
        let mut board = [None; Cell::COUNT];
        for (slot, cell) in board.iter_mut().zip(Cell::all()) {
            *slot = self.seat_at(cell);
        }
        Setup {
            board,
            seat: self.seat,
            junction: self.junction,
            ejected: self.ejected,
            quiet_plies: self.quiet_plies,
            move_number: self.move_number,
            rules: self.rules,
        }
    }

    /// The same board under other rules of the same mode's shape (a draw counter, a ply cap, the
    /// other seat order).
    ///
    /// # Errors
    /// When `rules` change two players to doubles or back: the marbles' labels and the seat to
    /// move would not fit.
    pub fn with_rules(mut self, rules: Rules) -> Result<Position, Error> {
        if rules.is_doubles() != self.rules.is_doubles() {
            let name = |r: Rules| {
                if r.is_doubles() {
                    "doubles"
                } else {
                    "two-player"
                }
            };
            return Err(Error::Rules(format!(
                "a {} position cannot be played under {} rules",
                name(self.rules),
                name(rules)
            )));
        }
        self.rules = rules;
        Ok(self)
    }

    /// The rules in force.
    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The colour to move (the team, in doubles).
    #[inline]
    pub fn color_to_move(&self) -> Color {
        self.seat.color()
    }

    /// The seat to move: 0 or 1 in the two-player game, 0..4 in doubles.
    #[inline]
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// Whether `color`'s junction is made (always false in the two-player game).
    #[inline]
    pub fn junction(&self, color: Color) -> bool {
        self.junction[color.index()]
    }

    /// Marbles of `color`.
    #[inline]
    pub fn marbles(&self, color: Color) -> Bitboard {
        self.marbles[color.index()]
    }

    /// Marbles labelled with `seat` (in the two-player game, seat 0 and 1 are the colours).
    #[inline]
    pub fn seat_marbles(&self, seat: Seat) -> Bitboard {
        let own = self.marbles[seat.color().index()];
        if seat.is_second() {
            own & self.seconds
        } else {
            own & !self.seconds
        }
    }

    /// Every marble.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.marbles[0] | self.marbles[1]
    }

    /// Every empty cell.
    #[inline]
    pub fn empty_cells(&self) -> Bitboard {
        ALL_CELLS & !self.occupied()
    }

    /// The marbles the seat to move may move: its colour's, or before the junction (doubles)
    /// only those labelled with its seat.
    #[inline]
    pub fn movable(&self) -> Bitboard {
        let color = self.seat.color();
        if self.rules.is_doubles() && !self.junction[color.index()] {
            self.seat_marbles(self.seat)
        } else {
            self.marbles[color.index()]
        }
    }

    /// The seat label of the marble on `cell`, if any.
    pub fn seat_at(&self, cell: Cell) -> Option<Seat> {
        let bit = cell.bit();
        let color = Color::BOTH
            .into_iter()
            .find(|c| self.marbles[c.index()] & bit != 0)?;
        let second = if self.seconds & bit != 0 { 2 } else { 0 };
        Some(Seat(color as u8 + second))
    }

    /// Marbles `color` has ejected.
    #[inline]
    pub fn ejected(&self, color: Color) -> u8 {
        self.ejected[color.index()]
    }

    /// Plies since the last ejection.
    #[inline]
    pub fn quiet_plies(&self) -> u16 {
        self.quiet_plies
    }

    /// The move number, from 1; it grows after each White move.
    #[inline]
    pub fn move_number(&self) -> u16 {
        self.move_number
    }

    /// Plies played since move 1 with Black to move.
    #[inline]
    pub fn ply(&self) -> u32 {
        2 * (u32::from(self.move_number) - 1) + self.seat.color().index() as u32
    }

    /// The side that has ejected six marbles, if any.
    #[inline]
    pub fn winner(&self) -> Option<Color> {
        Color::BOTH
            .into_iter()
            .find(|c| self.ejected[c.index()] >= EJECTIONS_TO_WIN)
    }

    /// `Some` once the game is over: six ejections win; the no-ejection counter and the ply cap
    /// draw.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(color) = self.winner() {
            return Some(Outcome::Win(color.side()));
        }
        let quiet = self
            .rules
            .no_ejection_plies
            .is_some_and(|n| self.quiet_plies >= n);
        let capped = self
            .rules
            .max_plies
            .is_some_and(|n| self.ply() >= u32::from(n));
        (quiet || capped).then_some(Outcome::Draw)
    }

    /// A 64-bit key of the board, labels, seat, junctions, ejections, counters and rules.
    pub fn hash(&self) -> u64 {
        let counters = u64::from(self.seat.0)
            | u64::from(self.junction[0]) << 2
            | u64::from(self.junction[1]) << 3
            | u64::from(self.ejected[0]) << 4
            | u64::from(self.ejected[1]) << 8
            | u64::from(self.quiet_plies) << 12
            | u64::from(self.move_number) << 28
            | match self.rules.mode {
                Mode::TwoPlayers => 0,
                Mode::Doubles(SeatOrder::Clockwise) => 1 << 44,
                Mode::Doubles(SeatOrder::CounterClockwise) => 2 << 44,
            };
        let limits = u64::from(self.rules.no_ejection_plies.map_or(0, |n| u32::from(n) + 1))
            | u64::from(self.rules.max_plies.map_or(0, |n| u32::from(n) + 1)) << 20;
        let words = [
            self.marbles[0] as u64,
            (self.marbles[0] >> 64) as u64,
            self.marbles[1] as u64,
            (self.marbles[1] >> 64) as u64,
            self.seconds as u64,
            (self.seconds >> 64) as u64,
            counters,
            limits,
        ];
        let mut h = 0x243F_6A88_85A3_08D3_u64;
        for w in words {
            h = mix(h.rotate_left(23) ^ w);
        }
        h
    }

    /// Sets each colour's junction flag if one of its first daisy's marbles touches one of its
    /// second daisy's (doubles only; a made junction stays made).
    #[inline]
    pub(crate) fn update_junctions(&mut self) {
        if !self.rules.is_doubles() {
            return;
        }
        for color in Color::BOTH {
            let own = self.marbles[color.index()];
            if !self.junction[color.index()]
                && neighbours(own & !self.seconds) & own & self.seconds != 0
            {
                self.junction[color.index()] = true;
            }
        }
    }

    /// Every cell holding a marble, with its seat label, in notation order.
    pub fn pieces(&self) -> impl Iterator<Item = (Cell, Seat)> + '_ {
        cells(self.occupied()).map(|cell| (cell, self.seat_at(cell).expect("occupied")))
    }
}

/// A 64-bit finaliser (SplitMix64's): every input bit affects every output bit.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
