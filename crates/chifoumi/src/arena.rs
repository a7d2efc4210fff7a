//! The arena extension: [`Arena`], several players on one grid for a fixed number of turns.
//!
//! Decided here (the course template says only "5 players, about 1,000 turns; the loser of a
//! duel empties its bag and sits out 50 turns; a mover may duel any visible player"):
//! - a turn is one player's action; players act in seat order, skipping those sitting out;
//! - a duel's loser leaves the grid for `sit_out` turns (of the arena's count) and comes back on
//!   a random free cell without an object; a drawn duel changes nothing but the duel count;
//! - every duel is public (all players learn both draws); objects are dealt once, never again;
//! - the return of a player is the sum of its duel results (+1 won, -1 lost).

use rand::Rng;

use crate::board::{Board, MAX_WINDOW};
use crate::map::Cell;
use crate::rules::MAX_PLAYERS;
use crate::{Action, Bag, Duel, Error, Rules};

/// The rules of an arena. `Default` is the course template's.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ArenaRules {
    /// Map, objects, radius and `STAY` (its `max_rounds`, `games` and match options are not
    /// used).
    pub rules: Rules,
    /// Players (players; default 5, at most 8).
    pub players: u8,
    /// Length of the arena (turns, one player's action each; default 1,000).
    pub turns: u32,
    /// How long a duel's loser is off the grid (turns of the arena's count; default 50).
    pub sit_out: u32,
}

impl Default for ArenaRules {
    fn default() -> ArenaRules {
        ArenaRules {
            rules: Rules::default(),
            players: 5,
            turns: 1000,
            sit_out: 50,
        }
    }
}

/// The state of an arena: the whole truth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arena {
    pub(crate) board: Board,
    players: u8,
    pub(crate) pos: [Cell; MAX_PLAYERS],
    pub(crate) bags: [Bag; MAX_PLAYERS],
    score: [i16; MAX_PLAYERS],
    /// Turn at which a player sitting out comes back; 0 for players on the grid.
    back_at: [u32; MAX_PLAYERS],
    to_move: u8,
    turn: u32,
    max_turns: u32,
    sit_out: u32,
    last_duel: Option<Duel>,
}

/// What one arena player perceives.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ArenaObservation {
    /// The observing player.
    pub player: u8,
    /// Number of players in the arena.
    pub players: u8,
    /// Columns and rows of the grid.
    pub size: (u8, u8),
    /// The visibility radius (cells).
    pub radius: u8,
    /// Turns played and the arena's length.
    pub turn: (u32, u32),
    /// The player to move.
    pub to_move: u8,
    /// Where the observer stands (meaningless while it sits out).
    pub position: Cell,
    /// The observer's bag.
    pub bag: Bag,
    /// The window, coded as [`crate::Observation::window`].
    pub window: [u8; MAX_WINDOW],
    /// The other players in view.
    pub visible: [Option<Cell>; MAX_PLAYERS],
    /// Bit `p` set: player `p` sits out (public).
    pub sitting_out: u8,
    /// Every player's score (public).
    pub scores: [i16; MAX_PLAYERS],
    /// The last duel fought (public).
    pub last_duel: Option<Duel>,
}

impl ArenaObservation {
    /// Tensor length: planes F, P, C, blocked, other players over the window, then the bag / 10,
    /// whether it is the observer's turn, the turn fraction and the position fractions.
    pub fn tensor_len(radius: u8) -> usize {
        crate::Observation::tensor_len(radius)
    }

    /// Writes the tensor described at [`ArenaObservation::tensor_len`].
    ///
    /// # Panics
    /// When `out` is too short.
    pub fn write_tensor(&self, out: &mut [f32]) {
        let side = 2 * self.radius as usize + 1;
        let area = side * side;
        let as_two = crate::Observation {
            player: 0,
            width: self.size.0,
            height: self.size.1,
            radius: self.radius,
            max_rounds: 1,
            turn: 0,
            to_move: (self.to_move != self.player) as u8,
            position: self.position,
            bag: self.bag,
            opponent: None,
            window: self.window,
            info: Default::default(),
            duel: None,
            over: false,
        };
        as_two.write_tensor(out);
        let r = self.radius as i32;
        for cell in self.visible.iter().flatten() {
            let dr = cell.row as i32 - self.position.row as i32 + r;
            let dc = cell.col as i32 - self.position.col as i32 + r;
            out[4 * area + (dr * side as i32 + dc) as usize] = 1.0;
        }
        out[5 * area + 4] = self.turn.0 as f32 / self.turn.1.max(1) as f32;
    }
}

