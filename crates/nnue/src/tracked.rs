//! Incremental accumulators: [`Tracked`], a game's position that carries the network's two
//! accumulators and updates them by the few features each move changes, and [`TrackedEval`],
//! the evaluation that reads them.
//!
//! Alpha-beta copies a position and plays a move on the copy; the copy of a `Tracked` carries
//! its parent's accumulators and adds and subtracts the rows of the changed features (about 3
//! a side in Pijersi) instead of summing the ~30 rows of every feature on. The accumulators'
//! width `W` is a constant so that they live inline in the position (no allocation a node).
//!
//! The accumulators are those of a [`Network`] (`f32`, the default) or of a
//! [`QuantisedNetwork`] (`i16`: faster, values close to the float network's):
//! [`Accumulates`] is what the positions need of either.

use std::fmt;
use std::ops::{AddAssign, SubAssign};
use std::sync::Arc;

use pjlab_core::{Game, Heuristic, Outcome, Side, SparseFeatures};

use crate::{Error, Network, NnueEval, QuantisedNetwork};

/// The most features a move changes or a position has on, for the buffers on the stack.
const MAX_CHANGED: usize = 128;
/// Shorter buffers for feature sets with at most this many features on (Pijersi: 29), which
/// each move then clears instead of the longest.
const FEW_CHANGED: usize = 32;

/// A network whose first layer tracked positions carry: [`Network`] or [`QuantisedNetwork`].
pub trait Accumulates: Send + Sync + 'static {
    /// One entry of an accumulator.
    type Value: Copy + Default + PartialEq + fmt::Debug + AddAssign + SubAssign + Send + Sync;

    /// The first layer's weights, one row of the accumulator's width per feature.
    fn first_layer(&self) -> &[Self::Value];

    /// The accumulator of `features` (the bias plus their rows), into `acc`.
    fn accumulate_into(&self, features: &[u16], acc: &mut [Self::Value]);

    /// The output (logit of the side to move's expected score) from the two accumulators.
    fn output_from<const W: usize>(&self, stm: &[Self::Value; W], other: &[Self::Value; W]) -> f32;
}

impl Accumulates for Network {
    type Value = f32;

    #[inline]
    fn first_layer(&self) -> &[f32] {
        &self.w1
    }

    #[inline]
    fn accumulate_into(&self, features: &[u16], acc: &mut [f32]) {
        self.accumulate(features, acc);
    }

    #[inline]
    fn output_from<const W: usize>(&self, stm: &[f32; W], other: &[f32; W]) -> f32 {
        self.output_of(stm, other)
    }
}

impl Accumulates for QuantisedNetwork {
    type Value = i16;

    #[inline]
    fn first_layer(&self) -> &[i16] {
        &self.w1
    }

    #[inline]
    fn accumulate_into(&self, features: &[u16], acc: &mut [i16]) {
        self.accumulate(features, acc);
    }

    #[inline]
    fn output_from<const W: usize>(&self, stm: &[i16; W], other: &[i16; W]) -> f32 {
        self.output_of(stm, other)
    }
}

/// What every tracked position of one search shares: the network and the features.
pub struct Shared<G: Game, N = Network> {
    network: Arc<N>,
    features: Arc<dyn SparseFeatures<G>>,
    /// Whether the features fit buffers of [`FEW_CHANGED`].
    few: bool,
}

/// [`Error::Width`] unless `eval`'s accumulators are `W` wide.
fn check_width<G: Game, H, const W: usize>(eval: &NnueEval<G, H>) -> Result<(), Error> {
    if eval.network().hidden != W {
        return Err(Error::Width {
            hidden: eval.network().hidden,
            width: W,
        });
    }
    Ok(())
}

impl<G: Game> Shared<G> {
    /// The network and features of `eval`, for positions of width `W`.
    ///
    /// # Errors
    /// [`Error::Width`] when the network's accumulator is not `W` wide.
    pub fn new<H, const W: usize>(eval: &NnueEval<G, H>) -> Result<Arc<Shared<G>>, Error> {
        check_width::<G, H, W>(eval)?;
        Ok(Arc::new(Shared {
            network: Arc::clone(eval.network()),
            features: Arc::clone(eval.features()),
            few: eval.features().max_active() <= FEW_CHANGED,
        }))
    }
}

impl<G: Game> Shared<G, QuantisedNetwork> {
    /// `eval`'s network in integers ([`QuantisedNetwork::new`]) and its features, for
    /// positions of width `W`.
    ///
    /// # Errors
    /// [`Error::Width`] when the network's accumulator is not `W` wide, as
    /// [`QuantisedNetwork::new`] when its weights do not fit the integers.
    pub fn quantised<H, const W: usize>(
        eval: &NnueEval<G, H>,
    ) -> Result<Arc<Shared<G, QuantisedNetwork>>, Error> {
        check_width::<G, H, W>(eval)?;
        let network = QuantisedNetwork::new(eval.network(), eval.features().max_active())?;
        Ok(Arc::new(Shared {
            network: Arc::new(network),
            features: Arc::clone(eval.features()),
            few: eval.features().max_active() <= FEW_CHANGED,
        }))
    }

