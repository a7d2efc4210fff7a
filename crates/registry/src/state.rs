//! [`State`]: one game in progress, whatever the game, with OpenSpiel's vocabulary; and
//! [`KitState`], the state of every perfect-information game of the registry.

use std::any::Any;
use std::fmt;

use pjlab_core::{Encoder, Game, GameKit, Side};

use crate::Error;
use crate::view::SeatView;

/// One game in progress, behind one object-safe interface (OpenSpiel's `State`).
///
/// Players are indexed `0..num_players()`; actions are the game's dense action indices in
/// `0..num_actions()`; masks hold 1 at the legal actions and 0 elsewhere. Every checked method
/// leaves the state unchanged when it returns an error, and none panics on any input. A
/// `&dyn State` upcasts to `&dyn Any`: the agents and models find their game's position there.
pub trait State: Any + fmt::Display + fmt::Debug + Send + Sync {
    /// The registry's name of the game.
    fn game_name(&self) -> &'static str;
    /// A boxed copy, independent of this state.
    fn clone_box(&self) -> Box<dyn State>;
    /// Number of players (seats): 2, or 4 in Abalone doubles.
    fn num_players(&self) -> usize;
    /// Size of the dense action space.
    fn num_actions(&self) -> usize;
    /// Length of an observation tensor.
    fn observation_len(&self) -> usize;
    /// The player to act, or `None` at a chance node or once the game is over.
    fn current_player(&self) -> Option<usize>;
    /// Clears `out` and fills it with the legal actions of the player to act, in increasing
    /// order; at a chance node, the possible outcomes (OpenSpiel's convention).
    fn legal_actions(&self, out: &mut Vec<usize>);
    /// Writes the legal-action mask into `mask`, whose length must be `num_actions()` (all 0
    /// at a chance node: no player acts there).
    ///
    /// # Errors
    /// [`Error::Shape`] on another length.
    fn legal_mask(&self, mask: &mut [i8]) -> Result<(), Error>;
    /// Plays `action` for the player to act.
    ///
    /// # Errors
    /// [`Error::ActionOutOfRange`] or [`Error::IllegalAction`] (also once the game is over);
    /// the state is then unchanged.
    fn apply_action(&mut self, action: i64) -> Result<(), Error>;
    /// Plays `action`, which the caller has checked is legal (the batches' fast path, after a
    /// mask lookup). Anything else leaves the state unspecified but memory-safe, never panics.
    fn apply_legal(&mut self, action: usize);
    /// Whether the game is over.
    fn is_terminal(&self) -> bool;
    /// Writes each player's return so far (the final one once the game is over: +1 win,
    /// 0 draw, -1 loss for the two-sided games) into `out`, of length `num_players()`.
    ///
    /// # Errors
    /// [`Error::Shape`] on another length.
    fn returns(&self, out: &mut [f32]) -> Result<(), Error>;
    /// Writes what `player` observes into `out`, of length `observation_len()`.
    ///
    /// # Errors
    /// [`Error::PlayerOutOfRange`] or [`Error::Shape`].
    fn observation(&self, player: i64, out: &mut [f32]) -> Result<(), Error>;
    /// Writes the lab's network input into `out`, of length `observation_len()`: the
    /// observation of the player to act (Pijersi, Abalone, Chomp: the kit's encoder input, the
    /// board from the side to move's point of view, also once the game is over). What
    /// [`crate::Batch`] observations and the Python package's `encode_positions` give.
    ///
    /// # Errors
    /// [`Error::Shape`].
    fn network_input(&self, out: &mut [f32]) -> Result<(), Error> {
        self.observation(self.current_player().unwrap_or(0) as i64, out)
    }
    /// The text of legal action `action` in the game's move notation.
    ///
    /// # Errors
    /// [`Error::ActionOutOfRange`], or [`Error::IllegalAction`] when the action names no legal
    /// move here.
    fn action_to_string(&self, action: i64) -> Result<String, Error>;
    /// The action a move text names here ([`State::action_to_string`]'s inverse).
    ///
    /// # Errors
    /// [`Error::Argument`] when the text names no legal move here.
    fn string_to_action(&self, text: &str) -> Result<usize, Error>;
    /// Whether a chance event is due (Chifoumi's deal and duel draws; never in the
    /// perfect-information games).
    fn is_chance_node(&self) -> bool {
        false
    }
    /// The outcomes of the chance event due now with their probabilities, by increasing outcome
    /// (empty at a player's turn).
    fn chance_outcomes(&self) -> Vec<(usize, f64)> {
        Vec::new()
    }
    /// The number of distinct chance outcomes (0 for a game without chance).
    fn max_chance_outcomes(&self) -> usize {
        0
    }
    /// Draws the outcome of the chance event due now from the state's own seeded generator,
    /// exactly as the lab's Rust game draws it, applies it and returns it.
    ///
    /// # Errors
    /// [`Error::Argument`] when no chance event is due.
    fn apply_seeded_chance(&mut self) -> Result<usize, Error> {
        Err(Error::Argument(format!(
            "{}: no chance event is due (a player is to act or the game is over)",
            self.game_name()
        )))
    }
    /// Draws every chance event due now from the state's own generator (what the batches and
    /// the PettingZoo environment do after every action), so that a player is to act or the
    /// game is over.
    fn settle_chance(&mut self) {}
    /// The position drawn as a self-contained SVG picture (the game crate's drawing, the last
    /// move played through [`State::apply_action`] marked); `None` for a game without one.
    fn svg(&self) -> Option<String>;
    /// The whole state as text (OpenSpiel's `Serialize`): its game's
    /// [`crate::GameHandle::deserialize_state`] reads it back into a state that is equal (the
    /// same text again) and plays on identically, chance draws from its generator included.
    ///
    /// # Errors
    /// [`Error::Argument`] for a state that has no text form (a Chifoumi game set up by hand).
    fn serialize(&self) -> Result<String, Error>;
    /// Writes what each player gained by the last transition into `out`, of length
    /// `num_players()` (OpenSpiel's `Rewards`). The registry's games score only at their end, so
    /// it is the returns once the game is over and 0 before.
    ///
    /// # Errors
    /// [`Error::Shape`] on another length.
    fn rewards(&self, out: &mut [f32]) -> Result<(), Error> {
        if self.is_terminal() {
            self.returns(out)
        } else {
            check_len("rewards", out.len(), self.num_players())?;
            out.fill(0.0);
            Ok(())
        }
    }
    /// What `player` observes, in words (OpenSpiel's `ObservationString`): the position text
    /// in the perfect-information games (the same for every player), the player's own view in
    /// Chifoumi.
    ///
    /// # Errors
    /// [`Error::PlayerOutOfRange`].
    fn observation_string(&self, player: i64) -> Result<String, Error>;
    /// Length of the information-state tensor, or `None` for a game that provides none (the
    /// perfect-information games, whose observation is the whole state).
    fn information_state_len(&self) -> Option<usize> {
        None
    }
    /// Everything `player` may know of the game so far, in words (OpenSpiel's
    /// `InformationStateString`).
    ///
    /// # Errors
    /// [`Error::PlayerOutOfRange`], or [`Error::Argument`] for a game without information
    /// states.
    fn information_state_string(&self, player: i64) -> Result<String, Error> {
        let _ = player;
        Err(no_information_state(self.game_name()))
    }
    /// Writes everything `player` may know of the game so far into `out`, of length
    /// [`State::information_state_len`] (OpenSpiel's `InformationStateTensor`).
    ///
    /// # Errors
    /// [`Error::PlayerOutOfRange`], [`Error::Shape`], or [`Error::Argument`] for a game without
    /// information states.
    fn information_state_tensor(&self, player: i64, out: &mut [f32]) -> Result<(), Error> {
        let _ = (player, out);
        Err(no_information_state(self.game_name()))
    }
}

