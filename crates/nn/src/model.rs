//! One trained network, whoever trained it: the model file written beside every checkpoint
//! ([`NetworkFile`], `network.json`), and [`Model::load`], the one way to load a network for
//! play, from a checkpoint (run by the packed CPU forward pass) or from an ONNX model (run by
//! tract, feature `onnx-runtime`).
//!
//! A checkpoint directory then holds, whoever wrote it:
//!
//! ```text
//! model.bpk       the weights (Burn's binary record)
//! network.json    what they are: game, encoder, network config and shape, the game's table
//! optimizer.bpk   the optimiser's state (only to resume training)
//! state.json      the trainer's own state (how it was trained; read only by that trainer)
//! ```
//!
//! Checkpoints written before `network.json` existed are read from their `state.json`: the
//! AlphaZero trainer's (`encoder`, `shape`, `config.network`, `config.game` and the game's
//! table) and Chifoumi's (`shape`, `network`).

use std::path::{Path, PathBuf};

use pjlab_core::EncoderId;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::card::{Contract, card_game, card_path, read_card};
use crate::inference::PackedNet;
use crate::net::{NetConfig, NetShape};
use crate::{Error, io_error, json_error};

/// The model file's name in a checkpoint directory.
pub const NETWORK_FILE: &str = "network.json";
/// The model file's format version.
pub const NETWORK_FORMAT: u32 = 1;
/// The game name of Chifoumi's learned player, whose old checkpoints name no game.
pub const CHIFOUMI: &str = "chifoumi";
/// The encoder of Chifoumi's learned player (its observation and match memory, see
/// `pjlab_chifoumi::players::input_len`), named for checkpoints that name none.
pub const CHIFOUMI_ENCODER: &str = "chifoumi-memory";

/// The id of [`CHIFOUMI_ENCODER`]: what every Chifoumi network's model file names.
pub fn chifoumi_encoder() -> EncoderId {
    EncoderId {
        name: CHIFOUMI_ENCODER.into(),
        version: 1,
    }
}

/// What a checkpoint's weights are: `network.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NetworkFile {
    /// [`NETWORK_FORMAT`].
    pub format: u32,
    /// The game's registry name (`pijersi`, `chifoumi`).
    pub game: String,
    /// The encoder whose inputs the network reads and whose actions it answers.
    pub encoder: EncoderId,
    /// Hidden width and layers.
    pub network: NetConfig,
    /// Input and action sizes.
    pub shape: NetShape,
    /// The game's table of the training config (the encoder may depend on it: Chomp's bar);
    /// `null` when the game has none.
    #[serde(default)]
    pub game_config: Value,
}

impl NetworkFile {
    /// The model file of a network of `game` read by `encoder`.
    pub fn new(
        game: &str,
        encoder: EncoderId,
        network: NetConfig,
        shape: NetShape,
        game_config: Value,
    ) -> NetworkFile {
        NetworkFile {
            format: NETWORK_FORMAT,
            game: game.to_string(),
            encoder,
            network,
            shape,
            game_config,
        }
    }

    /// Writes `network.json` into the checkpoint directory `dir`.
    ///
    /// # Errors
    /// [`Error::Io`] when it cannot be written.
    pub fn write(&self, dir: &Path) -> Result<(), Error> {
        let path = dir.join(NETWORK_FILE);
        let text = serde_json::to_string_pretty(self).expect("a network file is JSON");
        std::fs::write(&path, text).map_err(io_error(&path))
    }

    /// The model file of the checkpoint directory `dir`: its `network.json`, else what an
    /// older checkpoint's `state.json` says.
    ///
    /// # Errors
    /// [`Error::Io`] or [`Error::Json`] when neither file reads, [`Error::NewerFormat`] for a
    /// newer `network.json`, [`Error::NoNetwork`] when the state names no network.
    pub fn read(dir: &Path) -> Result<NetworkFile, Error> {
        let path = dir.join(NETWORK_FILE);
        if path.exists() {
            let text = read_text(&path)?;
            let file: NetworkFile = serde_json::from_str(&text).map_err(json_error(&path))?;
            if file.format > NETWORK_FORMAT {
                return Err(Error::NewerFormat {
                    path: path.display().to_string(),
                    format: file.format,
                    known: NETWORK_FORMAT,
                });
            }
            return Ok(file);
        }
        let path = dir.join(pjlab_run::dir::STATE_FILE);
        let state: Value = serde_json::from_str(&read_text(&path)?).map_err(json_error(&path))?;
        from_state(&state).ok_or_else(|| Error::NoNetwork {
            path: path.display().to_string(),
        })
    }
}

