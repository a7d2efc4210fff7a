//! [`ImperfectGame`]: games with chance, hidden information and any number of players.
//!
//! The perfect-information [`crate::Game`] trait does not fit a game whose `play` draws at
//! random and whose players see only part of the state (Chifoumi on a grid). This trait sits
//! beside it; algorithms that need perfect information keep using [`crate::Game`].
//!
//! # The shape (after OpenSpiel)
//! - **Who acts**: always a player, by index in `0..num_players()`. Chance is not a player here:
//!   it is resolved inside [`ImperfectGame::play`] from the generator passed in, so the same
//!   state, action and generator state give the same successor (nothing reads a global RNG).
//! - **Actions** are dense indices in `0..num_actions()`, the one index space of policy heads,
//!   legal masks, training targets and records.
//! - **What a player may know** is one function of (state, player):
//!   [`ImperfectGame::observation`], a compact value compared bit for bit (`Eq + Hash`), and its
//!   flat tensor form [`ImperfectGame::observation_tensor`]. A player's information state is the
//!   sequence of its observations after every turn of the game.
//! - **Information-set search** samples a full state consistent with a player's information
//!   ([`ImperfectGame::resample`], OpenSpiel's `ResampleFromInfostate`) and searches it as if it
//!   were fully visible, playing chance with its own generator.
//!
//! # Example
//! ```
//! use pjlab_core::ImperfectGame;
//! /// Every turn each player adds a secret die roll in 1..=3 to its total; after two turns each
//! /// the higher total wins. A player sees only its own total.
//! #[derive(Clone, Debug)]
//! struct Dice { totals: [u8; 2], turn: u8 }
//! #[derive(Debug)] struct Bad;
//! impl std::fmt::Display for Bad { fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result { f.write_str("bad") } }
//! impl std::error::Error for Bad {}
//! impl ImperfectGame for Dice {
//!     type Observation = (u8, u8);
//!     type Error = Bad;
//!     fn name(&self) -> &'static str { "dice" }
//!     fn num_players(&self) -> usize { 2 }
//!     fn num_actions(&self) -> usize { 1 }
//!     fn current_player(&self) -> Option<usize> { (self.turn < 4).then_some(self.turn as usize % 2) }
//!     fn legal_actions(&self, out: &mut Vec<usize>) { out.clear(); if self.turn < 4 { out.push(0) } }
//!     fn play<R: rand::Rng + ?Sized>(&mut self, a: usize, rng: &mut R) -> Result<(), Bad> {
//!         if a != 0 || self.turn >= 4 { return Err(Bad) }
//!         self.play_unchecked(a, rng); Ok(())
//!     }
//!     fn play_unchecked<R: rand::Rng + ?Sized>(&mut self, _: usize, rng: &mut R) {
//!         self.totals[self.turn as usize % 2] += 1 + (rng.next_u32() % 3) as u8; self.turn += 1;
//!     }
//!     fn is_terminal(&self) -> bool { self.turn >= 4 }
//!     fn returns(&self, p: usize) -> f32 {
//!         if !self.is_terminal() { return 0.0 }
//!         (self.totals[p] as f32 - self.totals[1 - p] as f32).signum()
//!     }
//!     fn observation(&self, p: usize) -> (u8, u8) { (self.turn, self.totals[p]) }
//!     fn observation_tensor_len(&self) -> usize { 2 }
//!     fn observation_tensor(&self, p: usize, out: &mut [f32]) {
//!         out[0] = self.turn as f32; out[1] = self.totals[p] as f32;
//!     }
//!     fn resample<R: rand::Rng + ?Sized>(&self, p: usize, _: &[(u8, u8)], rng: &mut R) -> Self {
//!         let mut s = self.clone();
//!         let rolls = (self.turn as usize + 1 - p) / 2; // the other's rolls so far
//!         s.totals[1 - p] = (0..rolls).map(|_| 1 + (rng.next_u32() % 3) as u8).sum();
//!         s
//!     }
//! }
//! use rand::SeedableRng;
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
//! let mut game = Dice { totals: [0; 2], turn: 0 };
//! while let Some(_) = game.current_player() { game.play(0, &mut rng).unwrap(); }
//! assert_eq!(game.returns(0), -game.returns(1));
//! ```

use std::fmt::Debug;
use std::hash::Hash;

use rand::Rng;

