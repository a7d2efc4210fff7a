//! The Pijersi evaluation for alpha-beta search: named weights, read from a TOML config
//! (`configs/alphabeta.toml`).

use std::path::Path;

use pjlab_core::Heuristic;
use serde::{Deserialize, Serialize};

use crate::geometry::{ROW_LEN, ROW_START, adjacent};
use crate::{Bitboard, Color, Error, Move, Position, Role};

/// Weights of the Pijersi evaluation, all in centi-units (a rock cube is worth 100 by default)
/// unless stated otherwise. Every key may be left out of the config file: its default holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PijersiWeights {
    /// Value of a rock cube, on the board alone or in a stack.
    pub rock: i32,
    /// Value of a paper cube.
    pub paper: i32,
    /// Value of a scissors cube.
    pub scissors: i32,
    /// Value of a wise cube.
    pub wise: i32,
    /// Per fighter-topped piece, per row it stands beyond its home row.
    pub advancement: i32,
    /// Extra per fighter-topped piece on the row next to its goal row (one step from winning).
    pub near_goal: i32,
    /// Per enemy piece that an own piece could capture with a one-cell move.
    pub threat: i32,
    /// Per own stack (stacks move two cells and protect their bottom cube).
    pub stack: i32,
    /// Percent of the score kept away from zero lost as the 20-turn counter runs out: the
    /// score is scaled by `1 - draw_counter / 100 * halfmove / 20` (0 to 100).
    pub draw_counter: i32,
}

impl Default for PijersiWeights {
    fn default() -> Self {
        PijersiWeights {
            rock: 100,
            paper: 100,
            scissors: 100,
            wise: 80,
            advancement: 6,
            near_goal: 30,
            threat: 12,
            stack: 8,
            draw_counter: 50,
        }
    }
}

/// The `[pijersi]` table of an evaluation config file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EvalConfig {
    /// Pijersi weights.
    pub pijersi: PijersiWeights,
}

impl PijersiWeights {
    /// Reads the `[pijersi]` table of a TOML file.
    ///
    /// # Errors
    /// [`Error::EvalConfig`] when the file cannot be read, is not TOML, has unknown keys or a
    /// value of the wrong type.
    pub fn from_file(path: &Path) -> Result<PijersiWeights, Error> {
        Ok(pjlab_core::weights::read::<EvalConfig>(path)?.pijersi)
    }

    /// Parses the `[pijersi]` table of a TOML document.
    ///
    /// # Errors
    /// As [`PijersiWeights::from_file`].
    pub fn from_toml(text: &str) -> Result<PijersiWeights, Error> {
        Ok(pjlab_core::weights::parse::<EvalConfig>(text, "<text>".into())?.pijersi)
    }

    fn role(&self, role: Role) -> i32 {
        match role {
            Role::Rock => self.rock,
            Role::Paper => self.paper,
            Role::Scissors => self.scissors,
            Role::Wise => self.wise,
        }
    }
}

/// The Pijersi [`Heuristic`]: material, advancement, threats, stacks, scaled by the draw counter.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PijersiEval {
    /// The weights.
    pub weights: PijersiWeights,
}

impl PijersiEval {
    /// An evaluation with these weights.
    pub fn new(weights: PijersiWeights) -> PijersiEval {
        PijersiEval { weights }
    }

    /// Score of `color`'s side of the board alone (no draw scaling).
    fn side_score(&self, position: &Position, color: Color) -> i32 {
        let w = &self.weights;
        let mine = position.pieces(color);
        let theirs = position.pieces(color.other());
        let mut score = 0;
        for role in Role::ALL {
            let tops = (mine & position.tops(role)).count_ones() as i32;
            let bottoms = (mine & position.bottoms(role)).count_ones() as i32;
            score += w.role(role) * (tops + bottoms);
        }
        let fighters = mine & !position.tops(Role::Wise);
        for row in 0..7 {
            let n = (fighters & row_mask(row)).count_ones() as i32;
            let advanced = match color {
                Color::White => row as i32,
                Color::Black => 6 - row as i32,
            };
            score += w.advancement * advanced * n;
        }
        let near = match color {
            Color::White => row_mask(5),
            Color::Black => row_mask(1),
        };
        score += w.near_goal * (fighters & near).count_ones() as i32;
        for role in Role::FIGHTERS {
            let Some(prey) = role.prey() else { continue };
            let attackers = mine & position.tops(role);
            if attackers != 0 {
                let victims = theirs & position.tops(prey);
                score += w.threat * (adjacent(attackers) & victims).count_ones() as i32;
            }
        }
        score += w.stack * (mine & position.stacks()).count_ones() as i32;
        score
    }
}

#[inline]
fn goal_row(color: Color) -> Bitboard {
    match color {
        Color::White => row_mask(6),
        Color::Black => row_mask(0),
    }
}

#[inline]
fn row_mask(row: usize) -> Bitboard {
    ((1u64 << ROW_LEN[row]) - 1) << ROW_START[row]
}

impl Heuristic<Position> for PijersiEval {
    fn evaluate(&self, position: &Position) -> i32 {
        let me = position.side_to_move();
        let raw = self.side_score(position, me) - self.side_score(position, me.other());
        let keep = 2000 - self.weights.draw_counter.clamp(0, 100) * i32::from(position.halfmove());
        raw * keep / 2000
    }

    #[inline]
    fn is_tactical(&self, position: &Position, mv: Move) -> bool {
        Tactics::new(position).is_tactical(mv)
    }

    fn retain_tactical(&self, position: &Position, moves: &mut Vec<Move>) {
        let tactics = Tactics::new(position);
        moves.retain(|&mv| tactics.is_tactical(mv));
    }

    fn history_size(&self, _position: &Position) -> usize {
        64 * 64
    }

    /// Start and end cell (moves differing only by their middle cell share a slot).
    #[inline]
    fn history_index(&self, _position: &Position, mv: Move) -> usize {
        mv.start().index() * 64 + mv.end().index()
    }

    fn tactical_order(&self, position: &Position, mv: Move) -> i32 {
        if Tactics::new(position).reaches_goal(mv) {
            return 1 << 20;
        }
        let mut value = 0;
        let me = position.side_to_move();
        for cell in [mv.middle(), Some(mv.end())].into_iter().flatten() {
            if let Some(piece) = position.piece_at(cell)
                && piece.color != me
            {
                value +=
                    self.weights.role(piece.top) + piece.bottom.map_or(0, |b| self.weights.role(b));
            }
        }
        value
    }
}

/// What makes a move tactical in one position, computed once for all its moves.
struct Tactics {
    enemy: Bitboard,
    goal_row: Bitboard,
    /// Own cells topped by a fighter.
    fighters: Bitboard,
}

impl Tactics {
    #[inline]
    fn new(position: &Position) -> Tactics {
        let me = position.side_to_move();
        Tactics {
            enemy: position.pieces(me.other()),
            goal_row: goal_row(me),
            fighters: position.pieces(me) & !position.tops(Role::Wise),
        }
    }

    /// A capture (an enemy piece on the middle or end cell) or a win.
    #[inline]
    fn is_tactical(&self, mv: Move) -> bool {
        let path = mv.middle().map_or(0, |m| m.bit()) | mv.end().bit();
        self.enemy & path != 0 || self.reaches_goal(mv)
    }

    /// Whether the piece moved ends on the mover's goal row with a fighter on top (the top cube
    /// that arrives is always the start cell's top).
    #[inline]
    fn reaches_goal(&self, mv: Move) -> bool {
        mv.end().bit() & self.goal_row != 0 && mv.start().bit() & self.fighters != 0
    }
}
