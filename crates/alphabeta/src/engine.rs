//! The search: negamax with principal-variation search, iterative deepening, a transposition
//! table, move ordering and quiescence.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use pjlab_core::{Game, Heuristic, Outcome};

use crate::limits::INFINITY;
pub use crate::limits::{Limits, MATE, MATE_BOUND, MAX_PLY, Options, SearchResult};
use crate::tt::{Bound, Tt};

/// A single-threaded, deterministic alpha-beta engine (deterministic under depth and node
/// limits; a time limit depends on the machine).
pub struct Engine<G: Game, H: Heuristic<G>> {
    heuristic: H,
    options: Options,
    tt: Tt<G::Move>,
    killers: Vec<[Option<G::Move>; 2]>,
    history: Vec<i32>,
    moves: Vec<Vec<G::Move>>,
    /// Per ply: the moves with their ordering scores.
    scored: Vec<Vec<(i32, G::Move)>>,
    pv: Vec<Vec<G::Move>>,
    nodes: u64,
    limits: Limits,
    started: Instant,
    depth: u32,
    stopped: bool,
    stop_flag: Option<Arc<AtomicBool>>,
}

impl<G: Game, H: Heuristic<G>> Engine<G, H> {
    /// The principal variation at `ply`: `mv`, then the one found below it at `ply + 1`.
    #[inline]
    fn set_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// An engine with this evaluation and settings.
    pub fn new(heuristic: H, options: Options) -> Engine<G, H> {
        Engine {
            heuristic,
            options,
            tt: Tt::new(options.tt_mib),
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: Vec::new(),
            moves: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            scored: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            pv: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            nodes: 0,
            limits: Limits::default(),
            started: Instant::now(),
            depth: 0,
            stopped: false,
            stop_flag: None,
        }
    }

    /// A flag another thread may raise to stop the search (the result is then the last
    /// completed iteration's; depth 1 always completes).
    pub fn set_stop_flag(&mut self, flag: Arc<AtomicBool>) {
        self.stop_flag = Some(flag);
    }

    /// The evaluation in use.
    pub fn heuristic(&self) -> &H {
        &self.heuristic
    }

    /// Entries in the transposition table.
    pub fn tt_entries(&self) -> usize {
        self.tt.len()
    }

