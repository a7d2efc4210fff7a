//! A network fitted to training data as `pjlab nnue train` and the generations' candidates fit
//! it: the positions of every data path read with the game's features and its hand-written
//! evaluation as the reference, the network trained on them ([`crate::train`]), the pass with the
//! lowest held-out loss kept, and its card.

use std::path::PathBuf;

use pjlab_core::{EncoderId, GameKit};

use crate::data::Filter;
use crate::train::{EpochLoss, TrainOptions, train_features};
use crate::{Card, Error, Network};

/// A fitted network with how it was fitted.
#[derive(Clone, Debug)]
pub struct Fitted {
    /// The network.
    pub network: Network,
    /// Each pass's losses.
    pub losses: Vec<EpochLoss>,
    /// Positions trained and validated on.
    pub positions: usize,
    /// The feature set it reads.
    pub features: EncoderId,
}

impl Fitted {
    /// The pass kept: the one with the lowest finite held-out loss, else the last.
    pub fn kept(&self) -> Option<&EpochLoss> {
        self.losses
            .iter()
            .filter(|e| e.validation.is_finite())
            .min_by(|a, b| a.validation.total_cmp(&b.validation))
            .or(self.losses.last())
    }

    /// The network's card for kit `K`'s game, trained with `options`; `training` says how, for
    /// the reader.
    pub fn card<K: GameKit>(&self, options: &TrainOptions, training: serde_json::Value) -> Card {
        Card {
            game: K::INFO.name.into(),
            features: self.features.clone(),
            scale: options.label_scale,
            residual: options.residual,
            training,
        }
    }
}

/// Fits a network for kit `K`'s game to the positions of `data` (run directories of
/// `pjlab nnue data`, their tables, or text files of earlier builds, in this order: the held-out
/// share is the last positions read) that `filter` keeps. `progress` hears each pass.
///
/// # Errors
/// [`Error::NoFeatures`] for a game without sparse features, [`Error::NoPositions`] when the data
/// hold none that `filter` keeps, and the errors of reading the data and of training.
pub fn fit<K: GameKit>(
    data: &[PathBuf],
    filter: Filter,
    options: &TrainOptions,
    progress: &mut dyn FnMut(&EpochLoss),
) -> Result<Fitted, Error> {
    let features = K::sparse_features().ok_or(Error::NoFeatures(K::INFO.name))?;
    let reference = K::evaluation(None)?;
    let mut samples = Vec::new();
    for path in data {
        samples.extend(crate::data::read(
            path,
            features.as_ref(),
            &reference,
            filter,
        )?);
    }
    if samples.is_empty() {
        return Err(Error::NoPositions);
    }
    let (network, losses) = train_features(features.as_ref(), &samples, options, progress)?;
    Ok(Fitted {
        network,
        losses,
        positions: samples.len(),
        features: features.id(),
    })
}
