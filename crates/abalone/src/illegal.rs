//! Why a move is not legal: the cell walker's verdicts, each told in words.

use crate::geometry::Cell;
use crate::position::Color;

/// Why a move is not legal (the cell walker's verdict).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Illegal {
    /// The named cell holds no marble of the mover's colour.
    NoMarble(Cell),
    /// The marble belongs to the partner's daisy and the colour's junction is not made.
    NotYours(Cell),
    /// More than three own marbles in a row.
    TooMany,
    /// The group would move one of its own marbles off the board.
    SelfEjection,
    /// The opponents ahead are as many as the movers, or more.
    Outnumbered,
    /// An own marble sits right behind the pushed opponents.
    Blocked(Cell),
    /// A broadside destination is occupied.
    Occupied(Cell),
    /// A broadside destination is off the board, or the line leaves it.
    OffBoard,
    /// A broadside along its own axis, or of a length other than 2 or 3.
    NotABroadside,
    /// A pass while some other move is legal.
    PassWithMoves,
}

impl Illegal {
    /// The reason in words, naming the mover's colour.
    pub(crate) fn describe(self, color: Color) -> String {
        let color = color.name();
        match self {
            Illegal::NoMarble(cell) => format!("{cell} holds no {color} marble"),
            Illegal::NotYours(cell) => format!(
                "the marble on {cell} belongs to the partner's daisy and the {color} junction is not made"
            ),
            Illegal::TooMany => "a move moves at most 3 marbles (a 4th own marble blocks)".into(),
            Illegal::SelfEjection => "a marble may not move itself off the board".into(),
            Illegal::Outnumbered => "a push needs more marbles than the opponents it pushes".into(),
            Illegal::Blocked(cell) => {
                format!("the push is blocked by the marble on {cell} behind the opponents")
            }
            Illegal::Occupied(cell) => format!("broadside destination {cell} is not empty"),
            Illegal::OffBoard => "a broadside may not leave the board".into(),
            Illegal::NotABroadside => "a broadside moves 2 or 3 marbles across their line".into(),
            Illegal::PassWithMoves => "a seat may pass only when it has no other move".into(),
        }
    }
}
