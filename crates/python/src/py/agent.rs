//! `Agent`: the lab's players by spec.

use std::sync::{Arc, Mutex, PoisonError, TryLockError};

use pyo3::prelude::*;

use super::game::PyGame;
use super::interrupt::detached;
use super::state::PyState;
use super::{Int, to_py, unsigned};
use crate::Player;

/// A game given as a `Game` or by name.
pub(crate) fn game_name(game: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(game) = game.cast::<PyGame>() {
        return Ok(game.get().handle.name().to_string());
    }
    game.extract::<String>()
}

/// One of the lab's agents for one game, built from its spec: every spec of `pjlab match`
/// (`random`, `greedy`, `alphabeta:depth=3`, `alphabeta:time=100ms`, `alphabeta:eval=nnue:FILE`,
/// `mcts:sims=800`, `net:checkpoint=DIR` or `model.onnx`, `ugi:cmd=...`); for Chifoumi, those of
/// `pjlab chifoumi` (`random`, `focused:F`, `greedy`, `avoider`, `counter`, `observer`,
/// `ismcts:sims=400`, `net:checkpoint=DIR`), which replay the state's history to see every
/// turn as they would in a match.
///
/// `choose` runs on a worker thread that Ctrl-C stops: the call raises `KeyboardInterrupt` at
/// once, a search left behind stops within milliseconds, and the agent (behind a mutex) serves
/// the next call as soon as it has. Agents that do not search (`random`, `greedy`, Chifoumi's
/// scripted players) answer on the calling thread: a worker would cost more than their choice
/// (`python/bench/choose.py`).
#[pyclass(name = "Agent", module = "pjlab._pjlab")]
pub(crate) struct PyAgent {
    player: Arc<Mutex<Box<dyn Player>>>,
    spec: String,
    game: &'static str,
    /// [`Player::is_quick`].
    quick: bool,
}

impl PyAgent {
    /// A quick agent's choice on the calling thread; `None` while an earlier call still holds
    /// the agent (a `new_game` left waiting by Ctrl-C), which the caller then waits for as a
    /// searching agent's calls do.
    fn choose_here(
        &self,
        state: &dyn crate::State,
        history: &[usize],
    ) -> Option<Result<usize, crate::Error>> {
        let mut player = match self.player.try_lock() {
            Ok(player) => player,
            Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
            Err(TryLockError::WouldBlock) => return None,
        };
        Some(player.choose(state, history))
    }
}

#[pymethods]
impl PyAgent {
    /// The agent `spec` names for `game` (a `Game` or a name), seeded with `seed`.
    #[new]
    #[pyo3(signature = (spec, game, seed = Int::from(0)))]
    fn new(py: Python<'_>, spec: &str, game: &Bound<'_, PyAny>, seed: Int) -> PyResult<Self> {
        let seed = unsigned(&seed, "seed")?;
        let name = game_name(game)?;
        let player = py
            .detach(|| crate::build_player(&name, spec, seed))
            .map_err(to_py)?;
        Ok(PyAgent {
            spec: player.spec().to_string(),
            game: player.game_name(),
            quick: player.is_quick(),
            player: Arc::new(Mutex::new(player)),
        })
    }

    /// The action index it plays in `state` (one of `state.legal_actions()`); the state is not
    /// changed. The search runs with the GIL released; Ctrl-C stops it (`KeyboardInterrupt`).
    fn choose(&self, py: Python<'_>, state: PyRef<'_, PyState>) -> PyResult<usize> {
        if self.quick {
            let (inner, history) = (state.inner(), state.past());
            if let Some(answer) = py.detach(|| self.choose_here(inner, history)) {
                return answer.map_err(to_py);
            }
        }
        let (inner, history) = (state.inner().clone_box(), state.past().to_vec());
        drop(state);
        let player = Arc::clone(&self.player);
        detached(py, move |stop| {
            let mut player = player.lock().unwrap_or_else(PoisonError::into_inner);
            player.choose_until(inner.as_ref(), &history, stop)
        })?
        .map_err(to_py)
    }

    /// Reseeds its random choices and forgets earlier games (hash tables, search trees). It
    /// waits for a choice left running by an interrupted `choose` (Ctrl-C leaves the wait; the
    /// reseeding still happens once the agent is free).
    fn new_game(&self, py: Python<'_>, seed: Int) -> PyResult<()> {
        let seed = unsigned(&seed, "seed")?;
        let player = Arc::clone(&self.player);
        detached(py, move |_| {
            player
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .new_game(seed);
        })
    }

    /// The spec it was built from.
    #[getter]
    fn spec(&self) -> String {
        self.spec.clone()
    }

    /// Its game's name.
    #[getter]
    fn game_name(&self) -> &'static str {
        self.game
    }

    fn __repr__(&self) -> String {
        format!("Agent({:?}, {:?})", self.spec, self.game)
    }
}
