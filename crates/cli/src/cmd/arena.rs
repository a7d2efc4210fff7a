//! `pjlab match`, `pjlab tournament` and `pjlab balance`: games between agents, kept in Parquet,
//! with a Markdown report, CSV tables and SVG plots (see `pjlab-arena`).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use pjlab_arena::report::{self, sprt_state};
use pjlab_arena::stats::{Sprt, SprtDecision, Wdl};
use pjlab_arena::{Kind, PlayOptions, PlayedGame, Player, RunSpec, play_games, record};

use crate::Verbosity;

/// Raised by Ctrl-C: workers stop taking games, finished ones are kept and reported.
static STOP: AtomicBool = AtomicBool::new(false);

/// Options every run shares.
#[derive(clap::Args, Debug)]
pub struct Common {
    /// Directory for games.parquet, report.md, games.csv, summary.csv, games.txt and plots/
    /// (default: runs/<command>-<time>).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Setup variants, used in turn: classic, half-random, full-random, pijersi-24, pijersi-36,
    /// pijersi-1296, pijersi-8100 (comma-separated).
    #[arg(long, default_value = "classic")]
    variants: String,
    /// Worker threads, each playing one game at a time on one core (default: all cores).
    #[arg(long)]
    workers: Option<usize>,
    /// Seed of the random setups and openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random plies played before the agents take over, so that deterministic agents do not
    /// repeat the same game (recorded as each game's first moves; 0 turns it off).
    #[arg(long, default_value_t = 2)]
    opening_plies: u32,
    /// Draw each opening ply only among the moves that a shallow alpha-beta search (the reply,
    /// then captures) scores within this many centi-units of the best (a cube is about 100), so
    /// that no random move hangs a piece; a negative value draws uniformly over all legal moves.
    #[arg(long, default_value_t = 30, allow_negative_numbers = true)]
    opening_margin: i32,
    /// Plies after which a game is stopped and scored a draw.
    #[arg(long, default_value_t = 1000)]
    max_plies: u32,
    /// Continue the interrupted run in --out from its games.parquet, with the options it was
    /// started with (options given again are ignored, except --workers).
    #[arg(long, requires = "out")]
    resume: bool,
}

/// Play two agents against each other: every setup twice, colours swapped, with ratings, a
/// head-to-head table and an optional SPRT.
///
/// Agents are specs: `alphabeta:depth=3`, `mcts:sims=400`, `net:checkpoint=runs/x,sims=200`,
/// `ugi:cmd=/path/to/engine,movetime=100ms` (see `pjlab-agents`).
#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// The candidate agent.
    #[arg(long, required_unless_present = "resume")]
    a: Option<String>,
    /// The baseline agent.
    #[arg(long, required_unless_present = "resume")]
    b: Option<String>,
    /// Games in all (an even number plays whole colour pairs).
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Run a sequential test of "a is at least this many Elo better than b" (H0: 0 Elo, 5% error
    /// rates) and stop as soon as it decides.
    #[arg(long)]
    sprt_elo: Option<f64>,
    #[command(flatten)]
    common: Common,
}

/// Round robin between several agents (every pair plays colour-paired games), with a ratings
/// table.
#[derive(clap::Args, Debug)]
pub struct TournamentArgs {
    /// The agents, comma-separated; an agent's own options may follow it
    /// (`alphabeta:depth=2,tt=4,random,mcts:sims=100`), or repeat the flag for each.
    #[arg(long, required_unless_present = "resume", num_args = 1)]
    agents: Vec<String>,
    /// Games per pair of agents.
    #[arg(long, default_value_t = 20)]
    games: u64,
    #[command(flatten)]
    common: Common,
}

/// Measure first-player balance of setup variants: one agent plays both colours; White's score
/// with its 95% interval, draw rate and game length per variant, a test of whether variants
/// differ, and per-setup numbers for the enumerable variants.
#[derive(clap::Args, Debug)]
pub struct BalanceArgs {
    /// The agent playing both sides.
    #[arg(long, required_unless_present = "resume")]
    agent: Option<String>,
    /// Games per variant (enumerable variants walk their setups in order).
    #[arg(long, default_value_t = 200)]
    games_per_variant: u64,
    /// Also put a table and a plot per setup in the report for the enumerable variants with at
    /// most 36 setups (setups.csv always has every setup).
    #[arg(long)]
    per_setup: bool,
    #[command(flatten)]
    common: Common,
}

/// Splits a comma-separated agent list where agents' own options also use commas: a piece
/// `key=value` whose key has no `:` continues the agent before it.
pub fn split_agents(lists: &[String]) -> Vec<String> {
    let mut agents: Vec<String> = Vec::new();
    for list in lists {
        let mut first_of_flag = true;
        for piece in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let continues = matches!(piece.split_once('='), Some((key, _)) if !key.contains(':'));
            match agents.last_mut() {
                Some(last) if continues && !first_of_flag => {
                    last.push(',');
                    last.push_str(piece);
                }
                _ => agents.push(piece.to_string()),
            }
            first_of_flag = false;
        }
    }
    agents
}

