//! Colours, roles and pieces (a cube or a two-cube stack).

use std::fmt;

use pjlab_core::Side;

/// A player's colour. White moves first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Moves first; starts on rows a and b; wins on row g.
    White = 0,
    /// Moves second; starts on rows g and f; wins on row a.
    Black = 1,
}

impl Color {
    /// The other colour.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The game-API side of this colour (White is [`Side::First`]).
    #[inline]
    pub const fn side(self) -> Side {
        match self {
            Color::White => Side::First,
            Color::Black => Side::Second,
        }
    }

    /// The colour playing `side`.
    #[inline]
    pub const fn from_side(side: Side) -> Color {
        match side {
            Side::First => Color::White,
            Side::Second => Color::Black,
        }
    }

    /// Lower-case name, `white` or `black`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

/// A cube's role. Rock takes scissors, scissors takes paper, paper takes rock; a wise never
/// captures and is never captured.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// `R`
    Rock = 0,
    /// `P`
    Paper = 1,
    /// `S`
    Scissors = 2,
    /// `W`
    Wise = 3,
}

impl Role {
    /// All four, in index order.
    pub const ALL: [Role; 4] = [Role::Rock, Role::Paper, Role::Scissors, Role::Wise];
    /// The three fighting roles.
    pub const FIGHTERS: [Role; 3] = [Role::Rock, Role::Paper, Role::Scissors];

    /// The role with this index (0..4).
    #[inline]
    pub(crate) const fn from_index(index: usize) -> Role {
        Self::ALL[index & 3]
    }

    /// Whether this role captures `other` (by role, cube or stack alike).
    #[inline]
    pub const fn beats(self, other: Role) -> bool {
        matches!(
            (self, other),
            (Role::Rock, Role::Scissors)
                | (Role::Scissors, Role::Paper)
                | (Role::Paper, Role::Rock)
        )
    }

    /// The role this one captures, if it is a fighter.
    #[inline]
    pub const fn prey(self) -> Option<Role> {
        match self {
            Role::Rock => Some(Role::Scissors),
            Role::Paper => Some(Role::Rock),
            Role::Scissors => Some(Role::Paper),
            Role::Wise => None,
        }
    }

    /// Whether this is a fighter (rock, paper or scissors).
    #[inline]
    pub const fn is_fighter(self) -> bool {
        !matches!(self, Role::Wise)
    }

    /// The role's letter in `color`'s case (`R` for a white rock, `r` for a black one).
    pub const fn letter(self, color: Color) -> char {
        let upper = match self {
            Role::Rock => 'R',
            Role::Paper => 'P',
            Role::Scissors => 'S',
            Role::Wise => 'W',
        };
        match color {
            Color::White => upper,
            Color::Black => upper.to_ascii_lowercase(),
        }
    }

    /// The colour and role of a letter (`R`, `p`, ...).
    pub const fn from_letter(letter: char) -> Option<(Color, Role)> {
        let color = if letter.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let role = match letter.to_ascii_uppercase() {
            'R' => Role::Rock,
            'P' => Role::Paper,
            'S' => Role::Scissors,
            'W' => Role::Wise,
            _ => return None,
        };
        Some((color, role))
    }
}

/// What stands on a cell: a single cube, or a stack of two cubes of one colour.
///
/// A `Piece` may describe a stack the rules forbid (a wise on a fighter); only validated
/// positions ([`crate::Position`]) are guaranteed free of them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// The role of the single cube, or of the stack's top cube: the piece's role.
    pub top: Role,
    /// The bottom cube of a stack; `None` for a single cube.
    pub bottom: Option<Role>,
}

impl Piece {
    /// A single cube.
    pub const fn cube(color: Color, role: Role) -> Piece {
        Piece {
            color,
            top: role,
            bottom: None,
        }
    }

    /// A stack, `top` on `bottom`.
    pub const fn stack(color: Color, top: Role, bottom: Role) -> Piece {
        Piece {
            color,
            top,
            bottom: Some(bottom),
        }
    }

    /// Whether the rules allow this piece (a wise may be on top only of a wise).
    pub const fn is_valid(self) -> bool {
        match self.bottom {
            Some(bottom) => !(matches!(self.top, Role::Wise) && bottom.is_fighter()),
            None => true,
        }
    }

    /// Whether it is a stack.
    pub const fn is_stack(self) -> bool {
        self.bottom.is_some()
    }
}

impl fmt::Display for Piece {
    /// PSN form: `R-` for a single cube, bottom then top for a stack (`WR` = rock on wise).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.bottom {
            None => write!(f, "{}-", self.top.letter(self.color)),
            Some(bottom) => {
                write!(
                    f,
                    "{}{}",
                    bottom.letter(self.color),
                    self.top.letter(self.color)
                )
            }
        }
    }
}
