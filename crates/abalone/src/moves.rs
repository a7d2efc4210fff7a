//! Moves: the [`Move`] type, generation and bulk counting on bitboards, and playing a move.
//!
//! Generation works on whole bitboards, one direction at a time: with `N^k(X)` the cells whose
//! `k`-th neighbour in the direction is in `X`, the trailing marbles of in-line moves are
//!
//! | move | trailing marbles `t` |
//! |---|---|
//! | 1 marble | `own & N(empty)` |
//! | 2 marbles | `own & N(own) & N²(empty)` |
//! | 3 marbles | `own & N(own) & N²(own) & N³(empty)` |
//! | 2 push 1 | `own & N(own) & N²(opp) & !N³(occupied)` |
//! | 3 push 1 | `own & N(own) & N²(own) & N³(opp) & !N⁴(occupied)` |
//! | 3 push 2 | `own & N(own) & N²(own) & N³(opp) & N⁴(opp) & !N⁵(occupied)` |
//!
//! (`!N^k(occupied)` is "empty or off the board": the last pushed marble is ejected when it is
//! off.) Broadside lines are runs of 2 or 3 own marbles along an axis whose cells all have an
//! empty neighbour in the direction of travel. Counting is the same expressions with popcounts.
//!
//! Playing a move ([`Position::play`]) resolves it cell by cell with the coordinate neighbour
//! table instead: a second, independent reading of the rules that the tests hold against the
//! generator on random positions.

use std::fmt;

use crate::geometry::{ALL_CELLS, Bitboard, Cell, Direction, cells, shift, shift_by};
use crate::illegal::Illegal;
use crate::position::{Color, Mode, Position, Seat};
use crate::{Error, text};

/// One move of the seat to move. 4 bytes.
///
/// A move names only what the mover pushes, as Aba-Pro notation does; what else moves (own
/// marbles ahead of the trailing one, pushed or ejected opponents) follows from the position.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub enum Move {
    /// An in-line move (a single marble's step included): the trailing marble moves one step in
    /// `dir`, with the run of own marbles ahead of it and any opponents it pushes.
    Inline {
        /// The marble at the back of the moving group.
        trailing: Cell,
        /// The direction of travel.
        dir: Direction,
    },
    /// A broadside (side-step) of a line of 2 or 3 own marbles. Never pushes.
    Broadside(Broadside),
    /// The move of a seat that has no other: nothing changes but the seat to move.
    Pass,
}

/// A broadside (side-step): `len` own marbles on a line along `axis`, from `first` up, each
/// move one step in `dir`, which is not along the axis.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Broadside {
    /// The line's lowest cell in notation order.
    pub first: Cell,
    /// One of [`Direction::AXES`]: the line runs from `first` this way.
    pub axis: Direction,
    /// 2 or 3.
    pub len: u8,
    /// The direction of travel (one of the four across the axis).
    pub dir: Direction,
}

impl Broadside {
    /// The line's other end, `len - 1` steps from `first` along `axis`; `None` where the line
    /// leaves the board (no generated or parsed broadside does).
    pub fn last(self) -> Option<Cell> {
        (1..self.len).try_fold(self.first, |c, _| c.step(self.axis))
    }
}

const _: () = assert!(std::mem::size_of::<Move>() <= 4);

impl fmt::Display for Move {
    /// Aba-Pro: `a1b2` in-line (trailing marble, where it goes); `e6e8f6` broadside (the line's
    /// ends in notation order, where the first goes); `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Inline { trailing, dir } => match trailing.step(dir) {
                Some(to) => write!(f, "{trailing}{to}"),
                None => write!(f, "{trailing}-{}", dir.name()),
            },
            Move::Broadside(b) => match (b.last(), b.first.step(b.dir)) {
                (Some(last), Some(to)) => write!(f, "{}{last}{to}", b.first),
                _ => write!(f, "{}-{}{}-{}", b.first, b.axis.name(), b.len, b.dir.name()),
            },
            Move::Pass => f.write_str("pass"),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// What a move does: the mover's marbles and the opponents that move, all one step in `dir`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Effect {
    /// The mover's marbles that move (cells before the move).
    pub(crate) own: Bitboard,
    /// The opponents pushed (cells before the move; one may leave the board).
    pub(crate) pushed: Bitboard,
    /// Where they all go.
    pub(crate) dir: Direction,
}

