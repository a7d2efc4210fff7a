//! The Abalone evaluation for alpha-beta search: the classic terms of Abalone programs as named
//! weights, read from a TOML config (`configs/alphabeta-abalone.toml`).
//!
//! Every term is a handful of popcounts on the position's bitboards; no move is generated. The
//! terms, for each colour, the side to move's minus the opponent's:
//!
//! | term | counts | weight |
//! |---|---|---|
//! | material | marbles the colour has ejected | [`AbaloneWeights::marble`] |
//! | danger | own marbles the other colour could push off with one move | [`AbaloneWeights::danger`] |
//! | centre | sum of own marbles' hex distances to E5 | [`AbaloneWeights::centre`] |
//! | cohesion | pairs of neighbouring own marbles | [`AbaloneWeights::cohesion`] |
//! | edge | own marbles on the outer ring | [`AbaloneWeights::edge`] |
//!
//! and the difference shrinks towards 0 as the draw counter runs out
//! ([`AbaloneWeights::draw_counter`]).

use std::path::Path;

use pjlab_core::Heuristic;
use serde::{Deserialize, Serialize};

use crate::geometry::{ALL_CELLS, Bitboard, Cell, Direction, shift, shift_by};
use crate::position::{EJECTIONS_TO_WIN, Mode};
use crate::{Color, Error, Move, Position};

/// Weights of the Abalone evaluation, in centi-units: one marble ejected is worth 100 by
/// default. Every key may be left out of the config file: its default holds.
///
/// The defaults come from short alpha-beta matches (depth 3, 48 games a pair from randomised
/// openings of the three two-player starts) between weight sets differing in one key: centre
/// control is worth most (10 a step beat 3 a step by about 80%, and held its own against 6, 8
/// and 14); the danger term did best around 15 (quiescence already searches the pushes); the
/// cohesion and edge terms made little difference either way at these depths.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AbaloneWeights {
    /// Per marble ejected: added for the side's own ejections, subtracted for the opponent's
    /// (in a game from a start layout this is the difference of marbles on the board).
    pub marble: i32,
    /// Per own marble that the opponent could push off the board with one move of its next
    /// seat (a 2-on-1 or 3-on-1 push of an edge marble, or a 3-on-2 push ending on the edge);
    /// subtracted, and the opponent's count added.
    pub danger: i32,
    /// Per step of hex distance to E5, summed over the side's marbles (0 at E5, 4 on the outer
    /// ring, 5 for a marble lost); subtracted: lower is better. With the defaults a marble
    /// pushed off the edge costs its side `100 + 10 - 4` (material, one more step, one edge
    /// marble fewer) in the static score.
    pub centre: i32,
    /// Per pair of neighbouring own marbles (each touching pair once).
    pub cohesion: i32,
    /// Per own marble on the outer ring (the 24 cells where a marble can be pushed off);
    /// subtracted. It comes on top of that marble's 4 steps of `centre`.
    pub edge: i32,
    /// Percent of the score lost as the draw counter runs out: the score is scaled by
    /// `1 - draw_counter / 100 * quiet_plies / no_ejection_plies` (0 to 100; no scaling when the
    /// rules have no draw counter).
    pub draw_counter: i32,
}

impl Default for AbaloneWeights {
    fn default() -> Self {
        AbaloneWeights {
            marble: 100,
            danger: 15,
            centre: 10,
            cohesion: 2,
            edge: 4,
            draw_counter: 50,
        }
    }
}

/// The `[abalone]` table of an evaluation config file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EvalConfig {
    /// Abalone weights.
    pub abalone: AbaloneWeights,
}

impl AbaloneWeights {
    /// Reads the `[abalone]` table of a TOML file.
    ///
    /// # Errors
    /// [`Error::EvalConfig`] when the file cannot be read, is not TOML, has unknown keys or a
    /// value of the wrong type.
    pub fn from_file(path: &Path) -> Result<AbaloneWeights, Error> {
        Ok(pjlab_core::weights::read::<EvalConfig>(path)?.abalone)
    }

    /// Parses the `[abalone]` table of a TOML document.
    ///
    /// # Errors
    /// As [`AbaloneWeights::from_file`].
    pub fn from_toml(text: &str) -> Result<AbaloneWeights, Error> {
        Ok(pjlab_core::weights::parse::<EvalConfig>(text, "<text>".into())?.abalone)
    }
}

/// Hex distance of a cell to E5: the largest of `|x|`, `|y|`, `|x - y|` with `x = d - 4`,
/// `y = r - 4`.
pub(crate) const fn centre_distance(cell: Cell) -> u32 {
    let x = cell.diagonal() as i32 - 4;
    let y = cell.row() as i32 - 4;
    let mut d = x.unsigned_abs();
    if y.unsigned_abs() > d {
        d = y.unsigned_abs();
    }
    if (x - y).unsigned_abs() > d {
        d = (x - y).unsigned_abs();
    }
    d
}

