//! Abalone as an efficiently updatable evaluation sees it: [`AbaloneFeatures`].

use pjlab_core::{EncoderId, Side, SparseFeatures};

use crate::eval::centre_distance;
use crate::geometry::{Bitboard, Cell, cells};
use crate::position::{Color, EJECTIONS_TO_WIN, MARBLES, Position};

/// One binary feature per (cell, whose marble) and one per (whose, marbles ejected so far), seen
/// from one side (`abalone-marbles`, version 1).
///
/// Seen from White the board is turned half a turn (the point reflection about E5: dense rank
/// `i` becomes `60 - i`), so that the side whose view it is always plays from row A, as
/// [`Position::from_mover`] does. A marble is feature `whose * 61 + cell`, with `whose` 0 for
/// the viewer's marbles and 1 for the other side's and `cell` the dense rank in the viewer's
/// board; then feature `122 + whose * 7 + ejected`, the marbles that side has ejected (0..=6,
/// one-hot). 136 features; at most 14 marbles a colour are on the board and one ejection count
/// a side is on, so at most 30.
///
/// Why these: the marbles are the whole board. The ejection counts repeat what the marbles
/// on the board already say in the usual starts (each side has `14 - ejected` left), but as a
/// one-hot they let the first layer give "five ejected, one from winning" its own weight
/// rather than five times the weight of one marble. Left out, to keep the set small and the same
/// under every rules variant: the no-ejection draw counter (its limit is a rule, absent under
/// some) and the move number.
///
/// Training may add [`SparseFeatures::num_factors`]: one factor per (whose marble, ring), the
/// ring being the hex distance to E5 (0 to 4), so that what a marble is worth at a distance
/// from the centre is learnt from every cell of its ring.
///
/// Doubles: features by team. [`Game::side_to_move`](pjlab_core::Game::side_to_move) is the
/// team (Black is seats 0 and 2), so "my" marbles are my team's, both seat labels alike; the
/// seat labels and junction flags, which decide which marbles a seat may move before its
/// team's junction, are not seen. A network trained on two-player games evaluates doubles
/// positions as if they were two-player ones.
#[derive(Copy, Clone, Debug, Default)]
pub struct AbaloneFeatures;

impl AbaloneFeatures {
    /// Features a marble can switch on (61 cells, mine or theirs).
    pub const MARBLE_FEATURES: usize = 2 * Cell::COUNT;
    /// Values of one side's ejection count (0 to 6).
    pub const EJECTION_VALUES: usize = EJECTIONS_TO_WIN as usize + 1;
    /// Number of features: the marbles' and both sides' ejection counts.
    pub const LEN: usize = Self::MARBLE_FEATURES + 2 * Self::EJECTION_VALUES;
    /// The most features on at once: 14 marbles a colour and one ejection count a side.
    pub const MAX_ACTIVE: usize = 2 * MARBLES as usize + 2;
    /// Rings around E5: hex distances 0 (E5 itself) to 4 (the outer ring).
    pub const RINGS: usize = 5;
}

const _: () = assert!(AbaloneFeatures::LEN <= u16::MAX as usize);

impl SparseFeatures<Position> for AbaloneFeatures {
    fn id(&self) -> EncoderId {
        EncoderId {
            name: "abalone-marbles".into(),
            version: 1,
        }
    }

    fn num_features(&self) -> usize {
        Self::LEN
    }

    fn max_active(&self) -> usize {
        Self::MAX_ACTIVE
    }

    /// One factor per (whose marble, ring around E5): what a marble is worth at that distance
    /// from the centre, wherever on the ring it stands. The ejection counts have none.
    fn num_factors(&self) -> usize {
        2 * Self::RINGS
    }

    fn factor(&self, feature: usize) -> Option<usize> {
        if feature >= Self::MARBLE_FEATURES {
            return None;
        }
        let (whose, rank) = (feature / Cell::COUNT, feature % Cell::COUNT);
        // The viewer's half turn about E5 keeps every cell's distance to it.
        let cell = Cell::from_dense(rank)?;
        Some(whose * Self::RINGS + centre_distance(cell) as usize)
    }

    #[inline]
    fn active(&self, position: &Position, perspective: Side, out: &mut [u16]) -> usize {
        let viewer = Color::of_side(perspective);
        let mut n = 0;
        for (whose, color) in [viewer, viewer.other()].into_iter().enumerate() {
            for cell in cells(position.marbles(color)) {
                out[n] = marble_feature(whose, cell, viewer);
                n += 1;
            }
        }
        for (whose, color) in [viewer, viewer.other()].into_iter().enumerate() {
            out[n] = ejection_feature(whose, position.ejected(color));
            n += 1;
        }
        n
    }

