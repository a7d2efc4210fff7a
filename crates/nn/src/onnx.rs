//! An exported model (`pjlab export`) as an MCTS evaluator for any game's encoder, run by
//! tract, a pure-Rust ONNX runtime: what `pjlab ugi` uses when its `Checkpoint` option names an
//! `.onnx` file.

use std::marker::PhantomData;
use std::path::Path;

use pjlab_core::{Encoder, Game};
use pjlab_mcts::{Evaluation, Evaluator, Request, Value};
use tract_onnx::prelude::*;

use crate::Error;
use crate::evaluator::{softmax_in_place, wdl_value};

/// Runs one encoded position through the model: policy logits and win/draw/loss logits.
type Run = dyn Fn(Vec<f32>) -> Result<(Vec<f32>, Vec<f32>), String> + Send;

/// An ONNX policy/value model of positions of `G`, whose inputs `E` builds, evaluating one
/// position at a time.
pub struct OnnxEvaluator<G, E> {
    run: Box<Run>,
    encoder: E,
    _game: PhantomData<fn(&G)>,
}

impl<G: Game, E: Encoder<G>> OnnxEvaluator<G, E> {
    /// Loads and optimises the model at `path` for one position a call, its inputs built by
    /// `encoder` (the one it was trained with).
    ///
    /// # Errors
    /// [`Error::Checkpoint`] when the file is not a model with the encoder's input and outputs.
    pub fn load(path: &Path, encoder: E) -> Result<OnnxEvaluator<G, E>, Error> {
        let bad = |e: TractError| Error::Checkpoint(format!("{}: {e}", path.display()));
        let width = encoder.input_len();
        let plan = tract_onnx::onnx()
            .model_for_path(path)
            .map_err(bad)?
            .with_input_fact(0, f32::fact([1, width]).into())
            .map_err(bad)?
            .into_optimized()
            .map_err(bad)?
            .into_runnable()
            .map_err(bad)?;
        let run = move |input: Vec<f32>| -> Result<(Vec<f32>, Vec<f32>), String> {
            let x = tract_ndarray::Array2::from_shape_vec((1, width), input)
                .map_err(|e| e.to_string())?;
            let outputs = plan
                .run(tvec!(Tensor::from(x).into()))
                .map_err(|e| e.to_string())?;
            let flat = |i: usize| -> Result<Vec<f32>, String> {
                let view = outputs
                    .get(i)
                    .ok_or("the model has fewer than two outputs")?
                    .to_array_view::<f32>()
                    .map_err(|e| e.to_string())?;
                Ok(view.iter().copied().collect())
            };
            Ok((flat(0)?, flat(1)?))
        };
        // One trial run checks the output shapes.
        let (policy, wdl) = run(vec![0.0; width])
            .map_err(|e| Error::Checkpoint(format!("{}: {e}", path.display())))?;
        let actions = encoder.num_actions();
        if policy.len() != actions || wdl.len() != 3 {
            return Err(Error::Checkpoint(format!(
                "{}: outputs of {} and {} values, expected {actions} and 3",
                path.display(),
                policy.len(),
                wdl.len()
            )));
        }
        Ok(OnnxEvaluator {
            run: Box::new(run),
            encoder,
            _game: PhantomData,
        })
    }
}

impl<G: Game, E: Encoder<G>> Evaluator<G> for OnnxEvaluator<G, E> {
    fn evaluate(&mut self, requests: &[Request<'_, G>], out: &mut [Evaluation]) {
        let mut input = vec![0.0; self.encoder.input_len()];
        for (r, answer) in requests.iter().zip(out.iter_mut()) {
            self.encoder.encode(r.position, &mut input);
            let side = r.position.side_to_move();
            answer.priors.clear();
            match (self.run)(input.clone()) {
                Ok((logits, wdl)) => {
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
                    answer.value = Value::new(side, 0.0);
                }
            }
        }
    }
}
