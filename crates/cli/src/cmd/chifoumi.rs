//! `pjlab chifoumi`: matches, round robins and arenas between Chifoumi players, and a game
//! drawn as an HTML page.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use pjlab_arena::session::split_agents;
use pjlab_chifoumi::{Map, Player, Rules};
use pjlab_chifoumi_eval::record::Records;
use pjlab_chifoumi_eval::{
    ArenaSpec, RulesSpec, RunKind, RunSpec, Runner, labels, report, session, show,
};
use pjlab_run::session::resume_hint;

use crate::Verbosity;

/// Chifoumi on a grid: spatial rock-paper-scissors with hidden bags (`../shared/specs/chifoumi.md`).
///
/// Players are specs: random, focused:F (or P, C), greedy, avoider, counter, counter-reset,
/// observer, lurker, ismcts (information-set MCTS: ismcts:sims=400,c=0.7,leaf=0.5,hidden=0.1,tie=0.1),
/// and net:checkpoint=DIR,temp=1 (a network of `pjlab chifoumi train`).
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    /// Two players, N matches (seats swap every match; matches 2k and 2k+1 share a seed).
    Match {
        /// First player's spec.
        #[arg(long)]
        a: Option<String>,
        /// Second player's spec.
        #[arg(long)]
        b: Option<String>,
        /// Matches to play (each of `--games` games).
        #[arg(long, default_value_t = 100)]
        matches: u32,
        #[command(flatten)]
        common: Common,
    },
    /// A round robin: every pair of players, N matches each.
    Tournament {
        /// Comma-separated player specs, each with its own options after it
        /// (`ismcts:sims=100,c=0.7,greedy`), or the flag repeated for each (a repeated spec
        /// becomes `spec#2`).
        #[arg(long, num_args = 1)]
        players: Vec<String>,
        /// Matches per pair.
        #[arg(long, default_value_t = 20)]
        matches: u32,
        #[command(flatten)]
        common: Common,
    },
    /// The 5-player extension: every player on one grid for `--turns` turns, N arenas (the
    /// seats rotate from one arena to the next). Each player duels the nearest player in view.
    Arena {
        /// Comma-separated player specs, 2 to 8, each with its own options after it, or the
        /// flag repeated for each (a repeated spec becomes `spec#2`).
        #[arg(long, num_args = 1)]
        players: Vec<String>,
        /// Arenas to play.
        #[arg(long, default_value_t = 20)]
        arenas: u32,
        /// Length of an arena (turns, one player's action each).
        #[arg(long, default_value_t = 1000)]
        turns: u32,
        /// How long a duel's loser sits out (turns).
        #[arg(long, default_value_t = 50)]
        sit_out: u32,
        #[command(flatten)]
        common: Common,
    },
    /// Trains the learned player: policy gradient with a value baseline against a pool of its
    /// past selves and the scripted players, with the match in its input. Writes checkpoints
    /// (an existing --out resumes exactly), metrics.jsonl, plots, and one provenance line per
    /// invocation (provenance.jsonl); play it as net:checkpoint=DIR.
    Train {
        /// The run's settings, TOML (see configs/chifoumi.toml; default: the built-in values,
        /// or the run's own config.toml when --out holds a run).
        #[arg(long)]
        config: Option<PathBuf>,
        /// Run directory.
        #[arg(long, default_value = "runs/chifoumi")]
        out: PathBuf,
        /// Stop after this many iterations of this invocation (resume later with the same --out).
        #[arg(long)]
        iterations: Option<u32>,
    },
    /// Draws one game as a self-contained HTML page that steps through its turns: a game of a
    /// recorded run (`--from DIR --match-id N`) or a fresh match (`--a`, `--b`, `--seed`).
    Show {
        /// A run directory (of `pjlab chifoumi match` or `tournament`) to take the game from.
        #[arg(long, conflicts_with_all = ["a", "b"])]
        from: Option<PathBuf>,
        /// The match's id in that run.
        #[arg(long, default_value_t = 0)]
        match_id: u64,
        /// First player of a fresh match.
        #[arg(long, default_value = "focused:F")]
        a: String,
        /// Second player of a fresh match.
        #[arg(long, default_value = "observer")]
        b: String,
        /// Seed of a fresh match.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The game of the match to draw (0-based).
        #[arg(long, default_value_t = 0)]
        game: usize,
        /// Map file of a fresh match (default: the spec's open 20 x 20 grid).
        #[arg(long)]
        map: Option<PathBuf>,
        /// Where to write the page.
        #[arg(long, default_value = "chifoumi-game.html")]
        out: PathBuf,
    },
}

