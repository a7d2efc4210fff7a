//! [`Game::resample_with`]: a full state consistent with what one player has perceived.

use std::collections::VecDeque;

use rand::{Rng, RngExt};

use crate::board::Board;
use crate::game::Game;
use crate::map::Cell;
use crate::observe::{Knowledge, OpponentPrior};
use crate::rules::WALL;
use crate::{Bag, Error, Object, Observation, Rules};

impl Game {
    /// A state that shows `obs` to its player, built from the observation alone (and the rules,
    /// which are public): what a player that was never handed the true state starts
    /// [`Game::resample_with`] from. Its window's cells and its own position and bag are as
    /// observed, the opponent stands where it is seen (or, out of view, on the cell farthest
    /// from the player), with an empty bag, and nothing lies out of view.
    ///
    /// # Errors
    /// [`Error::Rules`] when the rules do not check or do not match the observation's grid,
    /// radius or length.
    pub fn from_observation(rules: &Rules, obs: &Observation) -> Result<Game, Error> {
        let layout = rules.layout(2)?;
        if (
            layout.width,
            layout.height,
            layout.radius,
            layout.max_rounds,
        ) != (obs.width, obs.height, obs.radius, obs.max_rounds)
            || obs.player > 1
            || !rules.map.contains(obs.position)
        {
            return Err(Error::Rules(
                "the observation does not come from these rules".into(),
            ));
        }
        let mut board = Board::new(layout.clone());
        for (cell, code) in obs.visible_cells() {
            if let Some(o) = crate::board::object_of(code) {
                board.set_object(cell, Some(o));
            }
        }
        let player = obs.player as usize;
        let far = (0..layout.cells())
            .map(|i| layout.cell(i))
            .max_by_key(|c| (c.chebyshev(obs.position), c.manhattan(obs.position)))
            .unwrap_or(obs.position);
        let mut pos = [obs.position; 2];
        pos[1 - player] = obs.opponent.unwrap_or(far);
        let mut bags = [Bag::EMPTY; 2];
        bags[player] = obs.bag;
        Ok(Game {
            board,
            pos,
            bags,
            to_move: obs.to_move,
            first: (obs.to_move + (obs.turn % 2) as u8) % 2,
            turn: obs.turn,
            duel: obs.duel,
            info: obs.info,
        })
    }

    /// A full state drawn at random among those consistent with what `player` perceived, for
    /// information-set search. `knowledge` holds its observations of this game (it is brought
    /// up to date with the current observation if it lags behind).
    ///
    /// Kept: every public fact (turn, player to move, the match, the map), `player`'s position
    /// and bag, the cells of its window and the opponent when in view. Re-drawn:
    /// 1. cells out of view: as last seen; never-seen cells receive the objects never seen
    ///    (the deal's counts minus the distinct objects seen; objects of a type seen inside its
    ///    zone count as zone objects first), zone objects on never-seen cells of their zone,
    ///    the others on any never-seen free cell, each instead already in the opponent's bag
    ///    with probability `prior.hidden_pickup` (or when no cell is left for it);
    /// 2. the opponent out of view: uniformly on a free cell out of view and without an object,
    ///    reachable from where it was last seen in the number of turns it has played since
    ///    (with the parity of that number when `STAY` is off);
    /// 3. the opponent's bag: `prior.start_bag`, plus the pickups `player` can be sure of
    ///    ([`Knowledge::opponent_pickups`]), plus the hidden pickups of step 1.
    ///
    /// The result depends on `self` only through `player`'s observation and public facts. With
    /// `keep_objects` the deal's counts overstate what a later game starts with: pass a
    /// `hidden_pickup` that reflects it.
    pub fn resample_with<R: Rng + ?Sized>(
        &self,
        player: usize,
        knowledge: &Knowledge,
        prior: OpponentPrior,
        rng: &mut R,
    ) -> Game {
        let obs = self.observation(player);
        let mut k = knowledge.clone();
        if k.last() != Some(&obs) {
            k.update(&obs);
        }
        let layout = &self.board.layout;
        let w = layout.width as usize;
        let mut board = Board::new(layout.clone());
        // 1a. What the player sees now, and what it remembers elsewhere.
        for i in 0..layout.cells() {
            let cell = layout.cell(i);
            if let Some(Some(o)) = k.last_seen(cell, w) {
                board.set_object(cell, Some(o));
            }
        }
        let mut out = self.clone();
        let opp = 1 - player;
        // 2. The opponent.
        let opp_cell = match obs.opponent {
            Some(cell) => cell,
            None => self.draw_opponent_cell(&board, &k, player, rng),
        };
        // 1b. The never-seen objects.
        let mut hidden = Bag::EMPTY;
        let taken = [obs.position, opp_cell];
        let never_seen = |board: &Board, i: usize, zone: Option<Object>| {
            let cell = layout.cell(i);
            board.cells[i] == 0
                && !k.seen(cell, w)
                && !taken.contains(&cell)
                && zone.is_none_or(|o| layout.zone[i] == 1 + o.index() as u8)
        };
        let (zone_left, random_left) = self.unseen_counts(&k);
        for (zone, counts) in [(true, zone_left), (false, random_left)] {
            for o in Object::ALL {
                let filter = zone.then_some(o);
                let mut cells: Vec<usize> = (0..layout.cells())
                    .filter(|&i| never_seen(&board, i, filter))
                    .collect();
                for _ in 0..counts[o.index()] {
                    if cells.is_empty() || rng.random_bool(prior.hidden_pickup.clamp(0.0, 1.0)) {
                        hidden.add(o);
                        continue;
                    }
                    let i = cells.swap_remove(rng.random_range(0..cells.len()));
                    board.set_object(layout.cell(i), Some(o));
                }
            }
        }
        // 3. The opponent's bag.
        let mut bag = prior.start_bag.counts();
        for (b, (x, y)) in bag.iter_mut().zip(
            k.opponent_pickups()
                .counts()
                .into_iter()
                .zip(hidden.counts()),
        ) {
            *b = b.saturating_add(x).saturating_add(y);
        }
        out.board = board;
        out.pos[opp] = opp_cell;
        out.bags[opp] = Bag::new(bag[0], bag[1], bag[2]);
        out
    }

