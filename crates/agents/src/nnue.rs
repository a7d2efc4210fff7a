//! `alphabeta:eval=nnue:FILE`: alpha-beta with a learned evaluation ([`pjlab_nnue::NnueEval`])
//! over the game's sparse features, the game's own evaluation ordering the moves.

use std::path::Path;
use std::sync::Arc;

use pjlab_core::GameKit;
use pjlab_nnue::NnueEval;

use crate::SpecError;

/// The learned evaluation in the network file `path` for the game of kit `K`.
///
/// # Errors
/// [`SpecError::Eval`] when the game has no sparse features, the file does not load, or the
/// network was trained for another game or feature set.
pub(crate) fn evaluation<K: GameKit>(
    path: &Path,
) -> Result<NnueEval<K::Game, K::Eval>, SpecError> {
    let features = K::sparse_features().ok_or_else(|| {
        SpecError::Eval(format!("{} has no features for eval=nnue", K::INFO.name))
    })?;
    let (card, network) = pjlab_nnue::file::load(path).map_err(|e| SpecError::Eval(e.to_string()))?;
    if card.game != K::INFO.name {
        return Err(SpecError::Eval(format!(
            "{}: a network for {}, not {}",
            path.display(),
            card.game,
            K::INFO.name
        )));
    }
    let inner = K::evaluation(None).map_err(SpecError::Eval)?;
    NnueEval::new(&card, Arc::new(network), features, inner).map_err(|e| SpecError::Eval(e.to_string()))
}
