//! An ONNX policy/value model run by tract, a pure-Rust ONNX runtime: the lab's own exported
//! models (`pjlab export`) and foreign ones that follow the same model card ([`crate::card`]),
//! checked before they load. PyTorch's exporters are read as they write today: the default
//! one's (`dynamo=True`: opset 18 to 20, weights in `model.onnx.data` beside the model,
//! `value_info` on weights and intermediate values) and the legacy one's (`dynamo=False`).
//! [`OnnxModel`] runs rows of inputs; [`OnnxEvaluator`] is an MCTS evaluator over it (what
//! `net:checkpoint=model.onnx` players and `pjlab ugi` use).

use std::marker::PhantomData;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

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
    path: PathBuf,
}

impl OnnxModel {
    /// Loads the model at `path` after checking it, and its card when one lies beside it
    /// (`model.json`), against `contract`; then one trial run checks the outputs' lengths.
    ///
    /// Weights kept outside the model (`model.onnx.data`, as PyTorch's exporter writes them)
    /// are read from the model's directory; the types and shapes the file states of values
    /// inside the graph (`value_info`) are left to the runtime to infer.
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be read, [`Error::Mismatch`] when the model
    /// or its card does not fit `contract`, [`Error::Load`] when the runtime cannot build it,
    /// [`Error::Run`] when the trial run fails.
    pub fn load(path: &Path, contract: &Contract) -> Result<OnnxModel, Error> {
        // tract's decoder asserts on some malformed files (a weight whose data is not its
        // shape's length): such a panic is this file's error, not the caller's crash.
        catch_unwind(AssertUnwindSafe(|| OnnxModel::build(path, contract))).unwrap_or_else(
            |panic| {
                Err(Error::Load {
                    path: path.display().to_string(),
                    reason: format!("the runtime failed reading it: {}", panic_text(&*panic)),
                })
            },
        )
    }

    /// [`OnnxModel::load`] without the guard against the runtime's panics.
    fn build(path: &Path, contract: &Contract) -> Result<OnnxModel, Error> {
        let (bytes, outputs) = read_checked(path, contract)?;
        let failed = |e: TractError| Error::Load {
            path: path.display().to_string(),
            reason: format!("{e:#}"),
        };
        let onnx = tract_onnx::onnx();
        let mut proto = onnx
            .proto_model_for_read(&mut bytes.as_slice())
            .map_err(failed)?;
        prepare(&mut proto);
        // External data lies beside the model: relative to its directory, not to the
        // working directory.
        let dir = path.parent().unwrap_or(Path::new(""));
        let dir = dir.to_str().ok_or_else(|| Error::Load {
            path: path.display().to_string(),
            reason: "its directory's name is not UTF-8, so its external data cannot be found"
                .into(),
        })?;
        let parsed = onnx.parse(&proto, Some(dir)).map_err(failed)?;
        if !parsed.unresolved_inputs.is_empty() {
            return Err(Error::Load {
                path: path.display().to_string(),
                reason: format!(
                    "values used but defined nowhere in the graph: {}",
                    parsed.unresolved_inputs.join(", ")
                ),
            });
        }
        let plan = parsed
            .model
            .with_input_fact(0, f32::fact([1, contract.input_len]).into())
            .map_err(failed)?
            .into_optimized()
            .map_err(failed)?
            .into_runnable()
            .map_err(failed)?;
        let model = OnnxModel {
            plan,
            outputs,
            contract: contract.clone(),
            path: path.to_path_buf(),
        };
        let (mut policy, mut wdl) = (vec![0.0; contract.actions], [0.0; 3]);
        model.run(&vec![0.0; contract.input_len], &mut policy, &mut wdl)?;
        Ok(model)
    }

    /// What the model was checked against.
    pub fn contract(&self) -> &Contract {
        &self.contract
    }

