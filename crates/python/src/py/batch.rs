//! `BatchedEnv`: N games stepped in Rust with the GIL released.

use numpy::{PyArray1, PyArray2, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;

use std::sync::Arc;

use super::interrupt::interruptible;
use super::state::PyState;
use super::{Int, count, to_py, unsigned};
use crate::{Batch, Error, GameHandle, Outputs, StepOutputs};

/// Observations, masks and players, as numpy arrays.
type Observed<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<i8>>,
    Bound<'py, PyArray1<i64>>,
);

/// Observations, masks, players, rewards and terminations, as numpy arrays.
type Stepped<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<i8>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<bool>>,
);

/// `actions` as a contiguous int64 numpy array (no copy when it is one already).
///
/// # Errors
/// `ValueError` when the values are not integers.
fn int64_array<'py>(
    py: Python<'py>,
    actions: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArrayDyn<i64>>> {
    let np = py.import("numpy")?;
    let array = np.call_method1("asarray", (actions,))?;
    let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
    if kind != "i" && kind != "u" {
        let dtype = array.getattr("dtype")?.str()?.to_string();
        return Err(to_py(Error::Argument(format!(
            "actions must be integers, got dtype {dtype}"
        ))));
    }
    let array = np.call_method1("ascontiguousarray", (array, "int64"))?;
    Ok(array.cast_into::<PyArrayDyn<i64>>()?)
}

/// N games of one kind stepped together, with automatic reset.
#[pyclass(name = "BatchedEnv", module = "pjlab._pjlab")]
pub(crate) struct PyBatchedEnv {
    batch: Box<dyn Batch>,
    game: Arc<dyn GameHandle>,
    name: &'static str,
    variant: String,
}

impl PyBatchedEnv {
    fn arrays<'py>(&self, py: Python<'py>) -> Observed<'py> {
        let n = self.batch.len();
        (
            PyArray2::zeros(py, [n, self.batch.observation_len()], false),
            PyArray2::zeros(py, [n, self.batch.num_actions()], false),
            PyArray1::zeros(py, n, false),
        )
    }
}

#[pymethods]
impl PyBatchedEnv {
    /// `num_envs` games of `game` (a name) and `variant`, seeded with `seed`.
    #[new]
    #[pyo3(signature = (game, num_envs, variant = None, seed = Int::from(0)))]
    fn new(game: &str, num_envs: Int, variant: Option<&str>, seed: Int) -> PyResult<Self> {
        let max = pjlab_registry::batch::MAX_GAMES;
        let num_envs = usize::try_from(num_envs.index())
            .ok()
            .filter(|n| (1..=max).contains(n))
            .ok_or_else(|| {
                to_py(Error::Argument(format!(
                    "num_envs must be from 1 to {max} (a batch holds at least one game and at \
                     most {max} games), got {num_envs}"
                )))
            })?;
        let seed = unsigned(&seed, "seed")?;
        let handle: Arc<dyn GameHandle> =
            Arc::from(crate::load_game(game, variant).map_err(to_py)?);
        let batch = handle.new_batch(num_envs, seed).map_err(to_py)?;
        Ok(PyBatchedEnv {
            batch,
            name: handle.name(),
            variant: handle.variant(),
            game: handle,
        })
    }

