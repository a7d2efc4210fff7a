//! Scripted players: the [`Player`] trait, the strategies the spec names, a spec parser and the
//! game and match loops.
//!
//! A player sees only its [`Observation`]s (after every turn, both players' included) and keeps
//! whatever memory of the match it likes; it never reads the hidden state.
//!
//! | spec | behaviour |
//! |---|---|
//! | `random` | duels whenever it may, else a uniformly random legal move |
//! | `focused:F` (`P`, `C`) | duels as soon as the opponent is in view; else the shortest path (BFS) to the nearest visible object of its type around objects of the others; else a random step that avoids the others |
//! | `greedy` | duels as soon as the opponent is in view; else the shortest path to the nearest visible object of any type; else a random step |
//! | `avoider` | never duels, never steps on an object unless every legal action does (so its bag stays empty and its duel value is exactly 0) |
//! | `counter` | collects, as `focused`, the type that beats the opponent's most frequent revealed draw of the match (any type before the first duel); duels in view once it holds that type |
//! | `counter-reset` | as `counter`, counting only the draws since the opponent's last bag reset |
//! | `lurker` | duels whenever it may; else steps back and forth between two cells, onto no object where it can: its bag stays empty and it plays for the tie-break (an opponent walking into view gives it the call) |
//! | `observer` | estimates the opponent's bag (carried over games, pickups it saw, revealed draws, a prior for what it missed); duels in view when its expected duel value is positive, flees otherwise; collects the type that raises that value most |

mod arena;
mod intent;
mod memory;
mod observer;
mod path;
mod scripted;

use std::sync::atomic::AtomicBool;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub use arena::{ArenaDuel, ArenaResult, ArenaSeat, nearest_in_view, play_arena};
pub use intent::Intent;
pub use memory::{MEMORY_LEN, Memory, input_len};
pub use observer::{ObserverPlayer, expected_value};
pub use scripted::{
    AvoiderPlayer, CounterPlayer, FocusedPlayer, GreedyPlayer, LurkerPlayer, RandomPlayer,
};

use crate::{
    Action, ActionSet, Error, Game, GameEnd, Match, MatchResult, Object, Observation, Rules,
};

/// A player of Chifoumi, driven by its observations.
pub trait Player {
    /// The spec string that builds this player (`focused:F`).
    fn name(&self) -> String;

    /// Forgets everything: a new match starts.
    fn new_match(&mut self) {}

    /// Takes in an observation: called at the start of each game and after every turn (either
    /// player's), the game's final observation included.
    fn observe(&mut self, obs: &Observation);

    /// Chooses an action among `legal` on its turn (after [`Player::observe`] saw `obs`).
    fn act(&mut self, obs: &Observation, legal: ActionSet, rng: &mut ChaCha8Rng) -> Action;

    /// [`Player::act`], a search ended early once another thread raises `stop` (the answer is
    /// then its best so far, which the caller may drop). By default [`Player::act`]: players
    /// that choose at once ignore the flag. Unraised, the choice and the draws from `rng` are
    /// [`Player::act`]'s.
    fn act_until(
        &mut self,
        obs: &Observation,
        legal: ActionSet,
        rng: &mut ChaCha8Rng,
        stop: &AtomicBool,
    ) -> Action {
        let _ = stop;
        self.act(obs, legal, rng)
    }
}

/// The ten scripted players as specs, one a type for `focused`: the lab's training pool and the
/// opponents every exploitability run plays, in that order.
pub const SCRIPTED_SPECS: [&str; 10] = [
    "random",
    "focused:F",
    "focused:P",
    "focused:C",
    "greedy",
    "avoider",
    "counter",
    "counter-reset",
    "observer",
    "lurker",
];

/// Whether `name`, a spec's name (before any `:`), is a scripted player's, as [`parse_player`]
/// knows them (`focused` takes a type).
pub fn is_scripted(name: &str) -> bool {
    SCRIPTED_SPECS
        .iter()
        .any(|spec| spec.split(':').next() == Some(name))
}