    /// The network in integers.
    pub fn network(&self) -> &QuantisedNetwork {
        &self.network
    }
}

/// A position with the accumulators of both points of view (`[First, Second]`), kept up to
/// date as moves are played. Equality, hash and every rule are the position's.
pub struct Tracked<G: Game, const W: usize, N: Accumulates = Network> {
    position: G,
    acc: [[N::Value; W]; 2],
    /// `None` for a position read from text, whose accumulators are then never used.
    shared: Option<Arc<Shared<G, N>>>,
}

impl<G: Game, const W: usize, N: Accumulates> Tracked<G, W, N> {
    /// `position` with its accumulators computed in full.
    pub fn new(position: G, shared: Arc<Shared<G, N>>) -> Tracked<G, W, N> {
        let mut tracked = Tracked {
            position,
            acc: [[N::Value::default(); W]; 2],
            shared: Some(shared),
        };
        tracked.refresh_all();
        tracked
    }

    /// The position.
    pub fn position(&self) -> &G {
        &self.position
    }

    /// The accumulator of `side`'s point of view, `None` for an untracked position.
    pub fn accumulator(&self, side: Side) -> Option<&[N::Value; W]> {
        self.shared.as_ref().map(|_| &self.acc[side.index()])
    }

    fn refresh_all(&mut self) {
        for side in Side::BOTH {
            self.refresh(side);
        }
    }

    fn refresh(&mut self, side: Side) {
        let Some(shared) = &self.shared else { return };
        let mut buffer = [0u16; MAX_CHANGED];
        let n = shared.features.active(&self.position, side, &mut buffer);
        shared
            .network
            .accumulate_into(&buffer[..n], &mut self.acc[side.index()]);
    }

    /// Updates the accumulators after `mv` took the position from `before` to its current one.
    #[inline]
    fn update(&mut self, before: &G, mv: G::Move) {
        match &self.shared {
            Some(shared) if shared.few => self.update_with::<FEW_CHANGED>(before, mv),
            Some(_) => self.update_with::<MAX_CHANGED>(before, mv),
            None => {}
        }
    }

    /// [`Tracked::update`] with feature buffers `L` long.
    #[inline]
    fn update_with<const L: usize>(&mut self, before: &G, mv: G::Move) {
        let Tracked {
            position,
            acc: accumulators,
            shared: Some(shared),
        } = self
        else {
            return;
        };
        let mut off = [[0u16; L]; 2];
        let mut on = [[0u16; L]; 2];
        let [off_first, off_second] = &mut off;
        let [on_first, on_second] = &mut on;
        let changed = shared.features.changed_both(
            before,
            mv,
            position,
            [off_first, off_second],
            [on_first, on_second],
        );
        let network = &shared.network;
        for side in Side::BOTH {
            let (i, acc) = (side.index(), &mut accumulators[side.index()]);
            match changed[i] {
                Some((a, b)) => apply(acc, network.first_layer(), &off[i][..a], &on[i][..b]),
                None => {
                    let n = shared.features.active(position, side, &mut off[i]);
                    network.accumulate_into(&off[i][..n], acc);
                }
            }
        }
    }
}

/// Subtracts the first-layer rows (`W` wide, in `w1`) of the features `off` from `acc`, then
/// adds those of `on`, each in the order given: the same sums, element by element, as a
/// plain loop, computed on a copy that stays in registers (the weights could alias the
/// position's accumulators as far as the compiler knows, which kept each sum in memory).
#[inline]
fn apply<T, const W: usize>(acc: &mut [T; W], w1: &[T], off: &[u16], on: &[u16])
where
    T: Copy + AddAssign + SubAssign,
{
    let (rows, _) = w1.as_chunks::<W>();
    let mut sum = *acc;
    for &f in off {
        let row = &rows[usize::from(f)];
        for (x, &w) in sum.iter_mut().zip(row) {
            *x -= w;
        }
    }
    for &f in on {
        let row = &rows[usize::from(f)];
        for (x, &w) in sum.iter_mut().zip(row) {
            *x += w;
        }
    }
    *acc = sum;
}

impl<G: Game, const W: usize, N: Accumulates> Clone for Tracked<G, W, N> {
    #[inline]
    fn clone(&self) -> Self {
        Tracked {
            position: self.position.clone(),
            acc: self.acc,
            shared: self.shared.clone(),
        }
    }
}