impl Effect {
    /// A pass: nothing moves.
    const NOTHING: Effect = Effect {
        own: 0,
        pushed: 0,
        dir: Direction::East,
    };
}

/// Cell-by-cell neighbour table: `NEXT[bit][dir]` is the neighbour's bit, or 255 off the board.
/// Built from the coordinates ([`Cell::step`]), not from the shifts the generator uses.
const NEXT: [[u8; 6]; 81] = {
    let mut table = [[255; 6]; 81];
    let mut bit = 0;
    while bit < 81 {
        if let Some(cell) = Cell::from_bit_index(bit as u32) {
            let mut d = 0;
            while d < 6 {
                if let Some(next) = cell.step(Direction::ALL[d]) {
                    table[bit][d] = next.bit_index() as u8;
                }
                d += 1;
            }
        }
        bit += 1;
    }
    table
};

#[inline(always)]
fn next(cell: Cell, dir: Direction) -> Option<Cell> {
    Cell::from_bit_index(u32::from(NEXT[cell.bit_index()][dir.index()]))
}

impl Position {
    /// Resolves an in-line move cell by cell.
    #[inline]
    fn inline_effect(&self, trailing: Cell, dir: Direction) -> Result<Effect, Illegal> {
        let color = self.color_to_move();
        let own = self.marbles[color.index()];
        let opp = self.marbles[color.other().index()];
        let movable = self.movable();
        let mut run = 0;
        let mut count = 0;
        let mut cell = Some(trailing);
        // 1. The run of own marbles from the trailing one.
        while let Some(c) = cell
            && own & c.bit() != 0
        {
            if movable & c.bit() == 0 {
                return Err(Illegal::NotYours(c));
            }
            count += 1;
            if count > 3 {
                return Err(Illegal::TooMany);
            }
            run |= c.bit();
            cell = next(c, dir);
        }
        if count == 0 {
            return Err(Illegal::NoMarble(trailing));
        }
        // 2. What is ahead of the run: off the board, empty, or opponents.
        let Some(head) = cell else {
            return Err(Illegal::SelfEjection);
        };
        let mut pushed = 0;
        let mut opponents = 0;
        let mut cell = Some(head);
        while let Some(c) = cell
            && opp & c.bit() != 0
        {
            opponents += 1;
            pushed |= c.bit();
            cell = next(c, dir);
        }
        // 3. A push needs superior numbers and a free cell (or the edge) behind the opponents.
        if opponents >= count {
            return Err(Illegal::Outnumbered);
        }
        if let Some(c) = cell
            && own & c.bit() != 0
            && opponents > 0
        {
            return Err(Illegal::Blocked(c));
        }
        Ok(Effect {
            own: run,
            pushed,
            dir,
        })
    }

    /// Resolves a broadside cell by cell.
    fn broadside_effect(
        &self,
        first: Cell,
        axis: Direction,
        len: u8,
        dir: Direction,
    ) -> Result<Effect, Illegal> {
        if !(2..=3).contains(&len) || dir.axis() == axis.axis() || axis.index() >= 3 {
            return Err(Illegal::NotABroadside);
        }
        let color = self.color_to_move();
        let movable = self.movable();
        let occupied = self.occupied();
        let mut line = 0;
        let mut cell = Some(first);
        for _ in 0..len {
            let Some(c) = cell else {
                return Err(Illegal::OffBoard);
            };
            if movable & c.bit() == 0 {
                return Err(if self.marbles[color.index()] & c.bit() != 0 {
                    Illegal::NotYours(c)
                } else {
                    Illegal::NoMarble(c)
                });
            }
            let to = next(c, dir).ok_or(Illegal::OffBoard)?;
            if occupied & to.bit() != 0 {
                return Err(Illegal::Occupied(to));
            }
            line |= c.bit();
            cell = next(c, axis);
        }
        Ok(Effect {
            own: line,
            pushed: 0,
            dir,
        })
    }

