//! [`SeatView`]: each player's own view of a perfect-information game (OpenSpiel's
//! `ObservationTensor(player)`), for the kits of the registry.
//!
//! The lab's encoders show the board from the side to move's point of view (the networks' input,
//! which stays as it is). A player who is not to move sees the same board from its own side: the
//! encoding of the position with that player's seat to move, everything else unchanged. For the
//! player to act this is the encoder's output itself, bit for bit.

use pjlab_abalone::{AbaloneKit, Seat};
use pjlab_chomp::ChompKit;
use pjlab_core::GameKit;
use pjlab_pijersi::{Color, PijersiKit};

/// A kit whose positions can be seen from any seat's side.
pub trait SeatView: GameKit {
    /// `position` as seat `seat` faces it: the same board with `seat` to move, or `None` when
    /// the encoder's view of `position` already is `seat`'s (it is to move, or the game shows no
    /// side).
    fn seat_view(position: &Self::Game, seat: usize) -> Option<Self::Game>;
}

impl SeatView for PijersiKit {
    /// The same board with `seat`'s colour to move (White for seat 0, Black for seat 1); the
    /// counters kept.
    fn seat_view(position: &pjlab_pijersi::Position, seat: usize) -> Option<Self::Game> {
        let color = if seat == 0 {
            Color::White
        } else {
            Color::Black
        };
        if position.side_to_move() == color {
            return None;
        }
        let mut setup = position.to_setup();
        setup.side_to_move = color;
        pjlab_pijersi::Position::from_setup(&setup, position.rules()).ok()
    }
}

impl SeatView for AbaloneKit {
    /// The same board with seat `seat` to move: its colour's view, and in doubles the seats
    /// named from it (its partner, the opponent after it, the other opponent).
    fn seat_view(position: &pjlab_abalone::Position, seat: usize) -> Option<Self::Game> {
        let seat = Seat::new(seat)?;
        if position.seat() == seat {
            return None;
        }
        let mut setup = position.to_setup();
        setup.seat = seat;
        pjlab_abalone::Position::from_setup(&setup).ok()
    }
}

impl SeatView for ChompKit {
    /// Chomp is impartial and its encoding shows no side: both players see the same bar.
    fn seat_view(_position: &pjlab_chomp::Chomp, _seat: usize) -> Option<Self::Game> {
        None
    }
}
