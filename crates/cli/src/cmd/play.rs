//! `pjlab play`: one game between two agents, printed in the rulebook notation.

use anyhow::{Context, Result, bail};
use pjlab_pijersi::notation::{move_notation, write_game};
use pjlab_pijersi::{Position, Variant};

use crate::Verbosity;
use crate::cmd::replay::result_name;

/// Play one game between two agents and print it in the rulebook notation, then the final
/// position (PSN) and the result (white, black or draw).
///
/// Agents are short specs: `random`, `greedy`, `alphabeta:depth=4`, `alphabeta:time=1s`,
/// `mcts:sims=800,eval=rollout` (see `pjlab-agents` for every option).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// White's agent.
    #[arg(long)]
    white: String,
    /// Black's agent.
    #[arg(long)]
    black: String,
    /// Setup variant: classic, half-random, full-random, pijersi-24, pijersi-36, pijersi-1296,
    /// pijersi-8100.
    #[arg(long, default_value = "classic")]
    variant: String,
    /// Seed of the setup (random variants) and of the agents' random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Start from this PSN instead of a setup.
    #[arg(long, conflicts_with = "variant")]
    psn: Option<String>,
    /// Stop after this many plies (the game is then unfinished).
    #[arg(long, default_value_t = 1_000)]
    max_plies: usize,
}

/// Runs the command.
pub fn run(args: Args, verbosity: Verbosity) -> Result<()> {
    let start = match &args.psn {
        Some(psn) => Position::from_psn(psn)?,
        None => args.variant.parse::<Variant>()?.setup(args.seed),
    };
    let mut white = crate::cmd::agent(&args.white, args.seed).context("--white")?;
    let mut black = crate::cmd::agent(&args.black, args.seed.wrapping_add(1)).context("--black")?;
    let mut position = start.clone();
    let mut moves = Vec::new();
    while position.outcome().is_none() && moves.len() < args.max_plies {
        let white_to_move = pjlab_core::Game::side_to_move(&position) == pjlab_core::Side::First;
        let agent = if white_to_move {
            &mut white
        } else {
            &mut black
        };
        let decision = agent.decide(&position);
        let Some(mv) = decision.best_move else {
            bail!("{} returned no move in {position}", agent.spec());
        };
        if !position.is_legal(mv) {
            bail!(
                "{} played the illegal move {mv} in {position}",
                agent.spec()
            );
        }
        if verbosity == Verbosity::Verbose {
            let score = decision.score.map(|s| s.to_string()).unwrap_or_default();
            eprintln!(
                "{:>4} {:<6} {:<12} {:<18} {:>8.3} s  {}",
                moves.len() + 1,
                if white_to_move { "white" } else { "black" },
                move_notation(&position, mv),
                score,
                decision.elapsed.as_secs_f64(),
                agent.spec()
            );
        }
        position.play_unchecked(mv);
        moves.push(mv);
    }
    if verbosity != Verbosity::Quiet {
        println!("white: {}", args.white);
        println!("black: {}", args.black);
        println!("start: {start}");
        println!();
    }
    print!("{}", write_game(&start, &moves)?);
    println!("{position}");
    println!("{}", result_name(position.outcome()));
    Ok(())
}
