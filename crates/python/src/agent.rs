//! [`Player`]: one of the lab's agents (every spec of `pjlab_players::build`: `random`,
//! `greedy`, `alphabeta:depth=3`, `mcts:sims=800`, `net:checkpoint=DIR` or `model.onnx`,
//! `alphabeta:eval=nnue:FILE`, ...) choosing actions in a [`State`] of its game, and Chifoumi's
//! players (`crate::chifoumi_agent`).

use std::any::Any;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use pjlab_agents::{Agent, Control};
use pjlab_core::{Game, GameKit};
use pjlab_registry::{GameName, with_kit};

use crate::Error;
use pjlab_registry::state::{KitState, State};

/// An agent of one game, choosing an action index in that game's states.
pub trait Player: Send + Sync {
    /// The spec it was built from.
    fn spec(&self) -> &str;
    /// The registry's name of its game.
    fn game_name(&self) -> &'static str;
    /// The action it plays in `state` (an index of `state`'s legal actions), whose `history`
    /// (every action and chance outcome since the initial state) Chifoumi's players replay to
    /// see what they saw; the state is not changed. Long searches run here: call it without
    /// holding locks others need.
    ///
    /// # Errors
    /// [`Error::Argument`] when `state` is of another game, is over or at a chance node, its
    /// history does not lead to it (Chifoumi), or the agent answers no legal move.
    fn choose(&mut self, state: &dyn State, history: &[usize]) -> Result<usize, Error> {
        self.choose_until(state, history, &Arc::new(AtomicBool::new(false)))
    }
    /// [`Player::choose`], the search ended early once another thread raises `stop` (then its
    /// answer is its best move so far, which the caller may drop). The searching agents
    /// (alpha-beta, MCTS, networks, Chifoumi's `ismcts`) stop within a few milliseconds, an
    /// external engine is told to stop (and killed when it does not answer at once); the others
    /// choose at once. Unraised, the choice and the search's work are [`Player::choose`]'s.
    ///
    /// # Errors
    /// As [`Player::choose`].
    fn choose_until(
        &mut self,
        state: &dyn State,
        history: &[usize],
        stop: &Arc<AtomicBool>,
    ) -> Result<usize, Error>;
    /// Reseeds its random choices and forgets what earlier games taught it (hash tables).
    fn new_game(&mut self, seed: u64);
    /// Whether it chooses without a search (`random`, `greedy`, Chifoumi's scripted players):
    /// an answer in microseconds, with nothing for `stop` to end, which the Python binding
    /// computes on the calling thread rather than start a worker for it.
    fn is_quick(&self) -> bool {
        false
    }
}

/// Builds the agent `spec` names for the game `game` (a registry name), seeded with `seed`:
/// `pjlab_players::build`'s specs for the board games, `pjlab_players::chifoumi::build`'s for
/// Chifoumi.
///
/// # Errors
/// [`Error::UnknownGame`], and [`Error::Agent`] for a spec the factory refuses (unknown
/// agent or option, a checkpoint or model that is missing, of another game, or does not fit the
/// game's model card), with the factory's message.
pub fn build_player(game: &str, spec: &str, seed: u64) -> Result<Box<dyn Player>, Error> {
    if game.eq_ignore_ascii_case(pjlab_registry::chifoumi::NAME) {
        return crate::chifoumi_agent::ChifoumiPlayer::build(spec, seed);
    }
    let name = GameName::parse(game).map_err(|_| Error::UnknownGame {
        name: game.to_string(),
        known: crate::games().join(", "),
    })?;
    with_kit!(name, |K| KitPlayer::<K>::build(spec, seed))
}

/// An agent of a [`GameKit`]'s game.
struct KitPlayer<K: GameKit> {
    spec: String,
    /// Behind a mutex so that the player is `Sync` (the agents are only `Send`); it is never
    /// contended (`choose` takes `&mut self`).
    agent: std::sync::Mutex<Box<dyn Agent<K::Game>>>,
}

impl<K: GameKit> KitPlayer<K> {
    fn build(spec: &str, seed: u64) -> Result<Box<dyn Player>, Error> {
        let spec = spec.trim();
        let agent = pjlab_players::build::<K>(spec, seed)
            .map_err(|e| Error::Agent(format!("{} agent {spec:?}: {e}", K::INFO.name)))?;
        Ok(Box::new(KitPlayer::<K> {
            spec: spec.to_string(),
            agent: std::sync::Mutex::new(agent),
        }))
    }
}

impl<K: GameKit> Player for KitPlayer<K> {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn game_name(&self) -> &'static str {
        K::INFO.name
    }

    fn choose_until(
        &mut self,
        state: &dyn State,
        _history: &[usize],
        stop: &Arc<AtomicBool>,
    ) -> Result<usize, Error> {
        let any: &dyn Any = state;
        let Some(state) = any.downcast_ref::<KitState<K>>() else {
            return Err(Error::Argument(format!(
                "agent {:?} plays {}, not {}",
                self.spec,
                K::INFO.name,
                state.game_name()
            )));
        };
        let position = state.position();
        if position.outcome().is_some() {
            return Err(Error::Argument(format!(
                "agent {:?}: the game is over in {}",
                self.spec,
                position.to_text()
            )));
        }
        let agent = self.agent.get_mut().unwrap_or_else(|p| p.into_inner());
        // The agent's own budget, its search stopped early when `stop` is raised.
        let mut control = Control {
            limits: None,
            stop: Arc::clone(stop),
            progress: &mut |_| {},
        };
        let decision = agent.search(position, &mut control);
        let mut legal = Vec::new();
        position.legal_moves(&mut legal);
        match decision.best_move {
            Some(mv) if legal.contains(&mv) => Ok(position.action_index(mv)),
            other => Err(Error::Agent(format!(
                "agent {:?} answered {} in {}",
                self.spec,
                other.map_or("no move".into(), |mv| format!(
                    "the illegal move {}",
                    position.move_to_text(mv)
                )),
                position.to_text()
            ))),
        }
    }

    fn new_game(&mut self, seed: u64) {
        let agent = self.agent.get_mut().unwrap_or_else(|p| p.into_inner());
        agent.new_game(seed);
    }

    fn is_quick(&self) -> bool {
        pjlab_agents::is_searchless(&self.spec)
    }
}