/// Options every run takes.
#[derive(clap::Args, Debug)]
struct Common {
    /// Run directory: records (Parquet), report.md, scores.svg.
    #[arg(long)]
    out: PathBuf,
    /// Seed of the run; every match's seed derives from it.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long)]
    workers: Option<usize>,
    /// Continue the interrupted run in --out with the options it was started with.
    #[arg(long)]
    resume: bool,
    /// Map file (`.` free, `#` wall, `F`/`P`/`C` zone cells; default: the spec's 20 x 20).
    #[arg(long)]
    map: Option<PathBuf>,
    /// Games in a match.
    #[arg(long, default_value_t = 10)]
    games: u16,
    /// Rounds after which a game without a duel is drawn (one turn per player each).
    #[arg(long, default_value_t = 100)]
    max_rounds: u16,
    /// Visibility radius (cells, Chebyshev; at most 5).
    #[arg(long, default_value_t = 2)]
    radius: u8,
    /// Objects of each type dealt in its zone.
    #[arg(long, default_value_t = 6)]
    zone_objects: u8,
    /// Objects of each type dealt on random free cells.
    #[arg(long, default_value_t = 4)]
    random_objects: u8,
    /// Allow STAY (pass) as an action.
    #[arg(long)]
    stay: bool,
    /// A match's next game keeps the uncollected objects instead of dealing anew.
    #[arg(long)]
    keep_objects: bool,
    /// Player 0 moves first in every game instead of alternating.
    #[arg(long)]
    no_alternate: bool,
}

fn read_map(path: Option<&Path>) -> Result<Map> {
    match path {
        None => Ok(Map::default()),
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read map {}", p.display()))?;
            Map::parse(&text).with_context(|| format!("map {}", p.display()))
        }
    }
}

impl Common {
    fn rules(&self) -> Result<Rules> {
        Ok(Rules {
            map: read_map(self.map.as_deref())?,
            zone_objects: self.zone_objects,
            random_objects: self.random_objects,
            radius: self.radius,
            max_rounds: self.max_rounds,
            games: self.games,
            alternate_first: !self.no_alternate,
            stay: self.stay,
            keep_objects: self.keep_objects,
        })
    }
}

/// Builds a player from its spec for matches of `rules` (the scripted players, `ismcts` and
/// `net:checkpoint=DIR[,temp=T]`): [`pjlab_players::chifoumi::build`], its error as the run's
/// factory passes it on.
pub fn player(spec: &str, rules: &Rules) -> std::result::Result<Box<dyn Player + Send>, String> {
    pjlab_players::chifoumi::build(spec, rules).map_err(|e| e.to_string())
}