impl<G: Game, const W: usize, N: Accumulates> PartialEq for Tracked<G, W, N> {
    fn eq(&self, other: &Self) -> bool {
        self.position == other.position
    }
}

impl<G: Game, const W: usize, N: Accumulates> Eq for Tracked<G, W, N> {}

impl<G: Game, const W: usize, N: Accumulates> fmt::Debug for Tracked<G, W, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Tracked").field(&self.position).finish()
    }
}

impl<G: Game, const W: usize, N: Accumulates> Game for Tracked<G, W, N> {
    type Move = G::Move;
    type Error = G::Error;

    fn name(&self) -> &'static str {
        self.position.name()
    }

    #[inline]
    fn side_to_move(&self) -> Side {
        self.position.side_to_move()
    }

    fn seats(&self) -> usize {
        self.position.seats()
    }

    fn seat(&self) -> usize {
        self.position.seat()
    }

    #[inline]
    fn legal_moves(&self, moves: &mut Vec<G::Move>) {
        self.position.legal_moves(moves);
    }

    fn play(&mut self, mv: G::Move) -> Result<(), G::Error> {
        let before = self.position.clone();
        self.position.play(mv)?;
        self.update(&before, mv);
        Ok(())
    }

    #[inline]
    fn play_unchecked(&mut self, mv: G::Move) {
        let before = self.position.clone();
        self.position.play_unchecked(mv);
        self.update(&before, mv);
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.position.outcome()
    }

    fn wins_at_once(&self, mv: G::Move) -> bool {
        self.position.wins_at_once(mv)
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.position.hash()
    }

    fn num_actions(&self) -> usize {
        self.position.num_actions()
    }

    fn action_index(&self, mv: G::Move) -> usize {
        self.position.action_index(mv)
    }

    fn action_from_index(&self, index: usize) -> Option<G::Move> {
        self.position.action_from_index(index)
    }

    fn move_to_text(&self, mv: G::Move) -> String {
        self.position.move_to_text(mv)
    }

    fn parse_move(&self, text: &str) -> Result<G::Move, G::Error> {
        self.position.parse_move(text)
    }

    fn to_text(&self) -> String {
        self.position.to_text()
    }

    /// An untracked position: its evaluation computes the accumulators in full.
    fn from_text(text: &str) -> Result<Self, G::Error> {
        Ok(Tracked {
            position: G::from_text(text)?,
            acc: [[N::Value::default(); W]; 2],
            shared: None,
        })
    }
}

/// [`NnueEval`] over tracked positions: the output layers on the carried accumulators.
#[derive(Clone)]
pub struct TrackedEval<G: Game, H> {
    eval: NnueEval<G, H>,
}

impl<G: Game, H> TrackedEval<G, H> {
    /// The evaluation of `eval`'s network on tracked positions.
    pub fn new(eval: NnueEval<G, H>) -> TrackedEval<G, H> {
        TrackedEval { eval }
    }

    /// The evaluation on plain positions.
    pub fn plain(&self) -> &NnueEval<G, H> {
        &self.eval
    }

    /// The network's output for `position`: from its accumulators by the network it carries
    /// them for, or, for an untracked position, computed in full by the float network.
    #[inline]
    pub fn logit<const W: usize, N: Accumulates>(&self, position: &Tracked<G, W, N>) -> f32 {
        let me = position.side_to_move().index();
        match &position.shared {
            Some(shared) => shared
                .network
                .output_from(&position.acc[me], &position.acc[1 - me]),
            None => self.eval.logit(&position.position),
        }
    }
}

impl<G: Game, H: Heuristic<G>, const W: usize, N: Accumulates> Heuristic<Tracked<G, W, N>>
    for TrackedEval<G, H>
{
    #[inline]
    fn evaluate(&self, position: &Tracked<G, W, N>) -> i32 {
        self.eval.score_at(&position.position, self.logit(position))
    }

    #[inline]
    fn is_tactical(&self, position: &Tracked<G, W, N>, mv: G::Move) -> bool {
        self.eval.is_tactical(&position.position, mv)
    }

    fn retain_tactical(&self, position: &Tracked<G, W, N>, moves: &mut Vec<G::Move>) {
        self.eval.retain_tactical(&position.position, moves);
    }

    fn tactical_order(&self, position: &Tracked<G, W, N>, mv: G::Move) -> i32 {
        self.eval.tactical_order(&position.position, mv)
    }

    fn history_size(&self, position: &Tracked<G, W, N>) -> usize {
        self.eval.history_size(&position.position)
    }

    #[inline]
    fn history_index(&self, position: &Tracked<G, W, N>, mv: G::Move) -> usize {
        self.eval.history_index(&position.position, mv)
    }
}
