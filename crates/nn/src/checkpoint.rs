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
//!
//! [`load_packed`] keeps the last few networks it packed, so that a process that builds players
//! again and again (a server answering one request after another, a tournament) reads and packs
//! each file once; a file that changes on disk (another length or modification time) is read
//! again.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

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
    let data = std::fs::read(path).map_err(crate::io_error(path))?;
    Ok(Bytes::from_bytes_vec(data))
}

/// The error of Burn failing on `path`.
pub(crate) fn record_error(path: &Path) -> impl Fn(burn::store::RecordError) -> Error + '_ {
    move |cause| Error::Record {
        path: path.display().to_string(),
        cause,
    }
}

pub(crate) fn read_record(path: &Path) -> Result<ModuleRecord, Error> {
    ModuleRecord::from_bytes(read_bytes(path)?).map_err(record_error(path))
}

/// The weights of the checkpoint directory `dir` in a network of `net` and `shape` on
/// `device`, for inference.
///
/// # Errors
/// [`Error::Io`] when the file is missing or unreadable, [`Error::Record`] when it is no
/// record or of another shape.
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
        .map_err(record_error(&path))
}

/// How many packed networks [`load_packed`] keeps (the most recently used ones).
pub const KEPT_NETWORKS: usize = 8;

/// What a kept packed network was read from: its file as it was, and the config and shape it
/// was loaded as.
#[derive(Clone, Debug, PartialEq, Eq)]
struct PackedKey {
    path: PathBuf,
    len: u64,
    modified: Option<SystemTime>,
    net: NetConfig,
    shape: NetShape,
}

impl PackedKey {
    /// The key of `dir`'s weights file as it is now; `None` when the file cannot be looked at
    /// (then [`load`] says why).
    fn of(dir: &Path, net: &NetConfig, shape: NetShape) -> Option<PackedKey> {
        let path = dir.join(MODEL_FILE).canonicalize().ok()?;
        let meta = std::fs::metadata(&path).ok()?;
        Some(PackedKey {
            path,
            len: meta.len(),
            modified: meta.modified().ok(),
            net: net.clone(),
            shape,
        })
    }
}

/// The kept networks, most recently used first.
static PACKED: Mutex<Vec<(PackedKey, PackedNet)>> = Mutex::new(Vec::new());

fn kept(key: &PackedKey) -> Option<PackedNet> {
    let mut kept = PACKED.lock().unwrap_or_else(|e| e.into_inner());
    let at = kept.iter().position(|(k, _)| k == key)?;
    let entry = kept.remove(at);
    let net = entry.1.clone();
    kept.insert(0, entry);
    Some(net)
}

fn keep(key: PackedKey, net: &PackedNet) {
    let mut kept = PACKED.lock().unwrap_or_else(|e| e.into_inner());
    kept.retain(|(k, _)| k != &key);
    kept.insert(0, (key, net.clone()));
    kept.truncate(KEPT_NETWORKS);
}

/// The weights of the checkpoint directory `dir` as the packed CPU network: read and packed
/// once, then served from the [`KEPT_NETWORKS`] kept ones while the file stays as it was.
///
/// # Errors
/// As [`load`].
pub fn load_packed(dir: &Path, net: &NetConfig, shape: NetShape) -> Result<PackedNet, Error> {
    let key = PackedKey::of(dir, net, shape);
    if let Some(packed) = key.as_ref().and_then(kept) {
        return Ok(packed);
    }
    let packed = PackedNet::new(&load(dir, net, shape, &Device::default())?);
    if let Some(key) = key {
        keep(key, &packed);
    }
    Ok(packed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Trainee;

    /// A fresh network of `seed`, saved in `dir` when one is given, as the packed network.
    fn fresh(dir: Option<&Path>, net: &NetConfig, shape: NetShape, seed: u64) -> PackedNet {
        let trainee = Trainee::new(net, shape, 0.0, &Device::default(), seed);
        if let Some(dir) = dir {
            trainee.save(dir).unwrap();
        }
        PackedNet::new(trainee.model())
    }

    #[test]
    fn a_loaded_network_is_kept_and_read_again_once_its_file_changes() {
        let dir = std::env::temp_dir().join(format!("pjlab-nn-kept-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let net = NetConfig {
            hidden: 8,
            layers: 1,
        };
        let shape = NetShape {
            input: 5,
            actions: 3,
        };
        let first = fresh(Some(&dir), &net, shape, 1);
        assert_eq!(load_packed(&dir, &net, shape).unwrap(), first);

        // A kept network is served without reading the file: swap the kept entry for another
        // network and the next load answers it.
        let other = fresh(None, &net, shape, 2);
        assert_ne!(other, first);
        let key = PackedKey::of(&dir, &net, shape).unwrap();
        {
            let mut kept = PACKED.lock().unwrap();
            let entry = kept.iter_mut().find(|(k, _)| k == &key).unwrap();
            entry.1 = other.clone();
        }
        assert_eq!(load_packed(&dir, &net, shape).unwrap(), other);

        // The file rewritten (same size, later time): read again.
        let second = fresh(Some(&dir), &net, shape, 3);
        let file = std::fs::File::options()
            .append(true)
            .open(dir.join(MODEL_FILE))
            .unwrap();
        file.set_modified(SystemTime::now() + std::time::Duration::from_secs(5))
            .unwrap();
        assert_ne!(second, first);
        assert_eq!(load_packed(&dir, &net, shape).unwrap(), second);

        // Another config is another key, and the file does not fit it.
        let wider = NetConfig {
            hidden: 16,
            layers: 1,
        };
        assert!(matches!(
            load_packed(&dir, &wider, shape),
            Err(Error::Record { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
