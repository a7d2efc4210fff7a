//! The registry of the lab's games, the one place above the game crates that names them, and
//! the lab's dynamic game API over all four.
//!
//! - [`GameName`] and [`with_kit!`]: the perfect-information games (Pijersi, Abalone, Chomp),
//!   one variant and one line per game naming its [`GameKit`]. Everything generic over a kit
//!   (the binary's commands, the players' factories) finds a game here.
//! - [`load_game`]: any of the four games by name and variant (Chifoumi beside the kits) to a
//!   [`GameHandle`] (static facts and new states); [`games`] lists them.
//! - [`State`]: one game in progress with OpenSpiel's vocabulary (current player, legal actions
//!   and mask, apply, returns and rewards, each player's observation tensor and string, move
//!   text, serial form), for every game: [`KitState`] over any kit (each player's view through
//!   [`SeatView`]) and [`ChifoumiState`], whose deal and duel draws are explicit chance nodes
//!   (`pjlab_chifoumi::Chanced`) and whose information states hold each player's observations
//!   ([`chifoumi_view`]).
//! - [`serial`]: text forms of games and states, read back into equal ones.
//! - [`Batch`]: N games stepped together into flat arrays, with automatic reset and seeds from
//!   [`batch::game_seed`].
//! - [`Error`]: every refusal, with what and where; nothing here panics on bad input.
//!
//! The Python package (`pjlab-python`) converts these to Python objects; no game logic lives
//! there.
//!
//! ```
//! use pjlab_core::GameKit;
//! use pjlab_registry::{GameName, load_game, with_kit};
//!
//! let game = GameName::parse("abalone").unwrap();
//! let sides = with_kit!(game, |K| K::INFO.sides);
//! assert_eq!(sides, ["black", "white"]);
//! assert_eq!(GameName::names(|_| true), "pijersi, abalone or chomp");
//!
//! let doubles = load_game("abalone", Some("doubles"))?;
//! assert_eq!(doubles.num_players(), 4);
//! let mut state = doubles.new_initial_state(0)?;
//! let mut legal = Vec::new();
//! state.legal_actions(&mut legal);
//! state.apply_action(legal[0] as i64)?;
//! assert_eq!(state.current_player(), Some(1));
//! assert!(state.apply_action(-1).is_err());
//! assert_eq!(pjlab_registry::games(), ["pijersi", "abalone", "chomp", "chifoumi"]);
//! # Ok::<(), pjlab_registry::Error>(())
//! ```
//!
//! Chifoumi, an imperfect-information game of five players, has no [`GameKit`] (its runs have
//! their own stack, `pjlab-chifoumi-eval`; see `crates/README.md` for why), so it is not a
//! [`GameName`]: [`load_game`] names it beside them.

pub mod batch;
pub mod chifoumi;
pub mod chifoumi_view;
mod error;
mod handle;
pub mod serial;
pub mod state;
pub mod view;

pub use batch::{Batch, Outputs, StepOutputs, VecBatch};
pub use chifoumi::ChifoumiState;
pub use error::Error;
pub use handle::{ChifoumiGame, GameHandle, KitGame, games, load_game};
use pjlab_core::GameKit;
pub use state::{KitState, State};
pub use view::SeatView;

/// The kits of the registry's games, for [`with_kit!`]'s expansion.
#[doc(hidden)]
pub mod kits {
    pub use pjlab_abalone::AbaloneKit;
    pub use pjlab_chomp::ChompKit;
    pub use pjlab_pijersi::PijersiKit;
}

/// A game of the registry.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum GameName {
    /// Pijersi (PSN positions, UGI moves, the rulebook notation).
    #[default]
    Pijersi,
    /// Abalone, two players or doubles (position text of the spec, Aba-Pro notation).
    Abalone,
    /// Chomp on a bar of `MxN` squares (variants are bar sizes).
    Chomp,
}

/// Runs `$body` with `$K` the [`GameKit`] of the [`GameName`] `$game`: one line per game.
#[macro_export]
macro_rules! with_kit {
    ($game:expr, |$K:ident| $body:expr) => {
        match $game {
            $crate::GameName::Pijersi => {
                type $K = $crate::kits::PijersiKit;
                $body
            }
            $crate::GameName::Abalone => {
                type $K = $crate::kits::AbaloneKit;
                $body
            }
            $crate::GameName::Chomp => {
                type $K = $crate::kits::ChompKit;
                $body
            }
        }
    };
}

/// A name that is no game of the registry.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game {name:?} ({known})")]
pub struct UnknownGame {
    /// The name given.
    pub name: String,
    /// The registry's games, in words.
    pub known: String,
}

impl GameName {
    /// Every game of the registry, in its order (the first is the default).
    pub const ALL: &'static [GameName] = &[GameName::Pijersi, GameName::Abalone, GameName::Chomp];

    /// Every game of the registry, in its order (the first is the default).
    pub fn all() -> &'static [GameName] {
        Self::ALL
    }

    /// The game's name, as its kit gives it (`pijersi`, `abalone`, `chomp`).
    pub fn name(self) -> &'static str {
        with_kit!(self, |K| <K as GameKit>::INFO.name)
    }

    /// The names of the games of the registry that `keep` keeps, in its order, as a list in
    /// words: `pijersi, abalone or chomp`.
    pub fn names(keep: impl Fn(GameName) -> bool) -> String {
        let names: Vec<&str> = Self::ALL
            .iter()
            .filter(|&&game| keep(game))
            .map(|game| game.name())
            .collect();
        match names.split_last() {
            None => String::new(),
            Some((last, [])) => (*last).to_string(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        }
    }

    /// The game a name stands for (any case).
    ///
    /// # Errors
    /// [`UnknownGame`] naming the registry's games.
    pub fn parse(name: &str) -> Result<GameName, UnknownGame> {
        Self::ALL
            .iter()
            .copied()
            .find(|game| game.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| UnknownGame {
                name: name.to_string(),
                known: Self::names(|_| true),
            })
    }
}

impl std::fmt::Display for GameName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for GameName {
    type Err = UnknownGame;

    fn from_str(name: &str) -> Result<GameName, UnknownGame> {
        GameName::parse(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_parses_back_from_its_kits_name_and_unknown_names_list_them_all() {
        for &game in GameName::ALL {
            assert_eq!(GameName::parse(game.name()), Ok(game));
            assert_eq!(GameName::parse(&game.name().to_uppercase()), Ok(game));
        }
        let err = GameName::parse("go").unwrap_err().to_string();
        assert_eq!(err, "unknown game \"go\" (pijersi, abalone or chomp)");
    }
}
