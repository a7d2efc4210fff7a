//! An ONNX policy/value model run by tract, a pure-Rust ONNX runtime: the lab's own exported
//! models (`pjlab export`) and foreign ones that follow the same model card ([`crate::card`]),
//! checked before they load. [`OnnxModel`] runs rows of inputs; [`OnnxEvaluator`] is an MCTS
//! evaluator over it (what `net:checkpoint=model.onnx` players and `pjlab ugi` use).

use std::marker::PhantomData;
use std::path::Path;

use pjlab_core::{Encoder, Game};
use pjlab_mcts::{Evaluation, Evaluator, Request, Value};
use tract_onnx::prelude::*;

use crate::Error;
use crate::card::{Contract, OutputIndices, read_checked};
use crate::evaluator::{softmax_in_place, wdl_value};

/// A checked ONNX model, optimised for one input row a run.
pub struct OnnxModel {
    plan: TypedSimplePlan<TypedModel>,
    outputs: OutputIndices,
    contract: Contract,
}

impl OnnxModel {
    /// Loads the model at `path` after checking it, and its card when one lies beside it
    /// (`model.json`), against `contract`; then one trial run checks the outputs' lengths.
    ///
    /// # Errors
    /// [`Error::Checkpoint`] when the file is missing or tract cannot run it,
    /// [`Error::Mismatch`] when the model or its card does not fit `contract`.
    pub fn load(path: &Path, contract: &Contract) -> Result<OnnxModel, Error> {
        let (bytes, outputs) = read_checked(path, contract)?;
        let bad = |e: TractError| Error::Checkpoint(format!("{}: {e}", path.display()));
        let plan = tract_onnx::onnx()
            .model_for_read(&mut bytes.as_slice())
            .map_err(bad)?
            .with_input_fact(0, f32::fact([1, contract.input_len]).into())
            .map_err(bad)?
            .into_optimized()
            .map_err(bad)?
            .into_runnable()
            .map_err(bad)?;
        let model = OnnxModel {
            plan,
            outputs,
            contract: contract.clone(),
        };
        let (mut policy, mut wdl) = (vec![0.0; contract.actions], [0.0; 3]);
        model
            .run(&vec![0.0; contract.input_len], &mut policy, &mut wdl)
            .map_err(|e| Error::Checkpoint(format!("{}: {e}", path.display())))?;
        Ok(model)
    }

    /// What the model was checked against.
    pub fn contract(&self) -> &Contract {
        &self.contract
    }

    /// Runs one input row into `policy` (the policy logits) and `wdl` (win/draw/loss logits).
    ///
    /// # Errors
    /// The runtime's message, or which output has another length than the contract's; the
    /// slices' lengths must be the contract's.
    pub fn run(&self, input: &[f32], policy: &mut [f32], wdl: &mut [f32]) -> Result<(), String> {
        let x = tract_ndarray::Array2::from_shape_vec((1, input.len()), input.to_vec())
            .map_err(|e| e.to_string())?;
        let outputs = self
            .plan
            .run(tvec!(Tensor::from(x).into()))
            .map_err(|e| e.to_string())?;
        let copy = |index: usize, name: &str, out: &mut [f32]| -> Result<(), String> {
            let view = outputs
                .get(index)
                .ok_or_else(|| format!("output {name} is missing from the run"))?
                .to_array_view::<f32>()
                .map_err(|e| format!("output {name}: {e}"))?;
            if view.len() != out.len() {
                return Err(format!(
                    "output {name} has {} values, expected {}",
                    view.len(),
                    out.len()
                ));
            }
            out.iter_mut().zip(view.iter()).for_each(|(o, &v)| *o = v);
            Ok(())
        };
        copy(self.outputs.policy, crate::card::POLICY, policy)?;
        copy(self.outputs.wdl, crate::card::WDL, wdl)
    }
}

/// An ONNX policy/value model of positions of `G`, whose inputs `E` builds, evaluating one
/// position at a time.
pub struct OnnxEvaluator<G, E> {
    model: OnnxModel,
    encoder: E,
    _game: PhantomData<fn(&G)>,
}

impl<G: Game, E: Encoder<G>> OnnxEvaluator<G, E> {
    /// Loads the model at `path` for one position a call, its inputs built by `encoder` (the
    /// one it was trained with), checked as [`OnnxModel::load`] does (the card's game is not
    /// checked: use [`OnnxEvaluator::new`] with a model loaded for the game's contract).
    ///
    /// # Errors
    /// As [`OnnxModel::load`].
    pub fn load(path: &Path, encoder: E) -> Result<OnnxEvaluator<G, E>, Error> {
        let model = OnnxModel::load(path, &Contract::of(None, &encoder))?;
        Ok(OnnxEvaluator::new(model, encoder))
    }

    /// The evaluator of a loaded `model`, whose inputs `encoder` builds.
    pub fn new(model: OnnxModel, encoder: E) -> OnnxEvaluator<G, E> {
        OnnxEvaluator {
            model,
            encoder,
            _game: PhantomData,
        }
    }
}

impl<G: Game, E: Encoder<G>> Evaluator<G> for OnnxEvaluator<G, E> {
    fn evaluate(&mut self, requests: &[Request<'_, G>], out: &mut [Evaluation]) {
        let mut input = vec![0.0; self.encoder.input_len()];
        let mut logits = vec![0.0; self.encoder.num_actions()];
        let mut wdl = [0.0; 3];
        for (r, answer) in requests.iter().zip(out.iter_mut()) {
            self.encoder.encode(r.position, &mut input);
            let side = r.position.side_to_move();
            answer.priors.clear();
            match self.model.run(&input, &mut logits, &mut wdl) {
                Ok(()) => {
                    answer.priors.extend(r.moves.iter().map(|&mv| {
                        logits[self
                            .encoder
                            .policy_index(r.position, r.position.action_index(mv))]
                    }));
                    softmax_in_place(&mut answer.priors);
                    answer.value = Value::new(side, wdl_value(&wdl));
                }
                Err(_) => {
                    // Checked at load time; should a run fail, fall back to uniform priors.
                    let n = r.moves.len().max(1);
                    answer.priors.resize(r.moves.len(), 1.0 / n as f32);
                    answer.value = Value::new(side, 0.0);
                }
            }
        }
    }
}
