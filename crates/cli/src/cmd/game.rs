//! `--game` and the registry: which game a command plays, and that game's parts.
//!
//! [`with_game!`](crate::with_game) is the registry: one line per game binds its [`GameKit`]
//! (from the game's crate) and its agent factory; commands are generic over the kit.

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
    /// The game a name (`pijersi`, `abalone`, `chomp`) stands for.
    ///
    /// # Errors
    /// On an unknown name.
    pub fn parse(name: &str) -> Result<GameName> {
        <GameName as clap::ValueEnum>::from_str(name, true)
            .map_err(|_| anyhow::anyhow!("unknown game {name:?} (pijersi, abalone or chomp)"))
    }
}

/// Builds an agent of a game from its spec and a seed.
pub type AgentFactory<G> = fn(&str, u64) -> Result<Box<dyn Agent<G>>>;

/// The agents every game has ([`pjlab_agents::build`]'s specs).
pub fn plain_agent<K: GameKit>(spec: &str, seed: u64) -> Result<Box<dyn Agent<K::Game>>> {
    Ok(pjlab_agents::build::<K>(spec, seed)?)
}

/// Runs `$body` with `$K` the kit of `$game` and `$agents` its [`AgentFactory`]. Pijersi's
/// factory adds network players (`net:checkpoint=...`).
#[macro_export]
macro_rules! with_game {
    ($game:expr, |$K:ident, $agents:ident| $body:expr) => {
        match $game {
            $crate::cmd::game::GameName::Pijersi => {
                type $K = pjlab_pijersi::PijersiKit;
                let $agents: $crate::cmd::game::AgentFactory<pjlab_pijersi::Position> =
                    $crate::cmd::agent;
                $body
            }
            $crate::cmd::game::GameName::Abalone => {
                type $K = pjlab_abalone::AbaloneKit;
                let $agents: $crate::cmd::game::AgentFactory<pjlab_abalone::Position> =
                    $crate::cmd::game::plain_agent::<pjlab_abalone::AbaloneKit>;
                $body
            }
            $crate::cmd::game::GameName::Chomp => {
                type $K = pjlab_chomp::ChompKit;
                let $agents: $crate::cmd::game::AgentFactory<pjlab_chomp::Chomp> =
                    $crate::cmd::game::plain_agent::<pjlab_chomp::ChompKit>;
                $body
            }
        }
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