/// The refusal of an information state by a perfect-information game.
fn no_information_state(game: &str) -> Error {
    Error::Argument(format!(
        "{game} provides no information state: it is a perfect-information game, whose \
         observation (observation_tensor, observation_string) is the whole state"
    ))
}

/// Checks `action` against `0..num_actions`.
///
/// # Errors
/// [`Error::ActionOutOfRange`].
pub fn check_range(game: &'static str, action: i64, num_actions: usize) -> Result<usize, Error> {
    usize::try_from(action)
        .ok()
        .filter(|&a| a < num_actions)
        .ok_or(Error::ActionOutOfRange {
            game,
            action,
            num_actions,
        })
}

/// Checks `player` against `0..num_players`.
///
/// # Errors
/// [`Error::PlayerOutOfRange`].
pub fn check_player(game: &'static str, player: i64, num_players: usize) -> Result<usize, Error> {
    usize::try_from(player)
        .ok()
        .filter(|&p| p < num_players)
        .ok_or(Error::PlayerOutOfRange {
            game,
            player,
            num_players,
        })
}

/// Checks that a buffer has `expected` elements.
///
/// # Errors
/// [`Error::Shape`] naming `what`.
pub fn check_len(what: &'static str, found: usize, expected: usize) -> Result<(), Error> {
    if found == expected {
        Ok(())
    } else {
        Err(Error::Shape {
            what,
            found: format!("({found},)"),
            expected: format!("({expected},)"),
        })
    }
}

