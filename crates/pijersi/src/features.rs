//! Pijersi as an efficiently updatable evaluation sees it: [`PijersiFeatures`].

use pjlab_core::{EncoderId, Side, SparseFeatures};

use crate::geometry::bits;
use crate::{Cell, Color, Move, Piece, Position, Role};

/// One binary feature per (cell, whose piece, top role, bottom role or none) and one per value
/// of the draw counter, seen from one side (version 1).
///
/// Seen from Black the board is turned half a turn (cell `i` becomes `44 - i`), so that the
/// side whose view it is always plays upwards, as [`Position::from_mover`] does. A piece on a
/// cell is feature `cell * 40 + whose * 20 + top * 5 + bottom`, with `whose` 0 for the
/// viewer's pieces and 1 for the other side's, roles in [`Role::ALL`] order and `bottom` 0 for
/// a single cube, `1 + role` for a stack's bottom cube; then feature `1800 + min(halfmove, 19)`.
/// At most 14 pieces a side, so at most 29 features are on.
#[derive(Copy, Clone, Debug, Default)]
pub struct PijersiFeatures;

impl PijersiFeatures {
    /// Features a piece can switch on (45 cells times 40 kinds).
    pub const PIECE_FEATURES: usize = Cell::COUNT * 40;
    /// Number of features: the pieces' and the 20 values of the draw counter.
    pub const LEN: usize = Self::PIECE_FEATURES + 20;
    /// The most features on at once.
    pub const MAX_ACTIVE: usize = 29;
}

impl SparseFeatures<Position> for PijersiFeatures {
    fn id(&self) -> EncoderId {
        EncoderId {
            name: "pijersi-pieces".into(),
            version: 1,
        }
    }

    fn num_features(&self) -> usize {
        Self::LEN
    }

    fn max_active(&self) -> usize {
        Self::MAX_ACTIVE
    }

    /// One factor per kind of piece (whose, top and bottom role) on any cell: what a piece is
    /// worth wherever it stands.
    fn num_factors(&self) -> usize {
        40
    }

    fn factor(&self, feature: usize) -> Option<usize> {
        (feature < Self::PIECE_FEATURES).then_some(feature % 40)
    }

    #[inline]
    fn active(&self, position: &Position, perspective: Side, out: &mut [u16]) -> usize {
        let viewer = match perspective {
            Side::First => Color::White,
            Side::Second => Color::Black,
        };
        let turn = viewer == Color::Black;
        let stacks = position.stacks();
        let mut n = 0;
        for (whose, color) in [viewer, viewer.other()].into_iter().enumerate() {
            let mine = position.pieces(color);
            for (t, role) in Role::ALL.into_iter().enumerate() {
                let tops = mine & position.tops(role);
                if tops == 0 {
                    continue;
                }
                let base = whose * 20 + t * 5;
                for cell in bits(tops & !stacks) {
                    out[n] = feature(cell, turn, base);
                    n += 1;
                }
                let stacked = tops & stacks;
                if stacked == 0 {
                    continue;
                }
                for (b, bottom) in Role::ALL.into_iter().enumerate() {
                    for cell in bits(stacked & position.bottoms(bottom)) {
                        out[n] = feature(cell, turn, base + 1 + b);
                        n += 1;
                    }
                }
            }
        }
        out[n] = halfmove_feature(position);
        n + 1
    }

