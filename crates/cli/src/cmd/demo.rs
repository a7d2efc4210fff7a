//! `pjlab demo`: a game between two simple agents, to see the rules at work.

use anyhow::Result;
use pjlab_pijersi::notation::write_game;
use pjlab_pijersi::perft::perft;
use pjlab_pijersi::{PijersiKit, Variant};

use crate::Verbosity;
use crate::cmd::game::result_name;

/// Play one seeded game between two greedy agents (win if possible, else capture, else a random
/// move) and print it in the rulebook notation with its result.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Setup variant.
    #[arg(long, default_value = "half-random")]
    variant: String,
    /// Seed of the setup and of the agents' choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Runs the command.
pub fn run(args: Args, verbosity: Verbosity) -> Result<()> {
    let variant: Variant = args.variant.parse()?;
    let start = variant.setup(args.seed);
    let mut agent = pjlab_agents::build::<PijersiKit>("greedy", args.seed)?;
    let mut position = start.clone();
    let mut moves = Vec::new();
    while let Some(mv) = agent.decide(&position).best_move {
        position.play_unchecked(mv);
        moves.push(mv);
    }
    if verbosity != Verbosity::Quiet {
        println!("setup: {variant}, seed {} -> {start}", args.seed);
        let counts: Vec<String> = (1..=3).map(|d| perft(&start, d).to_string()).collect();
        println!("perft(1..3) of the setup: {}", counts.join(", "));
        println!();
    }
    print!("{}", write_game(&start, &moves)?);
    println!("{position}");
    println!("{}", result_name::<PijersiKit>(position.outcome()));
    Ok(())
}
