//! Zobrist keys, generated at compile time by SplitMix64 from a fixed seed (stable forever).

use crate::piece::Color;

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// Keys per cell: colour (2) x top role (4) x bottom (none or one of 4 roles).
const PIECES: usize = 2 * 4 * 5;

const KEYS: ([[u64; PIECES]; 45], u64, [u64; 256]) = {
    let mut state = 0x5049_4A45_5253_4921; // "PIJERSI!"
    let mut pieces = [[0; PIECES]; 45];
    let mut i = 0;
    while i < 45 {
        let mut p = 0;
        while p < PIECES {
            let (s, k) = splitmix(state);
            state = s;
            pieces[i][p] = k;
            p += 1;
        }
        i += 1;
    }
    let (s, black) = splitmix(state);
    state = s;
    let mut halfmove = [0; 256];
    let mut h = 1; // counter 0 has key 0
    while h < 256 {
        let (s, k) = splitmix(state);
        state = s;
        halfmove[h] = k;
        h += 1;
    }
    (pieces, black, halfmove)
};

/// Key of a piece: `bottom` is 0 for a single cube, 1 + role index for a stack.
#[inline(always)]
pub(crate) fn piece_key(cell: usize, color: usize, top: usize, bottom: usize) -> u64 {
    KEYS.0[cell][(color * 4 + top) * 5 + bottom]
}

/// Key of the side to move (0 for White).
#[inline(always)]
pub(crate) fn side_key(side: Color) -> u64 {
    match side {
        Color::White => 0,
        Color::Black => KEYS.1,
    }
}

/// Key of the half-move counter (0 for a counter of 0).
#[inline(always)]
pub(crate) fn halfmove_key(halfmove: u8) -> u64 {
    KEYS.2[halfmove as usize]
}
