//! Moving on what a player knows: shortest paths (BFS) and random steps.

use std::collections::VecDeque;

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::{Action, ActionSet, Cell, Knowledge, Object, Observation};

/// The cell one step from `cell` towards `action`, if on the grid.
pub(crate) fn neighbour(obs: &Observation, cell: Cell, action: Action) -> Option<Cell> {
    let (r, c) = (cell.row, cell.col);
    match action {
        Action::N if r > 0 => Some(Cell::new(r - 1, c)),
        Action::S if r + 1 < obs.height => Some(Cell::new(r + 1, c)),
        Action::E if c + 1 < obs.width => Some(Cell::new(r, c + 1)),
        Action::W if c > 0 => Some(Cell::new(r, c - 1)),
        _ => None,
    }
}

/// The first action of a shortest path from the player's cell to the nearest cell where
/// `goal` holds, through cells not known to be walls and not last seen holding an object of a
/// type `blocked` refuses (the goal cell itself may hold one).
pub(crate) fn path_to(
    obs: &Observation,
    known: &Knowledge,
    goal: impl Fn(Cell) -> bool,
    blocked: impl Fn(Object) -> bool,
) -> Option<Action> {
    let w = obs.width as usize;
    let index = |c: Cell| c.row as usize * w + c.col as usize;
    let mut first: Vec<Option<Action>> = vec![None; w * obs.height as usize];
    let mut seen = vec![false; first.len()];
    let mut queue = VecDeque::from([obs.position]);
    seen[index(obs.position)] = true;
    while let Some(cell) = queue.pop_front() {
        for a in Action::MOVES {
            let Some(next) = neighbour(obs, cell, a) else {
                continue;
            };
            let i = index(next);
            if seen[i] || known.is_wall(next, w) {
                continue;
            }
            seen[i] = true;
            let step = first[index(cell)].or(Some(a));
            if goal(next) {
                return step;
            }
            let object = known.last_seen(next, w).flatten();
            if object.is_some_and(&blocked) {
                continue;
            }
            first[i] = step;
            queue.push_back(next);
        }
    }
    None
}

/// A uniformly random legal move whose target cell does not hold an object `avoid` refuses;
/// any legal move if there is none; otherwise `STAY` or `DUEL` as legal.
pub(crate) fn random_step(
    obs: &Observation,
    legal: ActionSet,
    rng: &mut ChaCha8Rng,
    avoid: impl Fn(Object) -> bool,
) -> Action {
    let moves: Vec<Action> = legal.iter().filter(|a| a.is_move()).collect();
    let safe: Vec<Action> = moves
        .iter()
        .copied()
        .filter(|&a| {
            neighbour(obs, obs.position, a)
                .and_then(|c| obs.object_at(c))
                .is_none_or(|o| !avoid(o))
        })
        .collect();
    let pool = if safe.is_empty() { &moves } else { &safe };
    if pool.is_empty() {
        return legal.iter().next().unwrap_or(Action::Stay);
    }
    pool[rng.random_range(0..pool.len())]
}

/// A legal move that keeps the farthest from the opponent in view (Chebyshev, then Manhattan
/// distance; ties at random); a random step when it is out of view.
pub(crate) fn flee(obs: &Observation, legal: ActionSet, rng: &mut ChaCha8Rng) -> Action {
    let Some(opp) = obs.opponent else {
        return random_step(obs, legal, rng, |_| false);
    };
    let score = |a: Action| {
        neighbour(obs, obs.position, a).map_or((0, 0), |c| (c.chebyshev(opp), c.manhattan(opp)))
    };
    let moves: Vec<Action> = legal.iter().filter(|a| a.is_move()).collect();
    let best = moves.iter().map(|&a| score(a)).max();
    let top: Vec<Action> = moves
        .into_iter()
        .filter(|&a| Some(score(a)) == best)
        .collect();
    if top.is_empty() {
        return legal.iter().next().unwrap_or(Action::Duel);
    }
    top[rng.random_range(0..top.len())]
}

/// A step that keeps the player between two cells: towards the cell paired with its own
/// (rows 2k and 2k+1, else columns 2k and 2k+1), onto no object where it can.
pub(crate) fn hold(obs: &Observation, legal: ActionSet, rng: &mut ChaCha8Rng) -> Action {
    let p = obs.position;
    let vertical = if p.row.is_multiple_of(2) {
        Action::S
    } else {
        Action::N
    };
    let horizontal = if p.col.is_multiple_of(2) {
        Action::E
    } else {
        Action::W
    };
    for a in [vertical, horizontal] {
        let free = neighbour(obs, p, a).is_some_and(|c| obs.object_at(c).is_none());
        if free && legal.contains(a) {
            return a;
        }
    }
    random_step(obs, legal, rng, |_| true)
}
