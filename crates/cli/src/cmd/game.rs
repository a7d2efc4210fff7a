//! `--game`: which game a command plays, and that game's parts.
//!
//! The registry is `pjlab-registry` ([`GameName`] and its `with_kit!`, one line per game);
//! [`with_game!`](crate::with_game) adds the binary's factory of agents to it, so commands are
//! generic over the kit, and every game's agents come from one factory, [`crate::cmd::agent`]
//! (network players included). What a command needs to know of a game (its position option, whether its records
//! hold their start, its setups, its bench figures) it asks the kit.

use anyhow::Result;
use pjlab_agents::Agent;
use pjlab_core::GameKit;

pub use pjlab_registry::GameName;

/// `--game`'s parser: the registry's games as clap's possible values (listed in `--help`).
pub fn game_arg() -> impl clap::builder::TypedValueParser<Value = GameName> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(GameName::ALL.iter().map(|game| game.name()))
        .try_map(|name: String| GameName::parse(&name))
}

/// A game and one of its positions, as `pjlab analyse` and `pjlab encode` read them.
#[derive(clap::Args, Debug)]
pub struct PositionArgs {
    /// The game.
    #[arg(long, value_parser = game_arg(), default_value_t)]
    pub game: GameName,
    /// The Pijersi position, as PSN (default: the classic start).
    #[arg(long, conflicts_with = "position")]
    pub psn: Option<String>,
    /// The position as text (Abalone's position text; default: the start of the game's first
    /// variant, for `encode` the first one its encoder fits).
    #[arg(long)]
    pub position: Option<String>,
}

impl PositionArgs {
    /// The position's text, `--psn`'s or `--position`'s, when either is given.
    pub fn text(&self) -> Option<&str> {
        self.psn.as_deref().or(self.position.as_deref())
    }
}

/// Builds an agent of a game from its spec and a seed.
pub type AgentFactory<G> = fn(&str, u64) -> Result<Box<dyn Agent<G>>>;

/// Runs `$body` with `$K` the kit of `$game` and `$agents` its [`AgentFactory`]
/// ([`crate::cmd::agent`] for the kit: every spec of `pjlab_agents::build`, and networks
/// trained on the game with `net:checkpoint=...`), over the registry's `with_kit!`.
#[macro_export]
macro_rules! with_game {
    ($game:expr, |$K:ident, $agents:ident| $body:expr) => {
        pjlab_registry::with_kit!($game, |$K| {
            let $agents: $crate::cmd::game::AgentFactory<<$K as pjlab_core::GameKit>::Game> =
                $crate::cmd::agent::<$K>;
            $body
        })
    };
    ($game:expr, |$K:ident| $body:expr) => {
        $crate::with_game!($game, |$K, _agents| $body)
    };
}

/// Reads a file, or standard input for `-`.
pub fn read_input(file: &str) -> Result<String> {
    use anyhow::Context;
    use std::io::Read;
    if file == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("cannot read standard input")?;
        Ok(text)
    } else {
        std::fs::read_to_string(file).with_context(|| format!("cannot read {file}"))
    }
}

/// The start of a game: a position text (under `variant`'s rules when one is named, see
/// [`pjlab_core::SetupVariant::adopt`]), or a variant's setup for a seed (the kit's first
/// variant by default).
pub fn start<K: GameKit>(
    position: Option<&str>,
    variant: Option<&str>,
    seed: u64,
) -> Result<K::Game> {
    use pjlab_core::{Game, SetupVariant};
    let variant = variant
        .map(|name| K::variant(name).map_err(anyhow::Error::msg))
        .transpose()?;
    Ok(match (position, variant) {
        (Some(text), None) => K::Game::from_text(text)?,
        (Some(text), Some(variant)) => variant
            .adopt(K::Game::from_text(text)?)
            .map_err(anyhow::Error::msg)?,
        (None, variant) => variant.unwrap_or(K::variants()[0]).start(seed),
    })
}

/// How a game stands, by the game's side names: `white`, `black`, `draw` or `ongoing`.
pub fn result_name<K: GameKit>(outcome: Option<pjlab_core::Outcome>) -> &'static str {
    match outcome {
        Some(pjlab_core::Outcome::Win(side)) => K::INFO.side_name(side),
        Some(pjlab_core::Outcome::Draw) => "draw",
        None => "ongoing",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_the_kits() {
        use clap::builder::TypedValueParser;
        let parser = game_arg();
        let values: Vec<_> = parser.possible_values().expect("listed").collect();
        assert_eq!(values.len(), GameName::all().len());
        let command = clap::Command::new("pjlab");
        for (&game, value) in GameName::all().iter().zip(&values) {
            // `--game`'s value is the kit's name.
            assert_eq!(value.get_name(), game.name());
            assert_eq!(GameName::parse(game.name()).ok(), Some(game));
            let name = std::ffi::OsStr::new(game.name());
            assert_eq!(parser.parse_ref(&command, None, name).ok(), Some(game));
        }
        let go = std::ffi::OsStr::new("go");
        assert!(parser.parse_ref(&command, None, go).is_err());
        assert_eq!(GameName::names(|_| true), "pijersi, abalone or chomp");
        assert_eq!(GameName::names(|g| g == GameName::Chomp), "chomp");
        assert_eq!(
            GameName::parse("x").map_err(|e| e.to_string()).err(),
            Some("unknown game \"x\" (pijersi, abalone or chomp)".to_string())
        );
    }
}
