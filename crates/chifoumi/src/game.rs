//! [`Game`]: the full state of one two-player game (hidden parts included).

use std::fmt;
use std::sync::Arc;

use rand::Rng;

use crate::board::Board;
use crate::map::Cell;
use crate::rules::Layout;
use crate::{Action, ActionSet, Bag, Duel, Error, Object, Rules};

/// Public facts of the match a game belongs to (all zero for a lone game).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct MatchInfo {
    /// 0-based index of this game in the match.
    pub game: u16,
    /// Points of each player so far (+1 a won duel, -1 a lost one).
    pub score: [i16; 2],
    /// Duels each player has triggered so far (the match tie-break).
    pub duels: [u16; 2],
    /// How many times each player has revealed each type in a duel so far (counts, as a bag).
    pub revealed: [Bag; 2],
}

/// How a game starts: bags, first mover, match facts.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Start {
    /// Each player's bag at the start (empty at the start of a match).
    pub bags: [Bag; 2],
    /// The player who moves first, 0 or 1.
    pub first: u8,
    /// The match so far.
    pub info: MatchInfo,
}

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameEnd {
    /// A duel was fought.
    Duel(Duel),
    /// `max_rounds` rounds passed without a duel: a draw worth 0.
    TimeOut,
}

impl GameEnd {
    /// The value for `player`: +1 won, -1 lost, 0 drawn.
    pub fn value_for(self, player: usize) -> i32 {
        match self {
            GameEnd::Duel(duel) => duel.value_for(player as u8),
            GameEnd::TimeOut => 0,
        }
    }
}

/// One game of Chifoumi on a grid: the whole truth, both bags and every object included.
///
/// What each player may know of it is [`Game::observation`]. Cloning copies about 1 KiB (the
/// cell array) and a reference count; nothing is allocated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub(crate) board: Board,
    pub(crate) pos: [Cell; 2],
    pub(crate) bags: [Bag; 2],
    pub(crate) to_move: u8,
    pub(crate) first: u8,
    pub(crate) turn: u16,
    pub(crate) duel: Option<Duel>,
    pub(crate) info: MatchInfo,
}

impl Game {
    /// A lone game: objects dealt and players placed from `rng`, empty bags, player 0 first.
    ///
    /// # Errors
    /// [`Error::Rules`] when the rules do not check.
    pub fn new<R: Rng + ?Sized>(rules: &Rules, rng: &mut R) -> Result<Game, Error> {
        Game::with_start(rules, Start::default(), rng)
    }

    /// A game starting from `start` (bags, first mover, match facts).
    ///
    /// # Errors
    /// [`Error::Rules`] when the rules do not check or `start.first` is not 0 or 1.
    pub fn with_start<R: Rng + ?Sized>(
        rules: &Rules,
        start: Start,
        rng: &mut R,
    ) -> Result<Game, Error> {
        if start.first > 1 {
            return Err(Error::Rules(format!(
                "first mover {} is not 0 or 1",
                start.first
            )));
        }
        Ok(Game::deal(rules.layout(2)?, start, rng))
    }

    /// Deals objects and places the players (the rules are checked).
    pub(crate) fn deal<R: Rng + ?Sized>(layout: Arc<Layout>, start: Start, rng: &mut R) -> Game {
        let mut board = Board::new(layout);
        board.deal_objects(rng);
        Game::place(board, start, rng)
    }

    /// The next game on the same board (uncollected objects kept), players placed anew.
    pub(crate) fn redeal_players<R: Rng + ?Sized>(&self, start: Start, rng: &mut R) -> Game {
        Game::place(self.board.clone(), start, rng)
    }

    /// Starts a fresh lone game in place (new deal, empty bags): the bench's reset, which
    /// allocates nothing.
    pub(crate) fn restart<R: Rng + ?Sized>(&mut self, rng: &mut R) {
        self.board.deal_objects(rng);
        let a = self.board.random_empty(rng, &[]);
        let b = self.board.random_empty(rng, &[a]);
        self.pos = [a, b];
        self.bags = [Bag::EMPTY; 2];
        self.to_move = 0;
        self.first = 0;
        self.turn = 0;
        self.duel = None;
        self.info = MatchInfo::default();
    }

    fn place<R: Rng + ?Sized>(board: Board, start: Start, rng: &mut R) -> Game {
        let a = board.random_empty(rng, &[]);
        let b = board.random_empty(rng, &[a]);
        Game::at_start(board, [a, b], start)
    }

