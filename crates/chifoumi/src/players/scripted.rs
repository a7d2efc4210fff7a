//! The simple scripted players: random, focused, greedy, avoider, counter, lurker.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::Player;
use super::path::{path_to, random_step};
use crate::{Action, ActionSet, Bag, Knowledge, Object, Observation};

/// `random`: duels whenever it may, else a uniformly random legal action.
#[derive(Clone, Debug, Default)]
pub struct RandomPlayer;

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }

    fn observe(&mut self, _obs: &Observation) {}

    fn act(&mut self, _obs: &Observation, legal: ActionSet, rng: &mut ChaCha8Rng) -> Action {
        if legal.contains(Action::Duel) {
            return Action::Duel;
        }
        let k = rng.random_range(0..legal.len().max(1));
        legal.nth(k).unwrap_or(Action::Stay)
    }
}

/// Walks to the nearest visible object of a type `wanted` accepts, around the objects it
/// refuses, or steps at random avoiding them.
fn collect(
    obs: &Observation,
    known: &Knowledge,
    legal: ActionSet,
    rng: &mut ChaCha8Rng,
    wanted: impl Fn(Object) -> bool + Copy,
) -> Action {
    let goal = |c| obs.object_at(c).is_some_and(wanted);
    path_to(obs, known, goal, |o| !wanted(o))
        .filter(|&a| legal.contains(a))
        .unwrap_or_else(|| random_step(obs, legal, rng, |o| !wanted(o)))
}

/// `focused:F` (or `P`, `C`): duels as soon as the opponent is in view; else takes the
/// shortest path to the nearest visible object of its type around the other types; else a
/// random step avoiding the other types.
#[derive(Clone, Debug)]
pub struct FocusedPlayer {
    object: Object,
    known: Knowledge,
}

impl FocusedPlayer {
    /// The player collecting `object`.
    pub fn new(object: Object) -> FocusedPlayer {
        FocusedPlayer {
            object,
            known: Knowledge::default(),
        }
    }
}

impl Player for FocusedPlayer {
    fn name(&self) -> String {
        format!("focused:{}", self.object)
    }

    fn observe(&mut self, obs: &Observation) {
        self.known.update(obs);
    }

    fn act(&mut self, obs: &Observation, legal: ActionSet, rng: &mut ChaCha8Rng) -> Action {
        if legal.contains(Action::Duel) {
            return Action::Duel;
        }
        let t = self.object;
        collect(obs, &self.known, legal, rng, |o| o == t)
    }
}

/// `greedy`: duels as soon as the opponent is in view; else the shortest path to the nearest
/// visible object of any type; else a random step.
#[derive(Clone, Debug, Default)]
pub struct GreedyPlayer {
    known: Knowledge,
}

impl Player for GreedyPlayer {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn observe(&mut self, obs: &Observation) {
        self.known.update(obs);
    }

    fn act(&mut self, obs: &Observation, legal: ActionSet, rng: &mut ChaCha8Rng) -> Action {
        if legal.contains(Action::Duel) {
            return Action::Duel;
        }
        collect(obs, &self.known, legal, rng, |_| true)
    }
}

/// `avoider`: never duels and never steps on an object, unless every legal action does (a
/// cell hemmed in by objects without `STAY`); its bag stays empty, so its duel value is 0.
#[derive(Clone, Debug, Default)]
pub struct AvoiderPlayer;

impl Player for AvoiderPlayer {
    fn name(&self) -> String {
        "avoider".into()
    }

    fn observe(&mut self, _obs: &Observation) {}

    fn act(&mut self, obs: &Observation, legal: ActionSet, rng: &mut ChaCha8Rng) -> Action {
        let mut legal = legal;
        legal.remove(Action::Duel);
        if legal.is_empty() {
            return Action::Duel;
        }
        let step = random_step(obs, legal, rng, |_| true);
        let onto_object = super::path::neighbour(obs, obs.position, step)
            .and_then(|c| obs.object_at(c))
            .is_some();
        if onto_object && legal.contains(Action::Stay) {
            Action::Stay
        } else {
            step
        }
    }
}

/// `counter` and `counter-reset`: counts the opponent's revealed draws (all of the match, or
/// only those since its last bag reset), collects the type that beats the most frequent one
/// (any type before the first count), and duels in view once it holds that type.
#[derive(Clone, Debug)]
pub struct CounterPlayer {
    reset: bool,
    counts: Bag,
    last_game: Option<u16>,
    known: Knowledge,
}

impl CounterPlayer {
    /// `counter` (`reset` false) or `counter-reset`.
    pub fn new(reset: bool) -> CounterPlayer {
        CounterPlayer {
            reset,
            counts: Bag::EMPTY,
            last_game: None,
            known: Knowledge::default(),
        }
    }

    /// The type it collects now (`None`: any).
    pub fn target(&self) -> Option<Object> {
        self.counts.majority().map(Object::beaten_by)
    }
}

impl Player for CounterPlayer {
    fn name(&self) -> String {
        if self.reset {
            "counter-reset"
        } else {
            "counter"
        }
        .into()
    }

    fn new_match(&mut self) {
        *self = CounterPlayer::new(self.reset);
    }

    fn observe(&mut self, obs: &Observation) {
        self.known.update(obs);
        let Some(duel) = obs.duel else { return };
        if self.last_game == Some(obs.info.game) {
            return;
        }
        self.last_game = Some(obs.info.game);
        let opp = 1 - obs.player;
        if let Some(o) = duel.draw_of(opp) {
            self.counts.add(o);
        }
        if self.reset && duel.loser() == Some(opp) {
            self.counts = Bag::EMPTY;
        }
    }

    fn act(&mut self, obs: &Observation, legal: ActionSet, rng: &mut ChaCha8Rng) -> Action {
        let target = self.target();
        let armed = target.map_or(!obs.bag.is_empty(), |t| obs.bag.count(t) > 0);
        if legal.contains(Action::Duel) && armed {
            return Action::Duel;
        }
        let mut legal = legal;
        legal.remove(Action::Duel);
        collect(obs, &self.known, legal, rng, |o| {
            target.is_none_or(|t| o == t)
        })
    }
}

/// `lurker`: duels whenever it may; else holds its place, stepping back and forth between two
/// cells onto no object where it can ([`Intent::Hold`](super::Intent::Hold)), so its bag stays
/// (nearly always) empty and its duel value is 0. It plays for the tie-break: an opponent that
/// walks into view is seen first on the opponent's turn, and the next call is the lurker's.
#[derive(Clone, Debug, Default)]
pub struct LurkerPlayer;

impl Player for LurkerPlayer {
    fn name(&self) -> String {
        "lurker".into()
    }

    fn observe(&mut self, _obs: &Observation) {}

    fn act(&mut self, obs: &Observation, legal: ActionSet, rng: &mut ChaCha8Rng) -> Action {
        if legal.contains(Action::Duel) {
            return Action::Duel;
        }
        let mut legal = legal;
        legal.remove(Action::Duel);
        super::path::hold(obs, legal, rng)
    }
}