fn read_text(path: &Path) -> Result<String, Error> {
    std::fs::read_to_string(path).map_err(io_error(path))
}

/// The model file an older checkpoint's `state.json` implies.
fn from_state(state: &Value) -> Option<NetworkFile> {
    fn parse<T: serde::de::DeserializeOwned>(v: &Value) -> Option<T> {
        serde_json::from_value(v.clone()).ok()
    }
    let shape: NetShape = parse(&state["shape"])?;
    if let Some(network) = parse(&state["config"]["network"]) {
        // The AlphaZero trainer's: the game defaults to Pijersi, as its config does.
        let game = state["config"]["game"].as_str().unwrap_or("pijersi");
        return Some(NetworkFile::new(
            game,
            parse(&state["encoder"])?,
            network,
            shape,
            state["config"][game].clone(),
        ));
    }
    // Chifoumi's policy-gradient trainer's.
    let network = parse(&state["network"])?;
    Some(NetworkFile::new(
        CHIFOUMI,
        chifoumi_encoder(),
        network,
        shape,
        Value::Null,
    ))
}

/// Where a model lies and what it says of itself, before its weights are read: what the
/// layer above needs to choose the encoder (and so the [`Contract`]) to load it with.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// A checkpoint directory and its model file.
    Checkpoint {
        /// The checkpoint directory (a run directory's newest, when a run was named).
        dir: PathBuf,
        /// Its `network.json` (or what an older state implies).
        file: NetworkFile,
    },
    /// An ONNX model and the card beside it, if any.
    Onnx {
        /// The `.onnx` file.
        path: PathBuf,
        /// Its card (`model.json`), parsed.
        card: Option<Value>,
    },
}

impl Source {
    /// What `path` names: an ONNX model (a file ending in `.onnx`), a directory with a model
    /// file (`network.json` beside the weights, no trainer's state needed), a checkpoint
    /// directory, or a run directory (its newest checkpoint). The one place the choice is made.
    ///
    /// # Errors
    /// [`Error::Load`] when no ONNX model is at a path ending in `.onnx`;
    /// [`Error::RunDir`] when nothing is there or no checkpoint is found, as
    /// [`NetworkFile::read`] when its files do not read.
    pub fn find(path: &Path) -> Result<Source, Error> {
        if path.extension().is_some_and(|e| e == "onnx") {
            if !path.is_file() {
                return Err(Error::Load {
                    path: path.display().to_string(),
                    reason: "no such file".into(),
                });
            }
            return Ok(Source::Onnx {
                path: path.to_path_buf(),
                card: read_card(path)?,
            });
        }
        // A directory with a model file stands alone (the weights and what they are); else a
        // trainer's checkpoint or run directory.
        let dir = if path.join(NETWORK_FILE).is_file() {
            path.to_path_buf()
        } else {
            pjlab_run::dir::Checkpoints::resolve(path)?
        };
        let file = NetworkFile::read(&dir)?;
        Ok(Source::Checkpoint { dir, file })
    }

    /// The game it names among `games` (the model file's, or the card's), if any.
    pub fn game<'a>(&self, games: &[&'a str]) -> Option<&'a str> {
        match self {
            Source::Checkpoint { file, .. } => games.iter().copied().find(|&g| g == file.game),
            Source::Onnx { card, .. } => card.as_ref().and_then(|c| card_game(c, games)),
        }
    }

    /// The game it names, if it names one: the model file's, or the card's `game`.
    pub fn named_game(&self) -> Option<String> {
        match self {
            Source::Checkpoint { file, .. } => Some(file.game.clone()),
            Source::Onnx { card, .. } => card.as_ref()?["game"].as_str().map(str::to_string),
        }
    }

    /// Values in one input row, as the model states it: the model file's shape, or the width
    /// an ONNX graph declares for its input (`None` when it declares none or the file does not
    /// read). What chooses the encoder of a model without a card (Chomp: the bar's size).
    pub fn input_len(&self) -> Option<usize> {
        match self {
            Source::Checkpoint { file, .. } => Some(file.shape.input),
            Source::Onnx { path, .. } => {
                crate::card::declared_input_width(&std::fs::read(path).ok()?)
            }
        }
    }

    /// The file or directory, for messages.
    pub fn path(&self) -> &Path {
        match self {
            Source::Checkpoint { dir, .. } => dir,
            Source::Onnx { path, .. } => path,
        }
    }

    /// Where a card would lie for an ONNX model (for messages).
    pub fn card_path(&self) -> Option<PathBuf> {
        match self {
            Source::Onnx { path, .. } => Some(card_path(path)),
            Source::Checkpoint { .. } => None,
        }
    }
}