    /// The cells whose marble changed (a diff of the two positions' bitboards, Black's then
    /// White's) and the ejection count of the side that ejected, if one did.
    #[inline]
    fn changed(
        &self,
        before: &Position,
        _mv: crate::Move,
        after: &Position,
        perspective: Side,
        off: &mut [u16],
        on: &mut [u16],
    ) -> Option<(usize, usize)> {
        let viewer = Color::of_side(perspective);
        let (mut n_off, mut n_on) = (0, 0);
        for color in Color::BOTH {
            let whose = usize::from(color != viewer);
            let (old, new) = (before.marbles(color), after.marbles(color));
            for cell in cells(old & !new) {
                off[n_off] = marble_feature(whose, cell, viewer);
                n_off += 1;
            }
            for cell in cells(new & !old) {
                on[n_on] = marble_feature(whose, cell, viewer);
                n_on += 1;
            }
        }
        for color in Color::BOTH {
            let whose = usize::from(color != viewer);
            let (old, new) = (before.ejected(color), after.ejected(color));
            if old != new {
                off[n_off] = ejection_feature(whose, old);
                on[n_on] = ejection_feature(whose, new);
                n_off += 1;
                n_on += 1;
            }
        }
        Some((n_off, n_on))
    }

    /// [`SparseFeatures::changed`] for both views, the bitboards diffed once.
    #[inline]
    fn changed_both(
        &self,
        before: &Position,
        _mv: crate::Move,
        after: &Position,
        off: [&mut [u16]; 2],
        on: [&mut [u16]; 2],
    ) -> [Option<(usize, usize)>; 2] {
        let [off_black, off_white] = off;
        let [on_black, on_white] = on;
        let (mut n_off, mut n_on) = (0, 0);
        for color in Color::BOTH {
            let (old, new) = (before.marbles(color), after.marbles(color));
            let write = |bits: Bitboard, black: &mut [u16], white: &mut [u16], n: &mut usize| {
                for cell in cells(bits) {
                    black[*n] = marble_feature(color.index(), cell, Color::Black);
                    white[*n] = marble_feature(1 - color.index(), cell, Color::White);
                    *n += 1;
                }
            };
            write(old & !new, off_black, off_white, &mut n_off);
            write(new & !old, on_black, on_white, &mut n_on);
        }
        for color in Color::BOTH {
            let (old, new) = (before.ejected(color), after.ejected(color));
            if old != new {
                let i = color.index();
                off_black[n_off] = ejection_feature(i, old);
                off_white[n_off] = ejection_feature(1 - i, old);
                on_black[n_on] = ejection_feature(i, new);
                on_white[n_on] = ejection_feature(1 - i, new);
                n_off += 1;
                n_on += 1;
            }
        }
        [Some((n_off, n_on)); 2]
    }
}

/// The feature of a marble of `whose` (0: the viewer's) on `cell`, seen from `viewer` (the
/// board turned half a turn for White).
#[inline(always)]
fn marble_feature(whose: usize, cell: Cell, viewer: Color) -> u16 {
    let rank = match viewer {
        Color::Black => cell.dense(),
        Color::White => Cell::COUNT - 1 - cell.dense(),
    };
    (whose * Cell::COUNT + rank) as u16
}

