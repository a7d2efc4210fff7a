//! Chifoumi on a grid: spatial rock-paper-scissors with hidden bags and chance duels
//! (`../shared/specs/chifoumi.md`).
//!
//! Two players walk a grid and pick up Flammes, Potions and Citrouilles (picking up is
//! compulsory); a player in view of the other may call a duel, where each draws a type from its
//! bag (uniformly from an empty one) and the winner of rock-paper-scissors takes the game. Each
//! sees only the square of radius 2 around it and never the other's bag.
//!
//! - Nouns: [`Object`], [`Bag`], [`Cell`], [`Map`] (and its text file format), [`Action`],
//!   [`Rules`] (every default of the spec a field), [`Game`] (one game, the whole truth),
//!   [`Match`] (N games, bags carried over), [`Arena`] (the 5-player extension).
//! - Chance: every random choice comes from a generator passed in; [`Match`] and the bench own
//!   a `ChaCha8Rng` seeded from a `u64`, so everything replays from a seed.
//! - Explicit chance: [`Chanced`], a lone game whose deal and duel draws are chance nodes with
//!   their outcomes and probabilities (OpenSpiel's chance nodes), sampled with the same
//!   generator calls as [`Game::new`] and [`Game::play`].
//! - Duels: [`DuelOdds`] exact with integer [`Ratio`]s; [`Duel::fight`] samples one.
//! - Information: [`Observation`] (what a player perceives, `Eq + Hash`, and a flat tensor),
//!   [`Knowledge`] (what it remembers from its observations) and
//!   [`Game::resample_with`] (a full state consistent with them). [`Game`] and [`Arena`]
//!   implement [`pjlab_core::ImperfectGame`].
//! - Text: a state's drawing (`Display`), [`GameRecord`] (seed + actions, replayable).
//! - Players: the [`Player`] trait and the scripted players ([`players`], [`parse_player`]).
//! - [`bench::random_steps`]: raw random playouts for the CLI's bench.
//!
//! ```
//! use pjlab_chifoumi::{Action, Bag, DuelOdds, Game, Ratio, Rules};
//! use rand::SeedableRng;
//! use rand_chacha::ChaCha8Rng;
//!
//! // Exact duel odds: (4,1,0) against (0,3,2) wins 8/25 and is worth -6/25.
//! let odds = DuelOdds::new(Bag::new(4, 1, 0), Bag::new(0, 3, 2));
//! assert_eq!(odds.win, Ratio::new(8, 25));
//! assert_eq!(odds.value(), Ratio::new(-6, 25));
//!
//! // A game with the spec's rules, reproducible from a seed.
//! let mut rng = ChaCha8Rng::seed_from_u64(1);
//! let mut game = Game::new(&Rules::default(), &mut rng)?;
//! while !game.is_over() {
//!     let legal = game.legal();
//!     let action = if legal.contains(Action::Duel) { Action::Duel } else { legal.nth(0).unwrap() };
//!     game.play(action, &mut rng)?;
//! }
//! println!("{game}");
//! # Ok::<(), pjlab_chifoumi::Error>(())
//! ```

mod action;
mod arena;
pub mod bench;
mod board;
mod chance;
mod game;
mod imperfect;
mod map;
mod matches;
mod object;
mod observe;
pub mod players;
mod record;
mod resample;
mod rules;
pub mod svg;

pub use action::{Action, ActionSet, ParseActionError};
pub use arena::{Arena, ArenaObservation, ArenaRules};
pub use board::{MAX_WINDOW, OFF_GRID};
pub use chance::{ChanceEvent, Chanced};
pub use game::{Game, GameEnd, MatchInfo, Start};
pub use map::{Cell, MAX_CELLS, MAX_SIDE, Map, MapErrorKind, ParseMapError, Rect};
pub use matches::{GameSummary, Match, MatchResult};
pub use object::{Bag, Duel, DuelOdds, Object, Ratio};
pub use observe::{Knowledge, Observation, OpponentPrior};
pub use players::{Player, parse_player, play_game, play_match, play_recorded_match};
pub use record::GameRecord;
pub use rules::{MAX_GAMES, MAX_PLAYERS, MAX_RADIUS, MAX_ROUNDS, Rules};

/// One game of Chifoumi between two players (a [`Game`] with its deal and duel draws as chance
/// nodes, [`Chanced`]) in OpenSpiel's terms: each player's return +1 won, -1 lost, 0 drawn.
pub const GAME_TYPE: pjlab_core::GameType = pjlab_core::GameType {
    chance: pjlab_core::ChanceMode::ExplicitStochastic,
    information: pjlab_core::Information::Imperfect,
    ..pjlab_core::GameType::board_game("Chifoumi on a grid", 2, 2)
};

/// What can go wrong in Chifoumi.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A map file that cannot be read.
    #[error(transparent)]
    Map(#[from] ParseMapError),
    /// Rules out of range, or a map that cannot hold the objects and players.
    #[error("invalid rules: {0}")]
    Rules(String),
    /// An action that is not legal now.
    #[error("illegal action {action} for player {player}: {reason}")]
    IllegalAction {
        /// The action.
        action: Action,
        /// The player to move (0-based).
        player: usize,
        /// Why it is illegal.
        reason: &'static str,
    },
    /// An action index that is out of range or not legal now (the index API, the arena).
    #[error("illegal action index {action} for player {player}: {reason}")]
    IllegalIndex {
        /// The action index.
        action: usize,
        /// The player to move (0-based).
        player: usize,
        /// Why it is illegal.
        reason: &'static str,
    },
    /// A chance outcome that is not possible now ([`Chanced`]).
    #[error("chance: {0}")]
    Chance(String),
    /// An edit that would make an impossible state.
    #[error("invalid edit: {0}")]
    Edit(String),
    /// A game record that cannot be read or replayed.
    #[error("game record line {line}: {reason}")]
    Record {
        /// 1-based line of the record text.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A player spec that names no player or has a bad option.
    #[error("invalid player spec {spec:?}: {reason}")]
    PlayerSpec {
        /// The spec given.
        spec: String,
        /// What is wrong.
        reason: String,
    },
}
