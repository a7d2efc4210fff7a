//! `Game` and `load_game`.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use numpy::{PyArray1, PyArray2, PyArrayMethods};

use super::state::PyState;
use super::{Int, to_py};
use crate::{Error, GameHandle, games};
use pjlab_registry::serial;

/// Checks that two per-row lists have the same length.
fn check_rows(first: usize, second: usize) -> PyResult<()> {
    pjlab_registry::state::check_len("the second list", second, first).map_err(to_py)
}

/// `f` on each row of two parallel lists, the GIL released; an error names its row.
fn per_row<A: Sync, B: Sync, T: Send>(
    py: Python<'_>,
    first: &[A],
    second: &[B],
    f: impl Fn(&A, &B) -> Result<T, Error> + Sync,
) -> PyResult<Vec<T>> {
    check_rows(first.len(), second.len())?;
    py.detach(|| {
        first
            .iter()
            .zip(second)
            .enumerate()
            .map(|(i, (a, b))| f(a, b).map_err(|e| e.at(format!("row {i}"))))
            .collect::<Result<Vec<_>, _>>()
    })
    .map_err(to_py)
}

impl PyGame {
    /// Rows of action indices as `i64`s: an integer out of `i64`'s range is refused here as
    /// out of the game's actions, naming its row.
    fn indices(&self, rows: &[Vec<Int>]) -> PyResult<Vec<Vec<i64>>> {
        let out_of_range = |i: usize, action: &Int| {
            action.refused(
                Error::ActionOutOfRange {
                    game: self.handle.name(),
                    action: action.index(),
                    num_actions: self.handle.num_distinct_actions(),
                }
                .at(format!("row {i}")),
            )
        };
        rows.iter()
            .enumerate()
            .map(|(i, row)| {
                row.iter()
                    .map(|action| match action.fits() {
                        true => Ok(action.index()),
                        false => Err(out_of_range(i, action)),
                    })
                    .collect()
            })
            .collect()
    }
}

/// A game of the registry with one variant: static facts and new states.
#[pyclass(name = "Game", module = "pjlab._pjlab", frozen)]
pub(crate) struct PyGame {
    pub(crate) handle: Arc<dyn GameHandle>,
}

/// Loads a game by name (`pijersi`, `abalone`, `chomp`, `chifoumi`) and variant, or from
/// its text `name(variant=...)` (`Game.serialize()`).
#[pyfunction]
#[pyo3(signature = (name, variant = None))]
pub(crate) fn load_game(name: &str, variant: Option<&str>) -> PyResult<PyGame> {
    let handle = match variant {
        None if name.contains('(') => serial::load_game_string(name),
        _ => crate::load_game(name, variant),
    }
    .map_err(to_py)?;
    Ok(PyGame {
        handle: Arc::from(handle),
    })
}

/// The state a state's text (``State.serialize()``) describes, of the game it names.
#[pyfunction]
pub(crate) fn deserialize_state(text: &str) -> PyResult<PyState> {
    Ok(deserialize_game_and_state(text)?.1)
}

/// ``(game, state)`` of a state's text (OpenSpiel's ``deserialize_game_and_state``).
#[pyfunction]
pub(crate) fn deserialize_game_and_state(text: &str) -> PyResult<(PyGame, PyState)> {
    let (game, read) = serial::read_state(text).map_err(to_py)?;
    let game: Arc<dyn GameHandle> = Arc::from(game);
    let state = PyState::read(Arc::clone(&game), read);
    Ok((PyGame { handle: game }, state))
}

/// A state's text (OpenSpiel's ``serialize_game_and_state``): ``state.serialize()``, which
/// names its game, after checking that `state` is of `game`.
#[pyfunction]
pub(crate) fn serialize_game_and_state(game: &PyGame, state: &PyState) -> PyResult<String> {
    let own = state.get_game();
    let (expected, found) = (
        serial::game_string(game.handle.as_ref()),
        serial::game_string(own.handle.as_ref()),
    );
    if expected != found {
        return Err(to_py(Error::Argument(format!(
            "the state is of {found}, not of {expected}"
        ))));
    }
    state.serialize()
}

/// The names `load_game` knows.
#[pyfunction]
pub(crate) fn registered_games() -> Vec<&'static str> {
    games()
}