    /// A move changes its start, middle and end cells (a capture removes what stood on the
    /// middle or end cell) and the draw counter.
    #[inline]
    fn changed(
        &self,
        before: &Position,
        mv: Move,
        after: &Position,
        perspective: Side,
        off: &mut [u16],
        on: &mut [u16],
    ) -> Option<(usize, usize)> {
        let viewer = match perspective {
            Side::First => Color::White,
            Side::Second => Color::Black,
        };
        let (mut n_off, mut n_on) = (0, 0);
        // The end cell may be the start cell again (there and back), so each cell once.
        let (start, end) = (mv.start(), mv.end());
        let middle = mv.middle().filter(|&m| m != start && m != end);
        let end = (end != start).then_some(end);
        for cell in [Some(start), middle, end].into_iter().flatten() {
            let (old, new) = (
                cell_feature(before, cell, viewer),
                cell_feature(after, cell, viewer),
            );
            if old == new {
                continue;
            }
            if let Some(f) = old {
                off[n_off] = f;
                n_off += 1;
            }
            if let Some(f) = new {
                on[n_on] = f;
                n_on += 1;
            }
        }
        let (old, new) = (halfmove_feature(before), halfmove_feature(after));
        if old != new {
            off[n_off] = old;
            on[n_on] = new;
            n_off += 1;
            n_on += 1;
        }
        Some((n_off, n_on))
    }

    /// The cells and the draw counter as [`SparseFeatures::changed`] reads them, each cell
    /// read once for both views.
    #[inline]
    fn changed_both(
        &self,
        before: &Position,
        mv: Move,
        after: &Position,
        off: [&mut [u16]; 2],
        on: [&mut [u16]; 2],
    ) -> [Option<(usize, usize)>; 2] {
        let [off_white, off_black] = off;
        let [on_white, on_black] = on;
        let (mut n_off, mut n_on) = (0, 0);
        let (start, end) = (mv.start(), mv.end());
        let middle = mv.middle().filter(|&m| m != start && m != end);
        let end = (end != start).then_some(end);
        for cell in [Some(start), middle, end].into_iter().flatten() {
            let i = cell.index();
            let (old, new) = (cell_code(before, i), cell_code(after, i));
            if old == new {
                continue;
            }
            if old != 0 {
                off_white[n_off] = feature(i, false, old - 1);
                off_black[n_off] = feature(i, true, (old - 1 + 20) % 40);
                n_off += 1;
            }
            if new != 0 {
                on_white[n_on] = feature(i, false, new - 1);
                on_black[n_on] = feature(i, true, (new - 1 + 20) % 40);
                n_on += 1;
            }
        }
        let (old, new) = (halfmove_feature(before), halfmove_feature(after));
        if old != new {
            off_white[n_off] = old;
            off_black[n_off] = old;
            on_white[n_on] = new;
            on_black[n_on] = new;
            n_off += 1;
            n_on += 1;
        }
        [Some((n_off, n_on)); 2]
    }
}

#[inline(always)]
fn halfmove_feature(position: &Position) -> u16 {
    (PijersiFeatures::PIECE_FEATURES + usize::from(position.halfmove().min(19))) as u16
}

/// What stands on cell `i` as one number, read from the bitboards without branching: 0 for
/// nothing, else 1 plus the piece's kind seen from White (`whose * 20 + top * 5 + bottom`,
/// as [`piece_feature`] numbers them); the kind seen from Black is `(kind + 20) % 40`.
#[inline(always)]
fn cell_code(position: &Position, i: usize) -> usize {
    let bit = |b: u64| ((b >> i) & 1) as usize;
    let black = bit(position.colors[1]);
    let occupied = bit(position.colors[0]) | black;
    let role = |b: &[u64; 4]| bit(b[1]) + 2 * bit(b[2]) + 3 * bit(b[3]);
    let b = &position.bottoms;
    let stacked = bit(b[0] | b[1] | b[2] | b[3]);
    let bottom = stacked * (1 + role(b));
    occupied * (1 + black * 20 + role(&position.tops) * 5 + bottom)
}

/// The feature of what stands on `cell`, seen from `viewer`, if anything does.
#[inline]
fn cell_feature(position: &Position, cell: Cell, viewer: Color) -> Option<u16> {
    Some(piece_feature(cell, position.piece_at(cell)?, viewer))
}

/// The feature of `piece` on `cell`, seen from `viewer`.
#[inline(always)]
fn piece_feature(cell: Cell, piece: Piece, viewer: Color) -> u16 {
    let whose = usize::from(piece.color != viewer);
    let bottom = piece.bottom.map_or(0, |b| 1 + b as usize);
    let kind = whose * 20 + piece.top as usize * 5 + bottom;
    feature(cell.index(), viewer == Color::Black, kind)
}

