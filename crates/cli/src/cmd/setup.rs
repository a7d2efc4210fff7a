//! `pjlab setup`: print a variant's setup as PSN.

use anyhow::{Result, bail};
use pjlab_pijersi::Variant;

/// Print the setup a (variant, seed) pair names, or every setup of a small variant.
///
/// Variants: classic, full-random, half-random, pijersi-24, pijersi-36, pijersi-1296,
/// pijersi-8100. The same seed always gives the same setup.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Setup variant.
    #[arg(long, default_value = "classic")]
    variant: String,
    /// Seed of the random choices.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// List every setup of an enumerable variant (classic, pijersi-24, -36, -1296, -8100), one
    /// PSN a line, in index order.
    #[arg(long, conflicts_with = "seed")]
    all: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let variant: Variant = args.variant.parse()?;
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
