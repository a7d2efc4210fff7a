//! `pjlab chifoumi`: matches, round robins and arenas between Chifoumi players, and a game
//! drawn as an HTML page.

use std::time::Instant;

use anyhow::{Context, Result, bail};
use pjlab_arena::session::split_agents;
use pjlab_chifoumi::{Player, Rules};
use pjlab_chifoumi_eval::{ArenaSpec, RunKind, RunSpec, labels, report, runner, session};
use pjlab_run::session::resume_hint;

use crate::Verbosity;

mod args;
mod exploit;
mod game_page;
mod train;

pub use args::Args;
use args::Command;

/// Builds a player from its spec for matches of `rules` (the scripted players, `ismcts` and
/// `net:checkpoint=DIR[,temp=T]`): [`pjlab_players::chifoumi::build`], its error as the run's
/// factory passes it on.
pub fn player(
    spec: &str,
    rules: &Rules,
) -> std::result::Result<Box<dyn Player + Send>, pjlab_core::BoxError> {
    Ok(pjlab_players::chifoumi::build(spec, rules)?)
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
        } => return game_page::run_show(from, match_id, [a, b], seed, game, map, &out, verbosity),
        Command::Train {
            config,
            out,
            iterations,
        } => return train::run_train(config.as_deref(), &out, iterations, verbosity),
        Command::Exploit {
            player,
            out,
            counts,
            workers,
        } => return exploit::run_exploit(player.as_deref(), &counts, &out, workers, verbosity),
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
            rules: common.rules()?,
            arena,
            sessions: Vec::new(),
        })
    };
    let mut records = session::open(&out, kind, new)?;
    let rules = records.run.rules.clone();
    let factory = |spec: &str| player(spec, &rules);
    // Every player is built once before anything is written.
    runner(&records.run, &factory)?;
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