    /// Per type, the zone objects and the random objects the player never saw.
    fn unseen_counts(&self, k: &Knowledge) -> ([u16; 3], [u16; 3]) {
        let layout = &self.board.layout;
        let w = layout.width as usize;
        let (mut seen, mut in_zone) = ([0u16; 3], [0u16; 3]);
        for i in 0..layout.cells() {
            if let Some(o) = k.ever_object(layout.cell(i), w) {
                seen[o.index()] += 1;
                if layout.zone[i] == 1 + o.index() as u8 {
                    in_zone[o.index()] += 1;
                }
            }
        }
        let (z, r) = (layout.zone_objects as u16, layout.random_objects as u16);
        let mut zone_left = [0; 3];
        let mut random_left = [0; 3];
        for t in 0..3 {
            let zone_seen = in_zone[t].min(z);
            zone_left[t] = z - zone_seen;
            random_left[t] = r - (seen[t] - zone_seen).min(r);
        }
        (zone_left, random_left)
    }

    /// A cell for the unseen opponent (step 2 of [`Game::resample_with`]).
    fn draw_opponent_cell<R: Rng + ?Sized>(
        &self,
        board: &Board,
        k: &Knowledge,
        player: usize,
        rng: &mut R,
    ) -> Cell {
        let layout = &self.board.layout;
        let me = self.pos[player];
        let opp = 1 - player;
        let out_of_view =
            |i: usize| board.cells[i] == 0 && layout.cell(i).chebyshev(me) > layout.radius;
        // Turns the opponent played since it was last seen (or since the start).
        let since = k.opponent_seen().map_or(0, |(_, t)| t);
        let moves = (since..self.turn)
            .filter(|&t| (self.first as usize + t as usize) % 2 == opp)
            .count();
        let mut candidates: Vec<usize> = match k.opponent_seen() {
            None => (0..layout.cells()).filter(|&i| out_of_view(i)).collect(),
            Some((from, _)) => {
                let dist = distances(board, layout.index(from));
                (0..layout.cells())
                    .filter(|&i| out_of_view(i) && dist[i] <= moves)
                    .filter(|&i| layout.stay || (moves - dist[i]).is_multiple_of(2))
                    .collect()
            }
        };
        if candidates.is_empty() {
            candidates = (0..layout.cells()).filter(|&i| out_of_view(i)).collect();
        }
        if candidates.is_empty() {
            return self.pos[opp];
        }
        layout.cell(candidates[rng.random_range(0..candidates.len())])
    }
}

/// BFS distances (in steps through non-wall cells) from cell index `from`; `usize::MAX` where
/// unreachable.
fn distances(board: &Board, from: usize) -> Vec<usize> {
    let layout = &board.layout;
    let mut dist = vec![usize::MAX; layout.cells()];
    let mut queue = VecDeque::from([from]);
    dist[from] = 0;
    while let Some(i) = queue.pop_front() {
        let cell = layout.cell(i);
        for a in crate::Action::MOVES {
            if let Some(next) = board.step(cell, a) {
                let j = layout.index(next);
                if dist[j] == usize::MAX && board.cells[j] != WALL {
                    dist[j] = dist[i] + 1;
                    queue.push_back(j);
                }
            }
        }
    }
    dist
}
