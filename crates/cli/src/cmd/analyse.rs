//! `pjlab analyse`: what an agent thinks of one position.

use anyhow::{Context, Result};
use pjlab_agents::Score;
use pjlab_core::{Game, GameKit};

use crate::cmd::game::{AgentFactory, PositionArgs, start};

/// Print an agent's best move, score and principal variation for one position.
///
/// Scores are for the side to move: alpha-beta in centi-units (a cube is about 100) or a forced
/// win / loss in plies; MCTS as an expected value in [-1, 1].
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    at: PositionArgs,
    /// The agent, e.g. `alphabeta:depth=6` or `mcts:sims=5000`.
    #[arg(long, default_value = "alphabeta:depth=4")]
    agent: String,
    /// Seed of the agent's random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    crate::with_game!(args.at.game, |K, agents| analyse::<K>(&args, agents))
}

fn analyse<K: GameKit>(args: &Args, agents: AgentFactory<K::Game>) -> Result<()> {
    let position = start::<K>(args.at.text(), None, 0)?;
    let mut agent = agents(&args.agent, args.seed).context("--agent")?;
    let decision = agent.decide(&position);
    let best = decision.best_move.map(|m| position.move_to_text(m));
    let pv: Vec<String> = position.line_to_text(&decision.pv);
    let position = position.to_text();
    if args.json {
        let (kind, value) = match decision.score {
            Some(Score::Centi(c)) => ("centi", serde_json::json!(c)),
            Some(Score::Mate(n)) => ("mate_plies", serde_json::json!(n)),
            Some(Score::Value(v)) => ("value", serde_json::json!(v)),
            None => ("none", serde_json::Value::Null),
        };
        let object = serde_json::json!({
            "psn": position,
            "agent": args.agent,
            "best_move": best,
            "score_kind": kind,
            "score": value,
            "pv": pv,
            "effort": decision.effort,
            "nodes": decision.nodes,
            "seconds": decision.elapsed.as_secs_f64(),
        });
        println!("{object}");
    } else {
        println!("position  {position}");
        println!(
            "best      {}",
            best.as_deref().unwrap_or("(none: the game is over)")
        );
        if let Some(score) = decision.score {
            println!("score     {score}");
        }
        println!("pv        {}", pv.join(" "));
        println!(
            "effort    {} (depth or simulations), {} nodes, {:.3} s",
            decision.effort,
            decision.nodes,
            decision.elapsed.as_secs_f64()
        );
    }
    Ok(())
}
