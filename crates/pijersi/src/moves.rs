//! Moves (whole turns), their UGI strings, and move generation and counting.
//!
//! A move is one whole turn, identified by its path of cells as UGI writes it:
//!
//! | kind | path | what happens |
//! |---|---|---|
//! | [`MoveKind::Cube`] | `se` | a single cube moves to `e` (empty, own cube to stack on, or capture) |
//! | [`MoveKind::CubeThenStack`] | `sme` | a single cube stacks on own `m`, the new stack moves to `e` (`e` may be `s`) |
//! | [`MoveKind::Unstack`] | `sse` | a stack's top cube moves to `e` |
//! | [`MoveKind::UnstackThenStack`] | `sme` | a stack's top stacks on own `m`, the new stack moves to `e` |
//! | [`MoveKind::Stack`] | `see` | a stack moves one or two cells to `e` |
//! | [`MoveKind::StackThenCube`] | `sme` | a stack moves to `m`, then its top cube moves to `e` (`e` may be `s`) |
//!
//! The two `sme` stack kinds are told apart by what stands on `m`: an own single cube (stacking)
//! or not (a stack move). In one position a path names at most one move.

use std::fmt;

use crate::Error;
use crate::geometry::{Bitboard, Cell, NEIGHBOR, NEIGHBOR2, NEIGHBORS, adjacent, bits, shift};
use crate::piece::Role;
use crate::position::Position;

/// What a turn does; see the [module docs](self) for the path of each kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum MoveKind {
    /// A single cube makes one cube action.
    Cube,
    /// A single cube stacks onto an own cube, then the new stack moves.
    CubeThenStack,
    /// The top cube of a stack makes one cube action.
    Unstack,
    /// The top cube of a stack stacks onto an own cube, then the new stack moves.
    UnstackThenStack,
    /// A stack moves one or two cells in a straight line.
    Stack,
    /// A stack moves, then its top cube makes a cube action.
    StackThenCube,
}

/// One whole turn: its path of cells and its kind. 4 bytes, `Copy`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    start: u8,
    /// The middle cell of a 3-cell UGI string, or [`NO_MIDDLE`] for a 2-cell one.
    middle: u8,
    end: u8,
    kind: MoveKind,
}

const NO_MIDDLE: u8 = u8::MAX;

const _: () = assert!(std::mem::size_of::<Move>() == 4);

impl Move {
    /// The move of `kind` along `start`, `middle`, `end`. For one-action kinds the middle is
    /// ignored and set as UGI writes it (`Unstack`: the start, `Stack`: the end, `Cube`: none).
    #[inline]
    pub fn new(kind: MoveKind, start: Cell, middle: Cell, end: Cell) -> Move {
        Self::from_indices(kind, start.index(), middle.index(), end.index())
    }

    #[inline(always)]
    pub(crate) fn from_indices(kind: MoveKind, s: usize, m: usize, e: usize) -> Move {
        let middle = match kind {
            MoveKind::Cube => NO_MIDDLE,
            MoveKind::Unstack => s as u8,
            MoveKind::Stack => e as u8,
            _ => m as u8,
        };
        Move {
            start: s as u8,
            middle,
            end: e as u8,
            kind,
        }
    }

    /// The kind of turn.
    #[inline]
    pub fn kind(self) -> MoveKind {
        self.kind
    }

    /// Where the moving cube or stack starts.
    #[inline]
    pub fn start(self) -> Cell {
        Cell::from_index(self.start)
    }

    /// The middle cell of the UGI path, `None` for a 2-cell path.
    #[inline]
    pub fn middle(self) -> Option<Cell> {
        (self.middle != NO_MIDDLE).then(|| Cell::from_index(self.middle))
    }

    /// Where the turn ends.
    #[inline]
    pub fn end(self) -> Cell {
        Cell::from_index(self.end)
    }

