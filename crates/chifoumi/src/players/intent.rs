//! [`Intent`]: what a player means to do this turn, carried out by the scripted players'
//! movement; a learned player chooses among intents instead of single steps.

use rand_chacha::ChaCha8Rng;

use super::path::{flee, hold, path_to, random_step};
use crate::{Action, ActionSet, Knowledge, Object, Observation};

/// One turn's intention.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Intent {
    /// Walk to the nearest visible object of this type around the others (a random step
    /// avoiding the others when none is in view), as `focused`.
    Collect(Object),
    /// Walk to the nearest visible object of any type (a random step when none), as `greedy`.
    CollectAny,
    /// Step away from the opponent in view, as `observer` flees; a random step that avoids
    /// every object when it is out of view.
    Flee,
    /// Call a duel (legal only with the opponent in view).
    Duel,
    /// Keep to two cells, stepping back and forth onto no object where it can, as `lurker`:
    /// out of view, an opponent that walks in is seen by the player first, on the opponent's
    /// turn, so the player is the one who may call the duel.
    Hold,
}

impl Intent {
    /// Every intent, in index order.
    pub const ALL: [Intent; 7] = [
        Intent::Collect(Object::Flamme),
        Intent::Collect(Object::Potion),
        Intent::Collect(Object::Citrouille),
        Intent::CollectAny,
        Intent::Flee,
        Intent::Duel,
        Intent::Hold,
    ];

    /// Its index in [`Intent::ALL`].
    pub fn index(self) -> usize {
        match self {
            Intent::Collect(o) => o.index(),
            Intent::CollectAny => 3,
            Intent::Flee => 4,
            Intent::Duel => 5,
            Intent::Hold => 6,
        }
    }

    /// The intent of an index.
    pub fn from_index(index: usize) -> Option<Intent> {
        Intent::ALL.get(index).copied()
    }

    /// Whether it can be followed now: `Duel` only when the duel is legal.
    pub fn allowed(self, legal: ActionSet) -> bool {
        self != Intent::Duel || legal.contains(Action::Duel)
    }

    /// The action that carries it out: always one of `legal` (when `legal` is not empty).
    pub fn act(
        self,
        obs: &Observation,
        known: &Knowledge,
        legal: ActionSet,
        rng: &mut ChaCha8Rng,
    ) -> Action {
        let mut moves = legal;
        moves.remove(Action::Duel);
        let fallback = legal.iter().next().unwrap_or(Action::Stay);
        if moves.is_empty() {
            return fallback;
        }
        match self {
            Intent::Duel if legal.contains(Action::Duel) => Action::Duel,
            Intent::Duel | Intent::CollectAny => {
                let goal = |c| obs.object_at(c).is_some();
                path_to(obs, known, goal, |_| false)
                    .filter(|&a| moves.contains(a))
                    .unwrap_or_else(|| random_step(obs, moves, rng, |_| false))
            }
            Intent::Collect(wanted) => {
                let goal = |c| obs.object_at(c) == Some(wanted);
                path_to(obs, known, goal, |o| o != wanted)
                    .filter(|&a| moves.contains(a))
                    .unwrap_or_else(|| random_step(obs, moves, rng, |o| o != wanted))
            }
            Intent::Hold => hold(obs, moves, rng),
            Intent::Flee => {
                if obs.opponent.is_some() {
                    flee(obs, moves, rng)
                } else {
                    random_step(obs, moves, rng, |_| true)
                }
            }
        }
    }
}
