//! The registry: a game's name and variant to a [`GameHandle`], in one place ([`load_game`]).

use crate::{GameName, with_kit};
use pjlab_chifoumi::Rules;
use pjlab_core::{Encoder, Game, GameKit, GameType, Information, SetupVariant};

use crate::Error;
use crate::batch::{Batch, VecBatch};
use crate::chifoumi::{self, ChifoumiState};
use crate::state::{KitState, State};
use crate::view::SeatView;

/// The names [`load_game`] knows, in the order help texts list them: the registry's
/// perfect-information games, then Chifoumi.
pub fn games() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = GameName::ALL.iter().map(|g| g.name()).collect();
    names.push(chifoumi::NAME);
    names
}

/// A loaded game: its static facts (OpenSpiel's `Game` and `GameType`) and new states.
pub trait GameHandle: Send + Sync {
    /// The registry's name.
    fn name(&self) -> &'static str;
    /// The variant's name.
    fn variant(&self) -> String;
    /// Every variant's name, the default first.
    fn variants(&self) -> Vec<String>;
    /// Number of players (seats).
    fn num_players(&self) -> usize;
    /// Size of the dense action space.
    fn num_distinct_actions(&self) -> usize;
    /// Length of an observation tensor (a flat vector).
    fn observation_len(&self) -> usize;
    /// An upper bound on a game's length in plies, or `None` when the rules set none.
    fn max_game_length(&self) -> Option<u32>;
    /// The game's static facts in OpenSpiel's terms (players, chance, information, utilities).
    fn game_type(&self) -> GameType;
    /// Whether every player sees the whole state.
    fn is_perfect_information(&self) -> bool {
        self.game_type().information == Information::Perfect
    }
    /// The name and version of the observation encoding (`pijersi-planes v1`).
    fn observation_encoding(&self) -> String;
    /// A new game: the variant's setup for `seed` (random setups draw it, fixed ones ignore
    /// it; Chifoumi seeds its chance generator with it).
    ///
    /// # Errors
    /// When the variant's rules do not check (never for the registry's variants).
    fn new_initial_state(&self, seed: u64) -> Result<Box<dyn State>, Error>;
    /// The number of distinct chance outcomes (OpenSpiel's `max_chance_outcomes`): 0 for the
    /// perfect-information games, whose setups are drawn from the seed at once.
    fn max_chance_outcomes(&self) -> usize {
        0
    }
    /// `n` games stepped together, seeded with `seed` ([`VecBatch`]).
    ///
    /// # Errors
    /// [`Error::Argument`] for `n == 0`.
    fn new_batch(&self, n: usize, seed: u64) -> Result<Box<dyn Batch>, Error>;
    /// The state of a position in the game's text form (a record's `start` or `position`),
    /// under this variant's rules.
    ///
    /// # Errors
    /// [`Error::Argument`] when the text is no position of the game or the variant refuses it
    /// (Chifoumi has no position text).
    fn state_from_text(&self, text: &str) -> Result<Box<dyn State>, Error>;
    /// The network's policy indices (the encoder's view: the mover's) of the game's action
    /// indices `actions` in the position `position`: where a training target's probabilities
    /// go in a policy row of the model card.
    ///
    /// # Errors
    /// As [`GameHandle::state_from_text`], and [`Error::ActionOutOfRange`].
    fn policy_indices(&self, position: &str, actions: &[i64]) -> Result<Vec<usize>, Error>;
    /// The action indices of `moves` (move texts, a record's `moves`) played in turn from the
    /// position `start`.
    ///
    /// # Errors
    /// As [`GameHandle::state_from_text`], and [`Error::Argument`] at `move i` for a text that
    /// names no legal move there.
    fn decode_moves(&self, start: &str, moves: &[String]) -> Result<Vec<usize>, Error> {
        let mut state = self.state_from_text(start)?;
        let mut actions = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let action = state
                .string_to_action(text)
                .map_err(|e| e.at(format!("move {}", i + 1)))?;
            state
                .apply_action(action as i64)
                .map_err(|e| e.at(format!("move {}", i + 1)))?;
            actions.push(action);
        }
        Ok(actions)
    }
    /// The move texts of `actions` (action indices, a positions record's `legal` or
    /// `policy_actions`) in the position `position`.
    ///
    /// # Errors
    /// As [`GameHandle::state_from_text`], and [`Error::Argument`] for an action that is not
    /// legal there.
    fn action_texts(&self, position: &str, actions: &[i64]) -> Result<Vec<String>, Error> {
        let state = self.state_from_text(position)?;
        actions.iter().map(|&a| state.action_to_string(a)).collect()
    }
    /// The state [`State::serialize`] wrote for a state of this game and variant.
    ///
    /// # Errors
    /// [`Error::Argument`] when the text is no state of this game and variant.
    fn deserialize_state(&self, text: &str) -> Result<Box<dyn State>, Error>;
    /// Length of an information-state tensor, or `None` for a game that provides none
    /// ([`State::information_state_len`]).
    fn information_state_len(&self) -> Option<usize> {
        None
    }
}

