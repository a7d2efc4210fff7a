//! [`NnueEval`]: a network as alpha-beta's evaluation.

use std::sync::Arc;

use std::path::Path;

use pjlab_core::{Game, GameKit, Heuristic, SparseFeatures};

use crate::{Card, Error, MAX_HIDDEN, Network};

/// The most features on at once the evaluation takes on the stack.
const MAX_ACTIVE: usize = 128;
/// The evaluation's bound in centi-units, well inside alpha-beta's forced-result scores.
const BOUND: f32 = 100_000.0;

/// The network's output times the card's scale as the static score, for the side to move; the
/// game's own evaluation `H` still says which moves are tactical and how to order them.
///
/// Each call recomputes both accumulators from the position's features (a full refresh): about
/// 30 rows of `hidden` weights each in Pijersi.
#[derive(Clone)]
pub struct NnueEval<G: Game, H> {
    network: Arc<Network>,
    features: Arc<dyn SparseFeatures<G>>,
    scale: f32,
    residual: bool,
    inner: H,
}

impl<G: Game, H> NnueEval<G, H> {
    /// The evaluation of `network` (as its `card` describes it) over the game's `features`, with
    /// the game's evaluation `inner` for tactics and move order.
    ///
    /// # Errors
    /// [`Error::Features`] when the network was trained on other features, [`Error::TooManyFeatures`]
    /// when the feature set is larger than the network or has too many features on at once.
    pub fn new(
        card: &Card,
        network: Arc<Network>,
        features: Arc<dyn SparseFeatures<G>>,
        inner: H,
    ) -> Result<NnueEval<G, H>, Error> {
        let id = features.id();
        if id != card.features {
            return Err(Error::Features {
                expected: format!("{} v{}", card.features.name, card.features.version),
                found: format!("{} v{}", id.name, id.version),
            });
        }
        if features.num_features() > network.inputs || features.max_active() > MAX_ACTIVE {
            return Err(Error::TooManyFeatures {
                features: features.num_features(),
                active: features.max_active(),
                inputs: network.inputs,
            });
        }
        debug_assert!(network.hidden <= MAX_HIDDEN);
        Ok(NnueEval {
            network,
            features,
            scale: card.scale,
            residual: card.residual,
            inner,
        })
    }

    /// The learned evaluation in the network file `path` for the game of kit `K`, over its
    /// sparse features and its hand-written evaluation.
    ///
    /// # Errors
    /// [`Error::NoFeatures`] when the game has no sparse features, [`Error::Format`] when the file
    /// does not load or holds another game's network, [`Error::Features`] when it was trained
    /// on another feature set, [`Error::Game`] when the game's evaluation does not load.
    pub fn load<K: GameKit<Game = G, Eval = H>>(path: &Path) -> Result<NnueEval<G, H>, Error> {
        let features = K::sparse_features().ok_or(Error::NoFeatures(K::INFO.name))?;
        let (card, network) = crate::file::load(path)?;
        if card.game != K::INFO.name {
            return Err(Error::Format {
                path: path.display().to_string(),
                message: format!("a network for {}, not {}", card.game, K::INFO.name),
            });
        }
        let inner = K::evaluation(None)?;
        NnueEval::new(&card, Arc::new(network), features, inner)
    }

    /// The network.
    pub fn network(&self) -> &Arc<Network> {
        &self.network
    }

    /// The game's features.
    pub fn features(&self) -> &Arc<dyn SparseFeatures<G>> {
        &self.features
    }

    /// The score in centi-units for an output `logit`, bounded well inside forced results.
    #[inline]
    pub fn score(&self, logit: f32) -> i32 {
        (logit * self.scale).clamp(-BOUND, BOUND) as i32
    }

    /// The score of `position` whose network output is `logit`: the scaled output, plus the
    /// hand-written evaluation when the network was trained as a correction to it.
    #[inline]
    pub fn score_at(&self, position: &G, logit: f32) -> i32
    where
        H: Heuristic<G>,
    {
        let own = self.score(logit);
        if self.residual {
            own + self.inner.evaluate(position)
        } else {
            own
        }
    }

    /// The network's output (logit of the side to move's expected score) for `position`.
    #[inline]
    pub fn logit(&self, position: &G) -> f32 {
        let mut stm = [0u16; MAX_ACTIVE];
        let mut other = [0u16; MAX_ACTIVE];
        let me = position.side_to_move();
        let n = self.features.active(position, me, &mut stm);
        let m = self.features.active(position, me.other(), &mut other);
        self.network.forward(&stm[..n], &other[..m])
    }
}

impl<G: Game, H: Heuristic<G>> Heuristic<G> for NnueEval<G, H> {
    #[inline]
    fn evaluate(&self, position: &G) -> i32 {
        self.score_at(position, self.logit(position))
    }

    #[inline]
    fn is_tactical(&self, position: &G, mv: G::Move) -> bool {
        self.inner.is_tactical(position, mv)
    }

    fn retain_tactical(&self, position: &G, moves: &mut Vec<G::Move>) {
        self.inner.retain_tactical(position, moves);
    }

    fn tactical_order(&self, position: &G, mv: G::Move) -> i32 {
        self.inner.tactical_order(position, mv)
    }

    fn history_size(&self, position: &G) -> usize {
        self.inner.history_size(position)
    }

    #[inline]
    fn history_index(&self, position: &G, mv: G::Move) -> usize {
        self.inner.history_index(position, mv)
    }
}
