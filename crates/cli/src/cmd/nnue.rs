//! `pjlab nnue`: the learned evaluation for alpha-beta (`alphabeta:eval=nnue:FILE`): its
//! training positions from alpha-beta self-play, and its training.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use pjlab_core::GameKit;
use pjlab_nnue::data::{DataOptions, DataRun};
use pjlab_nnue::train::TrainOptions;

use crate::Verbosity;
use crate::cmd::game::GameName;

/// Train an efficiently updatable evaluation for alpha-beta: `data` plays alpha-beta against
/// itself and labels every position with its search score and the game's result; `train` fits
/// a network to them and writes it (with its card beside it) for `alphabeta:eval=nnue:FILE`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(clap::Subcommand, Debug)]
enum Sub {
    Data(DataArgs),
    Train(TrainArgs),
    Generations(GenerationsArgs),
}

/// Improve a learned evaluation by generations: the best player plays itself, a candidate is
/// trained on its games, an SPRT match against the best promotes it or not; repeat. The run
/// directory keeps every generation's games, network and gate, `generations.jsonl` and
/// `report.md`; run the same command again to resume (or with a spec asking for more
/// generations, to go on).
#[derive(clap::Args, Debug)]
struct GenerationsArgs {
    /// The run's spec (TOML: game, generations, seed, start, [data], [train], [gate]; see
    /// configs/generations-pijersi.toml, every key commented).
    #[arg(long, value_name = "FILE")]
    spec: PathBuf,
    /// The run directory (created if missing; a run there is resumed).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Threads playing games (all cores when unset; the games do not depend on it, but the
    /// games a gate plays after its SPRT decides may).
    #[arg(long)]
    workers: Option<usize>,
}

/// Play alpha-beta self-play games and write their positions to a run directory:
/// `positions.parquet` (schema `nnue-positions/1`: position, search score and result for the
/// side to move, game, ply, variant; in game order, so a stopped run keeps its first games),
/// `run.json` and `provenance.jsonl`.
#[derive(clap::Args, Debug)]
struct DataArgs {
    /// The game.
    #[arg(long, value_parser = crate::cmd::game::game_arg(), default_value_t)]
    game: GameName,
    /// Output run directory (created if missing; refused if it holds positions already,
    /// unless `--resume`). Earlier builds wrote a text file here; `nnue train --data` still
    /// reads those.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Continue the run in `--out`: keep its games and play those left (the options must be
    /// the same but `--games`, which may grow, and `--workers`).
    #[arg(long)]
    resume: bool,
    /// Games to play.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Depth of the search choosing each move and labelling each position.
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// Setup variants, comma-separated, played in turn (each game a new seeded setup).
    #[arg(long, default_value = "classic,half-random")]
    variants: String,
    /// Random plies at the start of each game, `MIN-MAX`.
    #[arg(long, default_value = "2-8")]
    opening: String,
    /// Share of later moves played at random (still labelled by the search).
    #[arg(long, default_value_t = 0.05)]
    random_moves: f64,
    /// Longest game in plies (then abandoned, its positions labelled as a draw).
    #[arg(long, default_value_t = 400)]
    max_plies: u32,
    /// Label the end of each search's principal variation with its score, instead of the
    /// position searched.
    #[arg(long)]
    pv_leaf: bool,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (the positions do not depend on it).
    #[arg(long, default_value_t = 1)]
    workers: usize,
}

/// Train a network on data files and write it with its card.
#[derive(clap::Args, Debug)]
struct TrainArgs {
    /// The game.
    #[arg(long, value_parser = crate::cmd::game::game_arg(), default_value_t)]
    game: GameName,
    /// Data from `pjlab nnue data` (repeat the option for several): a run directory, its
    /// `positions.parquet`, or a text file of earlier builds.
    #[arg(long, value_name = "PATH", required = true)]
    data: Vec<PathBuf>,
    /// Output network file (its card is written beside it as FILE.card.json).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Accumulator width per point of view.
    #[arg(long, default_value_t = 64)]
    hidden: usize,
    /// Units of the second layer.
    #[arg(long, default_value_t = 16)]
    l2: usize,
    /// Passes over the data.
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    /// Positions a step.
    #[arg(long, default_value_t = 256)]
    batch: usize,
    /// Adam's learning rate.
    #[arg(long, default_value_t = 1e-3)]
    lr: f32,
    /// Weight of the game's result in the target (the rest: the search score).
    #[arg(long, default_value_t = 0.5)]
    lambda: f32,
    /// Centi-units of search score per unit of logit (also the evaluation's scale).
    #[arg(long, default_value_t = 200.0)]
    label_scale: f32,
    /// Share of positions held out for the validation loss.
    #[arg(long, default_value_t = 0.05)]
    validation: f32,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Train on quiet positions only (no tactical move for the side to move).
    #[arg(long)]
    quiet: bool,
    /// Leave out positions whose search found a forced result.
    #[arg(long)]
    no_forced: bool,
    /// Train a correction to the game's hand-written evaluation (added to it when playing)
    /// instead of a whole evaluation.
    #[arg(long)]
    residual: bool,
    /// Decoupled weight decay (AdamW).
    #[arg(long, default_value_t = 0.0)]
    weight_decay: f32,
    /// Also train the feature set's factors (Pijersi: one kind of piece on any cell), folded
    /// into the features' weights at the end, so that rare features learn from common ones.
    #[arg(long)]
    factorise: bool,
}