/// `AT_LEAST[k - 1]`: the cells at hex distance `k` or more from E5, for `k` = 1..=4. The sum of
/// distances of a set is the sum of its popcounts in these four masks.
const AT_LEAST: [Bitboard; 4] = {
    let mut masks = [0; 4];
    let mut bit = 0;
    while bit < 81 {
        if let Some(cell) = Cell::from_bit_index(bit) {
            let d = centre_distance(cell);
            let mut k = 1;
            while k <= d {
                masks[k as usize - 1] |= cell.bit();
                k += 1;
            }
        }
        bit += 1;
    }
    masks
};

/// The outer ring: the 24 cells at distance 4 from E5, where a marble can be pushed off.
pub const OUTER_RING: Bitboard = AT_LEAST[3];

/// `EDGE[dir]`: the cells whose neighbour in direction `dir` is off the board.
const EDGE: [Bitboard; 6] = {
    let mut masks = [0; 6];
    let mut i = 0;
    while i < 6 {
        let dir = Direction::ALL[i];
        masks[i] = ALL_CELLS & !shift(ALL_CELLS, dir.opposite());
        i += 1;
    }
    masks
};

/// Sum of the hex distances to E5 of the cells of `bits`.
#[inline]
pub fn centre_distance_sum(bits: Bitboard) -> u32 {
    AT_LEAST.iter().map(|&m| (bits & m).count_ones()).sum()
}

/// Pairs of neighbouring cells of `bits` (each pair once).
#[inline]
pub fn neighbour_pairs(bits: Bitboard) -> u32 {
    // Two cells of the board whose bits are a step apart are neighbours (geometry.rs), so an
    // unmasked shift intersected with the set counts exactly the pairs along each axis.
    Direction::AXES
        .iter()
        .map(|axis| (bits & shift_by(bits, axis.step())).count_ones())
        .sum()
}

/// The marbles of `defenders` that a seat moving `attackers` could push off the board with one
/// move (`defenders` all of one colour, `attackers` the marbles the other colour's seat may
/// move).
///
/// A marble `v` on the edge in direction `dir` goes off when the two cells behind it hold
/// attackers (2 on 1; a third attacker behind changes nothing), or when the cell behind it holds
/// a defender and the three behind that attackers (3 on 2). A 3-on-1 push needs the 2-on-1
/// pattern already.
#[inline]
pub fn ejectable(defenders: Bitboard, attackers: Bitboard) -> Bitboard {
    let mut out = 0;
    for dir in Direction::ALL {
        let s = dir.step();
        // Cells `k` steps ahead of the cells of `bits` (unmasked: every chain below is
        // intersected with cells of the board at each step).
        let ahead = |bits: Bitboard, k: i32| shift_by(bits, k * s);
        let edge = defenders & EDGE[dir.index()];
        let pair_behind = ahead(attackers, 1) & ahead(attackers, 2);
        let three_on_two =
            ahead(defenders, 1) & ahead(attackers, 2) & ahead(attackers, 3) & ahead(attackers, 4);
        out |= edge & (pair_behind | three_on_two);
    }
    out
}

/// Ejection danger of `position`: for each colour, its marbles the other colour's next seat to
/// move could push off with one move, were it that seat's turn. In the two-player game and
/// after a colour's junction the attackers are all of its marbles; before the junction, those
/// labelled with the seat of that colour that moves next (the mover's own seat for the colour
/// to move).
pub fn exposed(position: &Position, color: Color) -> Bitboard {
    let attacker = color.other();
    let attackers = match position.rules().mode {
        Mode::Doubles(order) if !position.junction(attacker) => {
            let seat = if attacker == position.color_to_move() {
                position.seat()
            } else {
                order.next(position.seat())
            };
            position.seat_marbles(seat)
        }
        _ => position.marbles(attacker),
    };
    ejectable(position.marbles(color), attackers)
}

/// What an in-line move does to the opponents: how many it pushes and whether the last one
/// leaves the board. `None` for a move that pushes nothing. Meant for legal moves.
#[inline]
fn push_of(position: &Position, mv: Move) -> Option<(u32, bool)> {
    let Move::Inline { trailing, dir } = mv else {
        return None;
    };
    let me = position.color_to_move();
    let own = position.marbles(me);
    let opp = position.marbles(me.other());
    let mut cell = trailing.bit();
    let mut run = 0;
    while cell & own != 0 && run < 3 {
        cell = shift(cell, dir);
        run += 1;
    }
    if cell & opp == 0 {
        return None;
    }
    let mut pushed = 0;
    while cell & opp != 0 {
        cell = shift(cell, dir);
        pushed += 1;
    }
    Some((pushed, cell == 0))
}

/// The Abalone [`Heuristic`]: material, ejection danger, centre distance, cohesion and edge
/// exposure, for the side to move (the team in doubles), scaled by the draw counter.
///
/// Tactical moves are the pushes (every ejection is one); ejections are ordered first, the
/// winning sixth before the others.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AbaloneEval {
    /// The weights.
    pub weights: AbaloneWeights,
}

