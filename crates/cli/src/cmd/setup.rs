//! `pjlab setup`: print a variant's start position.

use anyhow::{Result, bail};
use pjlab_core::{GameKit, SetupVariant};

use crate::cmd::game::GameName;

/// Print the start position a variant names.
///
/// Pijersi (PSN): classic, full-random, half-random, pijersi-24, pijersi-36, pijersi-1296,
/// pijersi-8100; the same seed always gives the same setup. Abalone (position text): standard,
/// belgian-daisy, german-daisy, doubles, doubles-0321, doubles-nojunction,
/// doubles-0321-nojunction. Chomp: a bar size `MxN` (position text).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game.
    #[arg(long, value_parser = crate::cmd::game::game_arg(), default_value_t)]
    game: GameName,
    /// Setup variant (default: classic for Pijersi, standard for Abalone).
    #[arg(long)]
    variant: Option<String>,
    /// Pijersi: seed of the random choices.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Pijersi: list every setup of an enumerable variant (classic, pijersi-24, -36, -1296,
    /// -8100), one PSN a line, in index order.
    #[arg(long, conflicts_with = "seed")]
    all: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    crate::with_game!(args.game, |K| setup::<K>(&args))
}

/// Prints the setups of one game, by its kit.
fn setup<K: GameKit>(args: &Args) -> Result<()> {
    if !K::SETUP_SEEDS && (args.all || args.seed != 0) {
        bail!(
            "{} starts are fixed: --seed and --all are for {}",
            K::INFO.name,
            GameName::names(
                |game| crate::with_game!(game, |G| <G as GameKit>::SETUP_SEEDS
                    && G::variants().iter().any(|v| v.count() != Some(1)))
            )
        );
    }
    let variant = match args.variant.as_deref() {
        Some(name) => K::variant(name).map_err(anyhow::Error::msg)?,
        None => K::setup_variant(),
    };
    if args.all {
        let Some(count) = variant.count() else {
            bail!("--all needs an enumerable variant; {variant} setups are drawn at random");
        };
        for index in 0..count {
            println!("{}", K::setup_text(&variant.nth(index)));
        }
    } else {
        println!("{}", K::setup_text(&variant.start(args.seed)));
    }
    Ok(())
}
