//! `Model`: a network of one game evaluating observations or states.

use std::path::PathBuf;

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;

use super::state::PyState;
use super::to_py;
use crate::{Error, Model};

/// Policy and value arrays.
type Evaluated<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<f32>>);

/// A policy/value network of one game: a training checkpoint or an ONNX model.
#[pyclass(name = "Model", module = "pjlab._pjlab", frozen)]
pub(crate) struct PyModel {
    model: Box<dyn Model>,
    path: PathBuf,
}

#[pymethods]
impl PyModel {
    /// Loads a checkpoint directory (or a run directory: its latest checkpoint) or an `.onnx`
    /// model (its card `model.json` beside it names the game, else give `game`).
    #[staticmethod]
    #[pyo3(signature = (path, game = None))]
    fn load(py: Python<'_>, path: PathBuf, game: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let variant = match game {
            Some(game) => game
                .cast::<super::game::PyGame>()
                .ok()
                .map(|g| g.get().handle.variant()),
            None => None,
        };
        let game = game.map(super::agent::game_name).transpose()?;
        let model = py
            .detach(|| crate::load_model(&path, game.as_deref(), variant.as_deref()))
            .map_err(to_py)?;
        Ok(PyModel { model, path })
    }

    /// Evaluates a list of states of its game, or observations shaped `[N, input_size]`
    /// (float32); returns `(policy, value)`: policy logits `[N, num_actions]` (for states, by
    /// the states' action indices; for observations, in the network's view) and values `[N]`
    /// (P(win) - P(loss) for the player to act). Runs with the GIL released.
    fn evaluate<'py>(
        &self,
        py: Python<'py>,
        batch: &Bound<'py, PyAny>,
    ) -> PyResult<Evaluated<'py>> {
        let actions = self.model.num_actions();
        if let Ok(list) = batch.extract::<Vec<PyRef<'py, PyState>>>() {
            let n = list.len();
            let states: Vec<&dyn crate::State> = list.iter().map(|s| s.inner()).collect();
            let (mut policy, mut value) = (vec![0.0; n * actions], vec![0.0; n]);
            let model = &self.model;
            py.detach(|| model.evaluate_states(&states, &mut policy, &mut value))
                .map_err(to_py)?;
            return Ok(arrays(py, policy, value, n, actions));
        }
        let np = py.import("numpy")?;
        let array = np.call_method1("ascontiguousarray", (batch, "float32"))?;
        let array = array.cast_into::<numpy::PyArrayDyn<f32>>()?;
        let view = array.readonly();
        let width = self.model.input_len();
        let shape = view.shape().to_vec();
        if shape.len() != 2 || shape[1] != width {
            return Err(to_py(Error::Shape {
                what: "observations",
                found: format!("{shape:?}"),
                expected: format!("[N, {width}] (or a list of states)"),
            }));
        }
        let n = shape[0];
        let inputs = view.as_slice()?;
        let (mut policy, mut value) = (vec![0.0; n * actions], vec![0.0; n]);
        let model = &self.model;
        py.detach(|| model.evaluate_inputs(inputs, &mut policy, &mut value))
            .map_err(to_py)?;
        Ok(arrays(py, policy, value, n, actions))
    }

    /// Its game's name.
    #[getter]
    fn game_name(&self) -> &'static str {
        self.model.game_name()
    }

    /// `checkpoint` or `onnx`.
    #[getter]
    fn format(&self) -> &'static str {
        self.model.format()
    }

    /// Its encoder's name and version (the game's `observation_encoding()` when they agree).
    #[getter]
    fn encoding(&self) -> String {
        self.model.encoding()
    }

    /// Values in one observation.
    #[getter]
    fn input_size(&self) -> usize {
        self.model.input_len()
    }

    /// Policy logits in one row.
    #[getter]
    fn num_actions(&self) -> usize {
        self.model.num_actions()
    }

    /// The path it was loaded from.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "Model.load({:?}, game={:?})",
            self.path.display().to_string(),
            self.model.game_name()
        )
    }
}

fn arrays<'py>(
    py: Python<'py>,
    policy: Vec<f32>,
    value: Vec<f32>,
    n: usize,
    actions: usize,
) -> Evaluated<'py> {
    let policy = PyArray1::from_vec(py, policy)
        .reshape([n, actions])
        .expect("n rows of actions");
    (policy, PyArray1::from_vec(py, value))
}
