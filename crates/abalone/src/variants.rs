//! The start layouts and the doubles variants.

use std::fmt;
use std::str::FromStr;

use crate::Error;
use crate::position::{Color, Mode, Position, Rules, Seat, SeatOrder, Setup};

/// A start layout and the rules that go with it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Black on A1-A5, B1-B6, C3-C5; White opposite.
    Standard,
    /// Two daisies a side: Black around B2 and H8, White around B5 and H5.
    BelgianDaisy,
    /// Two daisies a side, one row in: Black around C2 and G8, White around C6 and G4.
    GermanDaisy,
    /// Four players from the Belgian daisy: seat 0 Black B2, 1 White H5, 2 Black H8, 3 White B5.
    Doubles {
        /// Who moves after whom.
        order: SeatOrder,
        /// Whether the junction rule holds (without it a seat may move any marble of its colour
        /// from the start, and the moves are those of the two-player game).
        junction: bool,
    },
}

/// The Belgian daisy's four daisies, by seat (0 Black B2, 1 White H5, 2 Black H8, 3 White B5).
const BELGIAN_DAISIES: [&str; 4] = [
    "a1 a2 b1 b2 b3 c2 c3",
    "g4 g5 h4 h5 h6 i5 i6",
    "g7 g8 h7 h8 h9 i8 i9",
    "a4 a5 b4 b5 b6 c5 c6",
];

impl Variant {
    /// Every variant, in the order of their names in help texts.
    pub const ALL: [Variant; 7] = [
        Variant::Standard,
        Variant::BelgianDaisy,
        Variant::GermanDaisy,
        Variant::Doubles {
            order: SeatOrder::Clockwise,
            junction: true,
        },
        Variant::Doubles {
            order: SeatOrder::CounterClockwise,
            junction: true,
        },
        Variant::Doubles {
            order: SeatOrder::Clockwise,
            junction: false,
        },
        Variant::Doubles {
            order: SeatOrder::CounterClockwise,
            junction: false,
        },
    ];

    /// The name used on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::BelgianDaisy => "belgian-daisy",
            Variant::GermanDaisy => "german-daisy",
            Variant::Doubles {
                order: SeatOrder::Clockwise,
                junction: true,
            } => "doubles",
            Variant::Doubles {
                order: SeatOrder::CounterClockwise,
                junction: true,
            } => "doubles-0321",
            Variant::Doubles {
                order: SeatOrder::Clockwise,
                junction: false,
            } => "doubles-nojunction",
            Variant::Doubles {
                order: SeatOrder::CounterClockwise,
                junction: false,
            } => "doubles-0321-nojunction",
        }
    }

    /// The rules of the variant (default draw counter, no ply cap).
    pub fn rules(self) -> Rules {
        let mode = match self {
            Variant::Doubles { order, .. } => Mode::Doubles(order),
            _ => Mode::TwoPlayers,
        };
        Rules {
            mode,
            ..Rules::default()
        }
    }

    /// The start position, Black (seat 0) to move.
    pub fn start(self) -> Position {
        let mut setup = Setup::empty();
        let black = Seat::first_of(Color::Black);
        let white = Seat::first_of(Color::White);
        match self {
            Variant::Standard => {
                setup.place(black, "a1 a2 a3 a4 a5 b1 b2 b3 b4 b5 b6 c3 c4 c5");
                setup.place(white, "i5 i6 i7 i8 i9 h4 h5 h6 h7 h8 h9 g5 g6 g7");
            }
            Variant::BelgianDaisy => {
                for (k, daisy) in BELGIAN_DAISIES.iter().enumerate() {
                    setup.place(if k % 2 == 0 { black } else { white }, daisy);
                }
            }
            Variant::GermanDaisy => {
                setup.place(black, "b1 b2 c1 c2 c3 d2 d3 f7 f8 g7 g8 g9 h8 h9");
                setup.place(white, "b5 b6 c5 c6 c7 d6 d7 f3 f4 g3 g4 g5 h4 h5");
            }
            Variant::Doubles { junction, .. } => {
                for (seat, daisy) in Seat::ALL.into_iter().zip(BELGIAN_DAISIES) {
                    setup.place(seat, daisy);
                }
                // Without the rule, both junctions count as made from the start.
                setup.junction = [!junction; 2];
            }
        }
        setup.rules = self.rules();
        Position::from_setup(&setup).expect("the start layouts are valid")
    }

    /// `position` under this variant's rules: the seat order of doubles, and without the junction
    /// rule both junctions made. The draw counter and ply cap stay as they are.
    ///
    /// # Errors
    /// [`Error::Rules`] when a doubles position meets a two-player variant or the reverse.
    pub fn adopt(self, position: Position) -> Result<Position, Error> {
        let rules = Rules {
            mode: self.rules().mode,
            ..position.rules()
        };
        let mut position = position.with_rules(rules).map_err(|_| {
            Error::Rules(if self.rules().is_doubles() {
                format!(
                    "variant {self} needs a doubles position (a seat 0-3 to move, junction flags)"
                )
            } else {
                format!("variant {self} is a two-player game; this is a doubles position (use --variant doubles or doubles-0321)")
            })
        })?;
        if let Variant::Doubles {
            junction: false, ..
        } = self
        {
            position.junction = [true; 2];
        }
        Ok(position)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = Error;

    fn from_str(text: &str) -> Result<Variant, Error> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(text))
            .ok_or_else(|| Error::UnknownVariant(text.to_string()))
    }
}

/// The fixed start layouts: the seed is ignored.
impl pjlab_core::SetupVariant for Variant {
    type Game = Position;

    fn start(self, _seed: u64) -> Position {
        Variant::start(self)
    }

    fn adopt(self, position: Position) -> Result<Position, pjlab_core::Error> {
        Variant::adopt(self, position).map_err(|e| pjlab_core::Error::Adopt {
            variant: self.to_string(),
            reason: e.to_string(),
        })
    }
}