/// Runs the command.
pub fn run(args: Args, verbosity: Verbosity) -> Result<()> {
    match args.command {
        Sub::Data(args) => crate::with_game!(args.game, |K| data::<K>(&args, verbosity)),
        Sub::Train(args) => crate::with_game!(args.game, |K| train::<K>(&args, verbosity)),
        Sub::Generations(args) => generations(&args, verbosity),
    }
}

fn generations(args: &GenerationsArgs, verbosity: Verbosity) -> Result<()> {
    let text = std::fs::read_to_string(&args.spec)
        .with_context(|| format!("cannot read {}", args.spec.display()))?;
    let spec = pjlab_generations::Spec::parse(&text)
        .with_context(|| format!("{}", args.spec.display()))?;
    let game = GameName::parse(&spec.game)?;
    crate::with_game!(game, |K| run_generations::<K>(&spec, args, verbosity))
}

fn run_generations<K: GameKit>(
    spec: &pjlab_generations::Spec,
    args: &GenerationsArgs,
    verbosity: Verbosity,
) -> Result<()> {
    use pjlab_generations::{Event, Outcome};
    crate::cmd::install_stop_signal("keeping the finished games; run again to resume");
    let workers = pjlab_run::pool::workers(args.workers);
    let quiet = verbosity == Verbosity::Quiet;
    let mut bar: Option<(u32, pjlab_generations::Step, indicatif::ProgressBar)> = None;
    let total = spec.generations;
    let outcome = pjlab_generations::run::<K>(
        &args.out,
        spec,
        workers,
        &crate::cmd::provenance(),
        &crate::cmd::STOP,
        &mut |event| match event {
            Event::Progress {
                generation,
                step,
                done,
                total: len,
            } => {
                if !matches!(&bar, Some((g, s, _)) if *g == generation && *s == step) {
                    if let Some((_, _, old)) = bar.take() {
                        old.finish_and_clear();
                    }
                    let prefix = format!("generation {generation}/{total} {}", step.name());
                    let unit = if step == pjlab_generations::Step::Train {
                        "passes"
                    } else {
                        "games"
                    };
                    bar = Some((
                        generation,
                        step,
                        crate::bars::counter(&prefix, unit, len, done, quiet),
                    ));
                }
                if let Some((_, _, b)) = &bar {
                    // Without a terminal the bar is hidden: a plain line every tenth instead.
                    let tenth = |n: u64| n * 10 / len.max(1);
                    if !quiet && b.is_hidden() && (done == 0 || tenth(done) > tenth(b.position())) {
                        eprintln!(
                            "generation {generation}/{total} {}: {done}/{len}",
                            step.name()
                        );
                    }
                    b.set_position(done);
                }
            }
            Event::Decided(g) => {
                if let Some((_, _, old)) = bar.take() {
                    old.finish_and_clear();
                }
                println!(
                    "generation {}: {} games, score {:.1}% (95% {:.1}-{:.1}) against {}, {}: {}",
                    g.generation,
                    g.gate.games,
                    100.0 * g.gate.score[0],
                    100.0 * g.gate.score[1],
                    100.0 * g.gate.score[2],
                    if g.best == 0 {
                        "the start".to_string()
                    } else {
                        format!("generation {}", g.best)
                    },
                    g.gate.decision,
                    if g.promoted { "promoted" } else { "kept out" }
                );
            }
        },
    );
    if let Some((_, _, old)) = bar.take() {
        old.finish_and_clear();
    }
    match outcome? {
        Outcome::Finished => println!(
            "{} generations decided; report in {}",
            total,
            args.out.join("report.md").display()
        ),
        Outcome::Stopped => println!(
            "stopped; resume with the same command (pjlab nnue generations --spec {} --out {})",
            args.spec.display(),
            args.out.display()
        ),
    }
    Ok(())
}

