//! Information-set MCTS over any [`ImperfectGame`]: single-observer IS-MCTS (Cowling, Powley
//! and Whitehouse, 2012).
//!
//! The searching player cannot see the true state, so every iteration starts from a fresh
//! *determinization*, a full state drawn from the player's belief (the caller's sampler, e.g.
//! [`ImperfectGame::resample`]), and descends one shared tree whose nodes are action
//! sequences: only the children whose action is legal in this determinization compete, and
//! each child's exploration term counts the iterations in which it was available (its
//! *availability*) instead of its parent's visits. Chance is drawn from the search's generator
//! as the game plays. A new node is valued by a [`LeafValue`] (which also says what a game's end
//! is worth), and the value is backed up from each mover's point of view. The answer aggregates the
//! iterations over determinizations: the root action visited most.
//!
//! The tree here is its own (nodes with availability counts, any number of players); the
//! Gumbel tree of [`crate::Mcts`] needs a deterministic, perfect-information
//! [`pjlab_core::Game`] and a batched evaluator, which a determinized imperfect game is not.
//!
//! [`ismcts_until`] is the same search ended early by a flag another thread raises (Ctrl-C in
//! the Python package), read between iterations as [`crate::Mcts`] reads its own.

use std::sync::atomic::{AtomicBool, Ordering};

use pjlab_core::ImperfectGame;
use rand::{Rng, RngExt};

/// The settings of a search.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct IsmctsConfig {
    /// Iterations, one determinization each.
    pub iterations: u32,
    /// UCB1 exploration constant, for returns in [-1, 1] (default 0.7).
    pub exploration: f32,
}

impl Default for IsmctsConfig {
    fn default() -> IsmctsConfig {
        IsmctsConfig {
            iterations: 400,
            exploration: 0.7,
        }
    }
}

/// Values of a state no search went past: an estimate of each player's return.
pub trait LeafValue<G: ImperfectGame> {
    /// Fills `out` (one entry per player) with the estimated returns of the non-terminal
    /// `state`.
    fn values(&mut self, state: &G, out: &mut [f32]);

    /// Fills `out` with what the search counts as the returns of the terminal `state`: the
    /// game's own by default; a player may add what the game's returns leave out (a match's
    /// tie-break, say).
    fn terminal_values(&mut self, state: &G, out: &mut [f32]) {
        for (p, v) in out.iter_mut().enumerate() {
            *v = state.returns(p);
        }
    }
}

/// Values every leaf at 0 for everyone: the search then sees only the game's ends.
pub struct ZeroLeaf;

impl<G: ImperfectGame> LeafValue<G> for ZeroLeaf {
    fn values(&mut self, _: &G, out: &mut [f32]) {
        out.fill(0.0);
    }
}

/// What a search found at the root.
#[derive(Clone, Debug, PartialEq)]
pub struct IsmctsResult {
    /// The root action visited most (ties to the better mean value), `None` if no iteration
    /// found a legal action.
    pub best: Option<usize>,
    /// `(action, visits, mean value for the searching player)` of each root child.
    pub children: Vec<(usize, u32, f32)>,
    /// Nodes the tree grew to.
    pub nodes: usize,
}

struct Node {
    action: usize,
    /// The player who played `action` into this node.
    mover: usize,
    children: Vec<u32>,
    visits: u32,
    availability: u32,
    value: f32,
}

/// Searches for `player`, drawing each iteration's determinization with `sample`, valuing new
/// nodes with `leaf`, and drawing chance and ties from `rng`.
///
/// # Panics
/// When a determinization does not have `player` to act.
pub fn ismcts<G, R, S, L>(
    player: usize,
    config: &IsmctsConfig,
    sample: S,
    leaf: &mut L,
    rng: &mut R,
) -> IsmctsResult
where
    G: ImperfectGame,
    R: Rng,
    S: FnMut(&mut R) -> G,
    L: LeafValue<G> + ?Sized,
{
    ismcts_until(player, config, sample, leaf, rng, &AtomicBool::new(false))
}

