//! [`Memory`]: what a player remembers of a match (this game's observations and the `observer`
//! player's estimate of the opponent's bag), and the learned player's input written from it.

use super::Player;
use super::observer::{ObserverPlayer, expected_value};
use crate::{Knowledge, Observation};

/// Memory features after the observation's tensor.
pub const MEMORY_LEN: usize = 24;

/// Length of the network's input for a visibility radius.
pub fn input_len(radius: u8) -> usize {
    Observation::tensor_len(radius) + MEMORY_LEN
}

/// The match as the player remembers it: this game's observations ([`Knowledge`]) and the
/// `observer` player's estimate of the opponent's bag, carried over the match's games.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    known: Knowledge,
    tracker: ObserverPlayer,
    game: u16,
}

impl Memory {
    /// Forgets the match.
    pub fn new_match(&mut self) {
        *self = Memory::default();
    }

    /// What it remembers of this game's observations.
    pub fn known(&self) -> &Knowledge {
        &self.known
    }

    /// The opponent's bag at the start of this game as estimated (fractional counts), see
    /// [`ObserverPlayer::carried`].
    pub fn carried(&self) -> [f64; 3] {
        self.tracker.carried()
    }

    /// Takes in an observation (every turn, as [`Player::observe`]).
    pub fn observe(&mut self, obs: &Observation) {
        if obs.info.game != self.game {
            self.game = obs.info.game;
            self.known = Knowledge::default();
        }
        self.known.update(obs);
        self.tracker.observe(obs);
    }

    /// Writes the input for `obs`: [`Observation::write_tensor`], then the match's game index
    /// / 10, the point difference / 5, the duels each side called / 10, the draws each side
    /// revealed (F, P, C) / 10, the opponent's pickups seen this game / 5, its estimated bag
    /// at the game's start / 5, whether it was seen this game, where (rows and columns from
    /// the player, over the grid's size) and how many turns ago (over the game's length), and
    /// the expected duel value of the player's bag against the estimated bag, and that of a bag
    /// of only Flammes, only Potions, only Citrouilles against it (which type to collect).
    ///
    /// # Panics
    /// When `out` is shorter than [`input_len`].
    pub fn write(&self, obs: &Observation, out: &mut [f32]) {
        let n = Observation::tensor_len(obs.radius);
        obs.write_tensor(&mut out[..n]);
        let m = &mut out[n..n + MEMORY_LEN];
        m.fill(0.0);
        let me = obs.player as usize;
        let info = &obs.info;
        m[0] = f32::from(info.game) / 10.0;
        m[1] = f32::from(info.score[me] - info.score[1 - me]) / 5.0;
        m[2] = f32::from(info.duels[me]) / 10.0;
        m[3] = f32::from(info.duels[1 - me]) / 10.0;
        for k in 0..3 {
            m[4 + k] = f32::from(info.revealed[me].counts()[k]) / 10.0;
            m[7 + k] = f32::from(info.revealed[1 - me].counts()[k]) / 10.0;
            m[10 + k] = f32::from(self.known.opponent_pickups().counts()[k]) / 5.0;
            m[13 + k] = self.tracker.carried()[k] as f32 / 5.0;
        }
        if let Some((cell, turn)) = self.known.opponent_seen() {
            m[16] = 1.0;
            m[17] = (f32::from(cell.row) - f32::from(obs.position.row)) / f32::from(obs.height);
            m[18] = (f32::from(cell.col) - f32::from(obs.position.col)) / f32::from(obs.width);
            m[19] = f32::from(obs.turn.saturating_sub(turn)) / (2.0 * f32::from(obs.max_rounds));
        }
        let estimate = self.tracker.estimate();
        m[20] = expected_value(obs.bag, estimate) as f32;
        for (k, o) in crate::Object::ALL.into_iter().enumerate() {
            let mut pure = crate::Bag::EMPTY;
            pure.add(o);
            m[21 + k] = expected_value(pure, estimate) as f32;
        }
    }
}