    /// The model's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs one input row into `policy` (the policy logits) and `wdl` (win/draw/loss logits).
    ///
    /// # Errors
    /// [`Error::Run`], naming the file: the runtime's message, or which output has another
    /// length than the contract's; the slices' lengths must be the contract's.
    pub fn run(&self, input: &[f32], policy: &mut [f32], wdl: &mut [f32]) -> Result<(), Error> {
        let failed = |reason: String| {
            Error::Run(format!(
                "{}: the ONNX model failed to run: {reason}",
                self.path.display()
            ))
        };
        let x = tract_ndarray::Array2::from_shape_vec((1, input.len()), input.to_vec())
            .map_err(|e| failed(e.to_string()))?;
        // As in `load`: a model the runtime built may still trip one of its assertions.
        let outputs = catch_unwind(AssertUnwindSafe(|| {
            self.plan.run(tvec!(Tensor::from(x).into()))
        }))
        .map_err(|panic| failed(format!("the runtime failed: {}", panic_text(&*panic))))?
        .map_err(|e| failed(format!("{e:#}")))?;
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
        copy(self.outputs.policy, crate::card::POLICY, policy).map_err(failed)?;
        copy(self.outputs.wdl, crate::card::WDL, wdl).map_err(failed)
    }
}

/// A panic's message, as far as it is text.
fn panic_text(panic: &(dyn std::any::Any + Send)) -> &str {
    panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or("a panic without a message")
}