    /// Number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.batch.len()
    }

    /// Number of players of each game.
    #[getter]
    fn num_players(&self) -> usize {
        self.batch.num_players()
    }

    /// Size of the action space.
    #[getter]
    fn num_actions(&self) -> usize {
        self.batch.num_actions()
    }

    /// Length of one observation.
    #[getter]
    fn observation_size(&self) -> usize {
        self.batch.observation_len()
    }

    /// The game's name.
    #[getter]
    fn game_name(&self) -> &'static str {
        self.name
    }

    /// The variant's name.
    #[getter]
    fn variant(&self) -> String {
        self.variant.clone()
    }

    /// The seed of each game in progress (a new State from the same game and seed replays it).
    fn seeds<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u64>> {
        PyArray1::from_slice(py, self.batch.seeds())
    }

    /// How many games each slot has finished since the last reset.
    fn finished<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u64>> {
        PyArray1::from_slice(py, self.batch.finished())
    }

    /// A copy of game `i`'s state, as a new State whose history starts empty (a State from
    /// ``Game.new_initial_state(seeds()[i])`` given the same actions replays it with its
    /// history).
    fn state(&self, i: Int) -> PyResult<PyState> {
        let i = count(&i, "env index")?;
        let state = self.batch.state(i).map_err(to_py)?;
        Ok(PyState::new(Arc::clone(&self.game), state))
    }

    /// Restarts every game and returns (observations, masks, players). Game `i` starts from
    /// seed ``game_seed(seed, i)``; without `seed`, from the last reset's seed plus one (the
    /// constructor's seed counts as a reset), so that successive ``reset()`` calls give new
    /// games, reproducibly.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<Int>) -> PyResult<Observed<'py>> {
        let seed = match seed {
            Some(s) => unsigned(&s, "seed")?,
            None => self.batch.seed().wrapping_add(1),
        };
        let batch = &mut self.batch;
        py.detach(|| batch.reset(seed)).map_err(to_py)?;
        self.observe(py)
    }

    /// The current (observations, masks, players).
    fn observe<'py>(&mut self, py: Python<'py>) -> PyResult<Observed<'py>> {
        let (obs, masks, players) = self.arrays(py);
        {
            let (mut o, mut m, mut p) = (obs.readwrite(), masks.readwrite(), players.readwrite());
            let out = Outputs {
                observations: o.as_slice_mut()?,
                masks: m.as_slice_mut()?,
                players: p.as_slice_mut()?,
            };
            let batch = &mut self.batch;
            py.detach(|| batch.observe(out)).map_err(to_py)?;
        }
        Ok((obs, masks, players))
    }

    /// Plays one action per game (``actions``: integers of shape ``(num_envs,)``, each legal
    /// in its game; a bad one is a ValueError naming its env, and no game moves) and returns
    /// ``(observations, masks, players, rewards, terminated)``: float32 ``(num_envs,
    /// observation_size)``, int8 ``(num_envs, num_actions)``, int64 ``(num_envs,)``, float32
    /// ``(num_envs, num_players)`` (what each player gained: the final returns when a game ends,
    /// 0 before) and bool ``(num_envs,)``. A game that ended is replaced at once by a new one,
    /// whose observation, mask and player are the ones returned.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Stepped<'py>> {
        let n = self.batch.len();
        let actions = int64_array(py, actions)?;
        let actions = actions.readonly();
        if actions.shape() != [n] {
            return Err(to_py(Error::Shape {
                what: "actions",
                found: format!("{:?}", actions.shape()),
                expected: format!("[{n}]"),
            }));
        }
        let actions = actions.as_slice()?;
        let (obs, masks, players) = self.arrays(py);
        let rewards = PyArray2::<f32>::zeros(py, [n, self.batch.num_players()], false);
        let terminated = vec![0u8; n];
        let mut terminated_out = terminated;
        {
            let (mut o, mut m, mut p, mut r) = (
                obs.readwrite(),
                masks.readwrite(),
                players.readwrite(),
                rewards.readwrite(),
            );
            let out = StepOutputs {
                next: Outputs {
                    observations: o.as_slice_mut()?,
                    masks: m.as_slice_mut()?,
                    players: p.as_slice_mut()?,
                },
                rewards: r.as_slice_mut()?,
                terminated: &mut terminated_out,
            };
            let batch = &mut self.batch;
            py.detach(|| batch.step(actions, out)).map_err(to_py)?;
        }
        let terminated: Vec<bool> = terminated_out.iter().map(|&t| t != 0).collect();
        Ok((
            obs,
            masks,
            players,
            rewards,
            PyArray1::from_vec(py, terminated),
        ))
    }

    /// Plays `steps` steps with uniformly random legal actions chosen in Rust (seeded), the GIL
    /// released, and returns how many games finished: the Rust-alone side of the benchmark
    /// `python/bench/batched.py`. Ctrl-C stops it between two steps (``KeyboardInterrupt``; the
    /// env is then as after its last step).
    #[pyo3(signature = (steps, seed = Int::from(0)))]
    fn random_steps(&mut self, py: Python<'_>, steps: Int, seed: Int) -> PyResult<u64> {
        let (steps, seed) = (count(&steps, "steps")?, unsigned(&seed, "seed")?);
        let batch = &mut self.batch;
        let finished = interruptible(py, |stop| {
            pjlab_registry::batch::random_steps(batch.as_mut(), steps, seed, stop)
        })?;
        finished.map_err(to_py)
    }

    fn __repr__(&self) -> String {
        format!(
            "BatchedEnv({:?}, num_envs={}, variant={:?})",
            self.name,
            self.batch.len(),
            self.variant
        )
    }
}