impl Arena {
    /// A fresh arena: objects dealt, players placed at random, empty bags, player 0 to move.
    ///
    /// # Errors
    /// [`Error::Rules`] when the rules do not check.
    pub fn new<R: Rng + ?Sized>(rules: &ArenaRules, rng: &mut R) -> Result<Arena, Error> {
        let layout = rules.rules.layout(rules.players as usize)?;
        let mut board = Board::new(layout);
        board.deal_objects(rng);
        let mut pos = [Cell::default(); MAX_PLAYERS];
        for p in 0..rules.players as usize {
            pos[p] = board.random_empty(rng, &pos[..p]);
        }
        Ok(Arena {
            board,
            players: rules.players,
            pos,
            bags: [Bag::EMPTY; MAX_PLAYERS],
            score: [0; MAX_PLAYERS],
            back_at: [0; MAX_PLAYERS],
            to_move: 0,
            turn: 0,
            max_turns: rules.turns,
            sit_out: rules.sit_out,
            last_duel: None,
        })
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.players as usize
    }

    /// The visibility radius.
    pub fn radius(&self) -> u8 {
        self.board.layout.radius
    }

    /// The player to move.
    pub fn to_move(&self) -> usize {
        self.to_move as usize
    }

    /// Turns played.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Whether the arena's turns are all played.
    pub fn is_over(&self) -> bool {
        self.turn >= self.max_turns
    }

    /// `player`'s score so far.
    pub fn score(&self, player: usize) -> i32 {
        self.score[player] as i32
    }

    /// `player`'s bag.
    pub fn bag(&self, player: usize) -> Bag {
        self.bags[player]
    }

    /// Where `player` stands (its last cell while it sits out).
    pub fn position(&self, player: usize) -> Cell {
        self.pos[player]
    }

    /// Whether `player` sits out now.
    pub fn sits_out(&self, player: usize) -> bool {
        self.back_at[player] != 0
    }

    /// The last duel fought.
    pub fn last_duel(&self) -> Option<Duel> {
        self.last_duel
    }

    /// The dense index of a move or `STAY` (its [`Action::index`], `STAY` at 4) or of a duel
    /// against `target` (`5 + target`).
    pub fn action_index(action: Action, target: usize) -> usize {
        match action {
            Action::Duel => 5 + target,
            Action::Stay => 4,
            a => a.index(),
        }
    }

    fn sees(&self, a: usize, b: usize) -> bool {
        a != b
            && !self.sits_out(a)
            && !self.sits_out(b)
            && self.pos[a].chebyshev(self.pos[b]) <= self.board.layout.radius
    }

    /// The legal action indices of the player to move, in increasing order.
    pub fn legal_actions(&self, out: &mut Vec<usize>) {
        out.clear();
        if self.is_over() {
            return;
        }
        let me = self.to_move();
        for a in Action::MOVES {
            if self.board.step(self.pos[me], a).is_some() {
                out.push(a.index());
            }
        }
        if self.board.layout.stay {
            out.push(4);
        }
        out.extend(
            (0..self.players())
                .filter(|&p| self.sees(me, p))
                .map(|p| 5 + p),
        );
    }

    /// Plays action index `action` if legal.
    ///
    /// # Errors
    /// [`Error::IllegalIndex`] when the arena is over or the action is not legal now.
    pub fn play<R: Rng + ?Sized>(&mut self, action: usize, rng: &mut R) -> Result<(), Error> {
        let mut legal = Vec::new();
        self.legal_actions(&mut legal);
        if !legal.contains(&action) {
            return Err(Error::IllegalIndex {
                action,
                player: self.to_move(),
                reason: if self.is_over() {
                    "the arena is over"
                } else {
                    "not legal now"
                },
            });
        }
        self.play_unchecked(action, rng);
        Ok(())
    }

    /// Plays the legal action index `action`.
    pub fn play_unchecked<R: Rng + ?Sized>(&mut self, action: usize, rng: &mut R) {
        let me = self.to_move();
        match action {
            0..=3 => {
                let a = Action::MOVES[action];
                if let Some(next) = self.board.step(self.pos[me], a) {
                    self.pos[me] = next;
                    if let Some(o) = self.board.take(next) {
                        self.bags[me].add(o);
                    }
                }
            }
            4 => {}
            _ => {
                let target = action - 5;
                let duel = Duel::fight(
                    me as u8,
                    target as u8,
                    [self.bags[me], self.bags[target]],
                    rng,
                );
                if let (Some(w), Some(l)) = (duel.winner(), duel.loser()) {
                    self.score[w as usize] += 1;
                    self.score[l as usize] -= 1;
                    self.bags[l as usize] = Bag::EMPTY;
                    self.back_at[l as usize] = self.turn + 1 + self.sit_out;
                }
                self.last_duel = Some(duel);
            }
        }
        self.turn += 1;
        self.return_players(rng);
        self.advance();
    }

