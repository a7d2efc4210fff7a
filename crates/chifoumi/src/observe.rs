//! What a player perceives ([`Observation`]), what it remembers ([`Knowledge`]), and the
//! states consistent with both ([`Game::resample_with`]).

use crate::board::{MAX_WINDOW, OFF_GRID, object_of};
use crate::game::{Game, MatchInfo};
use crate::map::{Cell, MAX_CELLS};
use crate::{Bag, Duel, Object};

/// Everything one player perceives at one moment of a game; compared bit for bit.
///
/// Public facts (grid size, radius, turn, player to move, the match so far, a finished duel's
/// draws), its own position and bag, the cells of its window and the opponent when in view.
/// Never the opponent's bag, nor anything outside the window.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Observation {
    /// The observing player, 0 or 1.
    pub player: u8,
    /// Columns of the grid.
    pub width: u8,
    /// Rows of the grid.
    pub height: u8,
    /// The visibility radius (Chebyshev, cells).
    pub radius: u8,
    /// Rounds after which the game is drawn.
    pub max_rounds: u16,
    /// Turns played so far in this game.
    pub turn: u16,
    /// The player to move.
    pub to_move: u8,
    /// Where the observer stands.
    pub position: Cell,
    /// The observer's own bag.
    pub bag: Bag,
    /// The opponent's cell when it is in view.
    pub opponent: Option<Cell>,
    /// The `(2r+1)^2` cells around `position`, row by row: 0 empty, 1-3 an object (1 + its
    /// index), 4 a wall, [`OFF_GRID`]; the rest of the array is 0.
    pub window: [u8; MAX_WINDOW],
    /// The match so far (scores, duels triggered, revealed draws before this game).
    pub info: MatchInfo,
    /// This game's duel once fought: both draws are revealed to both players.
    pub duel: Option<Duel>,
    /// Whether the game is over.
    pub over: bool,
}

impl Observation {
    /// Side of the window, `2r+1`.
    pub fn side(&self) -> usize {
        2 * self.radius as usize + 1
    }

    /// Whether `cell` lies inside the window.
    pub fn sees(&self, cell: Cell) -> bool {
        self.position.chebyshev(cell) <= self.radius
    }

    /// The window code of `cell` (`None` outside the window).
    pub fn code_at(&self, cell: Cell) -> Option<u8> {
        if !self.sees(cell) {
            return None;
        }
        let r = self.radius as i32;
        let dr = cell.row as i32 - self.position.row as i32 + r;
        let dc = cell.col as i32 - self.position.col as i32 + r;
        Some(self.window[(dr * self.side() as i32 + dc) as usize])
    }

    /// The object seen on `cell`, if any (`None` outside the window too).
    pub fn object_at(&self, cell: Cell) -> Option<Object> {
        self.code_at(cell).and_then(object_of)
    }

    /// The on-grid cells of the window with their codes.
    pub fn visible_cells(&self) -> impl Iterator<Item = (Cell, u8)> + '_ {
        let r = self.radius as i32;
        let side = self.side() as i32;
        (0..side * side).filter_map(move |k| {
            let code = self.window[k as usize];
            let row = self.position.row as i32 + k / side - r;
            let col = self.position.col as i32 + k % side - r;
            (code != OFF_GRID)
                .then(|| Cell::new(row as u8, col as u8))
                .map(|c| (c, code))
        })
    }

    /// Length of the tensor of an observation with radius `radius`: five planes over the
    /// window (F, P, C, blocked, opponent) and seven scalars.
    pub fn tensor_len(radius: u8) -> usize {
        let side = 2 * radius as usize + 1;
        5 * side * side + 7
    }

    /// Writes the tensor: planes F, P, C, blocked (wall or off the grid) and opponent, each
    /// `(2r+1)^2` row by row, then the bag counts / 10, 1 if it is the observer's turn, the
    /// turn / (2 max_rounds), and the position's row / height and column / width.
    ///
    /// # Panics
    /// When `out` is shorter than [`Observation::tensor_len`].
    pub fn write_tensor(&self, out: &mut [f32]) {
        let area = self.side() * self.side();
        let out = &mut out[..Observation::tensor_len(self.radius)];
        out.fill(0.0);
        for k in 0..area {
            match self.window[k] {
                c @ 1..=3 => out[(c as usize - 1) * area + k] = 1.0,
                4 | OFF_GRID => out[3 * area + k] = 1.0,
                _ => {}
            }
        }
        if let Some(opp) = self.opponent {
            let r = self.radius as i32;
            let dr = opp.row as i32 - self.position.row as i32 + r;
            let dc = opp.col as i32 - self.position.col as i32 + r;
            out[4 * area + (dr * self.side() as i32 + dc) as usize] = 1.0;
        }
        let s = &mut out[5 * area..];
        for (i, &c) in self.bag.counts().iter().enumerate() {
            s[i] = c as f32 / 10.0;
        }
        s[3] = (self.to_move == self.player) as u8 as f32;
        s[4] = self.turn as f32 / (2.0 * self.max_rounds as f32);
        s[5] = self.position.row as f32 / self.height as f32;
        s[6] = self.position.col as f32 / self.width as f32;
    }
}

/// Code of a cell never seen in [`Knowledge`].
const UNSEEN: u8 = u8::MAX;

/// What one player has learnt in the current game from its observations after every turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knowledge {
    last_seen: Vec<u8>,
    ever_object: Vec<u8>,
    witnessed: Bag,
    start_bag: Bag,
    opponent_seen: Option<(Cell, u16)>,
    last: Option<Observation>,
}