fn data<K: GameKit>(args: &DataArgs, verbosity: Verbosity) -> Result<()> {
    let variants = args
        .variants
        .split(',')
        .map(|v| K::variant(v.trim()).map_err(anyhow::Error::msg))
        .collect::<Result<Vec<_>>>()?;
    let (lo, hi) = args
        .opening
        .split_once('-')
        .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
        .with_context(|| format!("--opening must be MIN-MAX, got `{}`", args.opening))?;
    let options = DataOptions {
        games: args.games,
        depth: args.depth,
        opening_plies: (lo, hi),
        random_moves: args.random_moves,
        seed: args.seed,
        workers: args.workers,
        max_plies: args.max_plies,
        pv_leaf: args.pv_leaf,
    };
    if args.out.extension().is_some_and(|e| e == "txt") {
        bail!(
            "--out is a run directory now (positions.parquet inside), not a text file: \
             choose a name without `.txt`"
        );
    }
    let run = DataRun::open::<K>(&args.out, &crate::cmd::provenance(), args.resume)?;
    crate::cmd::install_stop_signal("writing the games finished so far");
    let started = std::time::Instant::now();
    let bar = crate::bars::counter(
        "nnue data",
        "games",
        args.games as u64,
        run.games_done() as u64,
        verbosity == Verbosity::Quiet,
    );
    let mut progress = |done: usize| bar.set_position(done as u64);
    let eval = K::evaluation(None)?;
    let summary = pjlab_nnue::data::generate::<K, _>(
        &eval,
        &variants,
        &options,
        &run,
        &crate::cmd::STOP,
        &mut progress,
    )?;
    bar.finish_and_clear();
    let names: Vec<String> = variants.iter().map(ToString::to_string).collect();
    println!(
        "{}: {} games ({}), {} positions, first wins / draws / second wins {} / {} / {}, {:.0} s",
        run.positions().display(),
        summary.games,
        names.join(","),
        summary.positions,
        summary.results[0],
        summary.results[1],
        summary.results[2],
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn train<K: GameKit>(args: &TrainArgs, verbosity: Verbosity) -> Result<()> {
    let filter = pjlab_nnue::data::Filter {
        quiet: args.quiet,
        no_forced: args.no_forced,
    };
    let options = TrainOptions {
        hidden: args.hidden,
        l2: args.l2,
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        lambda: args.lambda,
        label_scale: args.label_scale,
        validation: args.validation,
        seed: args.seed,
        residual: args.residual,
        weight_decay: args.weight_decay,
        factorise: args.factorise,
    };
    let started = std::time::Instant::now();
    let fitted = pjlab_nnue::fit::fit::<K>(&args.data, filter, &options, &mut |e| {
        if verbosity != Verbosity::Quiet {
            eprintln!(
                "epoch {:>3}: train loss {:.5}, validation loss {:.5} \
                 (hand-written evaluation {:.5}), {:.0} s",
                e.epoch,
                e.train,
                e.validation,
                e.reference,
                started.elapsed().as_secs_f64()
            );
        }
    })?;
    // The network kept: the pass with the lowest held-out loss.
    let last = fitted.kept();
    let card = fitted.card::<K>(
        &options,
        serde_json::json!({
            "data": args.data.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
            "positions": fitted.positions,
            "quiet": args.quiet,
            "no_forced": args.no_forced,
            "options": options,
            "losses": fitted.losses,
            "kept_epoch": last.map(|e| e.epoch),
            "seconds": started.elapsed().as_secs_f64(),
            "provenance": crate::cmd::provenance(),
        }),
    );
    pjlab_nnue::file::save(&args.out, &card, &fitted.network)?;
    println!(
        "wrote {} ({} positions, epoch {} of {}, validation loss {:.5}, the hand-written \
         evaluation's {:.5})",
        args.out.display(),
        fitted.positions,
        last.map_or(0, |e| e.epoch),
        args.epochs,
        last.map_or(f64::NAN, |e| e.validation),
        last.map_or(f64::NAN, |e| e.reference)
    );
    Ok(())
}
