//! The one game loop of the lab: agents, one per seat, play a game from a start position, with
//! the forfeit rules every match, balance study and training strength check shares.
//!
//! A seat whose agent gives no move, or an illegal one, in a game that is not over forfeits, and
//! its side loses. A game that reaches the ply cap stops as a draw.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use pjlab_core::{Game, Outcome, Side};

use crate::{Agent, History};

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// By the rules: a win or the draw rule.
    Rules,
    /// A seat gave no legal move (hung, crashed, illegal answer) and its side lost.
    Forfeit,
    /// Stopped at the ply cap, scored a draw.
    MaxPlies,
}

impl Ending {
    /// The `termination` column's value in game records.
    pub fn name(self) -> &'static str {
        match self {
            Ending::Rules => "rules",
            Ending::Forfeit => "forfeit",
            Ending::MaxPlies => "max-plies",
        }
    }

    /// Parses [`Ending::name`].
    pub fn from_name(name: &str) -> Option<Ending> {
        [Ending::Rules, Ending::Forfeit, Ending::MaxPlies]
            .into_iter()
            .find(|e| e.name() == name)
    }
}

/// The time a side's agents took to move in a game (wall-clock time around each decision, the
/// random opening excluded) and the search effort they reported for it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Moves decided.
    pub moves: u32,
    /// Their total time.
    pub total: Duration,
    /// The longest one.
    pub max: Duration,
    /// Moves longer than the game's overrun threshold (none without one).
    pub over: u32,
    /// The plies looked ahead, summed over the moves ([`crate::Decision::depth`]: the last
    /// completed iteration for alpha-beta).
    pub depth: u64,
    /// Nodes searched, summed over the moves.
    pub nodes: u64,
    /// The search's own measure of effort, summed over the moves ([`crate::Decision::effort`]:
    /// simulations for MCTS, depth reached for alpha-beta).
    pub effort: u64,
}

impl Clock {
    /// Counts one decision that took `spent`, with no search effort.
    pub fn add(&mut self, spent: Duration) {
        self.moves += 1;
        self.total += spent;
        self.max = self.max.max(spent);
    }

    /// Counts one decision and its search effort.
    pub fn add_move(&mut self, m: &MoveEffort) {
        self.add(m.spent);
        self.depth += u64::from(m.depth);
        self.nodes += m.nodes;
        self.effort += m.effort;
    }

    /// Adds another game's clock.
    pub fn merge(&mut self, other: &Clock) {
        self.moves += other.moves;
        self.total += other.total;
        self.max = self.max.max(other.max);
        self.over += other.over;
        self.depth += other.depth;
        self.nodes += other.nodes;
        self.effort += other.effort;
    }

    /// Mean time a move (zero before any).
    pub fn mean(&self) -> Duration {
        self.total / self.moves.max(1)
    }

    /// Whether any move reported a search (records made before effort was kept report none).
    pub fn searched(&self) -> bool {
        self.depth > 0 || self.nodes > 0 || self.effort > 0
    }
}

/// One decision of a game as the game loop saw it: whose it was, the time around it and the
/// search effort the agent reported.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveEffort {
    /// The deciding side: 0 the first, 1 the second.
    pub side: u8,
    /// Wall-clock time around the decision.
    pub spent: Duration,
    /// [`crate::Decision::depth`].
    pub depth: u32,
    /// [`crate::Decision::nodes`].
    pub nodes: u64,
    /// [`crate::Decision::effort`].
    pub effort: u64,
}

/// A finished game. Two are equal when they are the same game, whatever time their moves took.
#[derive(Clone, Debug)]
pub struct Played<M> {
    /// Every move, the opening given to [`play_game`] first.
    pub moves: Vec<M>,
    /// From the first side's view: 1 a win, 0 a draw, -1 a loss.
    pub result: i8,
    /// How it ended.
    pub ending: Ending,
    /// The forfeiting seat and why, if any.
    pub forfeit: Option<(usize, String)>,
    /// Each side's thinking time, first side first.
    pub clocks: [Clock; 2],
    /// Every decision's time and effort, in the order they were made (the opening excluded).
    pub efforts: Vec<MoveEffort>,
}

impl<M: PartialEq> PartialEq for Played<M> {
    fn eq(&self, other: &Self) -> bool {
        self.moves == other.moves
            && self.result == other.result
            && self.ending == other.ending
            && self.forfeit == other.forfeit
    }
}

/// Plays a game from `start`: the `opening` moves first (they must be legal), then `agents[s]`
/// moves whenever seat `s` is to move ([`Game::seat`]), until the game ends, `max_plies` moves
/// have been played (a draw), or `stop` is raised (`None`). Decisions longer than
/// `overrun_after` count as overruns in the sides' clocks.
///
/// # Panics
/// If `agents` has fewer entries than the game has seats.
pub fn play_game<G: Game>(
    start: &G,
    opening: &[G::Move],
    agents: &mut [&mut dyn Agent<G>],
    max_plies: usize,
    overrun_after: Option<Duration>,
    stop: &AtomicBool,
) -> Option<Played<G::Move>> {
    assert!(agents.len() >= start.seats(), "one agent per seat");
    let mut moves = opening.to_vec();
    let mut position = start.clone();
    for &mv in opening {
        position.play_unchecked(mv);
    }
    let mut legal = Vec::new();
    let mut forfeit = None;
    let mut clocks = [Clock::default(); 2];
    let mut efforts = Vec::new();
    let ending = loop {
        if position.outcome().is_some() {
            break Ending::Rules;
        }
        if moves.len() >= max_plies {
            break Ending::MaxPlies;
        }
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let seat = position.seat();
        let history = History {
            start,
            moves: &moves,
            position: &position,
        };
        let thinking = Instant::now();
        let decision = agents[seat].decide_in_game(history);
        let side = usize::from(position.side_to_move() == Side::Second);
        // To the microsecond, as the records keep it: a report from the games in memory is then
        // the report from the file.
        let spent = Duration::from_micros(thinking.elapsed().as_micros() as u64);
        let effort = MoveEffort {
            side: side as u8,
            spent,
            depth: decision.depth,
            nodes: decision.nodes,
            effort: decision.effort,
        };
        clocks[side].add_move(&effort);
        efforts.push(effort);
        if overrun_after.is_some_and(|limit| spent > limit) {
            clocks[side].over += 1;
        }
        position.legal_moves(&mut legal);
        match decision.best_move {
            Some(mv) if legal.contains(&mv) => {
                position.play_unchecked(mv);
                moves.push(mv);
            }
            other => {
                let why = decision.forfeit.unwrap_or_else(|| match other {
                    Some(mv) => format!(
                        "illegal move {} in {}",
                        position.move_to_text(mv),
                        position.to_text()
                    ),
                    None => format!("no move in {}", position.to_text()),
                });
                forfeit = Some((seat, why, position.side_to_move()));
                break Ending::Forfeit;
            }
        }
    };
    let result = match (&forfeit, ending) {
        (Some((_, _, Side::First)), _) => -1,
        (Some((_, _, Side::Second)), _) => 1,
        (None, Ending::Rules) => match position.outcome() {
            Some(Outcome::Win(Side::First)) => 1,
            Some(Outcome::Win(Side::Second)) => -1,
            _ => 0,
        },
        _ => 0,
    };
    Some(Played {
        moves,
        result,
        ending,
        forfeit: forfeit.map(|(seat, why, _)| (seat, why)),
        clocks,
        efforts,
    })
}
