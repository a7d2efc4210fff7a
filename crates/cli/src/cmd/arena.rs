//! `pjlab match`, `pjlab tournament` and `pjlab balance`: games between agents, kept in Parquet,
//! with a Markdown report, CSV tables and SVG plots (see `pjlab-arena`).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use indicatif::{MultiProgress, ProgressBar};
use pjlab_arena::drive;
use pjlab_arena::session::{self, players, running_score, split_agents};
use pjlab_arena::stats::{Sprt, SprtDecision};
use pjlab_arena::{RunKind, RunSpec, Shard, record};
use pjlab_core::GameKit;
use pjlab_run::session::resume_hint;

use crate::Verbosity;
use crate::cmd::game::{AgentFactory, GameName};

/// Options every run shares.
#[derive(clap::Args, Debug)]
pub struct Common {
    /// The game (with --resume, the run's own).
    #[arg(long, value_parser = crate::cmd::game::game_arg(), default_value_t)]
    game: GameName,
    /// Directory for games.parquet, report.md, games.csv, summary.csv, games.txt and plots/
    /// (default: runs/<command>-<time>).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Setup variants, used in turn (comma-separated). Pijersi: classic (default), half-random,
    /// full-random, pijersi-24, pijersi-36, pijersi-1296, pijersi-8100. Abalone: standard
    /// (default), belgian-daisy, german-daisy, doubles, doubles-0321, doubles-nojunction,
    /// doubles-0321-nojunction. Chomp: bar sizes such as 3x4,4x5 (default 3x4).
    #[arg(long)]
    variants: Option<String>,
    /// Worker threads, each playing one game at a time on one core (default: all cores).
    #[arg(long)]
    workers: Option<usize>,
    /// Seed of the random setups and openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random plies played before the agents take over, so that deterministic agents do not
    /// repeat the same game (recorded as each game's first moves; 0 turns it off). Default: 2,
    /// and 0 for Chomp, where any random move may throw the win away.
    #[arg(long)]
    opening_plies: Option<u32>,
    /// Draw each opening ply only among the moves that a shallow alpha-beta search (the reply,
    /// then tactical moves) scores within this many centi-units of the best (a Pijersi cube or
    /// an Abalone marble is about 100), so that no random move throws material away; a negative
    /// value draws uniformly over all legal moves.
    #[arg(long, default_value_t = 30, allow_negative_numbers = true)]
    opening_margin: i32,
    /// Plies after which a game is stopped and scored a draw.
    #[arg(long, default_value_t = 1000)]
    max_plies: u32,
    /// Every agent's time a move (`100ms`, `1s`): added to each spec as `time=` (`movetime=`
    /// for external engines; random and greedy need none), which must then set no depth,
    /// simulations, nodes or time of its own. The report gives each agent's mean and longest
    /// time a move and counts moves over the budget plus a tenth (at least 5 ms).
    #[arg(long, value_parser = parse_time)]
    time_per_move: Option<std::time::Duration>,
    /// Play only the K-th of N disjoint parts of the run (`--shard 2/4`, 1 <= K <= N): the
    /// colour pairs p with p mod N = K - 1 (in balance, the games), so that N invocations with
    /// the same options and each its own --out (on as many machines) play the whole run between
    /// them; `pjlab report --merge DIR... --out DIR` then joins the finished shards into the
    /// whole run's games and report, the same as an unsharded run's. With --resume, the run's
    /// own shard (another is refused). Not with --sprt-elo, whose test decides on the games in
    /// the order they finish.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Continue the interrupted run in --out from its games.parquet, with the options it was
    /// started with (options given again are ignored, except --workers).
    #[arg(long, requires = "out")]
    resume: bool,
}

/// Play two agents against each other: every setup twice, colours swapped, with ratings, a
/// head-to-head table and an optional SPRT.
///
/// Agents are specs: `alphabeta:depth=3`, `mcts:sims=400`, `net:checkpoint=runs/x,sims=200`,
/// `ugi:cmd=/path/to/engine,movetime=100ms` (see `pjlab-agents`). A spec's `name=LABEL` option
/// is its label in the reports (`alphabeta:depth=3,name=ab3`), in place of the whole spec.
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
    /// (`alphabeta:depth=2,tt=4,random,mcts:sims=100`), or repeat the flag for each. An
    /// agent's `name=LABEL` option is its label in the reports (`random:name=rnd`).
    #[arg(long, required_unless_present = "resume", num_args = 1)]
    agents: Vec<String>,
    /// Games per pair of agents.
    #[arg(long, default_value_t = 20)]
    games: u64,
    #[command(flatten)]
    common: Common,
}

