//! Chifoumi as a [`State`]: chance drawn from the state's own seeded generator, and per-player
//! observations where what a player cannot see never appears.

use std::fmt;

use pjlab_chifoumi::{Action, Game, Rules};
use pjlab_core::ImperfectGame;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::Error;
use crate::state::{State, check_len, check_player, check_range};

/// The registry's name of Chifoumi.
pub(crate) const NAME: &str = "chifoumi";

/// A Chifoumi game with the generator its chance events are drawn from.
///
/// The generator is seeded once ([`ChifoumiState::new`]): it deals the objects and places the
/// players, then draws every duel, so a seed and a sequence of actions replay a game exactly,
/// as `pjlab_chifoumi::Game::new` and `ImperfectGame::play` do with a `ChaCha8Rng` of that seed.
/// There are no separate chance nodes: the player to act is always a player. Observations are
/// [`ImperfectGame::observation_tensor`]: the square of the player's radius around it, its own
/// bag, never the other's.
#[derive(Clone, Debug)]
pub struct ChifoumiState {
    game: Game,
    rng: ChaCha8Rng,
}

impl ChifoumiState {
    /// A new game under `rules`, dealt and played with a generator seeded with `seed`.
    ///
    /// # Errors
    /// [`Error::Argument`] when the rules do not check.
    pub fn new(rules: &Rules, seed: u64) -> Result<ChifoumiState, Error> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let game = Game::new(rules, &mut rng)
            .map_err(|e| Error::Argument(format!("chifoumi rules: {e}")))?;
        Ok(ChifoumiState { game, rng })
    }

    /// A state of `game` whose chance events are drawn from a generator seeded with `seed`
    /// (analysis and tests: a game set up by hand).
    pub fn from_game(game: Game, seed: u64) -> ChifoumiState {
        ChifoumiState {
            game,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// The whole truth of the game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    fn illegal(&self, action: usize, why: String) -> Error {
        Error::IllegalAction {
            game: NAME,
            action,
            position: format!("at turn {}", self.game.turn()),
            why,
        }
    }
}

impl fmt::Display for ChifoumiState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.game)
    }
}

impl State for ChifoumiState {
    fn game_name(&self) -> &'static str {
        NAME
    }

    fn clone_box(&self) -> Box<dyn State> {
        Box::new(self.clone())
    }

    fn num_players(&self) -> usize {
        ImperfectGame::num_players(&self.game)
    }

    fn num_actions(&self) -> usize {
        ImperfectGame::num_actions(&self.game)
    }

    fn observation_len(&self) -> usize {
        self.game.observation_tensor_len()
    }

    fn current_player(&self) -> Option<usize> {
        ImperfectGame::current_player(&self.game)
    }

    fn legal_actions(&self, out: &mut Vec<usize>) {
        ImperfectGame::legal_actions(&self.game, out);
    }

    fn legal_mask(&self, mask: &mut [i8]) -> Result<(), Error> {
        check_len("mask", mask.len(), self.num_actions())?;
        mask.fill(0);
        for action in self.game.legal().iter() {
            mask[action.index()] = 1;
        }
        Ok(())
    }

    fn apply_action(&mut self, action: i64) -> Result<(), Error> {
        let index = check_range(NAME, action, self.num_actions())?;
        if self.game.is_over() {
            return Err(self.illegal(index, ": the game is over".into()));
        }
        ImperfectGame::play(&mut self.game, index, &mut self.rng)
            .map_err(|e| self.illegal(index, format!(": {e}")))
    }

    fn apply_legal(&mut self, action: usize) {
        ImperfectGame::play_unchecked(&mut self.game, action, &mut self.rng);
    }

    fn is_terminal(&self) -> bool {
        self.game.is_over()
    }

    fn returns(&self, out: &mut [f32]) -> Result<(), Error> {
        check_len("returns", out.len(), self.num_players())?;
        for (player, value) in out.iter_mut().enumerate() {
            *value = ImperfectGame::returns(&self.game, player);
        }
        Ok(())
    }

    fn observation(&self, player: i64, out: &mut [f32]) -> Result<(), Error> {
        let player = check_player(NAME, player, self.num_players())?;
        check_len("observation", out.len(), self.observation_len())?;
        self.game.observation_tensor(player, out);
        Ok(())
    }

    fn action_to_string(&self, action: i64) -> Result<String, Error> {
        let index = check_range(NAME, action, self.num_actions())?;
        Action::from_index(index)
            .map(|a| a.as_str().to_string())
            .ok_or_else(|| self.illegal(index, String::new()))
    }

    fn string_to_action(&self, text: &str) -> Result<usize, Error> {
        let action: Action = text
            .trim()
            .parse()
            .map_err(|e| Error::Argument(format!("chifoumi move {text:?}: {e}")))?;
        let index = action.index();
        if index < self.num_actions() {
            Ok(index)
        } else {
            Err(Error::Argument(format!(
                "chifoumi move {text:?}: not allowed under these rules"
            )))
        }
    }

    /// Chifoumi's pictures are pages of a whole match (`pjlab chifoumi show`), not one state.
    fn svg(&self) -> Option<String> {
        None
    }
}
