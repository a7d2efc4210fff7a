//! [`Position`] as a [`pjlab_core::Game`].

use pjlab_core::{Game, Outcome, Side};

use crate::moves::Move;
use crate::position::Position;
use crate::{Error, action};

impl Game for Position {
    type Move = Move;
    type Error = Error;

    fn name(&self) -> &'static str {
        "pijersi"
    }

    #[inline]
    fn side_to_move(&self) -> Side {
        self.side.side()
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

    #[inline]
    fn wins_at_once(&self, mv: Move) -> bool {
        Position::wins_at_once(self, mv)
    }

    fn hash(&self) -> u64 {
        Position::hash(self)
    }

    fn num_actions(&self) -> usize {
        action::num_actions()
    }

    fn action_index(&self, mv: Move) -> usize {
        action::action_index(mv)
    }

    fn action_from_index(&self, index: usize) -> Option<Move> {
        action::action_move(self, index)
    }

    fn move_to_text(&self, mv: Move) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<Move, Error> {
        self.parse_ugi(text)
    }

    fn to_text(&self) -> String {
        self.to_string()
    }

    fn from_text(text: &str) -> Result<Position, Error> {
        Position::from_psn(text)
    }
}
