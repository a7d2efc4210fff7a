//! `Game` and `load_game`.

use std::sync::Arc;

use pyo3::prelude::*;

use super::state::PyState;
use super::to_py;
use crate::{GameHandle, games};

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

    /// Whether every player sees the whole state.
    fn is_perfect_information(&self) -> bool {
        self.handle.is_perfect_information()
    }

    /// Name and version of the observation encoding.
    fn observation_encoding(&self) -> String {
        self.handle.observation_encoding()
    }

    /// A new game from the variant's setup for `seed`.
    #[pyo3(signature = (seed = 0))]
    fn new_initial_state(&self, seed: u64) -> PyResult<PyState> {
        let state = self.handle.new_initial_state(seed).map_err(to_py)?;
        Ok(PyState::new(state))
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
