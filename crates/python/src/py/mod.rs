//! The PyO3 module `pjlab._pjlab` (feature `python`): conversions of the crate's types and errors,
//! nothing else. The `pjlab` package re-exports it with docstrings and stubs
//! (`python/pjlab/_pjlab.pyi`).

mod agent;
mod batch;
mod game;
mod interrupt;
mod model;
mod state;

use pyo3::exceptions::{PyFileNotFoundError, PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyType;

use crate::Error;

/// The Python exception of a refusal: the `pjlab.errors` class [`Error::python_class`] names (a
/// `pjlab.Error`, and a `KeyError`, `FileNotFoundError` or `ValueError`), with the error's
/// message; the built-in itself if the package's `errors` module cannot be imported (the
/// extension loaded on its own).
pub(crate) fn to_py(error: Error) -> PyErr {
    let message = error.to_string();
    Python::attach(|py| {
        let class = py
            .import("pjlab.errors")
            .and_then(|module| module.getattr(error.python_class()))
            .ok()
            .and_then(|class| class.cast_into::<PyType>().ok());
        match class {
            Some(class) => PyErr::from_type(class, message),
            None if error.is_not_found() => PyFileNotFoundError::new_err(message),
            None if error.is_lookup() => PyKeyError::new_err(message),
            None => PyValueError::new_err(message),
        }
    })
}

/// A Python integer argument (taken as `i128`, so that a negative one reaches us) as an
/// unsigned seed, count or index: a `ValueError` naming `what` outside `0..=u64::MAX`.
pub(crate) fn unsigned(value: i128, what: &str) -> PyResult<u64> {
    u64::try_from(value).map_err(|_| {
        PyValueError::new_err(format!(
            "{what} must be an integer from 0 to {}, got {value}",
            u64::MAX
        ))
    })
}

/// [`unsigned`] as a `usize`.
pub(crate) fn count(value: i128, what: &str) -> PyResult<usize> {
    let v = unsigned(value, what)?;
    usize::try_from(v).map_err(|_| PyValueError::new_err(format!("{what} {v} is too large")))
}

/// `current_player()` at a chance node (OpenSpiel's `kChancePlayerId`).
pub(crate) const CHANCE_PLAYER: i64 = -1;

/// `current_player()` once the game is over (OpenSpiel's `kTerminalPlayerId`).
pub(crate) const TERMINAL_PLAYER: i64 = -4;

/// The lab's games: `load_game`, `Game`, `State`, `BatchedEnv`, `Agent`, `Model`.
#[pymodule]
#[pyo3(name = "_pjlab")]
fn pjlab_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<game::PyGame>()?;
    m.add_class::<state::PyState>()?;
    m.add_class::<batch::PyBatchedEnv>()?;
    m.add_class::<agent::PyAgent>()?;
    m.add_class::<model::PyModel>()?;
    m.add_function(wrap_pyfunction!(game::load_game, m)?)?;
    m.add_function(wrap_pyfunction!(game::registered_games, m)?)?;
    m.add_function(wrap_pyfunction!(game::deserialize_state, m)?)?;
    m.add_function(wrap_pyfunction!(game::serialize_game_and_state, m)?)?;
    m.add_function(wrap_pyfunction!(game::deserialize_game_and_state, m)?)?;
    m.add("TERMINAL_PLAYER", TERMINAL_PLAYER)?;
    m.add("CHANCE_PLAYER", CHANCE_PLAYER)?;
    Ok(())
}
