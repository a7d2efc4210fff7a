//! The [`Game`] trait and the small types around it.

use std::fmt::Debug;
use std::hash::Hash;

/// One of the two sides of a game. In a team game (Abalone in doubles) a side is a team.
///
/// `First` moves first from a game's initial position (White in Pijersi).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The side that moves first.
    First,
    /// The side that moves second.
    Second,
}

impl Side {
    /// Both sides, `First` then `Second`.
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];

    /// The other side.
    #[inline]
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for `First`, 1 for `Second`: an index into per-side arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// How a finished game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This side won.
    Win(Side),
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// The game value from `side`'s point of view: +1 win, 0 draw, -1 loss.
    #[inline]
    pub fn value_for(self, side: Side) -> f32 {
        match self {
            Outcome::Win(winner) if winner == side => 1.0,
            Outcome::Win(_) => -1.0,
            Outcome::Draw => 0.0,
        }
    }

    /// The winner, if any.
    #[inline]
    pub fn winner(self) -> Option<Side> {
        match self {
            Outcome::Win(side) => Some(side),
            Outcome::Draw => None,
        }
    }
}

/// A two-sided, perfect-information, deterministic game position.
///
/// The position *is* the game state: it knows the side to move, the move counters that the rules
/// need (a draw counter, say) and whether the game is over. Search clones it freely, so `Clone`
/// must be cheap (a few cache lines, no heap).
///
/// The generic test kit ([`crate::testkit`]) checks every invariant written below on seeded
/// random playouts.
pub trait Game: Clone + Eq + Debug + Send + Sync + 'static {
    /// One move, as small and `Copy` as possible (Pijersi: a whole turn, 4 bytes).
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    /// What parsing text or playing an illegal move reports.
    type Error: std::error::Error + Send + Sync + 'static;

    /// Short lower-case name of the game, e.g. `"pijersi"`.
    fn name(&self) -> &'static str;

    /// The side to move. Invariant: after any move it is the other side's turn (games where a side
    /// moves twice in a row model it inside one move).
    fn side_to_move(&self) -> Side;

    /// How many seats (players) the game has: 2 by default; Abalone in doubles has 4, two a
    /// side. Each seat can be its own agent.
    fn seats(&self) -> usize {
        2
    }

    /// The seat to move, in `0..seats()`. By default the side's index. Seats alternate sides.
    fn seat(&self) -> usize {
        self.side_to_move().index()
    }

    /// Clears `moves` and fills it with every legal move, each once.
    ///
    /// Invariants: no duplicates; every move is accepted by [`Game::play`]; the list is empty
    /// exactly when [`Game::outcome`] is `Some`. The order is deterministic.
    fn legal_moves(&self, moves: &mut Vec<Self::Move>);

    /// Plays `mv` if it is legal here, leaving the position unchanged otherwise.
    ///
    /// # Errors
    /// When `mv` is not legal in this position (including when the game is over).
    fn play(&mut self, mv: Self::Move) -> Result<(), Self::Error>;

    /// Plays `mv`, which must be one of [`Game::legal_moves`]. Playing anything else leaves the
    /// position in an unspecified (but memory-safe) state. This is the search's fast path.
    fn play_unchecked(&mut self, mv: Self::Move);

    /// `Some` once the game is over, `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// Whether the legal move `mv` wins the game at once for the side to move. The default
    /// plays it on a copy; games override it with a cheaper test that gives the same answer.
    fn wins_at_once(&self, mv: Self::Move) -> bool {
        let mut after = self.clone();
        after.play_unchecked(mv);
        after
            .outcome()
            .is_some_and(|o| o.winner() == Some(self.side_to_move()))
    }

    /// A 64-bit key of everything that decides the future of the game (board, side to move,
    /// counters that rules depend on), for transposition tables and evaluation caches.
    ///
    /// Invariant: equal positions have equal hashes; a text round trip keeps the hash.
    fn hash(&self) -> u64;

    /// Size of the dense action index space. Constant for a game and its parameters.
    fn num_actions(&self) -> usize;

    /// The dense index of `mv`, in `0..num_actions()`.
    ///
    /// Invariant: injective over the legal moves of any position, and
    /// `action_from_index(action_index(m)) == Some(m)` for every legal `m`.
    fn action_index(&self, mv: Self::Move) -> usize;

    /// The move with this index in this position, or `None` if the index names no legal move.
    fn action_from_index(&self, index: usize) -> Option<Self::Move>;

    /// The text form of `mv` (Pijersi: the UGI move string).
    fn move_to_text(&self, mv: Self::Move) -> String;

    /// Parses the text form of a move in this position. Invariant: `parse_move(move_to_text(m))`
    /// is `m` for every legal `m`.
    ///
    /// # Errors
    /// When the text is malformed or names no legal move here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, Self::Error>;

    /// The text forms of a line of moves played from this position, each in the position it
    /// is played from (records, UGI `position ... moves`, principal variations).
    fn line_to_text(&self, moves: &[Self::Move]) -> Vec<String> {
        let mut position = self.clone();
        moves
            .iter()
            .map(|&mv| {
                let text = position.move_to_text(mv);
                position.play_unchecked(mv);
                text
            })
            .collect()
    }

    /// The text form of the whole position (Pijersi: PSN).
    fn to_text(&self) -> String;

    /// Parses [`Game::to_text`]'s output. Invariant: `from_text(p.to_text()) == p`.
    ///
    /// # Errors
    /// When the text is malformed or describes an impossible position.
    fn from_text(text: &str) -> Result<Self, Self::Error>;
}

/// A recorded game: where it starts and the moves played, each legal where it is played (what
/// a game's notation reader returns).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord<G: Game> {
    /// The position before the first move.
    pub start: G,
    /// The moves, in order.
    pub moves: Vec<G::Move>,
}

impl<G: Game> GameRecord<G> {
    /// The position after the last move.
    pub fn final_position(&self) -> G {
        let mut position = self.start.clone();
        for &mv in &self.moves {
            position.play_unchecked(mv);
        }
        position
    }
}