/// A position of a [`GameKit`]'s game with the kit's encoder: the [`State`] of Pijersi,
/// Abalone and Chomp.
///
/// Players are the game's seats ([`Game::seat`]); seats alternate sides, so seat `p` plays side
/// `p % 2` (Abalone doubles: seats 0 and 2 are Black, 1 and 3 White) and gets that side's
/// return. Each player observes the board from its own side ([`SeatView`]): the player to
/// act gets the kit's encoder input as the lab's networks see it, bit for bit; another player
/// the encoding of the same board with its seat to move.
pub struct KitState<K: GameKit> {
    position: K::Game,
    encoder: K::Encoder,
    /// The position before the last move [`State::apply_action`] played, and that move, for
    /// the picture's mark (the batches' unchecked path keeps none).
    last: Option<(K::Game, <K::Game as Game>::Move)>,
}

impl<K: GameKit> KitState<K> {
    /// The state of `position`, observed through `encoder`.
    pub fn new(position: K::Game, encoder: K::Encoder) -> KitState<K> {
        KitState {
            position,
            encoder,
            last: None,
        }
    }

    /// The position.
    pub fn position(&self) -> &K::Game {
        &self.position
    }

    /// This state with `before` and the move `mv` played from it as its last move (the
    /// picture's mark).
    pub fn with_last(mut self, before: K::Game, mv: <K::Game as Game>::Move) -> KitState<K> {
        self.last = Some((before, mv));
        self
    }

    /// The position before the last move [`State::apply_action`] played, and that move.
    pub fn last(&self) -> Option<&(K::Game, <K::Game as Game>::Move)> {
        self.last.as_ref()
    }

    fn illegal(&self, action: usize, why: String) -> Error {
        Error::IllegalAction {
            game: K::INFO.name,
            action,
            position: self.position.to_text(),
            why,
        }
    }

    fn legal_move(&self, action: i64) -> Result<<K::Game as Game>::Move, Error> {
        let index = check_range(K::INFO.name, action, self.position.num_actions())?;
        if self.position.outcome().is_some() {
            return Err(self.illegal(index, ": the game is over".into()));
        }
        let mut moves = Vec::new();
        self.position.legal_moves(&mut moves);
        moves
            .into_iter()
            .find(|&mv| self.position.action_index(mv) == index)
            .ok_or_else(|| self.illegal(index, String::new()))
    }
}

impl<K: GameKit> Clone for KitState<K> {
    fn clone(&self) -> Self {
        KitState {
            position: self.position.clone(),
            encoder: self.encoder.clone(),
            last: self.last.clone(),
        }
    }
}

impl<K: GameKit> fmt::Debug for KitState<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({})", K::INFO.name, self.position.to_text())
    }
}

impl<K: GameKit> fmt::Display for KitState<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.position.to_text())
    }
}

/// The side seat `seat` plays: seats alternate sides.
fn side_of_seat(seat: usize) -> Side {
    if seat.is_multiple_of(2) {
        Side::First
    } else {
        Side::Second
    }
}