    /// Whether the turn has two actions.
    #[inline]
    pub fn is_double(self) -> bool {
        matches!(
            self.kind,
            MoveKind::CubeThenStack | MoveKind::UnstackThenStack | MoveKind::StackThenCube
        )
    }

    #[inline(always)]
    pub(crate) fn start_index(self) -> usize {
        self.start as usize
    }

    #[inline(always)]
    pub(crate) fn middle_index(self) -> usize {
        self.middle as usize
    }

    #[inline(always)]
    pub(crate) fn end_index(self) -> usize {
        self.end as usize
    }

    /// The cells of the UGI path: 2 or 3.
    pub fn path(self) -> ([Cell; 3], usize) {
        match self.middle() {
            Some(m) => ([self.start(), m, self.end()], 3),
            None => ([self.start(), self.end(), self.end()], 2),
        }
    }

    /// Reads a UGI string into its cells (2 or 3), without looking at any position.
    ///
    /// # Errors
    /// When the text is not 2 or 3 cell names.
    pub fn parse_path(text: &str) -> Result<([Cell; 3], usize), Error> {
        let bad = |reason: &str| Error::MoveText {
            text: text.to_string(),
            reason: reason.into(),
        };
        let bytes = text.as_bytes();
        if bytes.len() != 4 && bytes.len() != 6 {
            return Err(bad("expected 2 or 3 cells such as a4b5 or a4b5c4"));
        }
        let mut cells = [Cell::from_index(0); 3];
        for (k, pair) in bytes.chunks(2).enumerate() {
            cells[k] = Cell::from_bytes(pair[0], pair[1]).ok_or_else(|| {
                bad(&format!(
                    "{:?} is not a cell",
                    String::from_utf8_lossy(pair)
                ))
            })?;
        }
        let n = bytes.len() / 2;
        if n == 2 {
            cells[2] = cells[1];
        }
        Ok((cells, n))
    }
}

impl fmt::Display for Move {
    /// The UGI move string, e.g. `a4b5c4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.middle() {
            Some(m) => write!(f, "{}{}{}", self.start(), m, self.end()),
            None => write!(f, "{}{}", self.start(), self.end()),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self} ({:?})", self.kind)
    }
}

/// What a piece whose top has role `t` may do, relative to the side to move.
struct Targets {
    /// Empty cells or enemy pieces it captures: where a stack of role `t` may move.
    stack: Bitboard,
    /// `stack` plus own single cubes it may be stacked on: where a cube of role `t` may move.
    cube: Bitboard,
    /// Own single cubes a cube of role `t` may be stacked on.
    stackable: Bitboard,
}

impl Position {
    #[inline(always)]
    fn targets(&self, role: usize, empty: Bitboard, own_singles: Bitboard) -> Targets {
        let opp = self.colors[1 - self.side as usize];
        let (capture, stackable) = if role == Role::Wise as usize {
            (0, own_singles & self.tops[Role::Wise as usize])
        } else {
            // Rock (0) takes scissors (2), paper (1) takes rock (0), scissors (2) takes paper (1).
            (opp & self.tops[(role + 2) % 3], own_singles)
        };
        let stack = empty | capture;
        Targets {
            stack,
            cube: stack | stackable,
            stackable,
        }
    }