/// A stochastic, partially observable game of `num_players()` players.
///
/// The state is the whole truth (every hidden part included); what each player may know of it
/// is [`ImperfectGame::observation`]. `Clone` should be cheap (no per-clone allocation beyond a
/// reference count): search clones states freely.
pub trait ImperfectGame: Clone + Debug + Send + Sync + 'static {
    /// What one player observes at one moment: small, compared bit for bit.
    type Observation: Clone + Eq + Hash + Debug + Send + Sync + 'static;
    /// What checked play reports for an illegal action.
    type Error: std::error::Error + Send + Sync + 'static;

    /// Short lower-case name of the game, e.g. `"chifoumi"`.
    fn name(&self) -> &'static str;

    /// Number of players; constant for a game and its parameters.
    fn num_players(&self) -> usize;

    /// Size of the dense action index space; constant for a game and its parameters.
    fn num_actions(&self) -> usize;

    /// The player to act, in `0..num_players()`, or `None` once the game is over.
    ///
    /// Invariant: `None` exactly when [`ImperfectGame::is_terminal`].
    fn current_player(&self) -> Option<usize>;

    /// Clears `actions` and fills it with the legal action indices of the player to act, in
    /// increasing order.
    ///
    /// Invariants: no duplicates; every index is below `num_actions()` and accepted by
    /// [`ImperfectGame::play`]; empty exactly when the game is over; a function of the acting
    /// player's observation only (a player never learns anything from its legal actions).
    fn legal_actions(&self, actions: &mut Vec<usize>);

    /// Fills `mask` (of length `num_actions()`) with `true` at the legal actions and `false`
    /// elsewhere. The default goes through [`ImperfectGame::legal_actions`].
    ///
    /// # Panics
    /// When `mask` is shorter than `num_actions()`.
    fn legal_mask(&self, mask: &mut [bool]) {
        let mut actions = Vec::new();
        self.legal_actions(&mut actions);
        mask[..self.num_actions()].fill(false);
        for a in actions {
            mask[a] = true;
        }
    }

    /// Plays `action` for the player to act if it is legal, drawing any chance outcome from
    /// `rng`; leaves the state (and `rng`) unchanged otherwise.
    ///
    /// Invariant: the successor is a function of the state, the action and the generator's
    /// state.
    ///
    /// # Errors
    /// When `action` is not legal here (including when the game is over).
    fn play<R: Rng + ?Sized>(&mut self, action: usize, rng: &mut R) -> Result<(), Self::Error>;

    /// Plays `action`, which must be legal; the fast path of playouts and search. Anything else
    /// leaves the state unspecified (but memory-safe).
    fn play_unchecked<R: Rng + ?Sized>(&mut self, action: usize, rng: &mut R);

    /// Whether the game is over.
    fn is_terminal(&self) -> bool;

    /// What `player` has gained so far from its own point of view (its final return once the
    /// game is over; 0 before the first scoring event in games that score only at the end).
    fn returns(&self, player: usize) -> f32;

    /// Everything `player` perceives now.
    ///
    /// Invariant: changing anything `player` cannot perceive (hidden counts, far cells, the
    /// generators' states) leaves it unchanged bit for bit.
    fn observation(&self, player: usize) -> Self::Observation;

    /// Length of [`ImperfectGame::observation_tensor`]; constant for a game and its parameters.
    fn observation_tensor_len(&self) -> usize;

    /// Writes `player`'s observation as a flat tensor into `out` (of length
    /// `observation_tensor_len()`): a function of [`ImperfectGame::observation`] only.
    ///
    /// # Panics
    /// When `out` is shorter than `observation_tensor_len()`.
    fn observation_tensor(&self, player: usize, out: &mut [f32]);

    /// A full state drawn at random among those consistent with what `player` has perceived:
    /// `history` holds `player`'s observations after every turn of the current game, from its
    /// start, the last one being `self.observation(player)` (an empty history means "only the
    /// current observation").
    ///
    /// Invariants: the result gives `player` the same observation as `self`, and it depends on
    /// `self` only through what `player` perceives (two states that `player` cannot tell apart
    /// give the same result from the same generator state). Each game documents the
    /// distribution it draws from (its prior over what was never seen).
    fn resample<R: Rng + ?Sized>(
        &self,
        player: usize,
        history: &[Self::Observation],
        rng: &mut R,
    ) -> Self;
}
