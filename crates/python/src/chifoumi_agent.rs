//! [`ChifoumiPlayer`]: one of the lab's Chifoumi players (scripted, `ismcts`, `net:`) choosing
//! actions in a [`ChifoumiState`], fed every observation of its seat as `pjlab chifoumi` feeds it.

use std::any::Any;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use pjlab_chifoumi::{Action, Chanced, Rules, Start};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::agent::Player;
use crate::{Error, State};
use pjlab_registry::chifoumi::{ChifoumiState, NAME};

/// A Chifoumi player following one game from its history.
///
/// The lab's players remember what they saw (the opponent's pickups, its draws), so they observe
/// the game at its start and after every turn, not only when they are to act. A state holds the
/// present, not that past: [`Player::choose`] replays the state's history (chance outcomes and
/// actions, as `State.history()` lists them) on a copy of its own, feeding the player each
/// observation of its seat it has not seen yet, in the order `pjlab_chifoumi::play_game` does.
/// A history that does not continue the one followed so far starts a new game (and a new match
/// for the player's memory). One agent plays one seat of a game.
pub(crate) struct ChifoumiPlayer {
    spec: String,
    player: std::sync::Mutex<Box<dyn pjlab_chifoumi::Player + Send>>,
    rules: Rules,
    rng: ChaCha8Rng,
    /// The history replayed so far, the replica it led to and the seat followed.
    followed: Vec<usize>,
    replica: Chanced,
    seat: Option<usize>,
}

impl ChifoumiPlayer {
    /// The player `spec` names (`pjlab chifoumi`'s specs: `random`, `focused:F`, `greedy`,
    /// `avoider`, `counter`, `observer`, `ismcts:...`, `net:checkpoint=DIR`), its choices drawn
    /// from a generator seeded with `seed`.
    pub(crate) fn build(spec: &str, seed: u64) -> Result<Box<dyn Player>, Error> {
        let spec = spec.trim();
        let rules = Rules::default();
        let player = pjlab_players::chifoumi::build(spec, &rules)
            .map_err(|e| Error::Agent(format!("chifoumi agent {spec:?}: {e}")))?;
        let replica = new_replica(&rules)?;
        Ok(Box::new(ChifoumiPlayer {
            spec: spec.to_string(),
            player: std::sync::Mutex::new(player),
            rules,
            rng: ChaCha8Rng::seed_from_u64(seed),
            followed: Vec::new(),
            replica,
            seat: None,
        }))
    }

    /// Catches the replica up with `history`, feeding the player the observations it missed.
    fn follow(&mut self, history: &[usize], seat: usize) -> Result<(), Error> {
        let continues = history.starts_with(&self.followed) && self.seat == Some(seat);
        if !continues {
            self.replica = new_replica(&self.rules)?;
            self.followed.clear();
            self.seat = Some(seat);
            self.player_mut().new_match();
        }
        for &entry in &history[self.followed.len()..] {
            let was_chance = self.replica.is_chance();
            let applied = if was_chance {
                self.replica.apply_outcome(entry)
            } else {
                Action::from_index(entry)
                    .ok_or_else(|| pjlab_chifoumi::Error::Chance(format!("no action {entry}")))
                    .and_then(|a| self.replica.play(a))
            };
            applied.map_err(|e| {
                Error::Argument(format!(
                    "chifoumi agent {:?}: the state's history does not replay ({e})",
                    self.spec
                ))
            })?;
            self.followed.push(entry);
            // A turn ended (a move, or a duel's last draw) or the deal did: the player looks.
            if !self.replica.is_chance() {
                let observation = self.replica.game().observation(seat);
                self.player_mut().observe(&observation);
            }
        }
        Ok(())
    }

    fn player_mut(&mut self) -> &mut Box<dyn pjlab_chifoumi::Player + Send> {
        self.player.get_mut().unwrap_or_else(|p| p.into_inner())
    }
}

/// A game at its first chance node, as `Game.new_initial_state` makes it.
fn new_replica(rules: &Rules) -> Result<Chanced, Error> {
    Chanced::new(rules, Start::default()).map_err(|e| Error::Argument(format!("chifoumi: {e}")))
}

impl Player for ChifoumiPlayer {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn game_name(&self) -> &'static str {
        NAME
    }

    /// The scripted and learned players choose at once; `ismcts` ends its iterations early
    /// once `stop` is raised.
    fn choose_until(
        &mut self,
        state: &dyn State,
        history: &[usize],
        stop: &Arc<AtomicBool>,
    ) -> Result<usize, Error> {
        let any: &dyn Any = state;
        let Some(chifoumi) = any.downcast_ref::<ChifoumiState>() else {
            return Err(Error::Argument(format!(
                "agent {:?} plays chifoumi, not {}",
                self.spec,
                state.game_name()
            )));
        };
        let Some(seat) = state.current_player() else {
            let why = if state.is_chance_node() {
                "a chance event is due"
            } else {
                "the game is over"
            };
            return Err(Error::Argument(format!("agent {:?}: {why}", self.spec)));
        };
        self.follow(history, seat)?;
        if self.replica.game() != chifoumi.game() {
            return Err(Error::Argument(format!(
                "agent {:?}: the state's history does not lead to the state (a state set up \
                 by hand has no history to follow)",
                self.spec
            )));
        }
        let game = chifoumi.game();
        let observation = game.observation(seat);
        let legal = game.legal();
        let player = self.player.get_mut().unwrap_or_else(|p| p.into_inner());
        let action = player.act_until(&observation, legal, &mut self.rng, stop);
        if legal.contains(action) {
            Ok(action.index())
        } else {
            Err(Error::Argument(format!(
                "agent {:?} answered the illegal action {action}",
                self.spec
            )))
        }
    }

    fn new_game(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
        self.followed.clear();
        self.seat = None;
    }

    /// The scripted players are quick; `ismcts` searches and `net:` runs a network.
    fn is_quick(&self) -> bool {
        let name = pjlab_core::spec::split(&self.spec).0;
        pjlab_chifoumi::players::is_scripted(name)
    }
}
