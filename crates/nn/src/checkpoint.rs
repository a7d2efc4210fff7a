//! The network's files in a checkpoint directory, whoever trained it:
//!
//! ```text
//! model.bpk       the network's weights (Burn's binary record)
//! optimizer.bpk   the optimiser's state (only to resume training)
//! ```
//!
//! The directory's `state.json` (what the network's config and shape are, how it was trained)
//! belongs to the trainer that wrote it; the trainers read it and call [`load`] or
//! [`load_packed`] with the config and shape it names. [`crate::Trainee::save`] and
//! [`crate::Trainee::load`] write and resume both files.

use std::path::Path;

use burn::module::Module;
use burn::store::ModuleRecord;
use burn::tensor::{Bytes, Device};

use crate::Error;
use crate::inference::PackedNet;
use crate::net::{NetConfig, NetShape, PolicyValueNet};

/// The weights' file name in a checkpoint directory.
pub const MODEL_FILE: &str = "model.bpk";
/// The optimiser state's file name in a checkpoint directory.
pub const OPTIMIZER_FILE: &str = "optimizer.bpk";

pub(crate) fn read_bytes(path: &Path) -> Result<Bytes, Error> {
    let data =
        std::fs::read(path).map_err(|e| Error::Checkpoint(format!("{}: {e}", path.display())))?;
    Ok(Bytes::from_bytes_vec(data))
}

pub(crate) fn read_record(path: &Path) -> Result<ModuleRecord, Error> {
    ModuleRecord::from_bytes(read_bytes(path)?)
        .map_err(|e| Error::Checkpoint(format!("{}: {e}", path.display())))
}

/// The weights of the checkpoint directory `dir` in a network of `net` and `shape` on
/// `device`, for inference.
///
/// # Errors
/// [`Error::Checkpoint`] when the file is missing, unreadable or of another shape.
pub fn load(
    dir: &Path,
    net: &NetConfig,
    shape: NetShape,
    device: &Device,
) -> Result<PolicyValueNet, Error> {
    let path = dir.join(MODEL_FILE);
    let record = read_record(&path)?;
    // The fallible load: a record of other shapes or missing tensors is an error, not a panic.
    PolicyValueNet::new(net, shape, device, 0)
        .try_load_record(record)
        .map_err(|e| Error::Checkpoint(format!("{}: {e}", path.display())))
}

/// The weights of the checkpoint directory `dir` as the packed CPU network.
///
/// # Errors
/// As [`load`].
pub fn load_packed(dir: &Path, net: &NetConfig, shape: NetShape) -> Result<PackedNet, Error> {
    Ok(PackedNet::new(&load(dir, net, shape, &Device::default())?))
}