#[inline(always)]
fn feature(cell: usize, turn: bool, kind: usize) -> u16 {
    let cell = if turn { Cell::COUNT - 1 - cell } else { cell };
    (cell * 40 + kind) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The features from Black's view of a position are those from White's view of the
    /// flipped position (turned half a turn, colours swapped).
    #[test]
    fn the_two_views_agree_with_the_flip() {
        let mut position = crate::classic();
        let mut moves = Vec::new();
        let f = PijersiFeatures;
        for ply in 0..40 {
            let flipped = position.flipped();
            let mut a = [0u16; PijersiFeatures::MAX_ACTIVE];
            let mut b = [0u16; PijersiFeatures::MAX_ACTIVE];
            let na = f.active(&position, Side::Second, &mut a);
            let nb = f.active(&flipped, Side::First, &mut b);
            let (mut a, mut b) = (a[..na].to_vec(), b[..nb].to_vec());
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "ply {ply}");
            assert_eq!(
                na,
                position.pieces(Color::White).count_ones() as usize
                    + position.pieces(Color::Black).count_ones() as usize
                    + 1
            );
            position.legal_moves(&mut moves);
            if moves.is_empty() || position.outcome().is_some() {
                break;
            }
            position.play_unchecked(moves[(ply * 7) % moves.len()]);
        }
    }

    fn sorted(f: &PijersiFeatures, position: &Position, side: Side) -> Vec<u16> {
        let mut out = [0u16; PijersiFeatures::MAX_ACTIVE];
        let n = f.active(position, side, &mut out);
        let mut v = out[..n].to_vec();
        v.sort_unstable();
        v
    }

    /// The features of a position after a move, computed two ways: in full, and as those
    /// before it with the move's changes applied. Every legal move of positions from games
    /// from classic and random setups, both points of view.
    #[test]
    fn changes_applied_give_the_features_after_the_move() {
        use rand::SeedableRng;
        use rand::seq::IndexedRandom;
        let f = PijersiFeatures;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        let mut moves = Vec::new();
        let mut checked = 0;
        for seed in 0..6 {
            let variant = [crate::Variant::Classic, crate::Variant::FullRandom][seed % 2];
            let mut position = variant.setup(seed as u64);
            for _ in 0..80 {
                if position.outcome().is_some() {
                    break;
                }
                position.legal_moves(&mut moves);
                for &mv in &moves {
                    let after = position.after(mv);
                    for side in Side::BOTH {
                        let mut off = [0u16; PijersiFeatures::MAX_ACTIVE];
                        let mut on = [0u16; PijersiFeatures::MAX_ACTIVE];
                        let (a, b) = f
                            .changed(&position, mv, &after, side, &mut off, &mut on)
                            .unwrap();
                        // Both views at once: the same features in the same order.
                        let mut both = [[[0u16; PijersiFeatures::MAX_ACTIVE]; 2]; 2];
                        let [off_both, on_both] = &mut both;
                        let [o0, o1] = off_both;
                        let [n0, n1] = on_both;
                        let counts = f.changed_both(&position, mv, &after, [o0, o1], [n0, n1]);
                        let i = side.index();
                        assert_eq!(counts[i], Some((a, b)), "{position} {mv}");
                        assert_eq!(both[0][i][..a], off[..a], "{position} {mv}");
                        assert_eq!(both[1][i][..b], on[..b], "{position} {mv}");
                        let mut features = sorted(&f, &position, side);
                        for x in &off[..a] {
                            let i = features.iter().position(|y| y == x).expect("switched off");
                            features.remove(i);
                        }
                        features.extend_from_slice(&on[..b]);
                        features.sort_unstable();
                        assert_eq!(features, sorted(&f, &after, side), "{position} {mv}");
                        checked += 1;
                    }
                }
                position.play_unchecked(*moves.choose(&mut rng).unwrap());
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
