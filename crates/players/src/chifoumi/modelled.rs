//! ISMCTS-BR: the information-set MCTS player with its opponent played by a model (a frozen
//! player) instead of by the tree.
//!
//! [`IsmctsPlayer`](super::IsmctsPlayer)'s tree chooses both players' actions: the opponent's
//! by UCB, as if it searched too. A best response to a *known* player searches against that
//! player instead: each determinization's opponent is a fresh copy of the model, which sees
//! the opponent's observations of the determinized game from the search's root on and acts as
//! the model acts (its draws from the search's generator). The tree then holds the searcher's
//! actions only; the model's replies are part of the determinized game, like chance.
//!
//! What the copy cannot know: the model's memory of this game before the root (the searcher
//! never saw the model's observations). The copy starts its match at the root's observation,
//! which carries the match's scores, duels and revealed draws, but not the pickups the model
//! saw earlier in the game nor where it last saw the searcher.

use std::sync::{Arc, Mutex};

use pjlab_chifoumi::{Game, Observation, Player};
use pjlab_core::ImperfectGame;
use pjlab_mcts::LeafValue;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Builds a fresh copy of the modelled player (its match memory empty).
pub type Model = dyn Fn() -> Box<dyn Player + Send> + Send + Sync;

/// A determinized game in which the opponent of `me` is played by a model: after each action
/// of `me`, the model plays until `me` is to act again or the game ends.
///
/// A clone shares the model's copy (the search never clones a state: it draws a new one each
/// iteration).
#[derive(Clone)]
pub(crate) struct Modelled {
    pub(crate) game: Game,
    me: usize,
    model: Arc<Mutex<Box<dyn Player + Send>>>,
}

impl std::fmt::Debug for Modelled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Modelled")
            .field("game", &self.game)
            .field("me", &self.me)
            .finish_non_exhaustive()
    }
}

impl Modelled {
    /// `game` (with `me` to act) and a fresh copy of the model, which starts its match with
    /// the opponent's observation of `game`.
    pub(crate) fn new(game: Game, me: usize, model: &Model) -> Modelled {
        let mut copy = model();
        copy.new_match();
        copy.observe(&game.observation(1 - me));
        Modelled {
            game,
            me,
            model: Arc::new(Mutex::new(copy)),
        }
    }

    /// The model's turns, after each turn its observation, until `me` acts or the game ends.
    fn advance<R: Rng + ?Sized>(&mut self, rng: &mut R) {
        let opp = 1 - self.me;
        let mut model = self.model.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            let obs: Observation = self.game.observation(opp);
            model.observe(&obs);
            if self.game.is_over() || self.game.to_move() != opp {
                return;
            }
            let legal = self.game.legal();
            let mut draws = ChaCha8Rng::seed_from_u64(rng.next_u64());
            let chosen = model.act(&obs, legal, &mut draws);
            let action = if legal.contains(chosen) {
                chosen
            } else {
                match legal.iter().next() {
                    Some(a) => a,
                    None => return,
                }
            };
            self.game.play_unchecked(action, rng);
        }
    }
}

impl ImperfectGame for Modelled {
    type Observation = Observation;
    type Error = pjlab_chifoumi::Error;

    fn name(&self) -> &'static str {
        "chifoumi"
    }

    fn num_players(&self) -> usize {
        2
    }

    fn num_actions(&self) -> usize {
        self.game.num_actions()
    }

    fn current_player(&self) -> Option<usize> {
        self.game.current_player()
    }

    fn legal_actions(&self, actions: &mut Vec<usize>) {
        self.game.legal_actions(actions);
    }

    fn play<R: Rng + ?Sized>(&mut self, action: usize, rng: &mut R) -> Result<(), Self::Error> {
        ImperfectGame::play(&mut self.game, action, rng)?;
        self.advance(rng);
        Ok(())
    }

    fn play_unchecked<R: Rng + ?Sized>(&mut self, action: usize, rng: &mut R) {
        ImperfectGame::play_unchecked(&mut self.game, action, rng);
        self.advance(rng);
    }

    fn is_terminal(&self) -> bool {
        self.game.is_terminal()
    }

    fn returns(&self, player: usize) -> f32 {
        self.game.returns(player)
    }

    fn observation(&self, player: usize) -> Observation {
        ImperfectGame::observation(&self.game, player)
    }

    fn observation_tensor_len(&self) -> usize {
        self.game.observation_tensor_len()
    }

    fn observation_tensor(&self, player: usize, out: &mut [f32]) {
        self.game.observation_tensor(player, out);
    }

    fn resample<R: Rng + ?Sized>(
        &self,
        player: usize,
        history: &[Observation],
        rng: &mut R,
    ) -> Self {
        Modelled {
            game: self.game.resample(player, history, rng),
            ..self.clone()
        }
    }
}

/// A leaf value of the plain game serves the modelled one.
pub(crate) struct OnGame<'a, L>(pub(crate) &'a mut L);

impl<L: LeafValue<Game>> LeafValue<Modelled> for OnGame<'_, L> {
    fn values(&mut self, state: &Modelled, out: &mut [f32]) {
        self.0.values(&state.game, out);
    }

    fn terminal_values(&mut self, state: &Modelled, out: &mut [f32]) {
        self.0.terminal_values(&state.game, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pjlab_chifoumi::{Action, Bag, GameEnd, Rules};

    /// Plays player 0's moves (never a duel) against `model` as player 1: how the game ended.
    fn ending(model: &'static str, seed: u64) -> (GameEnd, Bag) {
        let rules = Rules::default();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let game = Game::new(&rules, &mut rng).unwrap();
        let make = move || pjlab_chifoumi::parse_player(model).unwrap();
        let mut state = Modelled::new(game, 0, &make);
        while let Some(p) = state.current_player() {
            assert_eq!(
                p, 0,
                "after each of its moves, player 0 acts again or the game is over"
            );
            let moves: Vec<Action> = state
                .game
                .legal()
                .iter()
                .filter(|a| *a != Action::Duel)
                .collect();
            let a = moves[rand::RngExt::random_range(&mut rng, 0..moves.len())];
            ImperfectGame::play_unchecked(&mut state, a.index(), &mut rng);
        }
        (state.game.end().unwrap(), state.game.bag(1))
    }

    #[test]
    fn the_model_plays_the_opponents_turns() {
        let (mut duels, mut timeouts) = (0, 0);
        for seed in 0..8 {
            // The avoider never duels and never picks anything up where it can help it.
            let (end, bag) = ending("avoider", seed);
            assert!(!matches!(end, GameEnd::Duel(_)), "seed {seed}: {end:?}");
            assert_eq!(bag, Bag::EMPTY, "seed {seed}");
            // The random player duels whenever it may: player 0 never calls one here.
            match ending("random", seed).0 {
                GameEnd::Duel(d) => {
                    assert_eq!(d.trigger, 1, "seed {seed}");
                    duels += 1;
                }
                _ => timeouts += 1,
            }
        }
        assert!(duels > timeouts, "{duels} duels, {timeouts} timeouts");
    }
}