/// Looks up a game by name and variant (`None`: the game's default variant): the registry's
/// games through `pjlab-registry`, and Chifoumi.
///
/// # Errors
/// [`Error::UnknownGame`] or [`Error::UnknownVariant`].
pub fn load_game(name: &str, variant: Option<&str>) -> Result<Box<dyn GameHandle>, Error> {
    let name = name.trim();
    if name.eq_ignore_ascii_case(chifoumi::NAME) {
        return ChifoumiGame::load(variant);
    }
    match GameName::parse(name) {
        Ok(game) => with_kit!(game, |K| KitGame::<K>::load(variant)),
        Err(_) => Err(Error::UnknownGame {
            name: name.to_string(),
            known: games().join(", "),
        }),
    }
}

/// A perfect-information game of the registry: its kit and one of its setup variants.
pub struct KitGame<K: GameKit> {
    variant: K::Variant,
    encoder: K::Encoder,
    /// The setup for seed 0, for the facts that depend on the variant.
    sample: K::Game,
}

impl<K: GameKit> KitGame<K> {
    /// The game with `variant` (by name; `None`: the kit's first variant).
    ///
    /// # Errors
    /// [`Error::UnknownVariant`].
    pub fn new(variant: Option<&str>) -> Result<KitGame<K>, Error> {
        let variant = match variant {
            None => K::variants()[0],
            Some(name) => K::variant(name.trim()).map_err(|reason| Error::UnknownVariant {
                game: K::INFO.name,
                variant: name.to_string(),
                reason: reason.to_string(),
            })?,
        };
        let sample = variant.start(0);
        Ok(KitGame {
            variant,
            encoder: K::position_encoder(&sample),
            sample,
        })
    }

    /// The state of the variant's setup for `seed`.
    pub fn state(&self, seed: u64) -> KitState<K> {
        KitState::new(self.variant.start(seed), self.encoder.clone())
    }

    /// The state of a position text under this variant's rules (the variant adopts it).
    ///
    /// # Errors
    /// [`Error::Argument`] when the text is no position of the game or the variant refuses it.
    pub fn kit_state_from_text(&self, text: &str) -> Result<KitState<K>, Error> {
        let bad =
            |why: String| Error::Argument(format!("{} position {text:?}: {why}", K::INFO.name));
        let position = K::Game::from_text(text.trim()).map_err(|e| bad(e.to_string()))?;
        let position = self
            .variant
            .adopt(position)
            .map_err(|e| bad(e.to_string()))?;
        let encoder = K::position_encoder(&position);
        Ok(KitState::<K>::new(position, encoder))
    }
}

impl<K: SeatView> KitGame<K> {
    fn load(variant: Option<&str>) -> Result<Box<dyn GameHandle>, Error> {
        Ok(Box::new(KitGame::<K>::new(variant)?))
    }
}

impl<K: SeatView> GameHandle for KitGame<K> {
    fn name(&self) -> &'static str {
        K::INFO.name
    }

    fn variant(&self) -> String {
        self.variant.to_string()
    }

    fn variants(&self) -> Vec<String> {
        K::variants().iter().map(ToString::to_string).collect()
    }

    fn num_players(&self) -> usize {
        self.sample.seats()
    }

    fn num_distinct_actions(&self) -> usize {
        self.sample.num_actions()
    }

    fn observation_len(&self) -> usize {
        self.encoder.input_len()
    }

    fn max_game_length(&self) -> Option<u32> {
        K::max_game_length(&self.sample)
    }

    fn game_type(&self) -> GameType {
        K::INFO.game_type
    }

    fn observation_encoding(&self) -> String {
        let id = self.encoder.id();
        format!("{} v{}", id.name, id.version)
    }

    fn new_initial_state(&self, seed: u64) -> Result<Box<dyn State>, Error> {
        Ok(Box::new(self.state(seed)))
    }

    fn new_batch(&self, n: usize, seed: u64) -> Result<Box<dyn Batch>, Error> {
        let variant = self.variant;
        let encoder = self.encoder.clone();
        let batch = VecBatch::new(n, seed, move |seed| {
            Ok(KitState::<K>::new(variant.start(seed), encoder.clone()))
        })?;
        Ok(Box::new(batch))
    }

    fn state_from_text(&self, text: &str) -> Result<Box<dyn State>, Error> {
        Ok(Box::new(self.kit_state_from_text(text)?))
    }

    fn information_state_len(&self) -> Option<usize> {
        None
    }

    /// The position text on the first line; a second line `last <action> <text>` restores
    /// the last move's mark.
    fn deserialize_state(&self, text: &str) -> Result<Box<dyn State>, Error> {
        let mut lines = text.lines();
        let first = lines.next().unwrap_or("");
        let state = self.kit_state_from_text(first)?;
        let Some(last) = lines.next().filter(|l| !l.trim().is_empty()) else {
            return Ok(Box::new(state));
        };
        let bad = || Error::Argument(format!("{} state text: bad line {last:?}", K::INFO.name));
        let rest = last.trim().strip_prefix("last ").ok_or_else(bad)?;
        let (action, before) = rest.split_once(' ').ok_or_else(bad)?;
        let action: usize = action.parse().map_err(|_| bad())?;
        let before = self.kit_state_from_text(before)?.position().clone();
        let mv = before.action_from_index(action).ok_or_else(bad)?;
        Ok(Box::new(state.with_last(before, mv)))
    }

    fn policy_indices(&self, position: &str, actions: &[i64]) -> Result<Vec<usize>, Error> {
        let position = K::Game::from_text(position.trim())
            .map_err(|e| Error::Argument(format!("{} position {position:?}: {e}", K::INFO.name)))?;
        let encoder = K::position_encoder(&position);
        actions
            .iter()
            .map(|&a| {
                let a = crate::state::check_range(K::INFO.name, a, position.num_actions())?;
                Ok(encoder.policy_index(&position, a))
            })
            .collect()
    }
}

