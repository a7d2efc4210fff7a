//! `observer`: estimates the opponent's bag and duels only when that pays.

use rand_chacha::ChaCha8Rng;

use super::Player;
use super::path::{flee, path_to, random_step};
use crate::{Action, ActionSet, Bag, Knowledge, Object, Observation};

/// Pseudo-count per type for the opponent's pickups the observer did not see.
const PRIOR: f64 = 1.0 / 3.0;

/// `observer`: keeps an estimate of the opponent's bag (what it carried from earlier games,
/// the pickups seen, at least one of each type it revealed in a duel it did not lose, plus a
/// pseudo-count of 1/3 per type for what it missed); in view of the opponent it duels when its
/// expected duel value against that estimate is positive and flees otherwise; out of view it
/// collects the type that raises that value most, around the others.
#[derive(Clone, Debug, Default)]
pub struct ObserverPlayer {
    known: Knowledge,
    /// The opponent's bag at the start of this game, as estimated.
    carried: [f64; 3],
    game: u16,
    settled: bool,
}

/// Expected duel value of drawing from `mine` against a bag of (fractional) counts `theirs`.
pub fn expected_value(mine: Bag, theirs: [f64; 3]) -> f64 {
    let probs = |c: [f64; 3]| {
        let total: f64 = c.iter().sum();
        if total <= 0.0 {
            [1.0 / 3.0; 3]
        } else {
            c.map(|x| x / total)
        }
    };
    let a = probs(mine.counts().map(f64::from));
    let b = probs(theirs);
    let mut ev = 0.0;
    for x in Object::ALL {
        for y in Object::ALL {
            let sign = if x.beats(y) {
                1.0
            } else if y.beats(x) {
                -1.0
            } else {
                0.0
            };
            ev += sign * a[x.index()] * b[y.index()];
        }
    }
    ev
}

impl ObserverPlayer {
    /// The current estimate of the opponent's bag (fractional counts).
    pub fn estimate(&self) -> [f64; 3] {
        let seen = self.known.opponent_pickups().counts();
        std::array::from_fn(|i| self.carried[i] + seen[i] as f64 + PRIOR)
    }

    /// The estimate of the opponent's bag at the start of this game: what it carried over
    /// from earlier games of the match (fractional counts; empty at a match's start and after
    /// it lost a duel).
    pub fn carried(&self) -> [f64; 3] {
        self.carried
    }

    fn settle(&mut self, obs: &Observation) {
        let seen = self.known.opponent_pickups().counts();
        let mut next: [f64; 3] = std::array::from_fn(|i| self.carried[i] + seen[i] as f64);
        let opp = 1 - obs.player;
        if let Some(duel) = obs.duel {
            if duel.loser() == Some(opp) {
                next = [0.0; 3];
            } else if let Some(o) = duel.draw_of(opp) {
                next[o.index()] = next[o.index()].max(1.0);
            }
        }
        self.carried = next;
        self.settled = true;
    }
}

impl Player for ObserverPlayer {
    fn name(&self) -> String {
        "observer".into()
    }

    fn new_match(&mut self) {
        *self = ObserverPlayer::default();
    }

    fn observe(&mut self, obs: &Observation) {
        if obs.info.game != self.game {
            self.game = obs.info.game;
            self.settled = false;
        }
        self.known.update(obs);
        if obs.over && !self.settled {
            self.settle(obs);
        }
    }

    fn act(&mut self, obs: &Observation, legal: ActionSet, rng: &mut ChaCha8Rng) -> Action {
        let theirs = self.estimate();
        if legal.contains(Action::Duel) {
            if expected_value(obs.bag, theirs) > 1e-9 {
                return Action::Duel;
            }
            let mut moves = legal;
            moves.remove(Action::Duel);
            return flee(obs, moves, rng);
        }
        let gain = |o: Object| {
            let mut bag = obs.bag;
            bag.add(o);
            expected_value(bag, theirs)
        };
        let best = Object::ALL
            .into_iter()
            .max_by(|&a, &b| gain(a).total_cmp(&gain(b)))
            .expect("three types");
        let goal = |c| obs.object_at(c) == Some(best);
        path_to(obs, &self.known, goal, |o| o != best)
            .filter(|&a| legal.contains(a))
            .unwrap_or_else(|| random_step(obs, legal, rng, |o| o != best))
    }
}
