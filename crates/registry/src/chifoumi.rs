//! Chifoumi as a [`State`]: explicit chance nodes (the deal and the duel draws), which the
//! state's own seeded generator can draw as the lab's games do, and per-player observations
//! where what a player cannot see never appears.

use std::fmt;
use std::sync::Arc;

use pjlab_chifoumi::{Action, Chanced, Game, Observation, Rules, Start};
use pjlab_core::ImperfectGame;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::Error;
use crate::chifoumi_view::{self, INFO_DUEL_LEN};
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
///
/// The state keeps every outcome and action applied since its start (a few hundred small
/// numbers): its serial form replays them, and a player's information state is the sequence of
/// its observations along them ([`State::information_state_string`]).
#[derive(Clone, Debug)]
pub struct ChifoumiState {
    chanced: Chanced,
    rng: ChaCha8Rng,
    origin: Arc<Origin>,
    /// Every chance outcome and action applied since `origin`, in order.
    log: Vec<u16>,
}

/// Where a state's log starts.
#[derive(Debug)]
struct Origin {
    /// The game before the first entry of the log.
    start: Chanced,
    /// The seed of the state's generator.
    seed: u64,
    /// Whether `start` was set up by hand ([`ChifoumiState::from_game`]): such a state has no
    /// serial form.
    by_hand: bool,
}

impl ChifoumiState {
    /// A new game under `rules` at its first chance node, with a generator seeded with `seed`.
    ///
    /// # Errors
    /// [`Error::Argument`] when the rules do not check.
    pub fn new(rules: &Rules, seed: u64) -> Result<ChifoumiState, Error> {
        let chanced = Chanced::new(rules, Start::default())
            .map_err(|e| Error::Argument(format!("chifoumi rules: {e}")))?;
        Ok(ChifoumiState::with_origin(chanced, seed, false))
    }

    fn with_origin(chanced: Chanced, seed: u64, by_hand: bool) -> ChifoumiState {
        ChifoumiState {
            origin: Arc::new(Origin {
                start: chanced.clone(),
                seed,
                by_hand,
            }),
            chanced,
            rng: ChaCha8Rng::seed_from_u64(seed),
            log: Vec::new(),
        }
    }