    /// The game on `board` with the players on `pos`, before its first turn, as `start` says.
    pub(crate) fn at_start(board: Board, pos: [Cell; 2], start: Start) -> Game {
        Game {
            board,
            pos,
            bags: start.bags,
            to_move: start.first,
            first: start.first,
            turn: 0,
            duel: None,
            info: start.info,
        }
    }

    /// Columns of the grid.
    pub fn width(&self) -> usize {
        self.board.layout.width as usize
    }

    /// Rows of the grid.
    pub fn height(&self) -> usize {
        self.board.layout.height as usize
    }

    /// The visibility radius (Chebyshev, cells).
    pub fn radius(&self) -> u8 {
        self.board.layout.radius
    }

    /// Rounds after which the game is drawn.
    pub fn max_rounds(&self) -> u16 {
        self.board.layout.max_rounds
    }

    /// Whether `STAY` is an action.
    pub fn stay_allowed(&self) -> bool {
        self.board.layout.stay
    }

    /// The player to move, 0 or 1 (still set once the game is over).
    pub fn to_move(&self) -> usize {
        self.to_move as usize
    }

    /// The player who moved first.
    pub fn first(&self) -> usize {
        self.first as usize
    }

    /// Turns played so far.
    pub fn turn(&self) -> u16 {
        self.turn
    }

    /// Where `player` stands.
    pub fn position(&self, player: usize) -> Cell {
        self.pos[player]
    }

    /// `player`'s bag.
    pub fn bag(&self, player: usize) -> Bag {
        self.bags[player]
    }

    /// Both bags.
    pub fn bags(&self) -> [Bag; 2] {
        self.bags
    }

    /// The object on `cell`, if any (`cell` on the grid).
    pub fn object_at(&self, cell: Cell) -> Option<Object> {
        self.board.object_at(cell)
    }

    /// Whether `cell` (on the grid) is a wall.
    pub fn is_wall(&self, cell: Cell) -> bool {
        self.board.is_wall(cell)
    }

    /// Objects left on the grid, by type.
    pub fn objects_left(&self) -> Bag {
        let mut left = Bag::EMPTY;
        for i in 0..self.board.layout.cells() {
            if let Some(o) = crate::board::object_of(self.board.cells[i]) {
                left.add(o);
            }
        }
        left
    }

    /// The match facts this game started with.
    pub fn info(&self) -> MatchInfo {
        self.info
    }

    /// Whether the two players see each other (Chebyshev distance at most the radius).
    #[inline]
    pub fn in_view(&self) -> bool {
        self.pos[0].chebyshev(self.pos[1]) <= self.board.layout.radius
    }

    /// How the game ended, or `None` while it goes on.
    pub fn end(&self) -> Option<GameEnd> {
        if let Some(duel) = self.duel {
            Some(GameEnd::Duel(duel))
        } else if self.turn >= 2 * self.board.layout.max_rounds {
            Some(GameEnd::TimeOut)
        } else {
            None
        }
    }

