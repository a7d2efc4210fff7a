//! `State`: one game in progress.

use std::sync::Arc;

use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::game::PyGame;
use super::{CHANCE_PLAYER, Int, TERMINAL_PLAYER, to_py};
use crate::{Error, GameHandle, State};
use pjlab_registry::serial::{self, Serialized};
use pjlab_registry::state::check_player;

/// One game in progress, with OpenSpiel's methods.
#[pyclass(name = "State", module = "pjlab._pjlab")]
pub(crate) struct PyState {
    game: Arc<dyn GameHandle>,
    state: Box<dyn State>,
    history: Vec<usize>,
    /// How many entries of `history` were player moves (OpenSpiel's `MoveNumber`).
    moves: usize,
}

impl PyState {
    /// Whether `player` (when given) names the player to act; `ValueError` for a player out of
    /// range.
    fn asks_mover(&self, player: Option<&Int>) -> PyResult<bool> {
        let Some(given) = player else { return Ok(true) };
        let p = given.index();
        if p != CHANCE_PLAYER {
            check_player(self.state.game_name(), p, self.state.num_players())
                .map_err(|e| given.refused(e))?;
        }
        Ok(p == self.current_player())
    }

    /// A state of `game` with an empty history.
    pub(crate) fn new(game: Arc<dyn GameHandle>, state: Box<dyn State>) -> PyState {
        PyState {
            game,
            state,
            history: Vec::new(),
            moves: 0,
        }
    }

    /// A state read back from its text, with its history.
    pub(crate) fn read(game: Arc<dyn GameHandle>, read: Serialized) -> PyState {
        PyState {
            game,
            state: read.state,
            history: read.history,
            moves: read.moves,
        }
    }

    /// A float32 numpy vector of `len` values written by `write`; a refusal is raised as
    /// `player`'s (see [`Int::refused`]).
    fn vector<'py>(
        py: Python<'py>,
        len: usize,
        player: &Int,
        write: impl FnOnce(&mut [f32]) -> Result<(), Error>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let array = PyArray1::<f32>::zeros(py, len, false);
        {
            let mut view = array.readwrite();
            write(view.as_slice_mut()?).map_err(|e| player.refused(e))?;
        }
        Ok(array)
    }

    /// `player`, or by default the player to act (0 at a chance node or once the game is over).
    fn player_or_mover(&self, player: Option<Int>) -> Int {
        player.unwrap_or_else(|| Int::from(self.state.current_player().unwrap_or(0) as i64))
    }

    /// The state behind it (what agents and models read).
    pub(crate) fn inner(&self) -> &dyn State {
        self.state.as_ref()
    }

    /// The actions and chance outcomes applied since the initial state (what Chifoumi's agents
    /// replay).
    pub(crate) fn past(&self) -> &[usize] {
        &self.history
    }
}

#[pymethods]
impl PyState {
    /// The player to act, CHANCE_PLAYER (-1) at a chance node, or TERMINAL_PLAYER (-4) once
    /// the game is over.
    fn current_player(&self) -> i64 {
        match self.state.current_player() {
            Some(p) => p as i64,
            None if self.state.is_chance_node() => CHANCE_PLAYER,
            None => TERMINAL_PLAYER,
        }
    }

    /// Number of players.
    fn num_players(&self) -> usize {
        self.state.num_players()
    }

    /// Size of the action space.
    fn num_distinct_actions(&self) -> usize {
        self.state.num_actions()
    }

    /// The legal actions of the player to act, increasing (empty once the game is over, or
    /// for another player); at a chance node, the possible outcomes.
    #[pyo3(signature = (player = None))]
    fn legal_actions(&self, player: Option<Int>) -> PyResult<Vec<usize>> {
        let mut out = Vec::new();
        if self.asks_mover(player.as_ref())? {
            self.state.legal_actions(&mut out);
        }
        Ok(out)
    }