impl Default for Knowledge {
    fn default() -> Knowledge {
        Knowledge {
            last_seen: vec![UNSEEN; MAX_CELLS],
            ever_object: vec![0; MAX_CELLS],
            witnessed: Bag::EMPTY,
            start_bag: Bag::EMPTY,
            opponent_seen: None,
            last: None,
        }
    }
}

impl Knowledge {
    /// The knowledge of a history of observations (one after every turn, from the game's start).
    pub fn from_history(history: &[Observation]) -> Knowledge {
        let mut k = Knowledge::default();
        for obs in history {
            k.update(obs);
        }
        k
    }

    /// Takes in the next observation. A new game (turn 0, or another game of the match)
    /// starts afresh. An object that vanishes from a cell seen on two consecutive turns,
    /// other than the observer's own new cell, was picked up by the opponent.
    pub fn update(&mut self, obs: &Observation) {
        let new_game = self
            .last
            .is_none_or(|l| obs.turn == 0 && l.turn != 0 || l.info.game != obs.info.game);
        if new_game && self.last.is_some() {
            *self = Knowledge::default();
        }
        let w = obs.width as usize;
        if self.last.is_none() {
            self.start_bag = obs.bag;
        }
        if let Some(prev) = self.last.filter(|p| p.turn + 1 == obs.turn) {
            for (cell, code) in obs.visible_cells() {
                if code == 0
                    && cell != obs.position
                    && let Some(o) = prev.object_at(cell)
                {
                    self.witnessed.add(o);
                }
            }
        }
        for (cell, code) in obs.visible_cells() {
            let i = cell.row as usize * w + cell.col as usize;
            self.last_seen[i] = code;
            if object_of(code).is_some() {
                self.ever_object[i] = code;
            }
        }
        if let Some(opp) = obs.opponent {
            self.opponent_seen = Some((opp, obs.turn));
        }
        self.last = Some(*obs);
    }

    /// The opponent's pickups seen this game.
    pub fn witnessed(&self) -> Bag {
        self.witnessed
    }

    /// The opponent's pickups this game that the player can be sure of: the objects it saw
    /// that are gone (their cell seen empty since), less its own pickups. At least
    /// [`Knowledge::witnessed`], more when an object vanished while out of view.
    pub fn opponent_pickups(&self) -> Bag {
        let Some(last) = self.last else {
            return Bag::EMPTY;
        };
        let mut gone = [0u16; 3];
        for (ever, seen) in self.ever_object.iter().zip(&self.last_seen) {
            if let Some(o) = object_of(*ever)
                && object_of(*seen).is_none()
            {
                gone[o.index()] += 1;
            }
        }
        let (now, start) = (last.bag.counts(), self.start_bag.counts());
        let mine: [u16; 3] = std::array::from_fn(|i| now[i].saturating_sub(start[i]));
        let c: [u16; 3] = std::array::from_fn(|i| gone[i].saturating_sub(mine[i]));
        Bag::new(c[0], c[1], c[2])
    }

    /// Where and at which turn the opponent was last seen this game.
    pub fn opponent_seen(&self) -> Option<(Cell, u16)> {
        self.opponent_seen
    }

    /// The last observation taken in.
    pub fn last(&self) -> Option<&Observation> {
        self.last.as_ref()
    }

    /// What `cell` held when last seen (`None`: never seen; `Some(None)`: empty or a wall).
    pub fn last_seen(&self, cell: Cell, width: usize) -> Option<Option<Object>> {
        let code = self.last_seen[cell.row as usize * width + cell.col as usize];
        (code != UNSEEN).then(|| object_of(code))
    }

    /// Whether `cell` was last seen as a wall.
    pub fn is_wall(&self, cell: Cell, width: usize) -> bool {
        self.last_seen[cell.row as usize * width + cell.col as usize] == crate::rules::WALL
    }

    /// Whether `cell` was ever seen this game.
    pub fn seen(&self, cell: Cell, width: usize) -> bool {
        self.last_seen[cell.row as usize * width + cell.col as usize] != UNSEEN
    }

    /// The type of object ever seen on `cell` this game.
    pub fn ever_object(&self, cell: Cell, width: usize) -> Option<Object> {
        object_of(self.ever_object[cell.row as usize * width + cell.col as usize])
    }
}

/// The prior [`Game::resample_with`] draws the unseen parts of the opponent's bag from.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct OpponentPrior {
    /// The opponent's bag at the start of this game as the player estimates it (objects;
    /// default empty, as at the start of a match or after the opponent lost a duel).
    pub start_bag: Bag,
    /// Probability that an object the player never saw was already picked up by the opponent
    /// out of view (default 0: every never-seen object is still on the grid).
    pub hidden_pickup: f64,
}

impl Default for OpponentPrior {
    fn default() -> OpponentPrior {
        OpponentPrior {
            start_bag: Bag::EMPTY,
            hidden_pickup: 0.0,
        }
    }
}

impl Game {
    /// Everything `player` (0 or 1) perceives now.
    pub fn observation(&self, player: usize) -> Observation {
        let me = self.pos[player];
        Observation {
            player: player as u8,
            width: self.board.layout.width,
            height: self.board.layout.height,
            radius: self.board.layout.radius,
            max_rounds: self.board.layout.max_rounds,
            turn: self.turn,
            to_move: self.to_move,
            position: me,
            bag: self.bags[player],
            opponent: self.in_view().then_some(self.pos[1 - player]),
            window: self.board.window(me),
            info: self.info,
            duel: self.duel,
            over: self.is_over(),
        }
    }
}
