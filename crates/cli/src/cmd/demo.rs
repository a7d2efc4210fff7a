//! `pjlab demo`: a game between two simple agents, to see the rules at work.

use anyhow::Result;
use pjlab_pijersi::notation::write_game;
use pjlab_pijersi::perft::perft;
use pjlab_pijersi::{Move, Position, Variant};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use crate::Verbosity;
use crate::cmd::replay::result_name;

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

fn greedy(position: &Position, rng: &mut ChaCha8Rng) -> Option<Move> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let wins: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&m| position.after(m).is_won())
        .collect();
    let captures: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&m| position.after(m).halfmove() == 0)
        .collect();
    [wins, captures, moves]
        .into_iter()
        .find(|m| !m.is_empty())?
        .choose(rng)
        .copied()
}

/// Runs the command.
pub fn run(args: Args, verbosity: Verbosity) -> Result<()> {
    let variant: Variant = args.variant.parse()?;
    let start = variant.setup(args.seed);
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let mut position = start.clone();
    let mut moves = Vec::new();
    while let Some(mv) = greedy(&position, &mut rng) {
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
    println!("{}", result_name(position.outcome()));
    Ok(())
}