/// Measure first-player balance of setup variants: one agent plays both colours (every seat in
/// doubles); the first side's score (White in Pijersi, Black in Abalone)
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

/// Runs `pjlab match`.
pub fn run_match(args: MatchArgs, verbosity: Verbosity) -> Result<()> {
    let specs = match (args.a, args.b) {
        (Some(a), Some(b)) => vec![a, b],
        _ => Vec::new(),
    };
    let request = Request {
        kind: RunKind::Match,
        specs,
        games: args.games,
        sprt: args.sprt_elo.map(Sprt::better_by),
        per_setup: false,
    };
    run(request, args.common, verbosity)
}

/// Runs `pjlab tournament`.
pub fn run_tournament(args: TournamentArgs, verbosity: Verbosity) -> Result<()> {
    let specs = split_agents(&args.agents);
    if !args.common.resume && specs.len() < 2 {
        bail!(
            "a tournament needs at least two agents, got {}",
            specs.len()
        );
    }
    let request = Request {
        kind: RunKind::Tournament,
        specs,
        games: args.games,
        sprt: None,
        per_setup: false,
    };
    run(request, args.common, verbosity)
}

/// Runs `pjlab balance`.
pub fn run_balance(args: BalanceArgs, verbosity: Verbosity) -> Result<()> {
    let request = Request {
        kind: RunKind::Balance,
        specs: args.agent.into_iter().collect(),
        games: args.games_per_variant,
        sprt: None,
        per_setup: args.per_setup,
    };
    run(request, args.common, verbosity)
}

/// What a command asks for, besides the options every run shares.
struct Request {
    kind: RunKind,
    specs: Vec<String>,
    games: u64,
    sprt: Option<Sprt>,
    per_setup: bool,
}

fn run(request: Request, mut common: Common, verbosity: Verbosity) -> Result<()> {
    let out = common.out.clone().unwrap_or_else(|| {
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        PathBuf::from(format!("runs/{}-{stamp}", request.kind.name()))
    });
    // A run stopped before its first save left its directory but no games and no options: it
    // starts again from the options given (the schedule checks them as for any new run).
    if common.resume && out.is_dir() && !session::games_file(&out).exists() {
        if request.specs.is_empty() {
            bail!(
                "{} holds no games yet (the run stopped before its first save): give the run's \
                 options again to start it",
                out.display()
            );
        }
        if verbosity != Verbosity::Quiet {
            eprintln!(
                "{} holds no games yet: starting the run from the options given",
                out.display()
            );
        }
        common.resume = false;
    }
    // A resumed run is of the game its file says.
    let game = if common.resume {
        let parquet = session::games_file(&out);
        let spec = record::load_spec(&parquet)
            .with_context(|| format!("cannot resume from {}", parquet.display()))?;
        GameName::parse(&spec.game)?
    } else {
        common.game
    };
    crate::with_game!(game, |K, agents| run_game::<K>(
        request, &common, &out, agents, verbosity
    ))
}

fn parse_time(text: &str) -> std::result::Result<std::time::Duration, String> {
    pjlab_agents::parse_duration(text).map_err(|e| e.to_string())
}

fn run_game<K: GameKit>(
    request: Request,
    common: &Common,
    out: &Path,
    agents: AgentFactory<K::Game>,
    verbosity: Verbosity,
) -> Result<()> {
    // Parsed here rather than by clap, so that a bad shard is a one-line error.
    let shard = common
        .shard
        .as_deref()
        .map(str::parse::<Shard>)
        .transpose()?;
    let variants = match &common.variants {
        Some(list) => list.clone(),
        None => K::variants()[0].to_string(),
    };
    let specs = match common.time_per_move {
        Some(t) => request
            .specs
            .iter()
            .map(|s| pjlab_agents::with_time_per_move(s, t))
            .collect::<Result<Vec<_>, _>>()?,
        None => request.specs,
    };
    let new = RunSpec {
        game: K::INFO.name.into(),
        kind: request.kind,
        players: players(specs)?,
        variants: pjlab_arena::schedule::parse_variants::<K>(&variants)?
            .iter()
            .map(ToString::to_string)
            .collect(),
        games: request.games,
        seed: common.seed,
        opening_plies: common.opening_plies.unwrap_or(K::INFO.opening_plies),
        opening_margin: (common.opening_margin >= 0).then_some(common.opening_margin),
        max_plies: common.max_plies,
        sprt: request.sprt,
        per_setup: request.per_setup,
        command: crate::cmd::command_line(),
        sessions: Vec::new(),
        time_per_move_ms: common.time_per_move.map(|t| t.as_secs_f64() * 1000.0),
        shard,
        pooled_seeds: Vec::new(),
    };
    let launch = Launch {
        out,
        resume: common.resume,
        shard,
        workers: common.workers,
        verbosity,
    };
    play_run::<K>(new, &launch, agents)
}

