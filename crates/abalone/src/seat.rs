//! Who plays: the colours, the seats of two players or of doubles, their order, and the mode.

use pjlab_core::Side;

/// The colour of a marble, and of the side (or team) that plays it. Black moves first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Moves first; starts on rows A-C (standard).
    Black,
    /// Moves second.
    White,
}

impl Color {
    /// Both colours, Black first.
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];

    /// 0 for Black, 1 for White.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other colour.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The game-API side: Black is [`Side::First`].
    #[inline]
    pub const fn side(self) -> Side {
        match self {
            Color::Black => Side::First,
            Color::White => Side::Second,
        }
    }

    /// The colour playing `side`.
    #[inline]
    pub const fn of_side(side: Side) -> Color {
        match side {
            Side::First => Color::Black,
            Side::Second => Color::White,
        }
    }

    /// `black` or `white`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

/// A seat at the table: 0 and 2 play Black, 1 and 3 play White. In the two-player game only
/// seats 0 (Black) and 1 (White) exist. In doubles every marble carries the seat of the daisy it
/// started in: seat 0 daisy B2, 1 daisy H5, 2 daisy H8, 3 daisy B5.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Seat(pub(crate) u8);

impl Seat {
    /// The four seats, 0..4.
    pub const ALL: [Seat; 4] = [Seat(0), Seat(1), Seat(2), Seat(3)];

    /// Seat `index` (0..4), if it exists.
    #[inline]
    pub const fn new(index: usize) -> Option<Seat> {
        if index < 4 {
            Some(Seat(index as u8))
        } else {
            None
        }
    }

    /// The seat of one colour's first daisy (seat 0 or 1): the only seat of the two-player game.
    #[inline]
    pub const fn first_of(color: Color) -> Seat {
        Seat(color as u8)
    }

    /// 0..4.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The colour this seat plays.
    #[inline]
    pub const fn color(self) -> Color {
        if self.0 & 1 == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Whether this is the second seat of its colour (2 or 3): its marbles are the "partner"
    /// labels of the position.
    #[inline]
    pub const fn is_second(self) -> bool {
        self.0 >= 2
    }

    /// The other seat of the same colour.
    #[inline]
    pub const fn partner(self) -> Seat {
        Seat(self.0 ^ 2)
    }
}

/// The order in which the four seats of doubles move. Teams alternate in both.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum SeatOrder {
    /// 0, 1, 2, 3, 0, ... (clockwise with row A at the bottom; the spec's default).
    #[default]
    Clockwise,
    /// 0, 3, 2, 1, 0, ... (variant `doubles-0321`).
    CounterClockwise,
}

impl SeatOrder {
    /// The seat after `seat`.
    #[inline]
    pub const fn next(self, seat: Seat) -> Seat {
        match self {
            SeatOrder::Clockwise => Seat((seat.0 + 1) & 3),
            SeatOrder::CounterClockwise => Seat((seat.0 + 3) & 3),
        }
    }

    /// The four digits of the order, `0123` or `0321`.
    pub const fn digits(self) -> &'static str {
        match self {
            SeatOrder::Clockwise => "0123",
            SeatOrder::CounterClockwise => "0321",
        }
    }
}

/// Two players, or four in two teams.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Mode {
    /// The classic game: seat 0 plays Black, seat 1 White.
    #[default]
    TwoPlayers,
    /// Doubles with classic material: four seats, marbles labelled by seat, the junction rule.
    Doubles(SeatOrder),
}
