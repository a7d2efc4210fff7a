//! The validated game state ([`Position`]), its unvalidated counterpart ([`Setup`]), playing
//! moves and judging the end of the game.

use pjlab_core::Outcome;

use crate::geometry::{ALL_CELLS, Bitboard, Cell, ROW_A, ROW_G, bits};
use crate::moves::{Move, MoveKind};
use crate::piece::{Color, Piece, Role};
use crate::{Error, zobrist};

/// Number of capture-free turns in a row that draws the game.
pub const DRAW_HALFMOVES: u8 = 20;

/// Which reading of "a fighter reaches the opponent's back row" is in force.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Rules {
    /// The rulebook's reading (the spec's): only the board after the whole turn counts.
    #[default]
    EndOfTurn,
    /// pijersi-rs's reading, for compatibility only: a fighter-topped piece that stands on the
    /// opponent's back row after the turn's first action wins even if it leaves it.
    PassThrough,
}

/// An unvalidated position: what a parser yields, with public fields. Turn it into a
/// [`Position`] with [`Position::from_setup`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// What stands on each cell, indexed by [`Cell::index`].
    pub board: [Option<Piece>; Cell::COUNT],
    /// The side to move.
    pub side_to_move: Color,
    /// Capture-free turns in a row since the start or the last capture (0..=20).
    pub halfmove: u8,
    /// Full-move number, from 1, incremented after Black's turn.
    pub fullmove: u16,
}

impl Setup {
    /// An empty board, White to move, counters at their start values.
    pub fn empty() -> Setup {
        Setup {
            board: [None; Cell::COUNT],
            side_to_move: Color::White,
            halfmove: 0,
            fullmove: 1,
        }
    }
}

/// A legal Pijersi position: board, side to move, counters, and the rules it is played under.
///
/// The board is held as bitboards (per colour, per top role, per bottom role), so that
/// counting and generating moves are a few shifts and masks, and `Clone` is a 96-byte copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// Cells holding a white / black piece.
    pub(crate) colors: [Bitboard; 2],
    /// Cells whose piece (single cube or stack top) has each role, both colours.
    pub(crate) tops: [Bitboard; 4],
    /// Cells holding a stack whose bottom cube has each role, both colours.
    pub(crate) bottoms: [Bitboard; 4],
    pub(crate) side: Color,
    pub(crate) halfmove: u8,
    pub(crate) fullmove: u16,
    pub(crate) rules: Rules,
    /// Under [`Rules::PassThrough`], set by a move that passed a fighter over the back row.
    pub(crate) passed_back_row: bool,
}

const _: () = assert!(std::mem::size_of::<Position>() <= 96);

impl Default for Position {
    /// The classic start.
    fn default() -> Self {
        crate::variants::classic()
    }
}

impl Position {
    /// Validates a [`Setup`] under the given rules.
    ///
    /// # Errors
    /// A stack with a wise on a fighter, more than 4 rocks, papers or scissors or 2 wises of one
    /// colour, a half-move counter above 20, or a full-move number of 0.
    pub fn from_setup(setup: &Setup, rules: Rules) -> Result<Position, Error> {
        let mut counts = [[0u8; 4]; 2];
        let mut position = Position {
            colors: [0; 2],
            tops: [0; 4],
            bottoms: [0; 4],
            side: setup.side_to_move,
            halfmove: setup.halfmove,
            fullmove: setup.fullmove,
            rules,
            passed_back_row: false,
        };
        for cell in Cell::all() {
            let Some(piece) = setup.board[cell.index()] else {
                continue;
            };
            if !piece.is_valid() {
                return Err(Error::Position(format!(
                    "a wise cannot stand on a fighter at {cell}"
                )));
            }
            let bit = cell.bit();
            position.colors[piece.color as usize] |= bit;
            position.tops[piece.top as usize] |= bit;
            counts[piece.color as usize][piece.top as usize] += 1;
            if let Some(bottom) = piece.bottom {
                position.bottoms[bottom as usize] |= bit;
                counts[piece.color as usize][bottom as usize] += 1;
            }
        }
        for color in [Color::White, Color::Black] {
            for role in Role::ALL {
                let max = if role == Role::Wise { 2 } else { 4 };
                let n = counts[color as usize][role as usize];
                if n > max {
                    return Err(Error::Position(format!(
                        "{} has {n} {role:?} cubes, at most {max} exist",
                        color.name()
                    )));
                }
            }
        }
        if setup.halfmove > DRAW_HALFMOVES {
            return Err(Error::Position(format!(
                "half-move counter {} is above {DRAW_HALFMOVES}",
                setup.halfmove
            )));
        }
        if setup.fullmove == 0 {
            return Err(Error::Position(
                "full-move number must be at least 1".into(),
            ));
        }
        Ok(position)
    }

