//! `pjlab setup`: print a variant's start position.

use anyhow::{Result, bail};
use pjlab_pijersi::Variant;

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
    #[arg(long, value_enum, default_value_t)]
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
    if args.game == GameName::Chomp {
        use pjlab_core::{Game, GameKit, SetupVariant};
        let name = args.variant.as_deref().unwrap_or("5x6");
        let size = pjlab_chomp::ChompKit::variant(name).map_err(anyhow::Error::msg)?;
        println!("{}", size.start(0).to_text());
        return Ok(());
    }
    if args.game == GameName::Abalone {
        if args.all || args.seed != 0 {
            bail!("abalone starts are fixed: --seed and --all are for pijersi");
        }
        use pjlab_abalone::{Mode, Rules, SeatOrder};
        let variant: pjlab_abalone::Variant =
            args.variant.as_deref().unwrap_or("standard").parse()?;
        // The seat order of doubles is a rule that the variant names, not part of the start's
        // text (the spec gives one text for both orders): print it under the default order.
        let start = variant.start();
        let rules = Rules {
            mode: match start.rules().mode {
                Mode::Doubles(_) => Mode::Doubles(SeatOrder::Clockwise),
                two => two,
            },
            ..start.rules()
        };
        println!("{}", start.with_rules(rules)?);
        return Ok(());
    }
    let variant: Variant = args.variant.as_deref().unwrap_or("classic").parse()?;
    if args.all {
        if variant.count().is_none() {
            bail!("--all needs an enumerable variant; {variant} setups are drawn at random");
        }
        for position in variant.enumerate()? {
            println!("{position}");
        }
    } else {
        println!("{}", variant.setup(args.seed));
    }
    Ok(())
}