/// A network ready to run, whichever runtime runs it.
pub enum Model {
    /// A checkpoint's weights on the packed CPU forward pass.
    Packed {
        /// The weights.
        net: PackedNet,
        /// What they are.
        file: NetworkFile,
    },
    /// An ONNX model run by tract.
    #[cfg(feature = "onnx-runtime")]
    Onnx(crate::onnx::OnnxModel),
}

impl Model {
    /// Loads the model `source` names, checked against `contract` (the game and encoder the
    /// caller will feed it): a checkpoint's model file must name the contract's game, encoder
    /// and sizes; an ONNX model and its card are checked as [`crate::onnx::OnnxModel::load`]
    /// does.
    ///
    /// # Errors
    /// [`Error::Io`] or [`Error::Record`] when the weights do not load,
    /// [`Error::NoOnnxRuntime`] when ONNX models are not built in,
    /// [`Error::Mismatch`] when the model does not fit `contract`, [`Error::Load`] and
    /// [`Error::Run`] when the ONNX runtime cannot build or run it.
    pub fn load(source: &Source, contract: &Contract) -> Result<Model, Error> {
        match source {
            Source::Checkpoint { dir, file } => {
                check_file(dir, file, contract)?;
                let net = crate::checkpoint::load_packed(dir, &file.network, file.shape)?;
                Ok(Model::Packed {
                    net,
                    file: file.clone(),
                })
            }
            #[cfg(feature = "onnx-runtime")]
            Source::Onnx { path, .. } => {
                Ok(Model::Onnx(crate::onnx::OnnxModel::load(path, contract)?))
            }
            #[cfg(not(feature = "onnx-runtime"))]
            Source::Onnx { path, .. } => Err(Error::NoOnnxRuntime {
                path: path.display().to_string(),
            }),
        }
    }

    /// `checkpoint` or `onnx`.
    pub fn format(&self) -> &'static str {
        match self {
            Model::Packed { .. } => "checkpoint",
            #[cfg(feature = "onnx-runtime")]
            Model::Onnx(_) => "onnx",
        }
    }

    /// Runs rows of inputs into `policy` (a row of logits each) and `wdl` (three logits each);
    /// the slices' lengths must be whole rows of the model's sizes.
    ///
    /// # Errors
    /// [`Error::Run`]: the ONNX runtime's failure.
    pub fn forward(
        &self,
        inputs: &[f32],
        policy: &mut [f32],
        wdl: &mut [f32],
    ) -> Result<(), Error> {
        match self {
            Model::Packed { net, .. } => {
                net.forward(inputs, policy, wdl);
                Ok(())
            }
            #[cfg(feature = "onnx-runtime")]
            Model::Onnx(model) => {
                let contract = model.contract();
                let rows = inputs
                    .chunks_exact(contract.input_len)
                    .zip(policy.chunks_exact_mut(contract.actions))
                    .zip(wdl.chunks_exact_mut(3));
                for ((input, policy), wdl) in rows {
                    model.run(input, policy, wdl)?;
                }
                Ok(())
            }
        }
    }
}

/// Whether a checkpoint's model file fits `contract`, naming the first difference.
fn check_file(dir: &Path, file: &NetworkFile, contract: &Contract) -> Result<(), Error> {
    let subject = contract
        .game
        .clone()
        .unwrap_or_else(|| contract.encoder.name.to_string());
    let fail = |what: &str, expected: String, found: String| Error::Mismatch {
        path: dir.join(NETWORK_FILE).display().to_string(),
        subject: subject.clone(),
        mismatch: crate::card::Mismatch {
            what: what.into(),
            expected,
            found,
        },
    };
    if let Some(game) = &contract.game
        && *game != file.game
    {
        return Err(fail("game", game.clone(), file.game.clone()));
    }
    let id = |e: &EncoderId| format!("{} v{}", e.name, e.version);
    if contract.encoder != file.encoder {
        return Err(fail("encoder", id(&contract.encoder), id(&file.encoder)));
    }
    let sizes = |input: usize, actions: usize| format!("{input} inputs, {actions} actions");
    if (contract.input_len, contract.actions) != (file.shape.input, file.shape.actions) {
        return Err(fail(
            "shape",
            sizes(contract.input_len, contract.actions),
            sizes(file.shape.input, file.shape.actions),
        ));
    }
    Ok(())
}
