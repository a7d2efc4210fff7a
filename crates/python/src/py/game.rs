//! `Game` and `load_game`.

use std::sync::Arc;

use pyo3::prelude::*;

use numpy::{PyArray1, PyArray2, PyArrayMethods};

use super::state::PyState;
use super::to_py;
use crate::{Error, GameHandle, games};

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

/// A game of the registry with one variant: static facts and new states.
#[pyclass(name = "Game", module = "pjlab._pjlab", frozen)]
pub(crate) struct PyGame {
    pub(crate) handle: Arc<dyn GameHandle>,
}

/// Loads a game by name (`pijersi`, `abalone`, `chomp`, `chifoumi`) and variant.
#[pyfunction]
#[pyo3(signature = (name, variant = None))]
pub(crate) fn load_game(name: &str, variant: Option<&str>) -> PyResult<PyGame> {
    let handle = crate::load_game(name, variant).map_err(to_py)?;
    Ok(PyGame {
        handle: Arc::from(handle),
    })
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
    #[pyo3(signature = (seed = 0))]
    fn new_initial_state(&self, seed: i128) -> PyResult<PyState> {
        let seed = super::unsigned(seed, "seed")?;
        let state = self.handle.new_initial_state(seed).map_err(to_py)?;
        Ok(PyState::new(state))
    }

    /// The state of a position text (a record's `start` or `position`) under this variant's
    /// rules, with an empty history.
    fn state_from_text(&self, text: &str) -> PyResult<PyState> {
        let state = self.handle.state_from_text(text).map_err(to_py)?;
        Ok(PyState::new(state))
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
        actions: Vec<Vec<i64>>,
    ) -> PyResult<Vec<Vec<String>>> {
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
        actions: Vec<Vec<i64>>,
    ) -> PyResult<Vec<Vec<usize>>> {
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
                    let player = state.current_player().unwrap_or(0) as i64;
                    state.observation(player, row).map_err(at)?;
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
