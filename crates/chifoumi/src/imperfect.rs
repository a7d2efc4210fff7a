//! [`Game`] and [`Arena`] as [`ImperfectGame`]s.

use pjlab_core::ImperfectGame;
use rand::Rng;

use crate::observe::{Knowledge, Observation, OpponentPrior};
use crate::{Action, Arena, ArenaObservation, Error, Game};

impl ImperfectGame for Game {
    type Observation = Observation;
    type Error = Error;

    fn name(&self) -> &'static str {
        "chifoumi"
    }

    fn num_players(&self) -> usize {
        2
    }

    /// `N`, `S`, `E`, `W`, `DUEL`, and `STAY` when allowed ([`Action::index`]).
    fn num_actions(&self) -> usize {
        if self.stay_allowed() { 6 } else { 5 }
    }

    fn current_player(&self) -> Option<usize> {
        (!self.is_over()).then_some(self.to_move())
    }

    fn legal_actions(&self, actions: &mut Vec<usize>) {
        actions.clear();
        actions.extend(self.legal().iter().map(Action::index));
    }

    fn play<R: Rng + ?Sized>(&mut self, action: usize, rng: &mut R) -> Result<(), Error> {
        match Action::from_index(action).filter(|_| action < self.num_actions()) {
            Some(a) => Game::play(self, a, rng),
            None => Err(Error::IllegalIndex {
                action,
                player: self.to_move(),
                reason: "no such action",
            }),
        }
    }

    fn play_unchecked<R: Rng + ?Sized>(&mut self, action: usize, rng: &mut R) {
        if let Some(a) = Action::from_index(action) {
            Game::play_unchecked(self, a, rng);
        }
    }

    fn is_terminal(&self) -> bool {
        self.is_over()
    }

    fn returns(&self, player: usize) -> f32 {
        self.end().map_or(0.0, |e| e.value_for(player) as f32)
    }

    fn observation(&self, player: usize) -> Observation {
        Game::observation(self, player)
    }

    fn observation_tensor_len(&self) -> usize {
        Observation::tensor_len(self.radius())
    }

    fn observation_tensor(&self, player: usize, out: &mut [f32]) {
        Game::observation(self, player).write_tensor(out);
    }

    /// [`Game::resample_with`] with the default [`OpponentPrior`] (an empty start bag, no hidden
    /// pickups): right for the first game of a match; later games should pass their own prior.
    fn resample<R: Rng + ?Sized>(
        &self,
        player: usize,
        history: &[Observation],
        rng: &mut R,
    ) -> Game {
        let knowledge = Knowledge::from_history(history);
        self.resample_with(player, &knowledge, OpponentPrior::default(), rng)
    }
}

impl ImperfectGame for Arena {
    type Observation = ArenaObservation;
    type Error = Error;

    fn name(&self) -> &'static str {
        "chifoumi-arena"
    }

    fn num_players(&self) -> usize {
        self.players()
    }

    /// `N`, `S`, `E`, `W`, `STAY`, then `DUEL` player `p` at `5 + p` ([`Arena::action_index`]).
    fn num_actions(&self) -> usize {
        5 + self.players()
    }

    fn current_player(&self) -> Option<usize> {
        (!self.is_over()).then_some(self.to_move())
    }

    fn legal_actions(&self, actions: &mut Vec<usize>) {
        Arena::legal_actions(self, actions);
    }

    fn play<R: Rng + ?Sized>(&mut self, action: usize, rng: &mut R) -> Result<(), Error> {
        Arena::play(self, action, rng)
    }

    fn play_unchecked<R: Rng + ?Sized>(&mut self, action: usize, rng: &mut R) {
        Arena::play_unchecked(self, action, rng);
    }

    fn is_terminal(&self) -> bool {
        self.is_over()
    }

    fn returns(&self, player: usize) -> f32 {
        self.score(player) as f32
    }

    fn observation(&self, player: usize) -> ArenaObservation {
        Arena::observation(self, player)
    }

    fn observation_tensor_len(&self) -> usize {
        ArenaObservation::tensor_len(self.radius())
    }

    fn observation_tensor(&self, player: usize, out: &mut [f32]) {
        Arena::observation(self, player).write_tensor(out);
    }

    /// [`Arena::resample`]: the history is not needed by its prior.
    fn resample<R: Rng + ?Sized>(
        &self,
        player: usize,
        _history: &[ArenaObservation],
        rng: &mut R,
    ) -> Arena {
        Arena::resample(self, player, rng)
    }
}