/// Where and how [`play_run`] plays a run.
pub(crate) struct Launch<'a> {
    /// The run's directory.
    pub out: &'a Path,
    /// Continue the run in `out` rather than start one.
    pub resume: bool,
    /// The shard the command line asked for, checked against a resumed run's.
    pub shard: Option<Shard>,
    /// Worker threads (all cores when unset).
    pub workers: Option<usize>,
    /// How chatty.
    pub verbosity: Verbosity,
}

/// Plays the run `new` to its end in `launch.out` (`pjlab_arena::drive::play_run`) with a
/// progress bar, then prints the headline.
pub(crate) fn play_run<K: GameKit>(
    new: RunSpec,
    launch: &Launch<'_>,
    agents: AgentFactory<K::Game>,
) -> Result<()> {
    crate::cmd::install_stop_signal("finished games are kept");
    let workers = pjlab_run::pool::workers(launch.workers);
    let provenance = crate::cmd::provenance();
    let drive = drive::Launch {
        out: launch.out,
        resume: launch.resume,
        shard: launch.shard,
        workers,
        provenance: &provenance,
        holder: None,
        stop: &crate::cmd::STOP,
    };
    let quiet = launch.verbosity == Verbosity::Quiet;
    let mut bar = None;
    let started = Instant::now();
    let ended = drive::play_run::<K>(new, &drive, factory(agents), &mut |p| {
        run_bar(&mut bar, None, &p, quiet);
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    print_ended(&ended?, launch.out, workers, started, launch.verbosity);
    Ok(())
}

/// The arena's agent factory of the binary's.
pub(crate) fn factory<G: 'static>(
    agents: AgentFactory<G>,
) -> impl Fn(&str, u64) -> drive::AgentResult<G> + Sync + Clone + 'static {
    move |spec: &str, seed: u64| {
        agents(spec, seed).map_err(|e| pjlab_core::BoxError::from(format!("{e:#}")))
    }
}

/// A run's bar (made when the run opens), advanced with each game, and `outer` with it.
pub(crate) fn run_bar<K: GameKit>(
    bar: &mut Option<ProgressBar>,
    outer: Option<(&MultiProgress, &ProgressBar)>,
    progress: &drive::Progress<'_, K>,
    quiet: bool,
) {
    match *progress {
        drive::Progress::Opened {
            spec,
            scheduled,
            played,
        } => {
            let kind = spec.kind.name();
            let prefix = match spec.shard {
                Some(shard) => format!("{kind} {shard}"),
                None => kind.to_string(),
            };
            let new = crate::bars::counter(
                &prefix,
                "games",
                scheduled as u64,
                played.len() as u64,
                quiet,
            );
            let new = match outer {
                Some((multi, _)) => multi.add(new),
                None => new,
            };
            new.set_message(running_score::<K>(spec, played));
            *bar = Some(new);
        }
        drive::Progress::Played { spec, played } => {
            if let Some(bar) = bar {
                bar.inc(1);
                bar.set_message(running_score::<K>(spec, played));
            }
            if let Some((_, outer)) = outer {
                outer.inc(1);
            }
        }
    }
}

/// What the binary says of a run's session: its games and time on stderr, the report's
/// headline, and the SPRT's decision or how to go on.
pub(crate) fn print_ended<K: GameKit>(
    ended: &drive::Finished<K>,
    out: &Path,
    workers: usize,
    started: Instant,
    verbosity: Verbosity,
) {
    let played = ended.games.len();
    if verbosity != Verbosity::Quiet {
        eprintln!(
            "{} games ({} this session, {:.1} s, {} workers); report in {}",
            played,
            played - ended.before,
            started.elapsed().as_secs_f64(),
            workers,
            out.join("report.md").display()
        );
    }
    print_headline(&ended.markdown);
    if let Some(decision) = ended.decision() {
        println!(
            "SPRT decided after {played} games: {}",
            if decision == SprtDecision::H1 {
                "H1 (better)"
            } else {
                "H0 (not better)"
            }
        );
    } else if let Some(hint) = resume_hint(
        played,
        ended.scheduled,
        "games",
        &format!("pjlab {}", ended.spec.kind.name()),
        out,
    ) {
        println!("{hint}");
    }
}

/// The report's first table (ratings, or balance by variant), printed on stdout.
fn print_headline(markdown: &str) {
    let mut in_table = false;
    for line in markdown.lines() {
        if line.starts_with("| rank") || line.starts_with("| variant | games | ") {
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