/// Runs the command.
pub fn run(args: Args, verbosity: Verbosity) -> Result<()> {
    let (kind, specs, matches, arena, common) = match args.command {
        Command::Show {
            from,
            match_id,
            a,
            b,
            seed,
            game,
            map,
            out,
        } => return run_show(from, match_id, [a, b], seed, game, map, &out, verbosity),
        Command::Train {
            config,
            out,
            iterations,
        } => return run_train(config.as_deref(), &out, iterations, verbosity),
        Command::Match {
            a,
            b,
            matches,
            common,
        } => {
            let both = match (a, b) {
                (Some(a), Some(b)) => vec![a, b],
                (None, None) if common.resume => Vec::new(),
                _ => bail!("a match needs both --a and --b"),
            };
            (RunKind::Match, both, matches, None, common)
        }
        Command::Tournament {
            players,
            matches,
            common,
        } => (
            RunKind::Tournament,
            split_agents(&players),
            matches,
            None,
            common,
        ),
        Command::Arena {
            players,
            arenas,
            turns,
            sit_out,
            common,
        } => (
            RunKind::Arena,
            split_agents(&players),
            arenas,
            Some(ArenaSpec { turns, sit_out }),
            common,
        ),
    };
    let out = common.out.clone();
    let new = if common.resume {
        None
    } else {
        Some(RunSpec {
            kind,
            players: labels(&specs),
            matches,
            seed: common.seed,
            rules: RulesSpec::of(&common.rules()?),
            arena,
            sessions: Vec::new(),
        })
    };
    let mut records = session::open(&out, kind, new)?;
    let rules = records.run.rules()?;
    let factory = |spec: &str| player(spec, &rules);
    // Every player is built once before anything is written.
    Runner::new(&records.run, &factory)?;
    records.run.sessions.push(crate::cmd::provenance());
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    // One process a run directory: a second one on the same --out refuses.
    let _lock = pjlab_run::dir::RunLock::acquire(&out, "pjlab chifoumi")?;
    let workers = pjlab_run::pool::workers(common.workers);
    let scheduled = session::scheduled(&records);
    let before = records.len();
    let unit = session::unit(kind);
    let bar = crate::bars::counter(
        kind.name(),
        unit,
        scheduled as u64,
        before as u64,
        verbosity == Verbosity::Quiet,
    );
    crate::cmd::install_stop_signal("matches in progress finish, finished ones are kept");
    let started = Instant::now();
    let played = session::play(
        &mut records,
        &out,
        &factory,
        workers,
        &crate::cmd::STOP,
        &mut |_| bar.inc(1),
    );
    bar.finish_and_clear();
    played?;
    let markdown = report::write_report(&out, &records)?;
    if verbosity != Verbosity::Quiet {
        eprintln!(
            "{} {unit} ({} this session, {:.1} s, {workers} workers); report in {}",
            records.len(),
            records.len() - before,
            started.elapsed().as_secs_f64(),
            out.join("report.md").display()
        );
    }
    let mut in_table = false;
    for line in markdown.lines() {
        in_table |= line.starts_with("| player");
        if in_table {
            if !line.starts_with('|') {
                break;
            }
            println!("{line}");
        }
    }
    let command = format!("pjlab chifoumi {}", kind.name());
    if let Some(hint) = resume_hint(records.len(), scheduled, unit, &command, &out) {
        println!("{hint}");
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn run_show(
    from: Option<PathBuf>,
    match_id: u64,
    specs: [String; 2],
    seed: u64,
    game: usize,
    map: Option<PathBuf>,
    out: &Path,
    verbosity: Verbosity,
) -> Result<()> {
    let (rules, labels, seed, actions) = match from {
        Some(dir) => {
            let records = Records::read(&dir)?;
            if records.run.kind == RunKind::Arena {
                bail!(
                    "{} holds an arena run; show draws a game of a match",
                    dir.display()
                );
            }
            let m = records
                .matches
                .iter()
                .find(|m| m.spec.id == match_id)
                .with_context(|| format!("{} has no match {match_id}", dir.display()))?;
            let names = m.spec.seats.iter().map(|&p| records.run.players[p].clone());
            let names: Vec<String> = names.collect();
            (
                records.run.rules()?,
                [names[0].clone(), names[1].clone()],
                m.spec.seed,
                m.actions.clone(),
            )
        }
        None => {
            let rules = Rules {
                map: read_map(map.as_deref())?,
                games: (game + 1).min(u16::MAX as usize) as u16,
                ..Rules::default()
            };
            let mut a = player(&specs[0], &rules).map_err(anyhow::Error::msg)?;
            let mut b = player(&specs[1], &rules).map_err(anyhow::Error::msg)?;
            let (_, actions) =
                pjlab_chifoumi::play_recorded_match(&rules, &mut [a.as_mut(), b.as_mut()], seed)?;
            (rules, specs, seed, actions)
        }
    };
    let page = show::match_game_page(&rules, seed, &actions, game, labels)?;
    std::fs::write(out, show::html(&page))
        .with_context(|| format!("cannot write {}", out.display()))?;
    if verbosity != Verbosity::Quiet {
        eprintln!(
            "{} turns drawn into {}",
            page.frames.len() - 1,
            out.display()
        );
    }
    if let Some(end) = page.frames.last().and_then(|f| f.end.clone()) {
        println!("{end}");
    }
    Ok(())
}

fn run_train(
    config: Option<&Path>,
    out: &Path,
    iterations: Option<u32>,
    verbosity: Verbosity,
) -> Result<()> {
    use pjlab_chifoumi_learn::LearnConfig;
    let read = |path: &Path| -> Result<LearnConfig> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        LearnConfig::parse(&text).with_context(|| format!("{}", path.display()))
    };
    let config = match config {
        Some(path) => read(path)?,
        None if out.join("config.toml").exists() => read(&out.join("config.toml"))?,
        None => LearnConfig::default(),
    };
    let start = pjlab_chifoumi_learn::checkpoint::latest(out)
        .and_then(|dir| pjlab_chifoumi_learn::checkpoint::read_state(&dir).ok())
        .map_or(0, |s| s.iteration);
    let bar = crate::bars::counter(
        "train",
        "iterations",
        u64::from(config.iterations),
        u64::from(start),
        verbosity == Verbosity::Quiet,
    );
    pjlab_run::dir::RunDir::create(out)?.append_provenance(&crate::cmd::provenance())?;
    crate::cmd::install_stop_signal("matches in progress finish, finished ones are kept");
    let summary =
        pjlab_chifoumi_learn::train(out, &config, iterations, &crate::cmd::STOP, &mut |log| {
            bar.set_position(u64::from(log.iteration));
            let mut msg = format!(
                "{:.0} env steps/s, entropy {:.2}",
                log.env_steps_per_s, log.loss.entropy
            );
            if let Some(s) = log.score_fixed {
                msg.push_str(&format!(", vs fixed opponents {:.0}%", 100.0 * s));
            }
            if !log.eval.is_empty() {
                let mean = log.eval.iter().map(|e| e.1).sum::<f64>() / log.eval.len() as f64;
                msg.push_str(&format!(", eval {:.0}%", 100.0 * mean));
                if verbosity != Verbosity::Quiet {
                    bar.println(format!(
                        "iteration {}: {}",
                        log.iteration,
                        log.eval
                            .iter()
                            .map(|(n, s)| format!("{n} {:.0}%", 100.0 * s))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
            }
            bar.set_message(msg);
        })?;
    bar.finish_and_clear();
    if verbosity != Verbosity::Quiet {
        eprintln!(
            "{} iterations done ({} this session); checkpoints, metrics.jsonl and plots in {}",
            summary.iteration,
            summary.done,
            out.display()
        );
    }
    println!(
        "{}",
        out.join("checkpoints")
            .join(format!("iter-{:04}", summary.iteration))
            .display()
    );
    Ok(())
}
