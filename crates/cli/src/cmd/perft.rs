//! `pjlab perft`: count move sequences, optionally split by first move.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, bail};

use crate::Verbosity;
use crate::cmd::game::{GameName, start};
use pjlab_core::{Game, GameKit, SetupVariant};

/// Count the move sequences of a given depth from a position.
///
/// Pijersi: a move is a whole turn; draws are ignored; from `--psn` or the classic start.
/// Abalone: every move counts (ejections and passes too); from `--position` or the start of
/// `--variant` (standard, belgian-daisy, german-daisy, doubles, doubles-0321, ...). The last line
/// of stdout is the leaf count alone; timing goes to stderr.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game.
    #[arg(long, value_parser = crate::cmd::game::game_arg(), default_value_t)]
    game: GameName,
    /// Pijersi position in PSN (default: the classic start).
    #[arg(long)]
    psn: Option<String>,
    /// Abalone position text (default: the variant's start). Doubles positions take their seat
    /// order from `--variant doubles` or `doubles-0321`.
    #[arg(long)]
    position: Option<String>,
    /// Variant: its start (seed 0 for a random one), or its rules for `--position` (Abalone).
    #[arg(long)]
    variant: Option<String>,
    /// Number of plies.
    #[arg(long, short)]
    depth: u32,
    /// Print each first move with its count (`a4b5c4: 186`) before the total.
    #[arg(long)]
    divide: bool,
    /// Pijersi: use pijersi-rs's reading of the back-row win (a fighter passing over the back
    /// row wins).
    #[arg(long)]
    pass_through: bool,
    /// Threads sharing the first moves (1 = the single-thread figure `bench` reports).
    #[arg(long, short = 't', default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
}

/// perft split by first move: `count(move)` for each of `moves`, shared among `threads`
/// threads, in the order of `moves`.
fn parallel_divide<M: Copy + Send + Sync>(
    moves: Vec<M>,
    count: impl Fn(M) -> u64 + Sync,
    threads: usize,
) -> Vec<(M, u64)> {
    let next = AtomicUsize::new(0);
    let counts: Vec<AtomicU64> = moves.iter().map(|_| AtomicU64::new(0)).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads.min(moves.len()).max(1) {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&mv) = moves.get(k) else { break };
                    counts[k].store(count(mv), Ordering::Relaxed);
                }
            });
        }
    });
    moves
        .into_iter()
        .zip(counts.into_iter().map(AtomicU64::into_inner))
        .collect()
}

/// The total: the sum of the per-move counts when there are some (printed first with
/// `--divide`), the whole count otherwise.
fn total<M: std::fmt::Display>(
    print: bool,
    divided: Option<Vec<(M, u64)>>,
    whole: impl FnOnce() -> u64,
) -> u64 {
    let Some(lines) = divided else {
        return whole();
    };
    let mut total = 0;
    for (mv, count) in lines {
        if print {
            println!("{mv}: {count}");
        }
        total += count;
    }
    total
}

/// The rules `--pass-through` names (see [`GameKit::perft_rules`]).
const PASS_THROUGH: &str = "pass-through";

/// Perft of a game of the registry, by its kit: from its position option's text (`--psn` or
/// `--position`) or the start of `--variant` (the first variant's by default).
fn kit_perft<K: GameKit>(args: &Args) -> Result<u64> {
    let (given, other) = match K::POSITION_OPTION {
        "psn" => (&args.psn, &args.position),
        _ => (&args.position, &args.psn),
    };
    if other.is_some() {
        let option = if K::POSITION_OPTION == "psn" {
            "position"
        } else {
            "psn"
        };
        bail!(
            "{} perft takes --{}; --{option} is for --game {}",
            K::INFO.name,
            K::POSITION_OPTION,
            GameName::names(|game| crate::with_game!(game, |G| G::POSITION_OPTION == option))
        );
    }
    let mut position = start::<K>(given.as_deref(), args.variant.as_deref(), 0)?;
    if args.pass_through {
        position = K::perft_rules(position, PASS_THROUGH)
            .map_err(anyhow::Error::msg)
            .with_context(|| {
                let games = GameName::names(|game| {
                    crate::with_game!(game, |G| {
                        let start = SetupVariant::start(G::setup_variant(), 0);
                        G::perft_rules(start, PASS_THROUGH).is_ok()
                    })
                });
                format!("--pass-through is for --game {games}")
            })?;
    }
    let (depth, threads) = (args.depth, args.threads as usize);
    let divided = if depth > 1 && threads > 1 {
        // The first moves of `divide`, in its order, shared among the threads.
        let moves = K::divide(&position, 1)
            .into_iter()
            .map(|(mv, _)| mv)
            .collect();
        let after = |mv| {
            let mut child = position.clone();
            child.play_unchecked(mv);
            K::perft(&child, depth - 1)
        };
        Some(parallel_divide(moves, after, threads))
    } else if args.divide && depth > 0 {
        Some(K::divide(&position, depth))
    } else {
        None
    };
    let divided = divided.map(|lines| {
        lines
            .into_iter()
            .map(|(mv, n)| (position.move_to_text(mv), n))
            .collect::<Vec<_>>()
    });
    Ok(total(args.divide, divided, || K::perft(&position, depth)))
}

/// Runs the command.
pub fn run(args: Args, verbosity: Verbosity) -> Result<()> {
    let started = Instant::now();
    let total = crate::with_game!(args.game, |K| kit_perft::<K>(&args))?;
    let seconds = started.elapsed().as_secs_f64();
    if verbosity != Verbosity::Quiet {
        eprintln!(
            "perft({}) = {total} in {seconds:.3} s ({:.3e} leaves/s)",
            args.depth,
            total as f64 / seconds.max(1e-9)
        );
    }
    println!("{total}");
    Ok(())
}
