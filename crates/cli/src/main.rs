//! `pjlab`: the lab's one binary. One subcommand per job; each lives in `cmd/<name>.rs`.
//!
//! Bad input anywhere gives a one-line error on stderr and exit code 2.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod bars;
mod cmd;

/// `pjlab --version`: the package version, the commit it was built from (`-dirty` when the
/// checkout had uncommitted changes) and the profile.
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("PJLAB_BUILD_ID"),
    ", ",
    env!("PJLAB_PROFILE"),
    ")"
);

/// Self-play lab for board games (Pijersi, Abalone, Chomp, and Chifoumi on a grid): exact rules, search, training and
/// evaluation.
#[derive(Parser, Debug)]
#[command(name = "pjlab", version = VERSION, about, long_about = None)]
struct Cli {
    /// Print more detail (timings, rates) on stderr.
    #[arg(short, long, global = true, conflicts_with = "quiet")]
    verbose: bool,
    /// Print nothing but the results on stdout.
    #[arg(short, long, global = true)]
    quiet: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    Perft(cmd::perft::Args),
    Setup(cmd::setup::Args),
    Replay(cmd::replay::Args),
    Show(cmd::show::Args),
    Bench(cmd::bench::Args),
    Demo(cmd::demo::Args),
    Chomp(cmd::chomp::Args),
    Chifoumi(cmd::chifoumi::Args),
    Play(cmd::play::Args),
    Analyse(cmd::analyse::Args),
    Train(cmd::train::Args),
    Selfplay(cmd::selfplay::Args),
    Match(cmd::arena::MatchArgs),
    Tournament(cmd::arena::TournamentArgs),
    Balance(cmd::arena::BalanceArgs),
    Atlas(cmd::atlas::Args),
    Report(cmd::report::Args),
    Ugi(cmd::ugi::Args),
    Serve(cmd::serve::Args),
    Export(cmd::export::Args),
    Encode(cmd::export::EncodeArgs),
    Nnue(cmd::nnue::Args),
}

/// How chatty the command should be on stderr.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verbosity {
    /// Results only.
    Quiet,
    /// Results and a short summary.
    Normal,
    /// Everything.
    Verbose,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let verbosity = if cli.quiet {
        Verbosity::Quiet
    } else if cli.verbose {
        Verbosity::Verbose
    } else {
        Verbosity::Normal
    };
    let result = match cli.command {
        Command::Perft(args) => cmd::perft::run(args, verbosity),
        Command::Setup(args) => cmd::setup::run(args),
        Command::Replay(args) => cmd::replay::run(args),
        Command::Show(args) => cmd::show::run(args),
        Command::Bench(args) => cmd::bench::run(args, verbosity),
        Command::Demo(args) => cmd::demo::run(args, verbosity),
        Command::Chomp(args) => cmd::chomp::run(args, verbosity),
        Command::Chifoumi(args) => cmd::chifoumi::run(args, verbosity),
        Command::Play(args) => cmd::play::run(args, verbosity),
        Command::Analyse(args) => cmd::analyse::run(args),
        Command::Train(args) => cmd::train::run(args, verbosity),
        Command::Selfplay(args) => cmd::selfplay::run(args, verbosity),
        Command::Match(args) => cmd::arena::run_match(args, verbosity),
        Command::Tournament(args) => cmd::arena::run_tournament(args, verbosity),
        Command::Balance(args) => cmd::arena::run_balance(args, verbosity),
        Command::Atlas(args) => cmd::atlas::run(args, verbosity),
        Command::Report(args) => cmd::report::run(args),
        Command::Ugi(args) => cmd::ugi::run(args),
        Command::Serve(args) => cmd::serve::run(args),
        Command::Export(args) => cmd::export::run(args),
        Command::Encode(args) => cmd::export::run_encode(args),
        Command::Nnue(args) => cmd::nnue::run(args, verbosity),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            let message = format!("{error:#}").replace('\n', " ");
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}
