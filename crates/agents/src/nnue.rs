//! `alphabeta:eval=nnue:FILE`: alpha-beta with a learned evaluation ([`pjlab_nnue`]) over the
//! game's sparse features, the game's own evaluation ordering the moves. The search runs on
//! positions that carry the network's accumulators and update them by the features each move
//! changes ([`pjlab_nnue::tracked`]); `eval=nnue-refresh:FILE` recomputes them in full at each
//! evaluation instead (the same search, slower: for measuring what the updates buy).

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use pjlab_alphabeta::{Engine, Limits, Options};
use pjlab_core::{Game, GameKit, Heuristic};
use pjlab_nnue::NnueEval;
use pjlab_nnue::tracked::{Shared, Tracked, TrackedEval};

use crate::players::{AlphaBetaAgent, alphabeta_decision};
use crate::{Agent, Control, Decision, SpecError};

/// The learned evaluation in the network file `path` for the game of kit `K`.
///
/// # Errors
/// [`SpecError::Eval`] when the game has no sparse features, the file does not load, or the
/// network was trained for another game or feature set.
fn evaluation<K: GameKit>(path: &Path) -> Result<NnueEval<K::Game, K::Eval>, SpecError> {
    let features = K::sparse_features().ok_or_else(|| {
        SpecError::Eval(format!("{} has no features for eval=nnue", K::INFO.name))
    })?;
    let (card, network) =
        pjlab_nnue::file::load(path).map_err(|e| SpecError::Eval(e.to_string()))?;
    if card.game != K::INFO.name {
        return Err(SpecError::Eval(format!(
            "{}: a network for {}, not {}",
            path.display(),
            card.game,
            K::INFO.name
        )));
    }
    let inner = K::evaluation(None).map_err(SpecError::Eval)?;
    NnueEval::new(&card, Arc::new(network), features, inner)
        .map_err(|e| SpecError::Eval(e.to_string()))
}

/// The alpha-beta agent of `eval=nnue:FILE` (`refresh` false) or `eval=nnue-refresh:FILE`.
///
/// # Errors
/// As [`evaluation`].
pub(crate) fn agent<K: GameKit>(
    spec: &str,
    path: &Path,
    refresh: bool,
    options: Options,
    limits: Limits,
) -> Result<Box<dyn Agent<K::Game>>, SpecError> {
    let eval = evaluation::<K>(path)?;
    if refresh {
        return Ok(Box::new(AlphaBetaAgent {
            spec: spec.to_string(),
            engine: Engine::new(eval, options),
            limits,
        }));
    }
    match eval.network().hidden {
        16 => tracked::<K, 16>(spec, eval, options, limits),
        32 => tracked::<K, 32>(spec, eval, options, limits),
        64 => tracked::<K, 64>(spec, eval, options, limits),
        128 => tracked::<K, 128>(spec, eval, options, limits),
        256 => tracked::<K, 256>(spec, eval, options, limits),
        n => Err(SpecError::Eval(format!(
            "{}: accumulators of width {n} are not tracked (16, 32, 64, 128 or 256; \
             eval=nnue-refresh takes any)",
            path.display()
        ))),
    }
}

fn tracked<K: GameKit, const W: usize>(
    spec: &str,
    eval: NnueEval<K::Game, K::Eval>,
    options: Options,
    limits: Limits,
) -> Result<Box<dyn Agent<K::Game>>, SpecError> {
    let shared = Shared::new::<_, W>(&eval).map_err(|e| SpecError::Eval(e.to_string()))?;
    Ok(Box::new(TrackedAgent::<K::Game, K::Eval, W> {
        spec: spec.to_string(),
        engine: Engine::new(TrackedEval::new(eval), options),
        shared,
        limits,
    }))
}

/// Alpha-beta on tracked positions: each search starts from the position with its
/// accumulators computed in full.
struct TrackedAgent<G: Game, H: Heuristic<G>, const W: usize> {
    spec: String,
    engine: Engine<Tracked<G, W>, TrackedEval<G, H>>,
    shared: Arc<Shared<G>>,
    limits: Limits,
}

impl<G: Game, H: Heuristic<G> + Send + Clone, const W: usize> Agent<G> for TrackedAgent<G, H, W> {
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
        self.engine.set_stop_flag(Arc::clone(&control.stop));
        let limits = control.limits.map_or(self.limits, |l| Limits {
            depth: l.depth,
            nodes: l.nodes,
            time: l.time,
        });
        let progress = &mut *control.progress;
        let result = self.engine.search_with(&root, &limits, &mut |r| {
            progress(&alphabeta_decision(r.clone()));
        });
        self.engine.set_stop_flag(Arc::new(AtomicBool::new(false)));
        alphabeta_decision(result)
    }
}