/// Chifoumi with the spec's rules (the one variant, `standard`).
pub struct ChifoumiGame {
    rules: Rules,
    sample: ChifoumiState,
}

impl ChifoumiGame {
    /// The variants' names.
    pub const VARIANTS: [&str; 1] = ["standard"];

    /// The game with `variant` (`None` or `standard`).
    ///
    /// # Errors
    /// [`Error::UnknownVariant`] for any other name.
    pub fn new(variant: Option<&str>) -> Result<ChifoumiGame, Error> {
        match variant.map(str::trim) {
            None | Some("standard") => {}
            Some(other) => {
                return Err(Error::UnknownVariant {
                    game: chifoumi::NAME,
                    variant: other.to_string(),
                    reason: format!("the variants are {}", Self::VARIANTS.join(", ")),
                });
            }
        }
        let rules = Rules::default();
        let sample = ChifoumiState::new(&rules, 0)?;
        Ok(ChifoumiGame { rules, sample })
    }

    fn load(variant: Option<&str>) -> Result<Box<dyn GameHandle>, Error> {
        Ok(Box::new(ChifoumiGame::new(variant)?))
    }
}

impl GameHandle for ChifoumiGame {
    fn name(&self) -> &'static str {
        chifoumi::NAME
    }

    fn variant(&self) -> String {
        Self::VARIANTS[0].to_string()
    }

    fn variants(&self) -> Vec<String> {
        Self::VARIANTS.iter().map(ToString::to_string).collect()
    }

    fn num_players(&self) -> usize {
        self.sample.num_players()
    }

    fn num_distinct_actions(&self) -> usize {
        self.sample.num_actions()
    }

    fn observation_len(&self) -> usize {
        self.sample.observation_len()
    }

    /// Two turns a round, and the game is drawn after `max_rounds` rounds.
    fn max_game_length(&self) -> Option<u32> {
        Some(2 * u32::from(self.rules.max_rounds))
    }

    fn game_type(&self) -> GameType {
        pjlab_chifoumi::GAME_TYPE
    }

    fn observation_encoding(&self) -> String {
        "chifoumi-window v1".into()
    }

    /// A state at the first chance node of the deal, whose generator is seeded with `seed`.
    fn new_initial_state(&self, seed: u64) -> Result<Box<dyn State>, Error> {
        Ok(Box::new(ChifoumiState::new(&self.rules, seed)?))
    }

    fn max_chance_outcomes(&self) -> usize {
        self.sample.max_chance_outcomes()
    }

    fn new_batch(&self, n: usize, seed: u64) -> Result<Box<dyn Batch>, Error> {
        let rules = self.rules.clone();
        Ok(Box::new(VecBatch::new(n, seed, move |seed| {
            ChifoumiState::new(&rules, seed)
        })?))
    }

    fn state_from_text(&self, _text: &str) -> Result<Box<dyn State>, Error> {
        Err(no_text())
    }

    fn policy_indices(&self, _position: &str, _actions: &[i64]) -> Result<Vec<usize>, Error> {
        Err(no_text())
    }

    /// A new game of the text's seed, its log replayed ([`ChifoumiState::deserialize`]).
    fn deserialize_state(&self, text: &str) -> Result<Box<dyn State>, Error> {
        Ok(Box::new(ChifoumiState::deserialize(&self.rules, text)?))
    }

    fn information_state_len(&self) -> Option<usize> {
        self.sample.information_state_len()
    }
}

/// Chifoumi's refusal of position texts.
fn no_text() -> Error {
    Error::Argument(
        "chifoumi has no position text: its records are read by `pjlab chifoumi`".into(),
    )
}
