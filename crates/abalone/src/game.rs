//! [`Position`] as a [`pjlab_core::Game`].

use pjlab_core::{Game, Outcome, Side};

use crate::moves::Move;
use crate::position::Position;
use crate::{Error, action, text};

impl Game for Position {
    type Move = Move;
    type Error = Error;

    fn name(&self) -> &'static str {
        "abalone"
    }

    /// The team to move: Black is [`Side::First`]. In doubles the seat is [`Position::seat`].
    #[inline]
    fn side_to_move(&self) -> Side {
        self.color_to_move().side()
    }

    /// Four in doubles, two otherwise.
    fn seats(&self) -> usize {
        if self.rules().is_doubles() { 4 } else { 2 }
    }

    /// The seat to move: 0 (Black) or 1 (White), or in doubles 0..4 ([`Position::seat`]).
    fn seat(&self) -> usize {
        Position::seat(self).index()
    }

    #[inline]
    fn legal_moves(&self, moves: &mut Vec<Move>) {
        Position::legal_moves(self, moves);
    }

    fn play(&mut self, mv: Move) -> Result<(), Error> {
        Position::play(self, mv)
    }

    #[inline]
    fn play_unchecked(&mut self, mv: Move) {
        Position::play_unchecked(self, mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        Position::outcome(self)
    }

    fn hash(&self) -> u64 {
        Position::hash(self)
    }

    fn num_actions(&self) -> usize {
        action::NUM_ACTIONS
    }

    fn action_index(&self, mv: Move) -> usize {
        action::action_index(mv)
    }

    fn action_from_index(&self, index: usize) -> Option<Move> {
        action::action_move(index).filter(|&mv| self.is_legal(mv))
    }

    fn move_to_text(&self, mv: Move) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<Move, Error> {
        Position::parse_move(self, text)
    }

    fn to_text(&self) -> String {
        text::to_text(self)
    }

    fn from_text(text: &str) -> Result<Position, Error> {
        Position::from_text(text)
    }
}