    /// The state [`State::serialize`] wrote: a new game under `rules` with the generator's
    /// seed, its log replayed and the generator put back where it was.
    ///
    /// # Errors
    /// [`Error::Argument`] naming the line or entry that does not read or replay.
    pub fn deserialize(rules: &Rules, text: &str) -> Result<ChifoumiState, Error> {
        let bad = |why: String| Error::Argument(format!("chifoumi state text: {why}"));
        let mut fields = [None; 3];
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            let slot = ["seed", "rng", "log"]
                .iter()
                .position(|&k| k == key)
                .ok_or_else(|| bad(format!("unknown line {line:?}")))?;
            fields[slot] = Some(value.trim());
        }
        let [Some(seed), Some(word), log] = fields else {
            return Err(bad("it needs the lines `seed` and `rng`".into()));
        };
        let seed: u64 = seed
            .parse()
            .map_err(|e| bad(format!("seed {seed:?}: {e}")))?;
        let word: u128 = word
            .parse()
            .map_err(|e| bad(format!("rng {word:?}: {e}")))?;
        let mut state = ChifoumiState::new(rules, seed)?;
        for (i, entry) in log.unwrap_or("").split_whitespace().enumerate() {
            let action: i64 = entry
                .parse()
                .map_err(|e| bad(format!("log entry {i} {entry:?}: {e}")))?;
            state
                .apply_action(action)
                .map_err(|e| e.at(format!("chifoumi state text: log entry {i}")))?;
        }
        state.rng.set_word_pos(word);
        Ok(state)
    }

    /// Each of `player`'s observations since the state's start: after the deal, then after
    /// every turn (a move, or a duel's last draw), as the lab's players are shown them.
    pub fn observations(&self, player: usize) -> Vec<Observation> {
        let mut replica = self.origin.start.clone();
        let mut looks = Vec::new();
        if !replica.is_chance() {
            looks.push(replica.game().observation(player));
        }
        for &entry in &self.log {
            let entry = usize::from(entry);
            if replica.is_chance() {
                let _ = replica.apply_outcome(entry);
            } else if let Some(action) = Action::from_index(entry) {
                let _ = replica.play(action);
            }
            if !replica.is_chance() {
                looks.push(replica.game().observation(player));
            }
        }
        looks
    }

    /// Length of [`State::information_state_tensor`]: one observation tensor for the deal's
    /// end and one for each of the game's turns, then the duel's two draws.
    fn info_len(&self) -> usize {
        (2 * usize::from(self.game().max_rounds()) + 1) * self.observation_len() + INFO_DUEL_LEN
    }

    fn push(&mut self, entry: usize) {
        self.log.push(entry as u16);
    }

    /// A state of the dealt `game` whose chance events are drawn from a generator seeded with
    /// `seed` (analysis and tests: a game set up by hand).
    pub fn from_game(game: Game, seed: u64) -> ChifoumiState {
        ChifoumiState::with_origin(Chanced::from_game(game), seed, true)
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
            self.chanced
                .apply_outcome(outcome)
                .map_err(|e| self.illegal(outcome, format!(": {e}")))?;
            self.push(outcome);
            return Ok(());
        }
        let index = check_range(NAME, action, self.num_actions())?;
        if self.game().is_over() {
            return Err(self.illegal(index, ": the game is over".into()));
        }
        let chosen = Action::from_index(index)
            .ok_or_else(|| self.illegal(index, ": no such action".into()))?;
        self.chanced
            .play(chosen)
            .map_err(|e| self.illegal(index, format!(": {e}")))?;
        self.push(index);
        Ok(())
    }

    fn apply_legal(&mut self, action: usize) {
        if self.chanced.is_chance() {
            // Never on the batches' path, which draws chance itself: checked.
            if self.chanced.apply_outcome(action).is_ok() {
                self.push(action);
            }
        } else if let Some(chosen) = Action::from_index(action) {
            self.chanced.play_unchecked(chosen);
            self.push(action);
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
        let outcome = self
            .chanced
            .sample_and_apply(&mut self.rng)
            .ok_or_else(|| {
                Error::Argument(
                    "chifoumi: no chance event is due (a player is to act or the game is over)"
                        .into(),
                )
            })?;
        self.push(outcome);
        Ok(outcome)
    }

    fn settle_chance(&mut self) {
        while let Some(outcome) = self.chanced.sample_and_apply(&mut self.rng) {
            self.push(outcome);
        }
    }

    /// `seed`, `rng` (the generator's word position) and `log` lines: the deal and the game
    /// replayed from a new state of that seed.
    fn serialize(&self) -> Result<String, Error> {
        if self.origin.by_hand {
            return Err(Error::Argument(
                "a chifoumi game set up by hand has no text form (only dealt games replay)".into(),
            ));
        }
        let log: Vec<String> = self.log.iter().map(ToString::to_string).collect();
        Ok(format!(
            "seed {}\nrng {}\nlog {}",
            self.origin.seed,
            self.rng.get_word_pos(),
            log.join(" ")
        ))
    }

    /// The player's own observation in words ([`chifoumi_view::observation_text`]); during the
    /// deal, that it is under way.
    fn observation_string(&self, player: i64) -> Result<String, Error> {
        let player = check_player(NAME, player, self.num_players())?;
        if self.chanced.is_dealing() {
            return Ok("the deal is under way".into());
        }
        Ok(chifoumi_view::observation_text(
            &self.game().observation(player),
        ))
    }

    fn information_state_len(&self) -> Option<usize> {
        Some(self.info_len())
    }

    /// One line per observation of [`ChifoumiState::observations`], oldest first.
    fn information_state_string(&self, player: i64) -> Result<String, Error> {
        let player = check_player(NAME, player, self.num_players())?;
        let looks = self.observations(player);
        if looks.is_empty() {
            return Ok("the deal is under way".into());
        }
        let lines: Vec<String> = looks.iter().map(chifoumi_view::observation_text).collect();
        Ok(lines.join("\n"))
    }

    /// Row `k` holds the observation tensor of the `k`-th observation of
    /// [`ChifoumiState::observations`] (rows not reached yet are 0), then the duel's draws once
    /// revealed: the player's own one-hot (F, P, C), the opponent's.
    fn information_state_tensor(&self, player: i64, out: &mut [f32]) -> Result<(), Error> {
        let player = check_player(NAME, player, self.num_players())?;
        check_len("information state", out.len(), self.info_len())?;
        chifoumi_view::write_information_state(
            &self.observations(player),
            self.observation_len(),
            out,
        );
        Ok(())
    }

    /// Chifoumi's pictures are pages of a whole match (`pjlab chifoumi show`), not one state.
    fn svg(&self) -> Option<String> {
        None
    }
}
