//! `alphabeta:eval=nnue:FILE`: alpha-beta with a learned evaluation ([`pjlab_nnue`]) over the
//! game's sparse features, the game's own evaluation ordering the moves. The search runs on
//! positions that carry the network's accumulators and update them by the features each move
//! changes ([`pjlab_nnue::tracked`]); `eval=nnue-refresh:FILE` recomputes them in full at each
//! evaluation instead (the same search, slower: for measuring what the updates buy), and
//! `eval=nnue-int:FILE` runs the network in integers ([`pjlab_nnue::QuantisedNetwork`]: faster,
//! its scores within a centi-unit or so of the float network's, so not the same search).

use std::path::Path;
use std::sync::Arc;

use pjlab_alphabeta::{Engine, Limits, Options};
use pjlab_core::{Game, GameKit, Heuristic};
use pjlab_nnue::tracked::{Accumulates, Shared, Tracked, TrackedEval};
use pjlab_nnue::{Network, NnueEval, QuantisedNetwork};

use crate::players::{AlphaBetaAgent, alphabeta_decision, controlled_search};
use crate::{Agent, Control, Decision, SpecError};

/// The learned evaluation in the network file `path` for the game of kit `K`.
///
/// # Errors
/// [`SpecError::Nnue`] when the game has no sparse features, the file does not load, or the
/// network was trained for another game or feature set; [`SpecError::Game`] when the game's
/// own evaluation does not load.
fn evaluation<K: GameKit>(path: &Path) -> Result<NnueEval<K::Game, K::Eval>, SpecError> {
    NnueEval::load::<K>(path).map_err(|e| match e {
        pjlab_nnue::Error::Game(e) => SpecError::Game(e),
        e => SpecError::Nnue(e),
    })
}

/// How `eval=nnue*:FILE` runs the network.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `nnue`: float accumulators carried by the positions.
    Tracked,
    /// `nnue-refresh`: float accumulators recomputed at each evaluation.
    Refresh,
    /// `nnue-int`: integer accumulators carried by the positions.
    Integer,
}

/// The alpha-beta agent of `eval=nnue:FILE`, `eval=nnue-refresh:FILE` or `eval=nnue-int:FILE`.
///
/// # Errors
/// As [`evaluation`], [`SpecError::Width`] for accumulators of a width that is not tracked, and
/// [`SpecError::Nnue`] when the network does not fit integers.
pub(crate) fn agent<K: GameKit>(
    spec: &str,
    path: &Path,
    kind: Kind,
    options: Options,
    limits: Limits,
) -> Result<Box<dyn Agent<K::Game>>, SpecError> {
    let eval = evaluation::<K>(path)?;
    if kind == Kind::Refresh {
        return Ok(Box::new(AlphaBetaAgent {
            spec: spec.to_string(),
            engine: Engine::new(eval, options),
            limits,
        }));
    }
    let integer = kind == Kind::Integer;
    match eval.network().hidden {
        16 => tracked::<K, 16>(spec, eval, integer, options, limits),
        32 => tracked::<K, 32>(spec, eval, integer, options, limits),
        64 => tracked::<K, 64>(spec, eval, integer, options, limits),
        128 => tracked::<K, 128>(spec, eval, integer, options, limits),
        256 => tracked::<K, 256>(spec, eval, integer, options, limits),
        width => Err(SpecError::Width {
            path: path.to_path_buf(),
            width,
        }),
    }
}

fn tracked<K: GameKit, const W: usize>(
    spec: &str,
    eval: NnueEval<K::Game, K::Eval>,
    integer: bool,
    options: Options,
    limits: Limits,
) -> Result<Box<dyn Agent<K::Game>>, SpecError> {
    let error = SpecError::Nnue;
    if integer {
        let shared = Shared::quantised::<_, W>(&eval).map_err(error)?;
        return Ok(Box::new(TrackedAgent::<
            K::Game,
            K::Eval,
            W,
            QuantisedNetwork,
        > {
            spec: spec.to_string(),
            engine: Engine::new(TrackedEval::new(eval), options),
            shared,
            limits,
        }));
    }
    let shared = Shared::new::<_, W>(&eval).map_err(error)?;
    Ok(Box::new(TrackedAgent::<K::Game, K::Eval, W, Network> {
        spec: spec.to_string(),
        engine: Engine::new(TrackedEval::new(eval), options),
        shared,
        limits,
    }))
}

/// Alpha-beta on tracked positions: each search starts from the position with its
/// accumulators computed in full.
struct TrackedAgent<G: Game, H: Heuristic<G>, const W: usize, N: Accumulates> {
    spec: String,
    engine: Engine<Tracked<G, W, N>, TrackedEval<G, H>>,
    shared: Arc<Shared<G, N>>,
    limits: Limits,
}

impl<G: Game, H: Heuristic<G> + Send + Clone, const W: usize, N: Accumulates> Agent<G>
    for TrackedAgent<G, H, W, N>
{
    fn spec(&self) -> &str {
        &self.spec
    }

    fn new_game(&mut self, _seed: u64) {
        self.engine.clear();
    }

    fn decide(&mut self, position: &G) -> Decision<G::Move> {
        let root = Tracked::new(position.clone(), Arc::clone(&self.shared));
        alphabeta_decision(self.engine.search(&root, &self.limits))
    }

    fn search(&mut self, position: &G, control: &mut Control<'_, G::Move>) -> Decision<G::Move> {
        let root = Tracked::new(position.clone(), Arc::clone(&self.shared));
        controlled_search(&mut self.engine, &root, self.limits, control)
    }
}