/// Runs `pjlab match`.
pub fn run_match(args: MatchArgs, verbosity: Verbosity) -> Result<()> {
    let players = match (args.a, args.b) {
        (Some(a), Some(b)) => vec![a, b],
        _ => Vec::new(),
    };
    let sprt = args.sprt_elo.map(Sprt::better_by);
    run(
        Kind::Match,
        players,
        args.games,
        sprt,
        false,
        args.common,
        verbosity,
    )
}

/// Runs `pjlab tournament`.
pub fn run_tournament(args: TournamentArgs, verbosity: Verbosity) -> Result<()> {
    let players = split_agents(&args.agents);
    if !args.common.resume && players.len() < 2 {
        bail!(
            "a tournament needs at least two agents, got {}",
            players.len()
        );
    }
    run(
        Kind::Tournament,
        players,
        args.games,
        None,
        false,
        args.common,
        verbosity,
    )
}

/// Runs `pjlab balance`.
pub fn run_balance(args: BalanceArgs, verbosity: Verbosity) -> Result<()> {
    let players = args.agent.into_iter().collect();
    run(
        Kind::Balance,
        players,
        args.games_per_variant,
        None,
        args.per_setup,
        args.common,
        verbosity,
    )
}

/// Labels for specs: the spec itself, made unique with `#2`, `#3` for repeats.
fn players(specs: Vec<String>) -> Vec<Player> {
    let mut out: Vec<Player> = Vec::new();
    for spec in specs {
        let repeats = out.iter().filter(|p| p.spec == spec).count();
        let label = if repeats == 0 {
            spec.clone()
        } else {
            format!("{spec}#{}", repeats + 1)
        };
        out.push(Player { label, spec });
    }
    out
}

fn run(
    kind: Kind,
    specs: Vec<String>,
    games: u64,
    sprt: Option<Sprt>,
    per_setup: bool,
    common: Common,
    verbosity: Verbosity,
) -> Result<()> {
    let name = match kind {
        Kind::Match => "match",
        Kind::Tournament => "tournament",
        Kind::Balance => "balance",
    };
    let out = common.out.clone().unwrap_or_else(|| {
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        PathBuf::from(format!("runs/{name}-{stamp}"))
    });
    let parquet = out.join("games.parquet");
    let (spec, mut played) = if common.resume {
        let (spec, played) = record::load(&parquet)
            .with_context(|| format!("cannot resume from {}", parquet.display()))?;
        if spec.kind != kind {
            bail!(
                "{} holds a {:?} run, not a {name}",
                parquet.display(),
                spec.kind
            );
        }
        (spec, played)
    } else {
        if parquet.exists() {
            bail!(
                "{} already holds games: pass --resume to continue that run, or choose another --out",
                parquet.display()
            );
        }
        let spec = RunSpec {
            kind,
            players: players(specs),
            variants: pjlab_arena::schedule::parse_variants(&common.variants)?
                .iter()
                .map(|v| v.name().to_string())
                .collect(),
            games,
            seed: common.seed,
            opening_plies: common.opening_plies,
            opening_margin: (common.opening_margin >= 0).then_some(common.opening_margin),
            max_plies: common.max_plies,
            sprt,
            per_setup,
            command: std::env::args().collect::<Vec<_>>().join(" "),
        };
        (spec, Vec::new())
    };
    let schedule = spec.schedule()?;
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    // External engines' stderr goes to a file beside the report unless the spec names one.
    let factory = {
        let out = out.clone();
        move |agent_spec: &str,
              seed: u64|
              -> std::result::Result<
            Box<dyn pjlab_agents::Agent<pjlab_pijersi::Position>>,
            String,
        > {
            let mut agent_spec = agent_spec.to_string();
            if agent_spec.starts_with("ugi:") && !agent_spec.contains("stderr=") {
                let slug: String = agent_spec
                    .chars()
                    .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                    .take(40)
                    .collect();
                let file = out.join(format!("engine-{slug}.stderr"));
                agent_spec.push_str(&format!(",stderr={}", file.display()));
            }
            crate::cmd::agent(&agent_spec, seed).map_err(|e| format!("{e:#}"))
        }
    };
    for p in &spec.players {
        factory(&p.spec, 0).map_err(|e| anyhow::anyhow!("agent `{}`: {e}", p.label))?;
    }
    let done: std::collections::HashSet<u64> = played.iter().map(|g| g.spec.id).collect();
    let todo: Vec<_> = schedule
        .iter()
        .filter(|g| !done.contains(&g.id))
        .cloned()
        .collect();
    let workers = common
        .workers
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let options = PlayOptions {
        workers,
        opening: pjlab_arena::Opening {
            plies: spec.opening_plies,
            margin: spec.opening_margin,
        },
        max_plies: spec.max_plies,
        seed: spec.seed,
    };
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("\nstopping: finished games are kept (Ctrl-C again to quit at once)");
    });
    let bar = ProgressBar::new(schedule.len() as u64);
    bar.set_position(played.len() as u64);
    if verbosity == Verbosity::Quiet {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix} [{bar:30}] {pos}/{len} games {elapsed_precise} (ETA {eta}) {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar.set_prefix(name);
    bar.set_message(running_score(&spec, &played));
    let mut last_save = Instant::now();
    let mut unsaved = 0;
    let mut sprt_decided = None;
    let mut save_error = None;
    let started = Instant::now();
    let mut on_game = |game: PlayedGame| {
        played.push(game);
        unsaved += 1;
        bar.inc(1);
        bar.set_message(running_score(&spec, &played));
        if unsaved >= 50 || last_save.elapsed() > Duration::from_secs(30) {
            if let Err(e) = record::save(&parquet, &spec, &played) {
                save_error.get_or_insert(e);
                STOP.store(true, Ordering::SeqCst);
            }
            unsaved = 0;
            last_save = Instant::now();
        }
        if let Some(sprt) = &spec.sprt {
            let (state, _) = sprt_state(sprt, &played);
            if state.decision != SprtDecision::Continue {
                sprt_decided = Some(state.decision);
                STOP.store(true, Ordering::SeqCst);
            }
        }
    };
    let outcome = play_games(
        &todo,
        &spec.players,
        &factory,
        &options,
        &STOP,
        &mut on_game,
    );
    bar.finish_and_clear();
    record::save(&parquet, &spec, &played)
        .with_context(|| format!("saving {}", parquet.display()))?;
    if let Some(e) = save_error {
        return Err(e).context("saving games during the run (they are saved now)");
    }
    outcome?;
    let markdown = report::write(&out, &spec, &played, schedule.len())?;
    let elapsed = started.elapsed().as_secs_f64();
    if verbosity != Verbosity::Quiet {
        eprintln!(
            "{} games ({} this session, {:.1} s, {} workers); report in {}",
            played.len(),
            played.len() - done.len(),
            elapsed,
            workers,
            out.join("report.md").display()
        );
    }
    print_headline(&markdown);
    if let Some(decision) = sprt_decided {
        println!(
            "SPRT decided after {} games: {}",
            played.len(),
            if decision == SprtDecision::H1 {
                "H1 (better)"
            } else {
                "H0 (not better)"
            }
        );
    } else if played.len() < schedule.len() {
        println!(
            "interrupted: {} of {} games kept; continue with: pjlab {name} --out {} --resume",
            played.len(),
            schedule.len(),
            shell_path(&out)
        );
    }
    Ok(())
}