/// The feature of `whose` (0: the viewer) having ejected `ejected` marbles.
#[inline(always)]
fn ejection_feature(whose: usize, ejected: u8) -> u16 {
    let value = usize::from(ejected.min(EJECTIONS_TO_WIN));
    (AbaloneFeatures::MARBLE_FEATURES + whose * AbaloneFeatures::EJECTION_VALUES + value) as u16
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::seq::IndexedRandom;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::symmetry::Symmetry;
    use crate::{Move, Variant};

    const F: AbaloneFeatures = AbaloneFeatures;

    fn sorted(position: &Position, side: Side) -> Vec<u16> {
        let mut out = [0u16; AbaloneFeatures::MAX_ACTIVE];
        let n = F.active(position, side, &mut out);
        let mut v = out[..n].to_vec();
        v.sort_unstable();
        v
    }

    fn after(position: &Position, mv: Move) -> Position {
        let mut next = position.clone();
        next.play_unchecked(mv);
        next
    }

    fn ejections(position: &Position) -> u8 {
        position.ejected(Color::Black) + position.ejected(Color::White)
    }

    /// The positions of random games from every variant's start, `games` a variant, with an
    /// ejecting move played on every other ply where one exists (random play alone rarely
    /// ejects), so that games reach high ejection counts and their ends.
    fn positions(games: u64, plies: usize) -> Vec<Position> {
        let mut rng = ChaCha8Rng::seed_from_u64(61);
        let mut moves = Vec::new();
        let mut out = Vec::new();
        for variant in Variant::ALL {
            for _ in 0..games {
                let mut position = variant.start();
                for ply in 0..plies {
                    out.push(position.clone());
                    if position.outcome().is_some() {
                        break;
                    }
                    position.legal_moves(&mut moves);
                    let ejecting: Vec<Move> = moves
                        .iter()
                        .copied()
                        .filter(|&mv| ejections(&after(&position, mv)) > ejections(&position))
                        .collect();
                    let mv = match ejecting.choose(&mut rng) {
                        Some(&mv) if ply % 2 == 0 => mv,
                        _ => *moves.choose(&mut rng).expect("a move or the pass"),
                    };
                    position.play_unchecked(mv);
                }
            }
        }
        out
    }

    /// The features read back into a board: each on feature names a marble of the right colour
    /// on the right cell, or the right ejection count, and nothing is on twice or left out.
    #[test]
    fn active_features_are_the_marbles_and_ejection_counts() {
        let positions = positions(3, 200);
        let mut won = 0;
        for position in &positions {
            won += usize::from(position.winner().is_some());
            for side in Side::BOTH {
                let viewer = Color::of_side(side);
                let features = sorted(position, side);
                let marbles = position.occupied().count_ones() as usize;
                assert_eq!(features.len(), marbles + 2, "{position}");
                assert!(features.len() <= AbaloneFeatures::MAX_ACTIVE);
                assert!(features.windows(2).all(|w| w[0] < w[1]), "{position}");
                let mut seen = [0 as Bitboard; 2];
                let mut ejected = [None; 2];
                for &f in &features {
                    let f = usize::from(f);
                    assert!(f < F.num_features(), "{f}");
                    if f < AbaloneFeatures::MARBLE_FEATURES {
                        let (whose, rank) = (f / Cell::COUNT, f % Cell::COUNT);
                        let color = if whose == 0 { viewer } else { viewer.other() };
                        let rank = if viewer == Color::White {
                            60 - rank
                        } else {
                            rank
                        };
                        seen[color.index()] |= Cell::from_dense(rank).unwrap().bit();
                    } else {
                        let g = f - AbaloneFeatures::MARBLE_FEATURES;
                        let (whose, value) = (
                            g / AbaloneFeatures::EJECTION_VALUES,
                            g % AbaloneFeatures::EJECTION_VALUES,
                        );
                        let color = if whose == 0 { viewer } else { viewer.other() };
                        assert!(ejected[color.index()].replace(value).is_none());
                    }
                }
                for color in Color::BOTH {
                    assert_eq!(seen[color.index()], position.marbles(color), "{position}");
                    let count = usize::from(position.ejected(color));
                    assert_eq!(ejected[color.index()], Some(count), "{position}");
                }
            }
        }
        assert!(positions.len() > 2_000, "{}", positions.len());
        assert!(
            won > 0,
            "no game won: the ejection counts were not all reached"
        );
    }

    /// The features of a position after a move, computed two ways: in full, and as those
    /// before it with the move's changes applied; and both views at once giving each view's
    /// changes in the same order. Every legal move of positions from games of every variant,
    /// both points of view, ejecting moves among them.
    #[test]
    fn changes_applied_give_the_features_after_the_move() {
        const L: usize = AbaloneFeatures::MAX_ACTIVE;
        let mut moves = Vec::new();
        let (mut checked, mut ejecting, mut winning) = (0, 0, 0);
        for position in &positions(2, 200) {
            if position.outcome().is_some() {
                continue;
            }
            position.legal_moves(&mut moves);
            for &mv in &moves {
                let next = after(position, mv);
                ejecting += usize::from(ejections(&next) > ejections(position));
                winning += usize::from(next.winner().is_some());
                let mut both = [[[0u16; L]; 2]; 2];
                let [off_both, on_both] = &mut both;
                let [o0, o1] = off_both;
                let [n0, n1] = on_both;
                let counts = F.changed_both(position, mv, &next, [o0, o1], [n0, n1]);
                for side in Side::BOTH {
                    let (mut off, mut on) = ([0u16; L], [0u16; L]);
                    let (a, b) = F
                        .changed(position, mv, &next, side, &mut off, &mut on)
                        .unwrap();
                    let i = side.index();
                    assert_eq!(counts[i], Some((a, b)), "{position} {mv}");
                    assert_eq!(both[0][i][..a], off[..a], "{position} {mv}");
                    assert_eq!(both[1][i][..b], on[..b], "{position} {mv}");
                    let mut features = sorted(position, side);
                    for x in &off[..a] {
                        let i = features.iter().position(|y| y == x).expect("switched off");
                        features.remove(i);
                    }
                    features.extend_from_slice(&on[..b]);
                    features.sort_unstable();
                    assert_eq!(features, sorted(&next, side), "{position} {mv} {side:?}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 20_000, "{checked}");
        assert!(ejecting > 100, "{ejecting}");
        assert!(winning > 0, "{winning}");
    }

    /// White's view of a position is Black's view of the position with the colours swapped and
    /// the board turned half a turn ([`Position::flipped`]), and the other way round; a board
    /// symmetry other than the half turn changes Black's view unless the board is symmetric.
    #[test]
    fn the_two_views_are_mirror_images() {
        let mut changed_by_mirror = 0;
        for position in positions(2, 120) {
            let flipped = position.flipped();
            assert_eq!(
                Symmetry::HALF_TURN.map_position(&flipped.color_swapped()),
                position
            );
            assert_eq!(
                sorted(&position, Side::Second),
                sorted(&flipped, Side::First),
                "{position}"
            );
            assert_eq!(
                sorted(&position, Side::First),
                sorted(&flipped, Side::Second),
                "{position}"
            );
            let mirrored = Symmetry::MIRROR.map_position(&position);
            if Color::BOTH.map(|c| mirrored.marbles(c)) != Color::BOTH.map(|c| position.marbles(c))
            {
                assert_ne!(
                    sorted(&mirrored, Side::First),
                    sorted(&position, Side::First)
                );
                changed_by_mirror += 1;
            }
        }
        assert!(changed_by_mirror > 100, "{changed_by_mirror}");
    }

    /// The start of the standard game from each side: the viewer's fourteen marbles on the
    /// first fourteen cells (rows A and B, three of row C), no ejections.
    #[test]
    fn each_side_sees_its_marbles_on_the_near_rows_at_the_start() {
        let start = Variant::Standard.start();
        for side in Side::BOTH {
            let features = sorted(&start, side);
            let mine: Vec<u16> = features.iter().copied().filter(|&f| f < 61).collect();
            let near: Vec<u16> = (0..11).chain(13..16).collect();
            assert_eq!(mine, near, "{side:?}");
            let m = AbaloneFeatures::MARBLE_FEATURES as u16;
            assert_eq!(features[features.len() - 2..], [m, m + 7]);
        }
    }

    /// Each marble feature's factor is its owner and its ring, the ring found by walking from
    /// E5 one step at a time (not by the distance formula): the rings hold 1, 6, 12, 18 and 24
    /// cells for each owner, and the ejection counts have no factor.
    #[test]
    fn marble_factors_are_owner_and_ring() {
        use crate::geometry::Direction;
        let mut steps = [usize::MAX; Cell::COUNT];
        steps[Cell::CENTRE.dense()] = 0;
        let mut frontier = vec![Cell::CENTRE];
        for ring in 1.. {
            let mut next = Vec::new();
            for cell in frontier {
                for dir in Direction::ALL {
                    if let Some(n) = cell.step(dir).filter(|n| steps[n.dense()] == usize::MAX) {
                        steps[n.dense()] = ring;
                        next.push(n);
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            frontier = next;
        }
        assert_eq!(F.num_factors(), 10);
        let mut sizes = [0usize; 10];
        for f in 0..F.num_features() {
            match F.factor(f) {
                Some(c) => {
                    assert!(f < AbaloneFeatures::MARBLE_FEATURES, "{f}");
                    assert_eq!(c, f / 61 * 5 + steps[f % 61], "{f}");
                    sizes[c] += 1;
                }
                None => assert!(f >= AbaloneFeatures::MARBLE_FEATURES, "{f}"),
            }
        }
        assert_eq!(sizes, [1, 6, 12, 18, 24, 1, 6, 12, 18, 24]);
    }
}
