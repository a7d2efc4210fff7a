//! [`Action`] and [`ActionSet`]: what a player does on its turn, as dense indices.

use std::fmt;
use std::str::FromStr;

/// One turn's action. Its index (`N` 0, `S` 1, `E` 2, `W` 3, `DUEL` 4, `STAY` 5) is the dense
/// action index of a two-player game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// One cell up (row - 1).
    N = 0,
    /// One cell down (row + 1).
    S = 1,
    /// One cell right (column + 1).
    E = 2,
    /// One cell left (column - 1).
    W = 3,
    /// Duel the opponent, legal when it is inside the mover's visibility region.
    Duel = 4,
    /// Pass (only when the rules allow `STAY`).
    Stay = 5,
}

const _: () = assert!(std::mem::size_of::<Action>() == 1);

impl Action {
    /// Every action in index order.
    pub const ALL: [Action; 6] = [
        Action::N,
        Action::S,
        Action::E,
        Action::W,
        Action::Duel,
        Action::Stay,
    ];
    /// The four moves.
    pub const MOVES: [Action; 4] = [Action::N, Action::S, Action::E, Action::W];

    /// The dense index.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The action with this index.
    #[inline]
    pub fn from_index(index: usize) -> Option<Action> {
        Action::ALL.get(index).copied()
    }

    /// The text form: `N`, `S`, `E`, `W`, `DUEL`, `STAY`.
    pub fn as_str(self) -> &'static str {
        ["N", "S", "E", "W", "DUEL", "STAY"][self.index()]
    }

    /// Whether it is one of the four moves.
    pub fn is_move(self) -> bool {
        self.index() < 4
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Text that names no action.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown action {0:?}, expected N, S, E, W, DUEL or STAY")]
pub struct ParseActionError(pub String);

impl FromStr for Action {
    type Err = ParseActionError;
    /// `N`, `S`, `E`, `W`, `DUEL`, `STAY`, in any case.
    fn from_str(s: &str) -> Result<Action, ParseActionError> {
        Action::ALL
            .into_iter()
            .find(|a| a.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| ParseActionError(s.to_string()))
    }
}

/// A set of actions as a bit mask over their indices.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ActionSet(pub u8);

impl ActionSet {
    /// The empty set.
    pub const EMPTY: ActionSet = ActionSet(0);

    /// Whether `action` is in the set.
    #[inline]
    pub fn contains(self, action: Action) -> bool {
        self.0 >> action.index() & 1 == 1
    }

    /// Adds `action`.
    #[inline]
    pub fn insert(&mut self, action: Action) {
        self.0 |= 1 << action.index();
    }

    /// Removes `action`.
    #[inline]
    pub fn remove(&mut self, action: Action) {
        self.0 &= !(1 << action.index());
    }

    /// Number of actions.
    #[inline]
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether it is empty.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The `k`-th action in index order (`k < len()`).
    #[inline]
    pub fn nth(self, k: usize) -> Option<Action> {
        let mut bits = self.0;
        for _ in 0..k {
            bits &= bits.wrapping_sub(1);
        }
        Action::from_index(bits.trailing_zeros() as usize)
    }

    /// The actions in index order.
    pub fn iter(self) -> impl Iterator<Item = Action> {
        Action::ALL.into_iter().filter(move |&a| self.contains(a))
    }
}
