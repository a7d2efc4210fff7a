//! Chifoumi as a [`State`]: explicit chance nodes (the deal and the duel draws), which the
//! state's own seeded generator can draw as the lab's games do, and per-player observations
//! where what a player cannot see never appears.

use std::fmt;

use pjlab_chifoumi::{Action, Chanced, Game, Rules, Start};
use pjlab_core::ImperfectGame;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::Error;
use crate::state::{State, check_len, check_player, check_range};

/// The registry's name of Chifoumi.
pub const NAME: &str = "chifoumi";

/// A Chifoumi game with explicit chance nodes, and the seeded generator that can draw them.
///
/// A new state is at its first chance node: the deal (each object's cell, then each player's)
/// comes first, and a `DUEL` is followed by two draws, the trigger's then the target's
/// ([`pjlab_chifoumi::Chanced`]). At a chance node [`State::current_player`] is `None`,
/// [`State::chance_outcomes`] lists the outcomes with their probabilities, and
/// [`State::apply_action`] takes an outcome. [`State::apply_seeded_chance`] draws it from the
/// state's generator instead, with the generator calls of `pjlab_chifoumi::Game::new` and
/// `Game::play`: a seed and a sequence of player actions then replay the lab's game exactly.
/// Observations are [`ImperfectGame::observation_tensor`] (the square of the player's radius
/// around it, its own bag, never the other's); during the deal they are all zero.
#[derive(Clone, Debug)]
pub struct ChifoumiState {
    chanced: Chanced,
    rng: ChaCha8Rng,
}

impl ChifoumiState {
    /// A new game under `rules` at its first chance node, with a generator seeded with `seed`.
    ///
    /// # Errors
    /// [`Error::Argument`] when the rules do not check.
    pub fn new(rules: &Rules, seed: u64) -> Result<ChifoumiState, Error> {
        let chanced = Chanced::new(rules, Start::default())
            .map_err(|e| Error::Argument(format!("chifoumi rules: {e}")))?;
        Ok(ChifoumiState {
            chanced,
            rng: ChaCha8Rng::seed_from_u64(seed),
        })
    }

    /// A state of the dealt `game` whose chance events are drawn from a generator seeded with
    /// `seed` (analysis and tests: a game set up by hand).
    pub fn from_game(game: Game, seed: u64) -> ChifoumiState {
        ChifoumiState {
            chanced: Chanced::from_game(game),
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// The whole truth of the game (during the deal, the part dealt so far).
    pub fn game(&self) -> &Game {
        self.chanced.game()
    }

    fn illegal(&self, action: usize, why: String) -> Error {
        Error::IllegalAction {
            game: NAME,
            action,
            position: if self.chanced.is_chance() {
                format!("at turn {}, at a chance node", self.game().turn())
            } else {
                format!("at turn {}", self.game().turn())
            },
            why,
        }
    }
}

impl fmt::Display for ChifoumiState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.chanced)
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
        ImperfectGame::num_players(self.game())
    }

    fn num_actions(&self) -> usize {
        ImperfectGame::num_actions(self.game())
    }

    fn observation_len(&self) -> usize {
        self.game().observation_tensor_len()
    }

    fn current_player(&self) -> Option<usize> {
        if self.chanced.is_chance() {
            None
        } else {
            ImperfectGame::current_player(self.game())
        }
    }

    fn legal_actions(&self, out: &mut Vec<usize>) {
        if self.chanced.is_chance() {
            out.clear();
            out.extend(self.chanced.outcomes().into_iter().map(|(o, _)| o));
        } else {
            ImperfectGame::legal_actions(self.game(), out);
        }
    }

    fn legal_mask(&self, mask: &mut [i8]) -> Result<(), Error> {
        check_len("mask", mask.len(), self.num_actions())?;
        mask.fill(0);
        if !self.chanced.is_chance() {
            for action in self.game().legal().iter() {
                mask[action.index()] = 1;
            }
        }
        Ok(())
    }

    fn apply_action(&mut self, action: i64) -> Result<(), Error> {
        if self.chanced.is_chance() {
            let outcome = check_range(NAME, action, self.chanced.max_outcomes())?;
            return self
                .chanced
                .apply_outcome(outcome)
                .map_err(|e| self.illegal(outcome, format!(": {e}")));
        }
        let index = check_range(NAME, action, self.num_actions())?;
        if self.game().is_over() {
            return Err(self.illegal(index, ": the game is over".into()));
        }
        let chosen = Action::from_index(index)
            .ok_or_else(|| self.illegal(index, ": no such action".into()))?;
        self.chanced
            .play(chosen)
            .map_err(|e| self.illegal(index, format!(": {e}")))
    }

    fn apply_legal(&mut self, action: usize) {
        if self.chanced.is_chance() {
            // Never on the batches' path, which draws chance itself: checked.
            let _ = self.chanced.apply_outcome(action);
        } else if let Some(chosen) = Action::from_index(action) {
            self.chanced.play_unchecked(chosen);
        }
    }

    fn is_terminal(&self) -> bool {
        self.game().is_over()
    }

    fn returns(&self, out: &mut [f32]) -> Result<(), Error> {
        check_len("returns", out.len(), self.num_players())?;
        for (player, value) in out.iter_mut().enumerate() {
            *value = ImperfectGame::returns(self.game(), player);
        }
        Ok(())
    }

    fn observation(&self, player: i64, out: &mut [f32]) -> Result<(), Error> {
        let player = check_player(NAME, player, self.num_players())?;
        check_len("observation", out.len(), self.observation_len())?;
        if self.chanced.is_dealing() {
            out.fill(0.0);
        } else {
            self.game().observation_tensor(player, out);
        }
        Ok(())
    }

    fn action_to_string(&self, action: i64) -> Result<String, Error> {
        if self.chanced.is_chance() {
            let outcome = check_range(NAME, action, self.chanced.max_outcomes())?;
            return self.chanced.outcome_text(outcome).ok_or_else(|| {
                self.illegal(
                    outcome,
                    ": not a possible outcome of this chance node".into(),
                )
            });
        }
        let index = check_range(NAME, action, self.num_actions())?;
        Action::from_index(index)
            .map(|a| a.as_str().to_string())
            .ok_or_else(|| self.illegal(index, String::new()))
    }

    fn string_to_action(&self, text: &str) -> Result<usize, Error> {
        if self.chanced.is_chance() {
            return self
                .chanced
                .outcomes()
                .into_iter()
                .map(|(o, _)| o)
                .find(|&o| self.chanced.outcome_text(o).as_deref() == Some(text.trim()))
                .ok_or_else(|| {
                    Error::Argument(format!(
                        "chifoumi chance outcome {text:?}: not possible at this chance node"
                    ))
                });
        }
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

    fn is_chance_node(&self) -> bool {
        self.chanced.is_chance()
    }

    fn chance_outcomes(&self) -> Vec<(usize, f64)> {
        self.chanced.outcomes()
    }

    fn max_chance_outcomes(&self) -> usize {
        self.chanced.max_outcomes()
    }

    fn apply_seeded_chance(&mut self) -> Result<usize, Error> {
        self.chanced.sample_and_apply(&mut self.rng).ok_or_else(|| {
            Error::Argument(
                "chifoumi: no chance event is due (a player is to act or the game is over)".into(),
            )
        })
    }

    fn settle_chance(&mut self) {
        while self.chanced.sample_and_apply(&mut self.rng).is_some() {}
    }

    /// Chifoumi's pictures are pages of a whole match (`pjlab chifoumi show`), not one state.
    fn svg(&self) -> Option<String> {
        None
    }
}