/// [`ismcts()`], ended before its budget once another thread raises `stop` (looked at before
/// every iteration after the first, so that the answer rests on at least one). Unraised, the
/// search, its answer and its draws from `rng` are [`ismcts()`]'s.
///
/// # Panics
/// When a determinization does not have `player` to act.
pub fn ismcts_until<G, R, S, L>(
    player: usize,
    config: &IsmctsConfig,
    mut sample: S,
    leaf: &mut L,
    rng: &mut R,
    stop: &AtomicBool,
) -> IsmctsResult
where
    G: ImperfectGame,
    R: Rng,
    S: FnMut(&mut R) -> G,
    L: LeafValue<G> + ?Sized,
{
    let mut nodes = vec![Node {
        action: usize::MAX,
        mover: usize::MAX,
        children: Vec::new(),
        visits: 0,
        availability: 0,
        value: 0.0,
    }];
    let mut legal = Vec::new();
    let mut path = Vec::new();
    let mut values = Vec::new();
    let mut untried = Vec::new();
    for iteration in 0..config.iterations {
        if iteration > 0 && stop.load(Ordering::Relaxed) {
            break;
        }
        let mut state = sample(rng);
        assert_eq!(
            state.current_player(),
            Some(player),
            "a determinization has the searching player to act"
        );
        values.clear();
        values.resize(state.num_players(), 0.0);
        path.clear();
        let mut node = 0usize;
        loop {
            let Some(mover) = state.current_player() else {
                leaf.terminal_values(&state, &mut values);
                break;
            };
            state.legal_actions(&mut legal);
            if legal.is_empty() {
                // A state that breaks the trait's invariant (no legal action, not over): value
                // it as a leaf rather than fail.
                leaf.values(&state, &mut values);
                break;
            }
            untried.clear();
            untried.extend(legal.iter().copied().filter(|&a| {
                !nodes[node]
                    .children
                    .iter()
                    .any(|&c| nodes[c as usize].action == a)
            }));
            for k in 0..nodes[node].children.len() {
                let c = nodes[node].children[k];
                if legal.contains(&nodes[c as usize].action) {
                    nodes[c as usize].availability += 1;
                }
            }
            if !untried.is_empty() {
                let action = untried[rng.random_range(0..untried.len())];
                let child = nodes.len();
                nodes.push(Node {
                    action,
                    mover,
                    children: Vec::new(),
                    visits: 0,
                    availability: 1,
                    value: 0.0,
                });
                nodes[node].children.push(child as u32);
                path.push(child);
                state.play_unchecked(action, rng);
                if state.is_terminal() {
                    leaf.terminal_values(&state, &mut values);
                } else {
                    leaf.values(&state, &mut values);
                }
                break;
            }
            let c = config.exploration;
            let best = nodes[node]
                .children
                .iter()
                .copied()
                .filter(|&k| legal.contains(&nodes[k as usize].action))
                .max_by(|&a, &b| {
                    let ucb = |k: u32| {
                        let n = &nodes[k as usize];
                        let visits = n.visits.max(1) as f32;
                        n.value / visits + c * ((n.availability.max(1) as f32).ln() / visits).sqrt()
                    };
                    ucb(a).total_cmp(&ucb(b))
                })
                .expect("every legal action has a child");
            node = best as usize;
            path.push(node);
            state.play_unchecked(nodes[node].action, rng);
        }
        nodes[0].visits += 1;
        for &k in &path {
            let n = &mut nodes[k];
            n.visits += 1;
            n.value += values[n.mover];
        }
    }
    let children: Vec<(usize, u32, f32)> = nodes[0]
        .children
        .iter()
        .map(|&k| {
            let n = &nodes[k as usize];
            (n.action, n.visits, n.value / n.visits.max(1) as f32)
        })
        .collect();
    let best = children
        .iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(a.2.total_cmp(&b.2)))
        .map(|c| c.0);
    IsmctsResult {
        best,
        children,
        nodes: nodes.len(),
    }
}
