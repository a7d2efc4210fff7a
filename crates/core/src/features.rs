//! [`SparseFeatures`]: a position as a handful of active binary features, seen from one side,
//! for evaluations whose first layer is an accumulator (NNUE: the sum of the weight columns of
//! the active features, recomputed or updated by the few features a move changes).
//!
//! The trait lives here, beside [`crate::Encoder`], so that each game's crate says which
//! features a position has while the network crate (`pjlab-nnue`) knows no game.

use crate::encode::EncoderId;
use crate::{Game, Side};

/// Which binary features of a position are on, from the point of view of one side.
///
/// Seen from `perspective`, a position shows "my" pieces and "their" pieces (boards turned so
/// that `perspective` always plays the same way), so that one set of weights serves both sides.
pub trait SparseFeatures<G: Game>: Send + Sync {
    /// Name and version of the feature set: a network is only valid with the set it was
    /// trained on.
    fn id(&self) -> EncoderId;

    /// Number of distinct features (indices run from 0 to this, exclusive).
    fn num_features(&self) -> usize;

    /// The most features any position has on from one side (the length `out` must have).
    fn max_active(&self) -> usize;

    /// Writes the indices of the features on in `position` seen from `perspective` into the
    /// front of `out` (at least [`SparseFeatures::max_active`] long) and returns their count.
    fn active(&self, position: &G, perspective: Side, out: &mut [u16]) -> usize;

    /// Number of factors: coarser features that exist in training only (none by default).
    ///
    /// A factor gathers features that should share part of their weights, such as one kind of
    /// piece on every cell: the trainer learns one weight row per factor from every position
    /// where any of its features is on, and adds it to each of its features' rows when training
    /// ends, so that the network played has exactly [`SparseFeatures::num_features`] inputs.
    fn num_factors(&self) -> usize {
        0
    }

    /// The factor (below [`SparseFeatures::num_factors`]) that `feature` belongs to, if any.
    fn factor(&self, feature: usize) -> Option<usize> {
        let _ = feature;
        None
    }

    /// The features `mv` switches off and on seen from `perspective`, `before` it is played and
    /// `after`: written into the front of `off` and `on` (each at least
    /// [`SparseFeatures::max_active`] long), with their counts; a feature may be both switched
    /// off and on. `None` (the default) when the game cannot say, and the features of `after`
    /// are then recomputed in full. Applying them to the features of `before` gives those of
    /// `after` (each game's tests check it).
    fn changed(
        &self,
        before: &G,
        mv: G::Move,
        after: &G,
        perspective: Side,
        off: &mut [u16],
        on: &mut [u16],
    ) -> Option<(usize, usize)> {
        let _ = (before, mv, after, perspective, off, on);
        None
    }

    /// [`SparseFeatures::changed`] from both points of view at once (`[First, Second]`, as
    /// [`Side::index`] numbers them), into `off[i]` and `on[i]` for each, for games whose two
    /// views share the work; each answer is the one [`SparseFeatures::changed`] gives, features
    /// in the same order. The default asks [`SparseFeatures::changed`] once a side.
    fn changed_both(
        &self,
        before: &G,
        mv: G::Move,
        after: &G,
        off: [&mut [u16]; 2],
        on: [&mut [u16]; 2],
    ) -> [Option<(usize, usize)>; 2] {
        let [off_first, off_second] = off;
        let [on_first, on_second] = on;
        [
            self.changed(before, mv, after, Side::First, off_first, on_first),
            self.changed(before, mv, after, Side::Second, off_second, on_second),
        ]
    }
}