    /// What `mv` does here, or why it is illegal. A pass resolves to nothing moving.
    pub(crate) fn effect(&self, mv: Move) -> Result<Effect, Illegal> {
        match mv {
            Move::Inline { trailing, dir } => self.inline_effect(trailing, dir),
            Move::Broadside(b) => self.broadside_effect(b.first, b.axis, b.len, b.dir),
            Move::Pass => {
                if self.count_moves_without_pass() != 0 {
                    Err(Illegal::PassWithMoves)
                } else {
                    Ok(Effect::NOTHING)
                }
            }
        }
    }

    /// Why `mv` is illegal here, in words, or `None` if it is legal.
    pub fn why_illegal(&self, mv: Move) -> Option<String> {
        if self.outcome().is_some() {
            return Some("the game is over".into());
        }
        self.effect(mv)
            .err()
            .map(|e| e.describe(self.color_to_move()))
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.outcome().is_none() && self.effect(mv).is_ok()
    }

    /// Moves the marbles, counts an ejection, checks the junctions, passes the turn.
    #[inline]
    fn apply(&mut self, effect: Effect) {
        let color = self.color_to_move();
        let (me, them) = (color.index(), color.other().index());
        let Effect { own, pushed, dir } = effect;
        self.marbles[me] = (self.marbles[me] & !own) | shift(own, dir);
        let landed = shift(pushed, dir);
        self.marbles[them] = (self.marbles[them] & !pushed) | landed;
        if let Mode::Doubles(_) = self.rules.mode {
            let moved = own | pushed;
            let labels = self.seconds & moved;
            self.seconds = (self.seconds & !moved) | shift(labels, dir);
        }
        if landed.count_ones() < pushed.count_ones() {
            self.ejected[me] += 1;
            self.quiet_plies = 0;
        } else {
            self.quiet_plies = self.quiet_plies.saturating_add(1);
        }
        self.update_junctions();
        self.seat = match self.rules.mode {
            Mode::TwoPlayers => Seat::first_of(color.other()),
            Mode::Doubles(order) => order.next(self.seat),
        };
        if color == Color::White {
            self.move_number = self.move_number.saturating_add(1);
        }
    }