impl<K: SeatView> State for KitState<K> {
    fn game_name(&self) -> &'static str {
        K::INFO.name
    }

    fn clone_box(&self) -> Box<dyn State> {
        Box::new(self.clone())
    }

    fn num_players(&self) -> usize {
        self.position.seats()
    }

    fn num_actions(&self) -> usize {
        self.position.num_actions()
    }

    fn observation_len(&self) -> usize {
        self.encoder.input_len()
    }

    fn current_player(&self) -> Option<usize> {
        self.position
            .outcome()
            .is_none()
            .then(|| self.position.seat())
    }

    fn legal_actions(&self, out: &mut Vec<usize>) {
        let mut moves = Vec::new();
        self.position.legal_moves(&mut moves);
        out.clear();
        out.extend(moves.into_iter().map(|mv| self.position.action_index(mv)));
        out.sort_unstable();
    }

    fn legal_mask(&self, mask: &mut [i8]) -> Result<(), Error> {
        check_len("mask", mask.len(), self.num_actions())?;
        mask.fill(0);
        let mut moves = Vec::new();
        self.position.legal_moves(&mut moves);
        for mv in moves {
            mask[self.position.action_index(mv)] = 1;
        }
        Ok(())
    }

    fn apply_action(&mut self, action: i64) -> Result<(), Error> {
        let mv = self.legal_move(action)?;
        let index = self.position.action_index(mv);
        let before = self.position.clone();
        self.position
            .play(mv)
            .map_err(|e| self.illegal(index, format!(": {e}")))?;
        self.last = Some((before, mv));
        Ok(())
    }

    fn apply_legal(&mut self, action: usize) {
        self.last = None;
        if let Some(mv) = self.position.action_from_index(action) {
            self.position.play_unchecked(mv);
        }
    }

    fn is_terminal(&self) -> bool {
        self.position.outcome().is_some()
    }

    fn returns(&self, out: &mut [f32]) -> Result<(), Error> {
        check_len("returns", out.len(), self.num_players())?;
        let outcome = self.position.outcome();
        for (seat, value) in out.iter_mut().enumerate() {
            *value = outcome.map_or(0.0, |o| o.value_for(side_of_seat(seat)));
        }
        Ok(())
    }

    fn observation(&self, player: i64, out: &mut [f32]) -> Result<(), Error> {
        let seat = check_player(K::INFO.name, player, self.num_players())?;
        check_len("observation", out.len(), self.observation_len())?;
        match K::seat_view(&self.position, seat) {
            Some(view) => self.encoder.encode(&view, out),
            None => self.encoder.encode(&self.position, out),
        }
        Ok(())
    }

    fn network_input(&self, out: &mut [f32]) -> Result<(), Error> {
        check_len("observation", out.len(), self.observation_len())?;
        self.encoder.encode(&self.position, out);
        Ok(())
    }

    fn observation_string(&self, player: i64) -> Result<String, Error> {
        check_player(K::INFO.name, player, self.num_players())?;
        Ok(self.position.to_text())
    }

    /// The position text; after a move played with [`State::apply_action`], a second line
    /// `last <action> <position text before it>` (the picture's mark).
    fn serialize(&self) -> Result<String, Error> {
        let mut text = self.position.to_text();
        if let Some((before, mv)) = &self.last {
            text.push_str(&format!(
                "\nlast {} {}",
                before.action_index(*mv),
                before.to_text()
            ));
        }
        Ok(text)
    }

    fn action_to_string(&self, action: i64) -> Result<String, Error> {
        let mv = self.legal_move(action)?;
        Ok(self.position.move_to_text(mv))
    }

    fn string_to_action(&self, text: &str) -> Result<usize, Error> {
        self.position
            .parse_move(text)
            .map(|mv| self.position.action_index(mv))
            .map_err(|e| {
                Error::Argument(format!(
                    "move {text:?} in {} position {}: {e}",
                    K::INFO.name,
                    self.position.to_text()
                ))
            })
    }

    fn svg(&self) -> Option<String> {
        K::board_svg(&self.position, self.last.as_ref().map(|(p, mv)| (p, *mv)))
    }
}