/// Builds a player from its spec: `random`, `focused:F` (or `P`, `C`), `greedy`, `avoider`,
/// `counter`, `counter-reset`, `observer`.
///
/// # Errors
/// [`Error::PlayerSpec`] for an unknown name or a missing, unknown or unexpected option.
pub fn parse_player(spec: &str) -> Result<Box<dyn Player + Send>, Error> {
    let err = |reason: &str| Error::PlayerSpec {
        spec: spec.to_string(),
        reason: reason.to_string(),
    };
    let (name, option) = pjlab_core::spec::split(spec);
    if name == "focused" {
        let letter =
            option.ok_or_else(|| err("focused needs a type: focused:F, focused:P or focused:C"))?;
        let mut chars = letter.chars();
        return match (chars.next().and_then(Object::from_letter), chars.next()) {
            (Some(o), None) => Ok(Box::new(FocusedPlayer::new(o))),
            _ => Err(err("the type must be F, P or C")),
        };
    }
    let player: Box<dyn Player + Send> = match name {
        "random" => Box::new(RandomPlayer),
        "greedy" => Box::new(GreedyPlayer::default()),
        "avoider" => Box::new(AvoiderPlayer),
        "counter" => Box::new(CounterPlayer::new(false)),
        "counter-reset" => Box::new(CounterPlayer::new(true)),
        "observer" => Box::new(ObserverPlayer::default()),
        "lurker" => Box::new(LurkerPlayer),
        _ => {
            return Err(err(
                "unknown player, expected random, focused:F|P|C, greedy, avoider, counter, counter-reset, observer or lurker",
            ));
        }
    };
    if option.is_some() {
        return Err(err("this player takes no option"));
    }
    Ok(player)
}

/// Plays `game` to its end with `players[p]` as player `p`, drawing duels from `rng` and the
/// players' choices from `choices`.
///
/// # Errors
/// [`Error::IllegalAction`] when a player answers an illegal action.
pub fn play_game(
    game: &mut Game,
    players: &mut [&mut dyn Player; 2],
    rng: &mut ChaCha8Rng,
    choices: &mut ChaCha8Rng,
) -> Result<GameEnd, Error> {
    for (p, player) in players.iter_mut().enumerate() {
        player.observe(&game.observation(p));
    }
    loop {
        if let Some(end) = game.end() {
            return Ok(end);
        }
        let p = game.to_move();
        let action = players[p].act(&game.observation(p), game.legal(), choices);
        game.play(action, rng)?;
        for (q, player) in players.iter_mut().enumerate() {
            player.observe(&game.observation(q));
        }
    }
}

/// Plays a whole match of `rules` from `seed` (the match's generator; the players' choices
/// come from a second generator seeded from it).
///
/// # Errors
/// [`Error::Rules`] when the rules do not check; [`Error::IllegalAction`] when a player answers
/// an illegal action.
pub fn play_match(
    rules: &Rules,
    players: &mut [&mut dyn Player; 2],
    seed: u64,
) -> Result<MatchResult, Error> {
    play_recorded_match(rules, players, seed).map(|(result, _)| result)
}

/// [`play_match`], with the actions of each game: with the rules and the seed they replay the
/// match exactly ([`Match::new`] and [`Match::play`]).
///
/// # Errors
/// As [`play_match`].
pub fn play_recorded_match(
    rules: &Rules,
    players: &mut [&mut dyn Player; 2],
    seed: u64,
) -> Result<(MatchResult, Vec<Vec<Action>>), Error> {
    let mut m = Match::new(rules, seed)?;
    let mut choices = ChaCha8Rng::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15);
    for player in players.iter_mut() {
        player.new_match();
    }
    loop {
        for (p, player) in players.iter_mut().enumerate() {
            player.observe(&m.observation(p));
        }
        while !m.game().is_over() {
            let p = m.game().to_move();
            let action = players[p].act(&m.observation(p), m.game().legal(), &mut choices);
            m.play(action)?;
            for (q, player) in players.iter_mut().enumerate() {
                player.observe(&m.observation(q));
            }
        }
        if !m.next_game() {
            break;
        }
    }
    let result = m.result().expect("every game played");
    Ok((result, m.actions().to_vec()))
}