    /// Puts back the players whose sit-out is over.
    fn return_players<R: Rng + ?Sized>(&mut self, rng: &mut R) {
        for p in 0..self.players() {
            if self.back_at[p] != 0 && self.back_at[p] <= self.turn {
                self.pos[p] = self.board.random_empty(rng, &[]);
                self.back_at[p] = 0;
            }
        }
    }

    /// Passes the turn to the next player on the grid.
    fn advance(&mut self) {
        let n = self.players();
        for k in 1..=n {
            let p = (self.to_move as usize + k) % n;
            if !self.sits_out(p) {
                self.to_move = p as u8;
                return;
            }
        }
    }

    /// Everything `player` perceives now.
    pub fn observation(&self, player: usize) -> ArenaObservation {
        let mut visible = [None; MAX_PLAYERS];
        let mut sitting_out = 0u8;
        for (p, seen) in visible.iter_mut().enumerate().take(self.players()) {
            if self.sees(player, p) {
                *seen = Some(self.pos[p]);
            }
            sitting_out |= (self.sits_out(p) as u8) << p;
        }
        let layout = &self.board.layout;
        ArenaObservation {
            player: player as u8,
            players: self.players,
            size: (layout.width, layout.height),
            radius: layout.radius,
            turn: (self.turn, self.max_turns),
            to_move: self.to_move,
            position: self.pos[player],
            bag: self.bags[player],
            window: self.board.window(self.pos[player]),
            visible,
            sitting_out,
            scores: self.score,
            last_duel: self.last_duel,
        }
    }

    /// A full state consistent with `player`'s current observation, for information-set
    /// search. Kept: the cells of its window, its own position and bag, every public fact.
    /// Re-drawn (decided here, a uniform prior that needs no history): the other players out
    /// of view go to uniformly random free cells out of view; every dealt object neither in
    /// view nor in the player's bag is, with probability 1/3 each, on a random free cell out of
    /// view, in the bag of a random other player on the grid, or gone with an emptied bag.
    pub fn resample<R: Rng + ?Sized>(&self, player: usize, rng: &mut R) -> Arena {
        use rand::RngExt;
        let mut out = self.clone();
        let layout = self.board.layout.clone();
        let me = self.pos[player];
        let out_of_view = |i: usize| layout.cell(i).chebyshev(me) > layout.radius;
        let mut unknown = [layout.objects_per_type(); 3];
        for i in 0..layout.cells() {
            if out_of_view(i) {
                out.board.take(layout.cell(i));
            } else if let Some(o) = crate::board::object_of(self.board.cells[i]) {
                unknown[o.index()] = unknown[o.index()].saturating_sub(1);
            }
        }
        for (u, mine) in unknown.iter_mut().zip(self.bags[player].counts()) {
            *u = u.saturating_sub(mine);
        }
        let others: Vec<usize> = (0..self.players())
            .filter(|&p| p != player && !self.sits_out(p) && !self.sees(player, p))
            .collect();
        for &p in &others {
            out.pos[p] = out.board.random_empty(rng, &[]);
        }
        let mut free: Vec<usize> = (0..layout.cells())
            .filter(|&i| out_of_view(i) && out.board.cells[i] == 0)
            .filter(|&i| !others.iter().any(|&p| out.pos[p] == layout.cell(i)))
            .collect();
        let holders: Vec<usize> = (0..self.players())
            .filter(|&p| p != player && !self.sits_out(p))
            .collect();
        for p in (0..self.players()).filter(|&p| p != player) {
            out.bags[p] = Bag::EMPTY;
        }
        for o in crate::Object::ALL {
            for _ in 0..unknown[o.index()] {
                match rng.random_range(0..3) {
                    0 if !free.is_empty() => {
                        let i = free.swap_remove(rng.random_range(0..free.len()));
                        out.board.set_object(layout.cell(i), Some(o));
                    }
                    1 if !holders.is_empty() => {
                        let p = holders[rng.random_range(0..holders.len())];
                        out.bags[p].add(o);
                    }
                    _ => {}
                }
            }
        }
        out
    }
}