#[pymethods]
impl PyGame {
    /// The game's name.
    #[getter]
    fn name(&self) -> &'static str {
        self.handle.name()
    }

    /// The variant's name.
    #[getter]
    fn variant(&self) -> String {
        self.handle.variant()
    }

    /// Every variant's name, the default first.
    fn variants(&self) -> Vec<String> {
        self.handle.variants()
    }

    /// Number of players (seats).
    fn num_players(&self) -> usize {
        self.handle.num_players()
    }

    /// Size of the dense action space.
    fn num_distinct_actions(&self) -> usize {
        self.handle.num_distinct_actions()
    }

    /// Shape of an observation tensor: a flat vector.
    fn observation_tensor_shape(&self) -> Vec<usize> {
        vec![self.handle.observation_len()]
    }

    /// Number of values in an observation tensor.
    fn observation_tensor_size(&self) -> usize {
        self.handle.observation_len()
    }

    /// Upper bound on a game's length in plies, or None when the rules set none.
    fn max_game_length(&self) -> Option<u32> {
        self.handle.max_game_length()
    }

    /// The number of distinct chance outcomes: 0 for a game without chance nodes; for Chifoumi
    /// the grid's cells (the deal's outcomes are cells, a duel draw's are the types 0-2).
    fn max_chance_outcomes(&self) -> usize {
        self.handle.max_chance_outcomes()
    }

    /// Whether every player sees the whole state.
    fn is_perfect_information(&self) -> bool {
        self.handle.is_perfect_information()
    }

    /// Name and version of the observation encoding.
    fn observation_encoding(&self) -> String {
        self.handle.observation_encoding()
    }

    /// A new game from the variant's setup for `seed`. A Chifoumi state starts at the first
    /// chance node of its deal; `seed` seeds its generator (``apply_seeded_chance``).
    #[pyo3(signature = (seed = Int::from(0)))]
    fn new_initial_state(&self, seed: Int) -> PyResult<PyState> {
        let seed = super::unsigned(&seed, "seed")?;
        let state = self.handle.new_initial_state(seed).map_err(to_py)?;
        Ok(PyState::new(Arc::clone(&self.handle), state))
    }

    /// The state of a position text (a record's `start` or `position`) under this variant's
    /// rules, with an empty history.
    fn state_from_text(&self, text: &str) -> PyResult<PyState> {
        let state = self.handle.state_from_text(text).map_err(to_py)?;
        Ok(PyState::new(Arc::clone(&self.handle), state))
    }

    /// The game's static facts in OpenSpiel's terms: a ``pyspiel.GameType`` when OpenSpiel is
    /// installed (so that its algorithms compare the enums), else ``pjlab.GameType`` with the
    /// same fields.
    fn get_type<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let facts = self.handle.game_type();
        let [chance, information, utility, reward] = facts.open_spiel_names();
        let info_state = self.handle.information_state_len().is_some();
        let fields = PyDict::new(py);
        fields.set_item("short_name", self.handle.name())?;
        fields.set_item("long_name", facts.long_name)?;
        fields.set_item("dynamics", "SEQUENTIAL")?;
        fields.set_item("chance_mode", chance)?;
        fields.set_item("information", information)?;
        fields.set_item("utility", utility)?;
        fields.set_item("reward_model", reward)?;
        fields.set_item("max_num_players", facts.max_players)?;
        fields.set_item("min_num_players", facts.min_players)?;
        fields.set_item("provides_information_state_string", info_state)?;
        fields.set_item("provides_information_state_tensor", info_state)?;
        fields.set_item("provides_observation_string", true)?;
        fields.set_item("provides_observation_tensor", true)?;
        py.import("pjlab.game_type")?
            .getattr("make")?
            .call((), Some(&fields))
    }

    /// The lowest return a player can get.
    fn min_utility(&self) -> f64 {
        self.handle.game_type().min_utility
    }

    /// The highest return a player can get.
    fn max_utility(&self) -> f64 {
        self.handle.game_type().max_utility
    }

    /// The sum of the players' returns in every terminal state (0 in the zero-sum games).
    fn utility_sum(&self) -> PyResult<f64> {
        self.handle.game_type().utility_sum.ok_or_else(|| {
            to_py(Error::Argument(format!(
                "{} is general-sum: its returns have no fixed sum",
                self.handle.name()
            )))
        })
    }

    /// Length of an information-state tensor (Chifoumi; the perfect-information games provide
    /// none: ``ValueError``).
    fn information_state_tensor_size(&self) -> PyResult<usize> {
        self.handle.information_state_len().ok_or_else(|| {
            to_py(Error::Argument(format!(
                "{} provides no information state: it is a perfect-information game",
                self.handle.name()
            )))
        })
    }

    /// Shape of an information-state tensor: one flat vector.
    fn information_state_tensor_shape(&self) -> PyResult<Vec<usize>> {
        Ok(vec![self.information_state_tensor_size()?])
    }

    /// The game as text, ``name(variant=...)``: ``load_game`` reads it back.
    fn serialize(&self) -> String {
        serial::game_string(self.handle.as_ref())
    }

    /// The state a text of ``State.serialize()`` describes, which must be of this game and
    /// variant.
    fn deserialize_state(&self, text: &str) -> PyResult<PyState> {
        let read = serial::read_state_of(self.handle.as_ref(), text).map_err(to_py)?;
        Ok(PyState::read(Arc::clone(&self.handle), read))
    }

    /// Pickling: ``load_game(name, variant)``.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let load = py.import("pjlab._pjlab")?.getattr("load_game")?;
        (load, (self.handle.name(), self.handle.variant())).into_pyobject(py)
    }

    /// Whether `other` is the same game and variant.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyGame>().is_ok_and(|o| {
            serial::game_string(o.get().handle.as_ref())
                == serial::game_string(self.handle.as_ref())
        })
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        serial::game_string(self.handle.as_ref()).hash(&mut hasher);
        hasher.finish()
    }

    /// The action indices of move texts played in turn from the position text `start`.
    fn decode_moves(
        &self,
        py: Python<'_>,
        start: &str,
        moves: Vec<String>,
    ) -> PyResult<Vec<usize>> {
        let handle = &self.handle;
        py.detach(|| handle.decode_moves(start, &moves))
            .map_err(to_py)
    }

    /// `decode_moves` for many games at once: one list of actions per (start, moves) pair.
    fn decode_games(
        &self,
        py: Python<'_>,
        starts: Vec<String>,
        moves: Vec<Vec<String>>,
    ) -> PyResult<Vec<Vec<usize>>> {
        let handle = &self.handle;
        per_row(py, &starts, &moves, |start, moves| {
            handle.decode_moves(start, moves)
        })
    }

    /// The move texts of action indices in the position text `position`; with lists of
    /// positions and of action lists, one list of texts per position.
    fn action_texts(
        &self,
        py: Python<'_>,
        positions: Vec<String>,
        actions: Vec<Vec<Int>>,
    ) -> PyResult<Vec<Vec<String>>> {
        let actions = self.indices(&actions)?;
        let handle = &self.handle;
        per_row(py, &positions, &actions, |position, actions| {
            handle.action_texts(position, actions)
        })
    }

    /// The network's policy indices (the model card's action view, the mover's) of action
    /// indices: for each position text, those of its list of actions.
    fn policy_indices(
        &self,
        py: Python<'_>,
        positions: Vec<String>,
        actions: Vec<Vec<Int>>,
    ) -> PyResult<Vec<Vec<usize>>> {
        let actions = self.indices(&actions)?;
        let handle = &self.handle;
        per_row(py, &positions, &actions, |position, actions| {
            handle.policy_indices(position, actions)
        })
    }

    /// The observations of position texts (from the player to act's view), as a float32 array
    /// `[N, observation_tensor_size()]`.
    fn encode_positions<'py>(
        &self,
        py: Python<'py>,
        positions: Vec<String>,
    ) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let width = self.handle.observation_len();
        let handle = &self.handle;
        let data = py
            .detach(|| {
                let mut data = vec![0.0f32; positions.len() * width];
                for (i, (text, row)) in positions
                    .iter()
                    .zip(data.chunks_exact_mut(width))
                    .enumerate()
                {
                    let at = |e: Error| e.at(format!("row {i}"));
                    let state = handle.state_from_text(text).map_err(at)?;
                    state.network_input(row).map_err(at)?;
                }
                Ok::<_, Error>(data)
            })
            .map_err(to_py)?;
        let n = positions.len();
        PyArray1::from_vec(py, data).reshape([n, width])
    }

    fn __repr__(&self) -> String {
        format!(
            "load_game({:?}, variant={:?})",
            self.handle.name(),
            self.handle.variant()
        )
    }

    fn __str__(&self) -> String {
        self.__repr__()
    }
}