    /// The unvalidated view of this position.
    pub fn to_setup(&self) -> Setup {
        let mut setup = Setup::empty();
        for cell in Cell::all() {
            setup.board[cell.index()] = self.piece_at(cell);
        }
        setup.side_to_move = self.side;
        setup.halfmove = self.halfmove;
        setup.fullmove = self.fullmove;
        setup
    }

    /// The same position under other rules.
    pub fn with_rules(mut self, rules: Rules) -> Position {
        self.rules = rules;
        self
    }

    /// The rules this position is played under.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Capture-free turns in a row (the PSN half-move counter); 20 is a draw.
    #[inline]
    pub fn halfmove(&self) -> u8 {
        self.halfmove
    }

    /// The full-move number (from 1, +1 after Black's turn).
    #[inline]
    pub fn fullmove(&self) -> u16 {
        self.fullmove
    }

    /// What stands on `cell`.
    pub fn piece_at(&self, cell: Cell) -> Option<Piece> {
        let i = cell.index();
        let color = if self.colors[0] >> i & 1 == 1 {
            Color::White
        } else if self.colors[1] >> i & 1 == 1 {
            Color::Black
        } else {
            return None;
        };
        let bottom = (self.stacks() >> i & 1 == 1).then(|| self.bottom_role(i));
        Some(Piece {
            color,
            top: self.top_role(i),
            bottom,
        })
    }