fn shell_path(path: &Path) -> String {
    let text = path.display().to_string();
    if text.contains(char::is_whitespace) {
        format!("'{text}'")
    } else {
        text
    }
}

/// The report's first table (ratings, or balance by variant), printed on stdout.
fn print_headline(markdown: &str) {
    let mut in_table = false;
    for line in markdown.lines() {
        if line.starts_with("| rank") || line.starts_with("| variant | games | White") {
            in_table = true;
        }
        if in_table {
            if !line.starts_with('|') {
                break;
            }
            println!("{line}");
        }
    }
}

/// The running score for the progress line.
fn running_score(spec: &RunSpec, played: &[PlayedGame]) -> String {
    match spec.kind {
        Kind::Match => {
            let mut a = Wdl::default();
            for g in played {
                a.add(if g.spec.white == 0 {
                    g.result
                } else {
                    -g.result
                });
            }
            let (lo, hi) = a.interval();
            format!(
                "{} {:.1}-{:.1} ({:.1}%, 95% {:.1}-{:.1})",
                spec.players[0].label,
                a.points(),
                a.games() as f64 - a.points(),
                100.0 * a.score(),
                100.0 * lo,
                100.0 * hi
            )
        }
        Kind::Tournament => {
            let mut points = vec![0.0; spec.players.len()];
            for g in played {
                points[g.spec.white] += (f64::from(g.result) + 1.0) / 2.0;
                points[g.spec.black] += (1.0 - f64::from(g.result)) / 2.0;
            }
            let (best, top) = points
                .iter()
                .enumerate()
                .max_by(|a, b| a.1.total_cmp(b.1))
                .map_or((0, 0.0), |(i, &p)| (i, p));
            format!("leader {} {top:.1} points", spec.players[best].label)
        }
        Kind::Balance => {
            let (score, lo, hi) = report::white_score(played);
            format!(
                "White {:.1}% (95% {:.1}-{:.1})",
                100.0 * score,
                100.0 * lo,
                100.0 * hi
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_lists_keep_each_agents_options() {
        let lists = vec!["alphabeta:depth=2,tt=4,random,mcts:sims=100,cpuct=2".to_string()];
        assert_eq!(
            split_agents(&lists),
            ["alphabeta:depth=2,tt=4", "random", "mcts:sims=100,cpuct=2"]
        );
        let repeated = vec!["greedy".to_string(), "alphabeta:depth=1".to_string()];
        assert_eq!(split_agents(&repeated), ["greedy", "alphabeta:depth=1"]);
        let labels = players(vec!["random".into(), "random".into()]);
        assert_eq!(labels[1].label, "random#2");
    }
}
