//! The PyO3 module `pjlab._pjlab` (feature `python`): conversions of the crate's types and errors,
//! nothing else. The `pjlab` package re-exports it with docstrings and stubs
//! (`python/pjlab/_pjlab.pyi`).

mod agent;
mod batch;
mod game;
mod interrupt;
mod model;
mod state;

use pyo3::exceptions::{PyFileNotFoundError, PyKeyError, PyOverflowError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyType;

use crate::Error;

/// The Python exception of a refusal: the `pjlab.errors` class [`Error::python_class`] names (a
/// `pjlab.Error`, and a `KeyError`, `FileNotFoundError` or `ValueError`), with the error's
/// message; the built-in itself if the package's `errors` module cannot be imported (the
/// extension loaded on its own).
pub(crate) fn to_py(error: Error) -> PyErr {
    raise(error.python_class(), error.to_string(), &error)
}

/// A Python integer argument of any size. PyO3's own integer conversions raise `OverflowError`
/// for one that does not fit their type (2**63 as an `i64`); this one keeps such an integer,
/// saturated, with its text, so that the range checks refuse it with the documented
/// `pjlab.Error` naming it as given, like any other integer out of range.
#[derive(Clone, Debug)]
pub(crate) struct Int {
    /// The value, saturated at the bounds of `i128`.
    value: i128,
    /// The integer's decimal text when it did not fit `value`.
    text: Option<String>,
}

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        match obj.extract::<i128>() {
            Ok(value) => Ok(Int { value, text: None }),
            Err(error) if error.is_instance_of::<PyOverflowError>(obj.py()) => Ok(Int {
                value: if obj.lt(0)? { i128::MIN } else { i128::MAX },
                text: Some(obj.str()?.to_string()),
            }),
            Err(error) => Err(error),
        }
    }
}

impl From<i64> for Int {
    fn from(value: i64) -> Int {
        Int {
            value: value.into(),
            text: None,
        }
    }
}

impl std::fmt::Display for Int {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.text {
            Some(text) => f.write_str(text),
            None => write!(f, "{}", self.value),
        }
    }
}

impl Int {
    /// The value as an `i64` (an action or player index), saturated: one out of `i64`'s range
    /// is out of every game's range too, and [`Int::refused`] names it as given.
    pub(crate) fn index(&self) -> i64 {
        self.value.clamp(i64::MIN.into(), i64::MAX.into()) as i64
    }

    /// Whether [`Int::index`] is the integer itself.
    pub(crate) fn fits(&self) -> bool {
        self.text.is_none() && i128::from(self.index()) == self.value
    }

    /// The Python exception of `error`, a refusal of [`Int::index`]: `to_py`'s, with the
    /// saturated value in its message replaced by the integer as given.
    pub(crate) fn refused(&self, error: Error) -> PyErr {
        if self.fits() {
            return to_py(error);
        }
        let index = self.index();
        let (class, message) = (error.python_class(), error.to_string());
        let message = message.replace(&index.to_string(), &self.to_string());
        raise(class, message, &error)
    }
}

/// A `pjlab.errors` exception of class `class` with `message`, or the built-in `error` maps to
/// when the package's `errors` module cannot be imported.
fn raise(class: &str, message: String, error: &Error) -> PyErr {
    Python::attach(|py| {
        let class = py
            .import("pjlab.errors")
            .and_then(|module| module.getattr(class))
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

/// A Python integer argument as an unsigned seed, count or index: `pjlab.ArgumentError` (a
/// `ValueError`) naming `what` outside `0..=u64::MAX`, however large the integer.
pub(crate) fn unsigned(value: &Int, what: &str) -> PyResult<u64> {
    u64::try_from(value.value)
        .ok()
        .filter(|_| value.text.is_none())
        .ok_or_else(|| {
            to_py(Error::Argument(format!(
                "{what} must be an integer from 0 to {}, got {value}",
                u64::MAX
            )))
        })
}

/// [`unsigned`] as a `usize`.
pub(crate) fn count(value: &Int, what: &str) -> PyResult<usize> {
    let v = unsigned(value, what)?;
    usize::try_from(v).map_err(|_| to_py(Error::Argument(format!("{what} {v} is too large"))))
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
