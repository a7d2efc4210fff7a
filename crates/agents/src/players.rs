//! The built-in players behind [`crate::build`]: random and greedy, alpha-beta, MCTS.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use pjlab_alphabeta::{Engine, Limits};
use pjlab_core::{Game, Heuristic};
use pjlab_mcts::{
    Budget, Config as MctsConfig, HeuristicEvaluator, Mcts, RolloutEvaluator, UniformEvaluator,
};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use crate::{Agent, Control, Decision, Score, mcts_budget, run_mcts};
/// Random moves, or with an evaluation (greedy) a win, else a tactical move, else random.
pub(crate) struct SimpleAgent<H> {
    pub(crate) spec: String,
    pub(crate) greedy: Option<H>,
    pub(crate) rng: ChaCha8Rng,
}

impl<G: Game, H: Heuristic<G> + Send> Agent<G> for SimpleAgent<H> {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn new_game(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }

    fn decide(&mut self, position: &G) -> Decision<G::Move> {
        let started = Instant::now();
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        if let Some(eval) = &self.greedy {
            let (mut wins, mut captures) = (Vec::new(), Vec::new());
            for &mv in &moves {
                if position.wins_at_once(mv) {
                    wins.push(mv);
                } else if eval.is_tactical(position, mv) {
                    captures.push(mv);
                }
            }
            if !wins.is_empty() {
                moves = wins;
            } else if !captures.is_empty() {
                moves = captures;
            }
        }
        Decision::just(moves.choose(&mut self.rng).copied(), started)
    }
}

pub(crate) struct AlphaBetaAgent<G: Game, H: Heuristic<G>> {
    pub(crate) spec: String,
    pub(crate) engine: Engine<G, H>,
    pub(crate) limits: Limits,
}

impl<G: Game, H: Heuristic<G> + Send> Agent<G> for AlphaBetaAgent<G, H> {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn new_game(&mut self, _seed: u64) {
        self.engine.clear();
    }

    fn decide(&mut self, position: &G) -> Decision<G::Move> {
        let result = self.engine.search(position, &self.limits);
        alphabeta_decision(result)
    }

    fn search(&mut self, position: &G, control: &mut Control<'_, G::Move>) -> Decision<G::Move> {
        controlled_search(&mut self.engine, position, self.limits, control)
    }
}

/// A search of `root` by `engine` under `control`: its stop flag, its limits (else `own`, the
/// agent's), each deeper result passed to its progress; the stop flag is the engine's own again
/// afterwards.
pub(crate) fn controlled_search<P: Game, H: Heuristic<P>>(
    engine: &mut Engine<P, H>,
    root: &P,
    own: Limits,
    control: &mut Control<'_, P::Move>,
) -> Decision<P::Move> {
    engine.set_stop_flag(Arc::clone(&control.stop));
    let limits = control.limits.map_or(own, |l| Limits {
        depth: l.depth,
        nodes: l.nodes,
        time: l.time,
    });
    let progress = &mut *control.progress;
    let result = engine.search_with(root, &limits, &mut |r| {
        progress(&alphabeta_decision(r.clone()));
    });
    engine.set_stop_flag(Arc::new(AtomicBool::new(false)));
    alphabeta_decision(result)
}

/// An alpha-beta result as a decision: a mate score in plies, else centi-units.
pub(crate) fn alphabeta_decision<M>(result: pjlab_alphabeta::SearchResult<M>) -> Decision<M> {
    let score = match result.mate_in() {
        Some(n) => Score::Mate(n),
        None => Score::Centi(result.score),
    };
    Decision {
        best_move: result.best_move,
        score: Some(score),
        pv: result.pv,
        effort: u64::from(result.depth),
        depth: result.depth,
        nodes: result.nodes,
        elapsed: result.elapsed,
        forfeit: None,
    }
}

/// What an `mcts` agent evaluates leaves with.
pub(crate) enum LeafEval<H> {
    Rollout(Box<RolloutEvaluator>),
    Uniform,
    Heuristic(HeuristicEvaluator<H>),
}

pub(crate) struct MctsAgent<H> {
    pub(crate) spec: String,
    pub(crate) config: MctsConfig,
    pub(crate) budget: Budget,
    pub(crate) eval: LeafEval<H>,
    pub(crate) seed: u64,
}

impl<H> MctsAgent<H> {
    /// One search from `position` within `budget`, stopped early if `stop` is raised, reporting
    /// to `progress` as it goes when given.
    fn think<G: Game>(
        &mut self,
        position: &G,
        budget: &Budget,
        stop: Option<&Arc<AtomicBool>>,
        progress: Option<crate::Progress<'_, G::Move>>,
    ) -> Decision<G::Move>
    where
        H: Heuristic<G>,
    {
        let started = Instant::now();
        self.seed = self.seed.wrapping_add(1);
        let mut search = Mcts::new(position.clone(), self.config.clone(), self.seed);
        if let Some(flag) = stop {
            search.set_stop_flag(Arc::clone(flag));
        }
        match &mut self.eval {
            LeafEval::Rollout(r) => run_mcts(&mut search, r.as_mut(), budget, started, progress),
            LeafEval::Uniform => run_mcts(
                &mut search,
                &mut UniformEvaluator,
                budget,
                started,
                progress,
            ),
            LeafEval::Heuristic(h) => run_mcts(&mut search, h, budget, started, progress),
        }
    }
}

impl<G: Game, H: Heuristic<G> + Send> Agent<G> for MctsAgent<H> {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn new_game(&mut self, seed: u64) {
        self.seed = seed;
        if let LeafEval::Rollout(r) = &mut self.eval {
            **r = RolloutEvaluator::new(seed);
        }
    }

    fn decide(&mut self, position: &G) -> Decision<G::Move> {
        let budget = self.budget;
        self.think(position, &budget, None, None)
    }

    fn search(&mut self, position: &G, control: &mut Control<'_, G::Move>) -> Decision<G::Move> {
        let budget = mcts_budget(&self.budget, control.limits);
        let progress = &mut *control.progress;
        let decision = self.think(position, &budget, Some(&control.stop), Some(&mut *progress));
        progress(&decision);
        decision
    }
}
