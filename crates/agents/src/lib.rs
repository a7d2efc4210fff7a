//! Players of any game behind one [`Agent`] trait, built from short specs by [`build`] for a
//! game's [`GameKit`]:
//!
//! | spec | player | options (defaults) |
//! |---|---|---|
//! | `random` | uniform legal move | `seed` |
//! | `greedy` | a win, else a tactical move (a capture, a push) by the game's evaluation, else random | `seed` |
//! | `alphabeta` | [`pjlab_alphabeta::Engine`] with the game's evaluation | `depth` (4 when no limit is given), `nodes`, `time`, `tt` (MiB, 16), `quiescence` (plies, 16), `eval` (TOML weights file, or `nnue:FILE`: a learned evaluation from `pjlab nnue train`; `nnue-int:FILE`: the same network in integers, faster, scores within about a centi-unit) |
//! | `mcts` | [`pjlab_mcts::Mcts`] | `sims` (800), `time`, `nodes` (tree bound), `eval` (`rollout`, `uniform`, or `heuristic`: the game's alpha-beta evaluation as `tanh(eval / scale)`), `scale` (centi-units, 200), `cpuct` (1.5), `gumbel` (actions considered; 0 = PUCT root), `solver` (true), `seed` |
//! | `ugi` | an external engine speaking UGI ([`ugi::UgiAgent`]) | `cmd` (the binary, required), `arg` (one argument, repeatable), `depth`, `movetime` (one of them; `depth=4` when neither), `timeout` (per move beyond `movetime`, 30s), `stderr` (file the engine's stderr is appended to), `option.<Name>` (sent with `setoption`) |
//!
//! Network players (`net:checkpoint=<dir or model.onnx>,sims=N` or `time=T`) live in
//! `pjlab-players`, which needs Burn; [`shallow`] gives them the shallow alpha-beta values they
//! may blend into their leaves.
//!
//! Options follow a colon, comma-separated: `alphabeta:depth=6,tt=64`, `mcts:sims=200,eval=uniform`,
//! `alphabeta:time=1s`. Times take `ms`, `s` or `m`. Unknown agents, options and values are
//! errors ([`SpecError`]), never defaults in disguise.

mod build;
mod control;
mod decision;
pub mod duel;
mod nnue;
mod players;
pub mod shallow;
pub mod ugi;

pub use build::{SpecError, build, is_searchless, parse_duration, with_time_per_move};
pub use control::{Control, Progress, REPORT_EVERY, SearchLimits, mcts_budget, run_mcts};
pub use decision::{Decision, Score};
pub use duel::{Clock, Ending, MoveEffort, Played, play_game};

use pjlab_core::Game;

pub(crate) use build::number;

/// A game so far: where it started and the moves played since, for agents that want the history
/// (an external engine is sent `position fen <start> moves ...`).
#[derive(Debug)]
pub struct History<'a, G: Game> {
    /// The starting position.
    pub start: &'a G,
    /// The moves played from it.
    pub moves: &'a [G::Move],
    /// The position they lead to, where the agent is to move.
    pub position: &'a G,
}

impl<G: Game> Clone for History<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for History<'_, G> {}

/// A player of the game `G`.
pub trait Agent<G: Game>: Send {
    /// The spec it was built from.
    fn spec(&self) -> &str;
    /// Chooses a move in `position` (none if the game is over there).
    fn decide(&mut self, position: &G) -> Decision<G::Move>;

    /// Chooses a move knowing the game's history; by default [`Agent::decide`] on its position.
    fn decide_in_game(&mut self, history: History<'_, G>) -> Decision<G::Move> {
        self.decide(history.position)
    }

    /// Chooses a move under a caller's [`Control`]: its limits instead of the agent's own
    /// budget, its stop flag, progress reports. By default [`Agent::decide`], reported once:
    /// agents that do not search ignore limits and the flag.
    fn search(&mut self, position: &G, control: &mut Control<'_, G::Move>) -> Decision<G::Move> {
        let decision = self.decide(position);
        (control.progress)(&decision);
        decision
    }

    /// Forgets everything learned in earlier games (hash tables, engine state) and reseeds its
    /// random choices, so that a game's result does not depend on which games came before it.
    fn new_game(&mut self, _seed: u64) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use pjlab_pijersi::{PijersiKit, Position};
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;

