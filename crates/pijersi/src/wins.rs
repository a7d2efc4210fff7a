//! Whether a move wins at once, without playing it where the board says it cannot.
//!
//! Search asks this of every legal move of every leaf (MCTS's check for a win one ply below
//! each node it expands), so the general answer, playing the move and asking for the outcome,
//! is most of a search's time spent in the rules. A move wins at once when, after it, a
//! fighter of the mover stands on (or, under [`Rules::PassThrough`], passed over) the goal
//! row, or the game is not drawn and the opponent has no legal move. Two facts decide most
//! moves from the board before the move:
//!
//! - The goal row changes only where the move starts, passes or ends. A move none of whose
//!   cells is on the goal row cannot put a fighter there, so it wins only by leaving the
//!   opponent without a move (when no fighter of the mover is on the goal row already, which a
//!   game reaches only from a hand-written position).
//! - A move changes what stands on its start, middle and end cells only: it fills its end
//!   (capturing what stood there), fills or empties its middle, and empties or keeps its start. Any piece can step onto an empty
//!   neighbouring cell. So when an opponent's piece off the middle and end has an empty
//!   neighbour off them, the opponent keeps a move after it.
//!
//! Every other move is played and its outcome asked, so the answer is always the general one;
//! a test checks the two against each other.

use crate::geometry::adjacent;
use crate::moves::Move;
use crate::piece::Role;
use crate::position::Position;

impl Position {
    /// Whether playing the legal move `mv` ends the game with the side to move winning: the
    /// same answer as playing it and asking [`Position::outcome`], faster.
    pub fn wins_at_once(&self, mv: Move) -> bool {
        let goal = Self::goal_row(self.side);
        let mine = self.colors[self.side as usize];
        let fighters_there = mine & !self.tops[Role::Wise as usize] & goal != 0;
        let touches_goal = [mv.start_index(), mv.middle_index(), mv.end_index()]
            .into_iter()
            .any(|i| i < 64 && goal >> i & 1 == 1);
        if touches_goal || fighters_there || self.passed_back_row || !self.opponent_keeps_a_move(mv)
        {
            return self.wins_by_playing(mv);
        }
        false
    }

    /// The general answer: the move played, the outcome asked.
    pub(crate) fn wins_by_playing(&self, mv: Move) -> bool {
        let mut after = self.clone();
        after.play_unchecked(mv);
        after
            .outcome()
            .is_some_and(|o| o.winner() == Some(self.side.side()))
    }

    /// Whether the opponent surely has a legal move after `mv`: one of its pieces off the move's
    /// middle and end cells has an empty neighbour off them.
    fn opponent_keeps_a_move(&self, mv: Move) -> bool {
        let touched = [mv.middle_index(), mv.end_index()]
            .into_iter()
            .filter(|&i| i < 64)
            .fold(0u64, |cells, i| cells | 1 << i);
        let theirs = self.colors[self.side.other() as usize] & !touched;
        adjacent(theirs) & self.empty_cells() & !touched != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Rules, Variant};
    use rand::SeedableRng;
    use rand::seq::IndexedRandom;
    use rand_chacha::ChaCha8Rng;

    /// Every legal move of every position of random games, from every kind of setup, under both
    /// rule sets: the fast answer is the general one.
    #[test]
    fn the_fast_answer_is_the_general_one() {
        let mut rng = ChaCha8Rng::seed_from_u64(17);
        let (mut moves, mut checked, mut wins) = (Vec::new(), 0usize, 0usize);
        for game in 0..400u64 {
            let variant =
                [Variant::Classic, Variant::HalfRandom, Variant::FullRandom][game as usize % 3];
            let mut p = variant.setup(game);
            if game % 2 == 1 {
                p = p.with_rules(Rules::PassThrough);
            }
            while p.outcome().is_none() {
                p.legal_moves(&mut moves);
                for &mv in &moves {
                    let general = p.wins_by_playing(mv);
                    assert_eq!(p.wins_at_once(mv), general, "{mv} in {p}");
                    checked += 1;
                    wins += usize::from(general);
                }
                p.play_unchecked(*moves.choose(&mut rng).expect("a move"));
            }
        }
        // Both answers were seen many times.
        assert!(
            checked > 1_000_000 && wins > 1_000,
            "{checked} moves, {wins} wins"
        );
    }

    /// A hand-written position where a fighter of the side to move already stands on its goal
    /// row (no game reaches it): every move that keeps it there wins, those of other pieces
    /// included, which touch no goal cell.
    #[test]
    fn a_fighter_already_on_the_goal_row_makes_every_other_move_win() {
        let p: Position = "R-5/7/6/p-6/6/P-6/6 w 0 1".parse().expect("a PSN");
        assert!(p.outcome().is_none());
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        let mut others = 0;
        for &mv in &moves {
            assert_eq!(p.wins_at_once(mv), p.wins_by_playing(mv), "{mv}");
            if mv.start().to_string() != "g1" {
                assert!(p.wins_at_once(mv), "{mv} keeps the fighter on g1");
                others += 1;
            }
        }
        assert!(others > 0);
    }
}