impl AbaloneEval {
    /// An evaluation with these weights.
    pub fn new(weights: AbaloneWeights) -> AbaloneEval {
        AbaloneEval { weights }
    }

    /// Score of `color`'s side of the board alone (no draw scaling).
    #[inline]
    fn side_score(&self, position: &Position, color: Color) -> i32 {
        let w = &self.weights;
        let own = position.marbles(color);
        let mut score = w.marble * i32::from(position.ejected(color));
        // Marbles lost count as one step beyond the edge, so an ejection never helps the
        // victim's centre term.
        let lost = 5 * u32::from(position.ejected(color.other()));
        score -= w.centre * (centre_distance_sum(own) + lost) as i32;
        score += w.cohesion * neighbour_pairs(own) as i32;
        score -= w.edge * (own & OUTER_RING).count_ones() as i32;
        if w.danger != 0 && own & OUTER_RING != 0 {
            score -= w.danger * exposed(position, color).count_ones() as i32;
        }
        score
    }

    /// The unscaled score for the side to move: its side's terms minus the opponent's.
    pub fn raw_score(&self, position: &Position) -> i32 {
        let me = position.color_to_move();
        self.side_score(position, me) - self.side_score(position, me.other())
    }
}

impl Heuristic<Position> for AbaloneEval {
    fn evaluate(&self, position: &Position) -> i32 {
        let raw = self.raw_score(position);
        match position.rules().no_ejection_plies {
            Some(limit) if limit > 0 && self.weights.draw_counter != 0 => {
                let limit = i64::from(limit);
                let quiet = i64::from(position.quiet_plies()).min(limit);
                let pct = i64::from(self.weights.draw_counter.clamp(0, 100));
                let keep = 100 * limit - pct * quiet;
                (i64::from(raw) * keep / (100 * limit)) as i32
            }
            _ => raw,
        }
    }

    /// A push of at least one opponent marble (ejections included).
    #[inline]
    fn is_tactical(&self, position: &Position, mv: Move) -> bool {
        push_of(position, mv).is_some()
    }

    fn retain_tactical(&self, position: &Position, moves: &mut Vec<Move>) {
        let pushes = Pushes::new(position);
        moves.retain(|&mv| pushes.contains(mv));
    }

    /// The winning ejection, then other ejections, then pushes of two, then of one.
    fn tactical_order(&self, position: &Position, mv: Move) -> i32 {
        match push_of(position, mv) {
            Some((_, true))
                if position.ejected(position.color_to_move()) + 1 >= EJECTIONS_TO_WIN =>
            {
                1 << 20
            }
            Some((pushed, true)) => (1 << 10) + pushed as i32,
            Some((pushed, false)) => pushed as i32,
            None => 0,
        }
    }
}

/// The trailing marbles of every push of the seat to move, by direction: computed once for all
/// of a position's moves (quiescence's filter), with the move generator's bitboard expressions.
struct Pushes {
    trailing: [Bitboard; 6],
}

impl Pushes {
    #[inline]
    fn new(position: &Position) -> Pushes {
        let me = position.color_to_move();
        let own = position.movable();
        let opp = position.marbles(me.other());
        let occupied = position.occupied();
        let trailing = Direction::ALL.map(|dir| {
            let s = -dir.step();
            // Cells whose `k`-th neighbour in `dir` is in `bits`.
            let n = |bits: Bitboard, k: i32| shift_by(bits, k * s);
            let two = own & n(own, 1);
            let three = two & n(own, 2);
            let opp3 = three & n(opp, 3);
            (two & n(opp, 2) & !n(occupied, 3))
                | (opp3 & !n(occupied, 4))
                | (opp3 & n(opp, 4) & !n(occupied, 5))
        });
        Pushes { trailing }
    }

    #[inline]
    fn contains(&self, mv: Move) -> bool {
        match mv {
            Move::Inline { trailing, dir } => self.trailing[dir.index()] & trailing.bit() != 0,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rings_and_edges() {
        assert_eq!(OUTER_RING.count_ones(), 24);
        assert_eq!(AT_LEAST[0].count_ones(), 60);
        assert_eq!(centre_distance_sum(ALL_CELLS), 6 + 2 * 12 + 3 * 18 + 4 * 24);
        for dir in Direction::ALL {
            // Each side of the hexagon has 5 cells; a direction leaves it across two sides.
            assert_eq!(EDGE[dir.index()].count_ones(), 9, "{dir:?}");
            assert_eq!(EDGE[dir.index()] & !OUTER_RING, 0);
        }
        for cell in Cell::all() {
            let ring = cell.bit() & OUTER_RING != 0;
            assert_eq!(ring, Direction::ALL.iter().any(|&d| cell.step(d).is_none()));
        }
        // Neighbouring pairs of the whole board: 3 axes of lines 5, 6, 7, 8, 9, 8, 7, 6, 5.
        assert_eq!(neighbour_pairs(ALL_CELLS), 3 * 52);
    }
}