    #[test]
    fn specs_parse_or_fail_clearly() {
        for good in [
            "random",
            "greedy:seed=3",
            "alphabeta",
            "alphabeta:depth=2",
            "ab:time=50ms",
            "alphabeta:nodes=1000,tt=1,quiescence=0",
            "mcts",
            "mcts:sims=50,eval=uniform,gumbel=8,solver=false,cpuct=2",
            "mcts:sims=50,eval=heuristic,scale=150",
            "mcts:time=20ms",
        ] {
            let mut agent = build::<PijersiKit>(good, 1).unwrap_or_else(|e| panic!("{good}: {e}"));
            assert_eq!(agent.spec(), good);
            let position = Position::default();
            let mut moves = Vec::new();
            position.legal_moves(&mut moves);
            let decision = agent.decide(&position);
            assert!(
                moves.contains(&decision.best_move.expect("a move")),
                "{good}"
            );
        }
        for bad in [
            "minimax",
            "alphabeta:depth=0",
            "alphabeta:depth=x",
            "alphabeta:speed=3",
            "alphabeta:depth",
            "alphabeta:time=3",
            "alphabeta:eval=/nonexistent.toml",
            "mcts:eval=network",
            "mcts:sims=-1",
            "mcts:scale=0",
            "random:depth=3",
        ] {
            assert!(
                build::<PijersiKit>(bad, 1).is_err(),
                "{bad} should be refused"
            );
        }
    }

    #[test]
    fn a_driven_search_is_the_spec_search_with_the_callers_limits() {
        let position = Position::default();
        let expected = build::<PijersiKit>("alphabeta:depth=3", 1)
            .unwrap()
            .decide(&position);
        for spec in ["alphabeta:depth=1", "alphabeta:time=1m"] {
            let mut agent = build::<PijersiKit>(spec, 1).unwrap();
            let mut depths = Vec::new();
            let mut progress = |d: &Decision<_>| depths.push(d.depth);
            let mut control = Control {
                limits: Some(SearchLimits {
                    depth: Some(3),
                    ..SearchLimits::default()
                }),
                stop: Arc::new(AtomicBool::new(false)),
                progress: &mut progress,
            };
            let got = agent.search(&position, &mut control);
            assert_eq!(
                (got.best_move, got.score, got.depth),
                (expected.best_move, expected.score, 3),
                "{spec}"
            );
            assert_eq!(depths, [1, 2, 3], "{spec}");
        }
        // A raised stop flag ends searches with no limit: alpha-beta after depth 1, MCTS at once;
        // both still answer a move.
        for spec in ["alphabeta", "mcts"] {
            let mut agent = build::<PijersiKit>(spec, 1).unwrap();
            let mut reports = 0;
            let mut progress = |_: &Decision<_>| reports += 1;
            let mut control = Control {
                limits: Some(SearchLimits::default()),
                stop: Arc::new(AtomicBool::new(true)),
                progress: &mut progress,
            };
            let got = agent.search(&position, &mut control);
            assert!(got.best_move.is_some(), "{spec}");
            assert!(got.depth <= 1 || spec == "mcts", "{spec}: {got:?}");
            assert_eq!(reports, 1, "{spec}");
            // The flag does not outlive the search.
            assert!(agent.decide(&position).effort > 1, "{spec}");
        }
    }

    #[test]
    fn a_time_per_move_replaces_the_agents_own_limits() {
        let t = Duration::from_millis(50);
        assert_eq!(
            with_time_per_move("alphabeta", t).unwrap(),
            "alphabeta:time=50ms"
        );
        assert_eq!(
            with_time_per_move("mcts:eval=heuristic", t).unwrap(),
            "mcts:eval=heuristic,time=50ms"
        );
        assert_eq!(
            with_time_per_move("ugi:cmd=x", t).unwrap(),
            "ugi:cmd=x,movetime=50ms"
        );
        assert_eq!(with_time_per_move("random", t).unwrap(), "random");
        for own in ["alphabeta:depth=3", "mcts:sims=10", "ugi:cmd=x,movetime=1s"] {
            assert!(with_time_per_move(own, t).is_err(), "{own}");
        }
        // What it writes parses, and the budget holds (give or take the last node).
        let mut agent =
            build::<PijersiKit>(&with_time_per_move("alphabeta", t).unwrap(), 1).unwrap();
        let d = agent.decide(&Position::default());
        assert!(d.best_move.is_some() && d.elapsed < Duration::from_secs(5));
    }

    #[test]
    fn durations() {
        assert_eq!(
            parse_duration("250ms").ok(),
            Some(Duration::from_millis(250))
        );
        assert_eq!(
            parse_duration("1.5s").ok(),
            Some(Duration::from_millis(1500))
        );
        assert_eq!(parse_duration("2m").ok(), Some(Duration::from_secs(120)));
        for bad in ["", "s", "-1s", "1h", "nan s", "1e9m"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }
}