/// What tract is given of a model: the file's graph without its `value_info`, the types and
/// shapes it states of values inside the graph (PyTorch's current exporter states them for the
/// weights and every intermediate value, with the batch as a symbol). They are optional hints
/// in ONNX: tract infers them from the input's shape, and a symbolic batch stated there
/// conflicts with the batch of one row the model is optimised for.
fn prepare(proto: &mut tract_onnx::pb::ModelProto) {
    if let Some(graph) = proto.graph.as_mut() {
        graph.value_info.clear();
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

#[cfg(test)]
mod tests {
    use prost::Message;

    use super::*;
    use crate::proto::{
        Dimension, FLOAT, GraphProto, ModelProto, NodeProto, OperatorSetIdProto, TensorProto,
        TensorShapeProto, TensorTypeProto, TypeProto, ValueInfoProto,
    };
    use pjlab_core::EncoderId;

    fn value(name: &str, width: usize) -> ValueInfoProto {
        let dim = vec![
            Dimension {
                dim_value: None,
                dim_param: Some("N".into()),
            },
            Dimension {
                dim_value: Some(width as i64),
                dim_param: None,
            },
        ];
        ValueInfoProto {
            name: name.into(),
            r#type: Some(TypeProto {
                tensor_type: Some(TensorTypeProto {
                    elem_type: FLOAT,
                    shape: Some(TensorShapeProto { dim }),
                }),
            }),
        }
    }

    fn tensor(name: &str, dims: &[i64], data: Vec<f32>) -> TensorProto {
        TensorProto {
            dims: dims.to_vec(),
            data_type: FLOAT,
            float_data: data,
            name: name.into(),
        }
    }

    fn node(op: &str, inputs: &[&str], output: &str) -> NodeProto {
        NodeProto {
            input: inputs.iter().map(|s| s.to_string()).collect(),
            output: vec![output.into()],
            name: output.into(),
            op_type: op.into(),
        }
    }

    /// A foreign model of 2 inputs and 3 actions written with MatMul and Add, its outputs in
    /// the other order than the export's: policy = x P + p, wdl = x V.
    fn foreign(path: &Path) {
        let graph = GraphProto {
            name: "foreign".into(),
            node: vec![
                node("MatMul", &["input", "P"], "xp"),
                node("Add", &["xp", "p"], "policy_logits"),
                node("MatMul", &["input", "V"], "wdl_logits"),
            ],
            initializer: vec![
                tensor("P", &[2, 3], vec![1.0, 2.0, 3.0, -1.0, 0.5, 0.0]),
                tensor("p", &[3], vec![0.25, 0.0, -0.25]),
                tensor("V", &[2, 3], vec![1.0, 0.0, -1.0, 0.0, 2.0, 0.0]),
            ],
            input: vec![value("input", 2)],
            output: vec![value("wdl_logits", 3), value("policy_logits", 3)],
        };
        let model = ModelProto {
            ir_version: 8,
            graph: Some(graph),
            opset_import: vec![OperatorSetIdProto {
                domain: String::new(),
                version: 13,
            }],
            ..ModelProto::default()
        };
        std::fs::write(path, model.encode_to_vec()).unwrap();
    }

    fn contract(actions: usize) -> Contract {
        Contract {
            game: Some("test".into()),
            encoder: EncoderId {
                name: "test-2".into(),
                version: 1,
            },
            input_len: 2,
            actions,
        }
    }

    #[test]
    fn a_foreign_model_runs_with_its_outputs_found_by_name() {
        let dir = std::env::temp_dir().join(format!("pjlab-nn-onnx-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("model.onnx");
        foreign(&path);
        let model = OnnxModel::load(&path, &contract(3)).unwrap();
        let (mut policy, mut wdl) = ([0.0; 3], [0.0; 3]);
        model.run(&[2.0, 1.0], &mut policy, &mut wdl).unwrap();
        // x P + p with x = (2, 1): (2 - 1, 4 + 0.5, 6 + 0) + p; x V: (2, 2, -2).
        assert_eq!(policy, [1.25, 4.5, 5.75]);
        assert_eq!(wdl, [2.0, 2.0, -2.0]);

        let err = OnnxModel::load(&path, &contract(4))
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains("does not fit test's model card: policy_logits shape: expected [batch, 4], found [N, 3]"),
            "{err}"
        );
        std::fs::write(
            dir.join("model.json"),
            r#"{"game": "test", "encoder": {"name": "test-3", "version": 1}}"#,
        )
        .unwrap();
        let err = OnnxModel::load(&path, &contract(3))
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains("model.json does not fit test's model card: encoder: expected test-2 v1, found test-3 v1"),
            "{err}"
        );
        let missing = OnnxModel::load(&dir.join("none.onnx"), &contract(3));
        assert!(matches!(missing, Err(Error::Io { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_model_that_does_not_build_or_run_says_so_and_names_its_file() {
        let dir = std::env::temp_dir().join(format!("pjlab-nn-onnx-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("model.onnx");
        let write = |edit: &dyn Fn(&mut GraphProto)| {
            foreign(&path);
            let mut model = ModelProto::decode(std::fs::read(&path).unwrap().as_slice()).unwrap();
            edit(model.graph.as_mut().unwrap());
            std::fs::write(&path, model.encode_to_vec()).unwrap();
        };
        let file = path.display().to_string();

        // Outputs of undeclared shapes pass the check; the trial run finds the policy too short.
        write(&|graph| {
            graph.output.iter_mut().for_each(|o| {
                o.r#type
                    .as_mut()
                    .unwrap()
                    .tensor_type
                    .as_mut()
                    .unwrap()
                    .shape = None;
            });
        });
        let err = OnnxModel::load(&path, &contract(3)).unwrap();
        let (mut policy, mut wdl) = ([0.0; 4], [0.0; 3]);
        let err = err.run(&[2.0, 1.0], &mut policy, &mut wdl).err().unwrap();
        assert!(matches!(err, Error::Run(_)), "{err:?}");
        assert_eq!(
            err.to_string(),
            format!(
                "{file}: the ONNX model failed to run: output policy_logits has 3 values, \
                 expected 4"
            )
        );
        let err = OnnxModel::load(&path, &contract(4)).err().unwrap();
        assert!(matches!(err, Error::Run(_)), "{err:?}");
        assert!(err.to_string().starts_with(&file), "{err}");

        // An operator tract does not know: the file, what failed, no checkpoint.
        write(&|graph| graph.node[0].op_type = "NoSuchOp".into());
        let err = OnnxModel::load(&path, &contract(3)).err().unwrap();
        assert!(matches!(err, Error::Load { .. }), "{err:?}");
        let text = err.to_string();
        assert!(
            text.starts_with(&format!("{file}: the ONNX model does not load: ")),
            "{text}"
        );
        assert!(text.contains("NoSuchOp"), "{text}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