    /// The legal-action mask of the player to act, as numpy int8 (1 legal, 0 not), of length
    /// ``num_distinct_actions()``; at a chance node, the possible outcomes' mask, of length
    /// ``Game.max_chance_outcomes()`` (OpenSpiel's convention).
    #[pyo3(signature = (player = None))]
    fn legal_actions_mask<'py>(
        &self,
        py: Python<'py>,
        player: Option<Int>,
    ) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let asked = self.asks_mover(player.as_ref())?;
        if self.state.is_chance_node() {
            let mut mask = vec![0; self.state.max_chance_outcomes()];
            if asked {
                for (outcome, _) in self.state.chance_outcomes() {
                    mask[outcome] = 1;
                }
            }
            return Ok(PyArray1::from_vec(py, mask));
        }
        let mut mask = vec![0; self.state.num_actions()];
        if asked {
            self.state.legal_mask(&mut mask).map_err(to_py)?;
        }
        Ok(PyArray1::from_vec(py, mask))
    }

    /// Plays `action` for the player to act, or applies chance outcome `action` at a chance
    /// node; ValueError (state unchanged) if it is out of range or not legal (not possible).
    fn apply_action(&mut self, action: Int) -> PyResult<()> {
        let by_player = self.state.current_player().is_some();
        let index = action.index();
        self.state
            .apply_action(index)
            .map_err(|e| action.refused(e))?;
        self.history.push(index as usize);
        self.moves += usize::from(by_player);
        Ok(())
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.state.is_terminal()
    }

    /// Whether a chance event is due (Chifoumi: each object and player placed by the deal, and
    /// the two draws of a duel); `current_player()` is then CHANCE_PLAYER (-1).
    fn is_chance_node(&self) -> bool {
        self.state.is_chance_node()
    }

    /// The outcomes of the chance event due now and their probabilities, as ``(action,
    /// probability)`` pairs by increasing action (empty at a player's turn).
    fn chance_outcomes(&self) -> Vec<(usize, f64)> {
        self.state.chance_outcomes()
    }

    /// Draws the outcome of the chance event due now from the state's own generator (seeded by
    /// ``new_initial_state(seed)``) exactly as the lab's Rust game draws it, applies it and
    /// returns it; ValueError when no chance event is due.
    fn apply_seeded_chance(&mut self) -> PyResult<usize> {
        let outcome = self.state.apply_seeded_chance().map_err(to_py)?;
        self.history.push(outcome);
        Ok(outcome)
    }

    /// Whether a player is to act.
    fn is_player_node(&self) -> bool {
        self.state.current_player().is_some()
    }

    /// Each player's return so far (final once the game is over).
    fn returns(&self) -> PyResult<Vec<f32>> {
        let mut out = vec![0.0; self.state.num_players()];
        self.state.returns(&mut out).map_err(to_py)?;
        Ok(out)
    }

    /// What each player gained by the last transition (the returns once the game is over, 0
    /// before: the games score only at their end).
    fn rewards(&self) -> PyResult<Vec<f32>> {
        let mut out = vec![0.0; self.state.num_players()];
        self.state.rewards(&mut out).map_err(to_py)?;
        Ok(out)
    }

    /// Player `player`'s return so far.
    fn player_return(&self, player: Int) -> PyResult<f32> {
        let p = check_player(
            self.state.game_name(),
            player.index(),
            self.state.num_players(),
        )
        .map_err(|e| player.refused(e))?;
        Ok(self.returns()?[p])
    }

    /// How many player moves were applied to this object (chance outcomes not counted).
    fn move_number(&self) -> usize {
        self.moves
    }

    /// ``history()`` as text: the actions separated by ``", "``.
    fn history_str(&self) -> String {
        let texts: Vec<String> = self.history.iter().map(ToString::to_string).collect();
        texts.join(", ")
    }

    /// What `player` (default: the player to act, or 0 once the game is over) observes, as a
    /// numpy float32 vector: the board from its own side.
    #[pyo3(signature = (player = None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: Option<Int>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let player = self.player_or_mover(player);
        Self::vector(py, self.state.observation_len(), &player, |out| {
            self.state.observation(player.index(), out)
        })
    }

    /// What `player` (default: the player to act) observes, in words.
    #[pyo3(signature = (player = None))]
    fn observation_string(&self, player: Option<Int>) -> PyResult<String> {
        let player = self.player_or_mover(player);
        self.state
            .observation_string(player.index())
            .map_err(|e| player.refused(e))
    }

    /// Everything `player` (default: the player to act) may know of the game so far, as a
    /// numpy float32 vector (Chifoumi; the perfect-information games provide none).
    #[pyo3(signature = (player = None))]
    fn information_state_tensor<'py>(
        &self,
        py: Python<'py>,
        player: Option<Int>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let player = self.player_or_mover(player);
        let len = self.state.information_state_len().unwrap_or(0);
        Self::vector(py, len, &player, |out| {
            self.state.information_state_tensor(player.index(), out)
        })
    }

    /// Everything `player` (default: the player to act) may know of the game so far, in words
    /// (Chifoumi; the perfect-information games provide none).
    #[pyo3(signature = (player = None))]
    fn information_state_string(&self, player: Option<Int>) -> PyResult<String> {
        let player = self.player_or_mover(player);
        self.state
            .information_state_string(player.index())
            .map_err(|e| player.refused(e))
    }

    /// The whole state as text (with its history): ``Game.deserialize_state`` reads it back.
    pub(crate) fn serialize(&self) -> PyResult<String> {
        serial::write_state(
            self.game.as_ref(),
            self.state.as_ref(),
            &self.history,
            self.moves,
        )
        .map_err(to_py)
    }

    /// The game this state is of.
    pub(crate) fn get_game(&self) -> PyGame {
        PyGame {
            handle: Arc::clone(&self.game),
        }
    }

    /// Pickling: ``deserialize_state(self.serialize())``.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let restore = py.import("pjlab._pjlab")?.getattr("deserialize_state")?;
        (restore, (self.serialize()?,)).into_pyobject(py)
    }

    /// The move text of legal action `action`: `action_to_string(action)` or OpenSpiel's
    /// `action_to_string(player, action)`.
    #[pyo3(signature = (first, second = None))]
    fn action_to_string(&self, first: Int, second: Option<Int>) -> PyResult<String> {
        let action = match second {
            Some(action) => {
                self.asks_mover(Some(&first))?;
                action
            }
            None => first,
        };
        self.state
            .action_to_string(action.index())
            .map_err(|e| action.refused(e))
    }

    /// The action a move text names here.
    fn string_to_action(&self, text: &str) -> PyResult<usize> {
        self.state.string_to_action(text).map_err(to_py)
    }

    /// The actions played on this object since the initial state.
    fn history(&self) -> Vec<usize> {
        self.history.clone()
    }

    /// The game's name.
    fn game_name(&self) -> &'static str {
        self.state.game_name()
    }

    /// An independent copy.
    fn clone(&self) -> PyState {
        PyState {
            game: Arc::clone(&self.game),
            state: self.state.clone_box(),
            history: self.history.clone(),
            moves: self.moves,
        }
    }

    fn __copy__(&self) -> PyState {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyState {
        self.clone()
    }

    fn __str__(&self) -> String {
        self.state.to_string()
    }

    /// The position as a self-contained SVG picture: the board, the pieces, whose turn it is or
    /// the result, and the last move played with ``apply_action`` marked. Every piece is an
    /// element of class ``piece`` with a ``data-cell`` attribute naming its cell. Raises
    /// ValueError for Chifoumi, whose pictures are whole matches (``pjlab chifoumi show``).
    fn svg(&self) -> PyResult<String> {
        self.state.svg().ok_or_else(|| {
            PyValueError::new_err(format!(
                "{} states have no picture (see `pjlab chifoumi show`)",
                self.state.game_name()
            ))
        })
    }

    /// The position as an ``(H, W, 3)`` uint8 array of RGB pixels (PettingZoo's ``rgb_array``):
    /// ``svg()`` rasterised at ``scale`` times its size (a few hundred pixels a side at 1, from
    /// 0.05 to 8), text in the machine's fonts; for Chifoumi, the grid of the position seen from
    /// above (walls, each player's visibility square, the objects, both players).
    #[pyo3(signature = (scale = 1.0))]
    fn rgb<'py>(&self, py: Python<'py>, scale: f32) -> PyResult<Bound<'py, PyArray3<u8>>> {
        let state = self.state.as_ref();
        let picture = py
            .detach(|| crate::raster::rgb(state, scale))
            .map_err(to_py)?;
        PyArray1::from_vec(py, picture.pixels).reshape([picture.height, picture.width, 3])
    }

    /// Jupyter's rich display: the board as SVG (``None`` for Chifoumi, which then shows as
    /// text).
    fn _repr_svg_(&self) -> Option<String> {
        self.state.svg()
    }

    fn __repr__(&self) -> String {
        format!(
            "<pjlab.State {} {:?}>",
            self.state.game_name(),
            self.state.to_string()
        )
    }
}
