//! `--game` and the registry: which game a command plays, and that game's parts.
//!
//! [`with_game!`](crate::with_game) is the registry: one line per game names its [`GameKit`]
//! (from the game's crate); commands are generic over the kit, and every game's agents come
//! from one factory, [`crate::cmd::agent`] (network players included).

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