    /// Forgets everything learnt from earlier searches (table, killers, history).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.fill(0);
    }

    /// Searches `position` by iterative deepening until a limit is reached (depth 64 if none
    /// is set).
    pub fn search(&mut self, position: &G, limits: &Limits) -> SearchResult<G::Move> {
        self.search_with(position, limits, &mut |_| {})
    }

    /// As [`Engine::search`], calling `on_iteration` with the result of every completed
    /// iteration (for progress lines such as UGI's `info`).
    pub fn search_with(
        &mut self,
        position: &G,
        limits: &Limits,
        on_iteration: &mut dyn FnMut(&SearchResult<G::Move>),
    ) -> SearchResult<G::Move> {
        self.limits = *limits;
        self.nodes = 0;
        self.started = Instant::now();
        self.stopped = false;
        self.killers.fill([None; 2]);
        let n = self.heuristic.history_size(position);
        if self.history.len() != n {
            self.history = vec![0; n];
        }
        for h in &mut self.history {
            *h /= 8;
        }
        let max_depth = limits.depth.unwrap_or(64).clamp(1, MAX_PLY as u32 - 1);
        let mut result = SearchResult {
            best_move: None,
            score: 0,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
            elapsed: Duration::ZERO,
        };
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        if moves.is_empty() {
            result.score = terminal_score(position, 0);
            result.elapsed = self.started.elapsed();
            return result;
        }
        for depth in 1..=max_depth {
            self.depth = depth;
            let score = self.negamax(position, depth as i32, 0, -INFINITY, INFINITY);
            if self.stopped {
                break;
            }
            result.score = score;
            result.depth = depth;
            result.pv = self.pv[0].clone();
            result.best_move = result.pv.first().copied();
            result.nodes = self.nodes;
            result.elapsed = self.started.elapsed();
            on_iteration(&result);
            // A forced result within the horizon does not change with depth.
            if score.abs() >= MATE_BOUND && MATE - score.abs() <= depth as i32 {
                break;
            }
        }
        result.nodes = self.nodes;
        result.elapsed = self.started.elapsed();
        result
    }

    /// Whether a limit stops the search (never during depth 1).
    #[inline]
    fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.depth <= 1 {
            return false;
        }
        if self.limits.nodes.is_some_and(|n| self.nodes >= n)
            || (self.nodes & 1023 == 0
                && (self
                    .limits
                    .time
                    .is_some_and(|t| self.started.elapsed() >= t)
                    || self
                        .stop_flag
                        .as_ref()
                        .is_some_and(|f| f.load(Ordering::Relaxed))))
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn negamax(&mut self, position: &G, depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.pv[ply].clear();
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiesce(position, ply, 0, alpha, beta);
        }
        if self.should_stop() {
            return 0;
        }
        self.nodes += 1;
        let key = position.hash();
        let mut tt_move = None;
        if let Some(entry) = self.tt.probe(key) {
            tt_move = entry.mv;
            if ply > 0 && i32::from(entry.depth) >= depth {
                let score = score_from_tt(entry.score, ply);
                let cut = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                    Bound::Empty => false,
                };
                if cut {
                    return score;
                }
            }
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        position.legal_moves(&mut moves);
        if moves.is_empty() {
            self.moves[ply] = moves;
            return terminal_score(position, ply);
        }
        let mut scored = std::mem::take(&mut self.scored[ply]);
        self.score_moves(position, &moves, &mut scored, tt_move, ply);
        self.moves[ply] = moves;

        let alpha_start = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        for i in 0..scored.len() {
            pick_next(&mut scored, i);
            let mv = scored[i].1;
            let mut child = position.clone();
            child.play_unchecked(mv);
            let score = if i == 0 {
                -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha)
            } else {
                let s = -self.negamax(&child, depth - 1, ply + 1, -alpha - 1, -alpha);
                if s > alpha && s < beta {
                    -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha)
                } else {
                    s
                }
            };
            if self.stopped {
                break;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, mv);
                    if score >= beta {
                        if !self.heuristic.is_tactical(position, mv) {
                            let killers = &mut self.killers[ply];
                            if killers[0] != Some(mv) {
                                killers[1] = killers[0];
                                killers[0] = Some(mv);
                            }
                            let slot = self.heuristic.history_index(position, mv);
                            if let Some(h) = self.history.get_mut(slot) {
                                *h = h.saturating_add(depth * depth).min(1 << 20);
                            }
                        }
                        break;
                    }
                }
            }
        }
        self.scored[ply] = scored;
        if self.stopped {
            return 0;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > alpha_start {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            best_move,
            score_to_tt(best_score, ply),
            depth as i16,
            bound,
        );
        best_score
    }

    /// Orders: the table move, tactical moves (by the heuristic's order), killers, history.
    fn score_moves(
        &self,
        position: &G,
        moves: &[G::Move],
        scored: &mut Vec<(i32, G::Move)>,
        tt_move: Option<G::Move>,
        ply: usize,
    ) {
        scored.clear();
        let killers = self.killers[ply];
        scored.extend(moves.iter().map(|&mv| {
            let score = if Some(mv) == tt_move {
                1 << 30
            } else if self.heuristic.is_tactical(position, mv) {
                (1 << 28)
                    + self
                        .heuristic
                        .tactical_order(position, mv)
                        .clamp(0, 1 << 26)
            } else if Some(mv) == killers[0] {
                1 << 25
            } else if Some(mv) == killers[1] {
                (1 << 25) - 1
            } else {
                self.history
                    .get(self.heuristic.history_index(position, mv))
                    .copied()
                    .unwrap_or(0)
            };
            (score, mv)
        }));
    }

    /// Searches tactical moves only, standing pat on the static evaluation.
    fn quiesce(&mut self, position: &G, ply: usize, qply: u32, mut alpha: i32, beta: i32) -> i32 {
        self.pv[ply].clear();
        if self.should_stop() {
            return 0;
        }
        self.nodes += 1;
        if let Some(outcome) = position.outcome() {
            return outcome_score(outcome, position, ply);
        }
        let stand = self.heuristic.evaluate(position);
        if qply >= self.options.quiescence_plies || stand >= beta || ply >= MAX_PLY - 1 {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut moves = std::mem::take(&mut self.moves[ply]);
        position.legal_moves(&mut moves);
        let heuristic = &self.heuristic;
        heuristic.retain_tactical(position, &mut moves);
        let mut scored = std::mem::take(&mut self.scored[ply]);
        scored.clear();
        scored.extend(
            moves
                .iter()
                .map(|&mv| (heuristic.tactical_order(position, mv), mv)),
        );
        self.moves[ply] = moves;
        let mut best = stand;
        for i in 0..scored.len() {
            pick_next(&mut scored, i);
            let mv = scored[i].1;
            let mut child = position.clone();
            child.play_unchecked(mv);
            let score = -self.quiesce(&child, ply + 1, qply + 1, -beta, -alpha);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.scored[ply] = scored;
        best
    }
}

/// Moves the best-ordered remaining move to index `i`: a selection step for the first few
/// (a cutoff usually comes early and saves sorting the rest), then one sort of the remainder.
#[inline]
fn pick_next<M>(scored: &mut [(i32, M)], i: usize) {
    const SELECTION_STEPS: usize = 3;
    if i == SELECTION_STEPS && scored.len() > SELECTION_STEPS + 1 {
        // Stable: equal scores keep their order, so the search stays deterministic.
        scored[i..].sort_by_key(|&(o, _)| std::cmp::Reverse(o));
        return;
    }
    if i > SELECTION_STEPS {
        return;
    }
    let mut best = i;
    for j in i + 1..scored.len() {
        if scored[j].0 > scored[best].0 {
            best = j;
        }
    }
    scored.swap(i, best);
}

fn outcome_score<G: Game>(outcome: Outcome, position: &G, ply: usize) -> i32 {
    match outcome {
        Outcome::Draw => 0,
        Outcome::Win(side) if side == position.side_to_move() => MATE - ply as i32,
        Outcome::Win(_) => -(MATE - ply as i32),
    }
}

/// Score of a position without legal moves (the game is over there).
fn terminal_score<G: Game>(position: &G, ply: usize) -> i32 {
    position
        .outcome()
        .map_or(0, |outcome| outcome_score(outcome, position, ply))
}

/// Mate scores are stored relative to the node, so that they stay right at other plies.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}