    /// Whether the game is over.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.duel.is_some() || self.turn >= 2 * self.board.layout.max_rounds
    }

    /// The legal actions of the player to move (empty once the game is over).
    #[inline]
    pub fn legal(&self) -> ActionSet {
        if self.is_over() {
            return ActionSet::EMPTY;
        }
        let here = self.pos[self.to_move as usize];
        let mut set = ActionSet::EMPTY;
        for a in Action::MOVES {
            if self.board.step(here, a).is_some() {
                set.insert(a);
            }
        }
        if self.in_view() {
            set.insert(Action::Duel);
        }
        if self.board.layout.stay {
            set.insert(Action::Stay);
        }
        set
    }

    /// Plays `action` for the player to move if it is legal, drawing a duel from `rng`;
    /// leaves the game unchanged otherwise.
    ///
    /// # Errors
    /// [`Error::IllegalAction`] when the game is over, the move leaves the grid or enters a
    /// wall, the opponent is out of view for `DUEL`, or `STAY` is off.
    pub fn play<R: Rng + ?Sized>(&mut self, action: Action, rng: &mut R) -> Result<(), Error> {
        self.check(action)?;
        self.play_unchecked(action, rng);
        Ok(())
    }

    /// `Ok` when `action` is legal for the player to move, the [`Game::play`] error otherwise.
    pub(crate) fn check(&self, action: Action) -> Result<(), Error> {
        let reason = if self.is_over() {
            "the game is over"
        } else if self.legal().contains(action) {
            return Ok(());
        } else {
            match action {
                Action::Duel => "the opponent is not in view",
                Action::Stay => "stay is not allowed",
                _ => "off the grid or into a wall",
            }
        };
        Err(Error::IllegalAction {
            action,
            player: self.to_move(),
            reason,
        })
    }

    /// Plays the legal `action` (the playouts' fast path). Entering a cell with an object
    /// picks it up; `DUEL` draws both bags from `rng` (the trigger's first) and ends the game.
    #[inline]
    pub fn play_unchecked<R: Rng + ?Sized>(&mut self, action: Action, rng: &mut R) {
        if action == Action::Duel {
            let me = self.to_move as usize;
            let draws = [self.bags[me].draw(rng), self.bags[1 - me].draw(rng)];
            self.fight(draws);
        } else {
            self.walk(action);
        }
    }

    /// Ends the turn of the player to move with a duel whose draws were `draws` (the trigger's,
    /// then the target's).
    #[inline]
    pub(crate) fn fight(&mut self, draws: [Object; 2]) {
        let me = self.to_move;
        self.duel = Some(Duel {
            trigger: me,
            target: 1 - me,
            draws,
        });
        self.turn += 1;
        self.to_move ^= 1;
    }

    /// Plays the legal move or `STAY` `action` for the player to move, picking up what it
    /// enters.
    #[inline]
    pub(crate) fn walk(&mut self, action: Action) {
        let me = self.to_move as usize;
        if action != Action::Stay
            && let Some(next) = self.board.step(self.pos[me], action)
        {
            self.pos[me] = next;
            if let Some(object) = self.board.take(next) {
                self.bags[me].add(object);
            }
        }
        self.turn += 1;
        self.to_move ^= 1;
    }

    /// Sets `player`'s bag (analysis and tests: bags are hidden, any value is consistent).
    pub fn set_bag(&mut self, player: usize, bag: Bag) {
        self.bags[player] = bag;
    }

    /// Puts `object` on `cell` or clears it.
    ///
    /// # Errors
    /// [`Error::Edit`] when `cell` is off the grid, a wall, or holds a player (players never
    /// stand on objects).
    pub fn set_object(&mut self, cell: Cell, object: Option<Object>) -> Result<(), Error> {
        self.check_cell(cell)?;
        if object.is_some() && self.pos.contains(&cell) {
            return Err(Error::Edit(format!("cell {cell} holds a player")));
        }
        self.board.set_object(cell, object);
        Ok(())
    }

    /// Moves `player` to `cell`.
    ///
    /// # Errors
    /// [`Error::Edit`] when `cell` is off the grid, a wall or holds an object.
    pub fn set_position(&mut self, player: usize, cell: Cell) -> Result<(), Error> {
        self.check_cell(cell)?;
        if self.board.object_at(cell).is_some() {
            return Err(Error::Edit(format!("cell {cell} holds an object")));
        }
        self.pos[player] = cell;
        Ok(())
    }

    fn check_cell(&self, cell: Cell) -> Result<(), Error> {
        let on_grid = (cell.row as usize) < self.height() && (cell.col as usize) < self.width();
        if !on_grid || self.board.is_wall(cell) {
            return Err(Error::Edit(format!(
                "cell {cell} is off the grid or a wall"
            )));
        }
        Ok(())
    }
}

impl fmt::Display for Game {
    /// The grid (`#` wall, `.` empty, `F` `P` `C` objects, `1` `2` the players, `@` both on
    /// one cell) under a header with the turn, the player to move and both bags.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "turn {}/{} to move: {} first: {}",
            self.turn,
            2 * self.max_rounds(),
            self.to_move + 1,
            self.first + 1
        )?;
        writeln!(f, "bag 1: {}  bag 2: {}", self.bags[0], self.bags[1])?;
        for row in 0..self.height() {
            for col in 0..self.width() {
                let cell = Cell::new(row as u8, col as u8);
                let ch = match (cell == self.pos[0], cell == self.pos[1]) {
                    (true, true) => '@',
                    (true, false) => '1',
                    (false, true) => '2',
                    _ if self.board.is_wall(cell) => '#',
                    _ => self.board.object_at(cell).map_or('.', Object::letter),
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        match self.end() {
            Some(GameEnd::Duel(d)) => writeln!(
                f,
                "duel by {}: {} vs {}",
                d.trigger + 1,
                d.draws[0],
                d.draws[1]
            ),
            Some(GameEnd::TimeOut) => writeln!(f, "time out"),
            None => Ok(()),
        }
    }
}