    /// Appends every move of the side to move, ignoring whether the game is already over
    /// (perft and [`Position::count_moves`] count the same list).
    pub fn generate_moves(&self, moves: &mut Vec<Move>) {
        let me = self.side as usize;
        let own = self.colors[me];
        let empty = self.empty_cells();
        let stacks = self.stacks();
        let own_singles = own & !stacks;
        for s in bits(own) {
            let t = self.targets(self.top_role(s) as usize, empty, own_singles);
            let sb = 1u64 << s;
            if stacks & sb == 0 {
                for e in bits(NEIGHBORS[s] & t.cube) {
                    moves.push(Move::from_indices(MoveKind::Cube, s, e, e));
                }
                // The cube stacks on m, then the new stack moves; s is empty by then.
                let vacated = empty | sb;
                for m in bits(NEIGHBORS[s] & t.stackable) {
                    push_stack_moves(moves, MoveKind::CubeThenStack, s, m, vacated, t.stack | sb);
                }
            } else {
                for e in bits(NEIGHBORS[s] & t.cube) {
                    moves.push(Move::from_indices(MoveKind::Unstack, s, s, e));
                }
                // The top stacks on m, then the new stack moves; the bottom still holds s.
                for m in bits(NEIGHBORS[s] & t.stackable) {
                    push_stack_moves(moves, MoveKind::UnstackThenStack, s, m, empty, t.stack);
                }
                // The stack moves to m, then maybe its top moves on; s is empty by then.
                let after = t.cube | sb;
                for d in 0..6 {
                    let m1 = NEIGHBOR[s][d] as usize;
                    if t.stack >> m1 & 1 == 1 {
                        moves.push(Move::from_indices(MoveKind::Stack, s, m1, m1));
                        for e in bits(NEIGHBORS[m1] & after) {
                            moves.push(Move::from_indices(MoveKind::StackThenCube, s, m1, e));
                        }
                        if empty >> m1 & 1 == 1 {
                            let m2 = NEIGHBOR2[s][d] as usize;
                            if t.stack >> m2 & 1 == 1 {
                                moves.push(Move::from_indices(MoveKind::Stack, s, m2, m2));
                                for e in bits(NEIGHBORS[m2] & after) {
                                    moves.push(Move::from_indices(
                                        MoveKind::StackThenCube,
                                        s,
                                        m2,
                                        e,
                                    ));
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The number of moves [`Position::generate_moves`] would list, computed without listing
    /// them (perft's last ply). Single actions are counted for all pieces of a role at once with
    /// bitboard shifts; double actions per stacking pair and per stack.
    #[inline]
    pub fn count_moves(&self) -> u64 {
        let me = self.side as usize;
        let own = self.colors[me];
        let empty = self.empty_cells();
        let stacks = self.stacks();
        let own_singles = own & !stacks;
        let own_stacks = own & stacks;
        let mut n: u32 = 0;
        for role in 0..4 {
            let tops = own & self.tops[role];
            if tops == 0 {
                continue;
            }
            let t = self.targets(role, empty, own_singles);
            let stacks_t = tops & own_stacks;
            let singles_t = tops & own_singles;
            for d in 0..6 {
                // 1. Cube actions of singles and stack tops.
                n += (shift(tops, d) & t.cube).count_ones();
                // 2. Stack actions, one and two cells.
                let one = shift(stacks_t, d);
                n += (one & t.stack).count_ones();
                n += (shift(one & empty, d) & t.stack).count_ones();
                // 3. A single s stacks on m = s + d and the new stack moves back over the
                //    vacated s: to s itself, and to s - d if that is a stack target.
                let pairs = singles_t & shift(t.stackable, (d + 3) % 6);
                n += pairs.count_ones() + (pairs & shift(t.stack, d)).count_ones();
            }
            // 4. A cube stacks on m, then the new stack moves as the board stood (step 3 added
            //    the cells the move vacates). Summed over all pairs (s, m) at once: w(m), the
            //    number of sources next to m, is held in bit planes, and each direction's
            //    one-step and two-step destination sets are weighted by it.
            let on = t.stackable & adjacent(tops);
            if on != 0 {
                let mut w = [0u64; 3];
                for d in 0..6 {
                    let mut carry = shift(tops, d) & on;
                    for plane in &mut w {
                        let next = *plane & carry;
                        *plane ^= carry;
                        carry = next;
                    }
                }
                for d in 0..6 {
                    let back = (d + 3) % 6;
                    let one = shift(t.stack, back);
                    let two = shift(empty & one, back);
                    for (i, plane) in w.iter().enumerate() {
                        n += ((plane & one).count_ones() + (plane & two).count_ones()) << i;
                    }
                }
            }
            // 5. A stack moves, then its top makes a cube action (or stays).
            for s in bits(stacks_t) {
                for d in 0..6 {
                    let m1 = NEIGHBOR[s][d] as usize;
                    if t.stack >> m1 & 1 == 1 {
                        // +1: the top may step back onto the vacated s.
                        n += (NEIGHBORS[m1] & t.cube).count_ones() + 1;
                        if empty >> m1 & 1 == 1 {
                            let m2 = NEIGHBOR2[s][d] as usize;
                            if t.stack >> m2 & 1 == 1 {
                                n += (NEIGHBORS[m2] & t.cube).count_ones();
                            }
                        }
                    }
                }
            }
        }
        n as u64
    }

    /// Whether the side to move has a move (ignoring whether the game is over). Every double
    /// action starts with a legal single action, so cube actions alone decide it.
    pub fn has_any_move(&self) -> bool {
        let me = self.side as usize;
        let own = self.colors[me];
        let empty = self.empty_cells();
        let own_singles = own & !self.stacks();
        (0..4).any(|role| {
            let tops = own & self.tops[role];
            tops != 0 && {
                let t = self.targets(role, empty, own_singles);
                adjacent(tops) & t.cube != 0
            }
        })
    }

    /// The legal moves (none once the game is over), in generation order.
    pub fn legal_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if !self.is_won() && self.halfmove < crate::position::DRAW_HALFMOVES {
            self.generate_moves(moves);
        }
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        let mut moves = Vec::with_capacity(256);
        self.legal_moves(&mut moves);
        moves.contains(&mv)
    }

    /// The move this path of cells names here, if it names one (legal or not: check with
    /// [`Position::is_legal`]). The kind is decided by what stands on the path.
    pub fn move_from_path(&self, cells: [Cell; 3], n: usize) -> Option<Move> {
        let [s, m, e] = cells;
        let piece = self.piece_at(s)?;
        let kind = match (n, piece.is_stack()) {
            (2, false) => MoveKind::Cube,
            (2, true) => return None,
            (_, false) => MoveKind::CubeThenStack,
            (_, true) if m == s => MoveKind::Unstack,
            (_, true) if m == e => MoveKind::Stack,
            (_, true) => match self.piece_at(m) {
                Some(p) if p.color == piece.color && !p.is_stack() => MoveKind::UnstackThenStack,
                _ => MoveKind::StackThenCube,
            },
        };
        Some(Move::new(kind, s, m, e))
    }

    /// Parses a UGI move string and checks that it is legal here.
    ///
    /// # Errors
    /// [`Error::MoveText`] if it is not a path of cells, [`Error::IllegalMove`] if it names no
    /// legal move.
    pub fn parse_ugi(&self, text: &str) -> Result<Move, Error> {
        let (cells, n) = Move::parse_path(text)?;
        match self.move_from_path(cells, n) {
            Some(mv) if self.is_legal(mv) => Ok(mv),
            _ => Err(Error::IllegalMove {
                mv: text.to_string(),
                psn: self.to_string(),
            }),
        }
    }
}

/// Pushes the moves of a stack standing on `m` after a first action from `s`.
#[inline(always)]
fn push_stack_moves(
    moves: &mut Vec<Move>,
    kind: MoveKind,
    s: usize,
    m: usize,
    empty: Bitboard,
    targets: Bitboard,
) {
    for d in 0..6 {
        let one = NEIGHBOR[m][d] as usize;
        if targets >> one & 1 == 1 {
            moves.push(Move::from_indices(kind, s, m, one));
            if empty >> one & 1 == 1 {
                let two = NEIGHBOR2[m][d] as usize;
                if targets >> two & 1 == 1 {
                    moves.push(Move::from_indices(kind, s, m, two));
                }
            }
        }
    }
}