    /// Cells holding a piece of `color`.
    #[inline]
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.colors[color as usize]
    }

    /// Cells whose piece (single cube or stack top) has role `role`, both colours.
    #[inline]
    pub fn tops(&self, role: Role) -> Bitboard {
        self.tops[role as usize]
    }

    /// Cells holding a stack whose bottom cube has role `role`, both colours.
    #[inline]
    pub fn bottoms(&self, role: Role) -> Bitboard {
        self.bottoms[role as usize]
    }

    /// Cells holding a stack (either colour).
    #[inline]
    pub fn stacks(&self) -> Bitboard {
        self.bottoms[0] | self.bottoms[1] | self.bottoms[2] | self.bottoms[3]
    }

    /// Empty cells.
    #[inline]
    pub fn empty_cells(&self) -> Bitboard {
        ALL_CELLS & !(self.colors[0] | self.colors[1])
    }

    /// Role of the piece on cell index `i` (which must be occupied).
    #[inline(always)]
    pub(crate) fn top_role(&self, i: usize) -> Role {
        let bit = |b: Bitboard| (b >> i) & 1;
        let r = bit(self.tops[1]) | (bit(self.tops[2]) * 2) | (bit(self.tops[3]) * 3);
        Role::from_index(r as usize)
    }

    /// Role of the bottom cube of the stack on cell index `i` (which must hold a stack).
    #[inline(always)]
    fn bottom_role(&self, i: usize) -> Role {
        let b = &self.bottoms;
        let bit = |x: Bitboard| (x >> i) & 1;
        let r = bit(b[1]) | (bit(b[2]) * 2) | (bit(b[3]) * 3);
        Role::from_index(r as usize)
    }

    /// The back row `color` must reach to win.
    #[inline(always)]
    pub(crate) const fn goal_row(color: Color) -> Bitboard {
        match color {
            Color::White => ROW_G,
            Color::Black => ROW_A,
        }
    }

    /// Whether the side that just moved has won: a fighter of theirs on the opponent's back row
    /// (or, under [`Rules::PassThrough`], one passed over it during the turn).
    #[inline(always)]
    pub fn is_won(&self) -> bool {
        let mover = self.side.other();
        let fighters = self.colors[mover as usize] & !self.tops[Role::Wise as usize];
        fighters & Self::goal_row(mover) != 0 || self.passed_back_row
    }

    /// The end of the game, checked in the rulebook's order: the side that just moved has a
    /// fighter on its goal row (it wins); 20 capture-free turns (draw); the side to move has no
    /// legal move (it loses).
    pub fn outcome(&self) -> Option<Outcome> {
        if self.is_won() {
            Some(Outcome::Win(self.side.other().side()))
        } else if self.halfmove >= DRAW_HALFMOVES {
            Some(Outcome::Draw)
        } else if !self.has_any_move() {
            Some(Outcome::Win(self.side.other().side()))
        } else {
            None
        }
    }

    /// Zobrist key of the board, the side to move and the half-move counter (not the full-move
    /// number, which does not change the game's future).
    pub fn hash(&self) -> u64 {
        let mut key = zobrist::side_key(self.side) ^ zobrist::halfmove_key(self.halfmove);
        let stacks = self.stacks();
        for i in bits(self.colors[0] | self.colors[1]) {
            let color = (self.colors[1] >> i & 1) as usize;
            let bottom = if stacks >> i & 1 == 1 {
                self.bottom_role(i) as usize + 1
            } else {
                0
            };
            key ^= zobrist::piece_key(i, color, self.top_role(i) as usize, bottom);
        }
        key
    }

    /// Plays a move that must be legal here (see [`Position::play`] for the checked version).
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) {
        let (s, m, e) = (mv.start_index(), mv.middle_index(), mv.end_index());
        let captured = match mv.kind() {
            MoveKind::Cube | MoveKind::Unstack => self.move_cube(s, e),
            MoveKind::Stack => self.move_stack(s, e),
            MoveKind::CubeThenStack | MoveKind::UnstackThenStack => {
                let first = self.move_cube(s, m);
                self.note_pass_through(m);
                first | self.move_stack(m, e)
            }
            MoveKind::StackThenCube => {
                let first = self.move_stack(s, m);
                self.note_pass_through(m);
                first | self.move_cube(m, e)
            }
        };
        self.halfmove = if captured {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
        if self.side == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.other();
    }

    /// The position after `mv`, which must be legal.
    #[inline]
    pub fn after(&self, mv: Move) -> Position {
        let mut next = self.clone();
        next.play_unchecked(mv);
        next
    }

    /// Plays `mv` if it is legal here.
    ///
    /// # Errors
    /// [`Error::IllegalMove`] if it is not (the position is then unchanged).
    pub fn play(&mut self, mv: Move) -> Result<(), Error> {
        if self.is_legal(mv) {
            self.play_unchecked(mv);
            Ok(())
        } else {
            Err(Error::IllegalMove {
                mv: mv.to_string(),
                psn: self.to_string(),
            })
        }
    }

    #[inline(always)]
    fn note_pass_through(&mut self, m: usize) {
        if self.rules == Rules::PassThrough {
            let me = self.side;
            let bit = 1u64 << m;
            if bit & Self::goal_row(me) & !self.tops[Role::Wise as usize] != 0 {
                self.passed_back_row = true;
            }
        }
    }

    /// Removes whatever stands on cell bit `bit` (an enemy piece being captured).
    #[inline(always)]
    fn clear(&mut self, bit: Bitboard) {
        let keep = !bit;
        self.colors[0] &= keep;
        self.colors[1] &= keep;
        for r in 0..4 {
            self.tops[r] &= keep;
            self.bottoms[r] &= keep;
        }
    }

    /// Cube action: the single cube or stack top on `from` moves to the adjacent `to` (empty,
    /// own single cube to stack on, or enemy piece to capture). Returns whether it captured.
    #[inline(always)]
    fn move_cube(&mut self, from: usize, to: usize) -> bool {
        let me = self.side as usize;
        let (fb, tb) = (1u64 << from, 1u64 << to);
        let role = self.top_role(from) as usize;
        if self.stacks() & fb != 0 {
            let bottom = self.bottom_role(from) as usize;
            self.bottoms[bottom] ^= fb;
            self.tops[role] ^= fb;
            self.tops[bottom] |= fb;
        } else {
            self.tops[role] ^= fb;
            self.colors[me] ^= fb;
        }
        let captured = self.colors[1 - me] & tb != 0;
        if captured {
            self.clear(tb);
        }
        if self.colors[me] & tb != 0 {
            let below = self.top_role(to) as usize;
            self.tops[below] ^= tb;
            self.bottoms[below] |= tb;
        }
        self.colors[me] |= tb;
        self.tops[role] |= tb;
        captured
    }

    /// Stack action: the stack on `from` moves to `to` (empty or enemy piece to capture).
    /// Returns whether it captured.
    #[inline(always)]
    fn move_stack(&mut self, from: usize, to: usize) -> bool {
        let me = self.side as usize;
        let (fb, tb) = (1u64 << from, 1u64 << to);
        let top = self.top_role(from) as usize;
        let bottom = self.bottom_role(from) as usize;
        self.tops[top] ^= fb;
        self.bottoms[bottom] ^= fb;
        self.colors[me] ^= fb;
        let captured = self.colors[1 - me] & tb != 0;
        if captured {
            self.clear(tb);
        }
        self.tops[top] |= tb;
        self.bottoms[bottom] |= tb;
        self.colors[me] |= tb;
        captured
    }
}
