//! `--game` and the registry: which game a command plays, and that game's parts.
//!
//! [`with_game!`](crate::with_game) is the registry: one line per game names its [`GameKit`]
//! (from the game's crate), beside one variant of [`GameName`]; commands are generic over the
//! kit, and every game's agents come from one factory, [`crate::cmd::agent`] (network players
//! included). What a command needs to know of a game (its position option, whether its records
//! hold their start, its setups, its bench figures) it asks the kit.

use anyhow::Result;
use pjlab_agents::Agent;
use pjlab_core::GameKit;

/// A game of the registry.
#[derive(clap::ValueEnum, Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum GameName {
    /// Pijersi (PSN positions, UGI moves, the rulebook notation).
    #[default]
    Pijersi,
    /// Abalone, two players or doubles (position text of the spec, Aba-Pro notation).
    Abalone,
    /// Chomp on a bar of `MxN` squares (variants are bar sizes).
    Chomp,
}

impl GameName {
    /// Every game of the registry, in its order (the first is the default).
    pub fn all() -> &'static [GameName] {
        <GameName as clap::ValueEnum>::value_variants()
    }

    /// The game's name, as its kit gives it (`pijersi`, `abalone`, `chomp`).
    pub fn name(self) -> &'static str {
        crate::with_game!(self, |K| <K as GameKit>::INFO.name)
    }

    /// The names of the games of the registry the predicate keeps, in its order, as a list in
    /// words: `pijersi, abalone or chomp`.
    pub fn names(keep: impl Fn(GameName) -> bool) -> String {
        let names: Vec<&str> = GameName::all()
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

    /// The game a name (`pijersi`, `abalone`, `chomp`) stands for.
    ///
    /// # Errors
    /// On an unknown name.
    pub fn parse(name: &str) -> Result<GameName> {
        <GameName as clap::ValueEnum>::from_str(name, true)
            .map_err(|_| anyhow::anyhow!("unknown game {name:?} ({})", GameName::names(|_| true)))
    }
}

/// Builds an agent of a game from its spec and a seed.
pub type AgentFactory<G> = fn(&str, u64) -> Result<Box<dyn Agent<G>>>;

/// Runs `$body` with `$K` the kit of `$game` and `$agents` its [`AgentFactory`]
/// ([`crate::cmd::agent`] for the kit: every spec of `pjlab_agents::build`, and networks
/// trained on the game with `net:checkpoint=...`). One line per game.
#[macro_export]
macro_rules! with_game {
    (@kit $kit:ty, $K:ident, $agents:ident, $body:expr) => {{
        type $K = $kit;
        let $agents: $crate::cmd::game::AgentFactory<<$K as pjlab_core::GameKit>::Game> =
            $crate::cmd::agent::<$K>;
        $body
    }};
    ($game:expr, |$K:ident, $agents:ident| $body:expr) => {
        match $game {
            $crate::cmd::game::GameName::Pijersi => {
                $crate::with_game!(@kit pjlab_pijersi::PijersiKit, $K, $agents, $body)
            }
            $crate::cmd::game::GameName::Abalone => {
                $crate::with_game!(@kit pjlab_abalone::AbaloneKit, $K, $agents, $body)
            }
            $crate::cmd::game::GameName::Chomp => {
                $crate::with_game!(@kit pjlab_chomp::ChompKit, $K, $agents, $body)
            }
        }
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
        for &game in GameName::all() {
            // `--game`'s value is the kit's name.
            let value = clap::ValueEnum::to_possible_value(&game).expect("a value");
            assert_eq!(value.get_name(), game.name());
            assert_eq!(GameName::parse(game.name()).ok(), Some(game));
        }
        assert_eq!(GameName::names(|_| true), "pijersi, abalone or chomp");
        assert_eq!(GameName::names(|g| g == GameName::Chomp), "chomp");
        assert_eq!(
            GameName::parse("x").map_err(|e| e.to_string()).err(),
            Some("unknown game \"x\" (pijersi, abalone or chomp)".to_string())
        );
    }
}