    /// Plays `mv`, which must be legal here (one of [`Position::legal_moves`]): the checks of
    /// [`Position::play`] are skipped. An illegal in-line move or broadside changes nothing; an
    /// illegal pass passes the turn.
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) {
        let effect = match mv {
            Move::Pass => Ok(Effect::NOTHING),
            _ => self.effect(mv),
        };
        if let Ok(effect) = effect {
            self.apply(effect);
        }
    }

    /// Plays `mv` if it is legal, leaving the position unchanged otherwise.
    ///
    /// # Errors
    /// [`Error::IllegalMove`] with the reason, when the game is over or the rules refuse `mv`.
    pub fn play(&mut self, mv: Move) -> Result<(), Error> {
        if let Some(reason) = self.why_illegal(mv) {
            return Err(Error::IllegalMove {
                mv: mv.to_string(),
                reason,
                position: text::to_text(self),
            });
        }
        self.play_unchecked(mv);
        Ok(())
    }

    /// The position after `mv` (which must be legal).
    #[inline]
    pub fn after(&self, mv: Move) -> Position {
        let mut next = self.clone();
        next.play_unchecked(mv);
        next
    }

    /// The six in-line trailing sets of the seat to move, one per direction of
    /// [`Direction::ALL`].
    #[inline(always)]
    fn inline_sets(&self) -> [Bitboard; 6] {
        let color = self.color_to_move();
        let own = self.movable();
        let opp = self.marbles[color.other().index()];
        let occupied = self.occupied();
        let empty = ALL_CELLS & !occupied;
        Direction::ALL.map(|dir| {
            let s = -dir.step();
            let n = |bits: Bitboard, k: i32| shift_by(bits, k * s);
            let two = own & n(own, 1);
            let three = two & n(own, 2);
            let opp3 = three & n(opp, 3);
            (own & n(empty, 1))
                | (two & n(empty, 2))
                | (three & n(empty, 3))
                | (two & n(opp, 2) & !n(occupied, 3))
                | (opp3 & !n(occupied, 4))
                | (opp3 & n(opp, 4) & !n(occupied, 5))
        })
    }

    /// The broadside lines of the seat to move: `[axis][direction][len - 2]` with the directions
    /// of [`across`], each a set of first cells.
    #[inline(always)]
    fn broadside_sets(&self) -> [[[Bitboard; 2]; 4]; 3] {
        let own = self.movable();
        let empty = self.empty_cells();
        Direction::AXES.map(|axis| {
            let a = -axis.step();
            across(axis).map(|dir| {
                let free = own & shift_by(empty, -dir.step());
                let pairs = free & shift_by(free, a);
                [pairs, pairs & shift_by(pairs, a)]
            })
        })
    }

    /// Counts the legal moves other than a pass.
    #[inline]
    fn count_moves_without_pass(&self) -> u64 {
        let inline: u32 = self.inline_sets().iter().map(|b| b.count_ones()).sum();
        let broadside: u32 = self
            .broadside_sets()
            .iter()
            .flatten()
            .flatten()
            .map(|b| b.count_ones())
            .sum();
        u64::from(inline + broadside)
    }

    /// The number of legal moves, without generating them (0 once the game is over; 1 for a
    /// seat that must pass).
    #[inline]
    pub fn count_moves(&self) -> u64 {
        if self.outcome().is_some() {
            return 0;
        }
        self.count_moves_without_pass().max(1)
    }

    /// Clears `moves` and fills it with every legal move, in a fixed order: in-line moves by
    /// direction and trailing cell, then broadsides by axis, direction, length and first cell; a
    /// lone [`Move::Pass`] for a seat with no other move; nothing once the game is over.
    pub fn legal_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.outcome().is_some() {
            return;
        }
        self.generate_moves(moves);
    }

    /// Appends every move of the seat to move (a lone pass when it has no other).
    fn generate_moves(&self, moves: &mut Vec<Move>) {
        let start = moves.len();
        for (dir, trailing) in Direction::ALL.into_iter().zip(self.inline_sets()) {
            moves.extend(cells(trailing).map(|trailing| Move::Inline { trailing, dir }));
        }
        for (axis, by_dir) in Direction::AXES.into_iter().zip(self.broadside_sets()) {
            for (dir, by_len) in across(axis).into_iter().zip(by_dir) {
                for (len, firsts) in [2, 3].into_iter().zip(by_len) {
                    moves.extend(cells(firsts).map(|first| {
                        Move::Broadside(Broadside {
                            first,
                            axis,
                            len,
                            dir,
                        })
                    }));
                }
            }
        }
        if moves.len() == start {
            moves.push(Move::Pass);
        }
    }
}

/// The four directions across `axis` (not along it), in [`Direction::ALL`] order.
#[inline(always)]
pub(crate) const fn across(axis: Direction) -> [Direction; 4] {
    let a = axis.axis();
    let mut out = [Direction::East; 4];
    let mut i = 0;
    let mut k = 0;
    while i < 6 {
        if Direction::ALL[i].axis() != a {
            out[k] = Direction::ALL[i];
            k += 1;
        }
        i += 1;
    }
    out
}
