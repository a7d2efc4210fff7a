//! `pjlab play`: one game between two agents, printed in the game's record notation.

use anyhow::{Context, Result, bail};
use pjlab_core::{Game, GameKit, Side};

use crate::Verbosity;
use crate::cmd::game::{AgentFactory, GameName, result_name, start};

/// Play one game between two agents and print it in the game's record notation (Pijersi: the
/// rulebook notation; Abalone: Aba-Pro), then the final position and the result (`white`,
/// `black` or `draw`).
///
/// Agents are short specs: `random`, `greedy`, `alphabeta:depth=4`, `alphabeta:time=1s`,
/// `mcts:sims=800,eval=rollout` (see `pjlab-agents` for every option).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game.
    #[arg(long, value_parser = crate::cmd::game::game_arg(), default_value_t)]
    game: GameName,
    /// White's agent.
    #[arg(long)]
    white: String,
    /// Black's agent.
    #[arg(long)]
    black: String,
    /// Setup variant (Pijersi: classic, half-random, full-random, pijersi-24, pijersi-36,
    /// pijersi-1296, pijersi-8100; Abalone: standard, belgian-daisy, german-daisy, doubles, ...).
    /// Default: classic, or standard for Abalone.
    #[arg(long)]
    variant: Option<String>,
    /// Seed of the setup (random variants) and of the agents' random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Start from this Pijersi PSN instead of a setup.
    #[arg(long, conflicts_with_all = ["variant", "position"])]
    psn: Option<String>,
    /// Start from this position text (Abalone) instead of a setup.
    #[arg(long, conflicts_with = "variant")]
    position: Option<String>,
    /// Stop after this many plies (the game is then unfinished).
    #[arg(long, default_value_t = 1_000)]
    max_plies: usize,
}

/// Runs the command.
pub fn run(args: Args, verbosity: Verbosity) -> Result<()> {
    crate::with_game!(args.game, |K, agents| play::<K>(&args, agents, verbosity))
}

fn play<K: GameKit>(
    args: &Args,
    agents: AgentFactory<K::Game>,
    verbosity: Verbosity,
) -> Result<()> {
    let position_text = args.psn.as_deref().or(args.position.as_deref());
    let start = start::<K>(position_text, args.variant.as_deref(), args.seed)?;
    let spec_of = |side: Side| match K::INFO.side_name(side) {
        "white" => &args.white,
        _ => &args.black,
    };
    let seed_of = |side: Side| match K::INFO.side_name(side) {
        "white" => args.seed,
        _ => args.seed.wrapping_add(1),
    };
    let mut players = Vec::new();
    for side in Side::BOTH {
        let name = K::INFO.side_name(side);
        players.push(agents(spec_of(side), seed_of(side)).with_context(|| format!("--{name}"))?);
    }
    let mut position = start.clone();
    let mut moves = Vec::new();
    while position.outcome().is_none() && moves.len() < args.max_plies {
        let side = position.side_to_move();
        let agent = &mut players[side.index()];
        let decision = agent.decide(&position);
        let text = position.to_text();
        let Some(mv) = decision.best_move else {
            bail!("{} returned no move in {text}", agent.spec());
        };
        let mut legal = Vec::new();
        position.legal_moves(&mut legal);
        if !legal.contains(&mv) {
            bail!(
                "{} played the illegal move {} in {text}",
                agent.spec(),
                position.move_to_text(mv)
            );
        }
        if verbosity == Verbosity::Verbose {
            let score = decision.score.map(|s| s.to_string()).unwrap_or_default();
            eprintln!(
                "{:>4} {:<6} {:<12} {:<18} {:>8.3} s  {}",
                moves.len() + 1,
                K::INFO.side_name(side),
                K::move_record(&position, mv),
                score,
                decision.elapsed.as_secs_f64(),
                agent.spec()
            );
        }
        position.play_unchecked(mv);
        moves.push(mv);
    }
    if verbosity != Verbosity::Quiet {
        for side in Side::BOTH {
            println!("{}: {}", K::INFO.side_name(side), spec_of(side));
        }
        if let Some(variant) = &args.variant {
            println!("variant: {variant}");
        }
        println!("start: {}", start.to_text());
        println!();
    }
    print!("{}", K::write_record(&start, &moves));
    println!("{}", position.to_text());
    println!("{}", result_name::<K>(position.outcome()));
    Ok(())
}
