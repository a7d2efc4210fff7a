//! A generation's three steps: the best player's games, the candidate's training and the gate.
//! Each picks up what an earlier, stopped session left.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use pjlab_arena::drive::{Launch, Progress, play_run};
use pjlab_arena::schedule::{Player, RunKind, RunSpec};
use pjlab_arena::stats::{SprtDecision, Wdl, score_to_elo};
use pjlab_arena::{report, session};
use pjlab_core::{GameKit, Provenance, seed};
use pjlab_nnue::NnueEval;
use pjlab_nnue::data::{DataOptions, DataRun, Filter, generate};
use pjlab_run::cpu_seconds;

use crate::ledger::{DataFigures, GateFigures, TrainFigures};
use crate::run::{Event, Step};
use crate::{Error, Spec, io};

/// The streams of [`seed::stream`] each generation's steps draw from (the generation is the
/// stream's index).
const DATA_STREAM: u64 = 1;
const TRAIN_STREAM: u64 = 2;
const GATE_STREAM: u64 = 3;

/// A generation's directory in the run.
pub(crate) fn gen_dir(run: &Path, generation: u32) -> PathBuf {
    run.join(format!("gen-{generation:03}"))
}

/// Generation `generation`'s candidate network.
pub(crate) fn net_file(run: &Path, generation: u32) -> PathBuf {
    gen_dir(run, generation).join("net.nnue")
}

/// The network of the best player, `None` for the hand-written evaluation.
pub(crate) fn best_net(run: &Path, spec: &Spec, best: u32) -> Option<PathBuf> {
    if best == 0 {
        spec.start.clone()
    } else {
        Some(net_file(run, best))
    }
}

/// Where a step's CPU time starts.
fn cpu_start() -> f64 {
    cpu_seconds().unwrap_or(f64::NAN)
}

/// CPU seconds since `start` (NaN where the system does not say).
fn cpu_since(start: f64) -> f64 {
    cpu_seconds().map_or(f64::NAN, |now| now - start)
}

/// Plays (or finishes) generation `generation`'s games of the best player against itself.
#[allow(clippy::too_many_arguments)]
pub(crate) fn data<K: GameKit>(
    run: &Path,
    spec: &Spec,
    generation: u32,
    best: Option<&Path>,
    workers: usize,
    provenance: &Provenance,
    stop: &AtomicBool,
    events: &mut dyn FnMut(Event),
) -> Result<DataFigures, Error> {
    let start = cpu_start();
    let d = &spec.data;
    let variants = d
        .variants
        .iter()
        .map(|v| K::variant(v))
        .collect::<Result<Vec<_>, _>>()?;
    let options = DataOptions {
        games: d.games,
        depth: d.depth,
        opening_plies: (d.opening[0], d.opening[1]),
        random_moves: d.random_moves,
        seed: seed::stream(spec.seed, DATA_STREAM, u64::from(generation)),
        workers,
        max_plies: d.max_plies,
        pv_leaf: false,
    };
    let dir = gen_dir(run, generation).join("data");
    let data = DataRun::open::<K>(&dir, provenance, true)?;
    let total = d.games as u64;
    let mut progress = |done: usize| {
        events(Event::Progress {
            generation,
            step: Step::Data,
            done: done as u64,
            total,
        });
    };
    progress(data.games_done());
    let summary = match best {
        None => {
            let eval = K::evaluation(None)?;
            generate::<K, _>(&eval, &variants, &options, &data, stop, &mut progress)?
        }
        Some(net) => {
            let eval = NnueEval::<K::Game, K::Eval>::load::<K>(net)?;
            generate::<K, _>(&eval, &variants, &options, &data, stop, &mut progress)?
        }
    };
    // A resumed step also counts what the earlier sessions spent on its games, where the
    // table says (tables of earlier builds do not: their step counts this session alone).
    Ok(DataFigures {
        games: summary.games,
        positions: summary.positions,
        cpu_seconds: data.cpu_before().unwrap_or(0.0) + cpu_since(start),
    })
}

/// Trains generation `generation`'s candidate on the data of its window, unless a session
/// before this one wrote it; the file is written whole or not at all.
pub(crate) fn train<K: GameKit>(
    run: &Path,
    spec: &Spec,
    generation: u32,
    provenance: &Provenance,
    events: &mut dyn FnMut(Event),
) -> Result<TrainFigures, Error> {
    let path = net_file(run, generation);
    if path.exists() {
        let (card, _) = pjlab_nnue::file::load(&path)?;
        if let Ok(figures) =
            serde_json::from_value::<TrainFigures>(card.training["figures"].clone())
        {
            return Ok(figures);
        }
    }
    let start = cpu_start();
    let filter = Filter {
        quiet: spec.train.quiet,
        no_forced: spec.train.no_forced,
    };
    let first = generation.saturating_sub(spec.data.window - 1).max(1);
    // The positions from outside the run first: the held-out share is the last games read.
    let windows: Vec<PathBuf> = spec
        .train
        .prior_data
        .iter()
        .cloned()
        .chain((first..=generation).map(|g| gen_dir(run, g).join("data")))
        .collect();
    let mut options = spec.train.options.clone();
    options.seed = seed::stream(spec.seed, TRAIN_STREAM, u64::from(generation));
    let epochs = options.epochs as u64;
    let fitted = pjlab_nnue::fit::fit::<K>(&windows, filter, &options, &mut |e| {
        events(Event::Progress {
            generation,
            step: Step::Train,
            done: e.epoch as u64,
            total: epochs,
        });
    })
    .map_err(|e| match e {
        pjlab_nnue::Error::NoFeatures(game) => Error::NoFeatures(game),
        pjlab_nnue::Error::NoPositions => Error::NoPositions(generation),
        e => e.into(),
    })?;
    let kept = fitted.kept();
    let figures = TrainFigures {
        positions: fitted.positions,
        kept_epoch: kept.map_or(0, |e| e.epoch),
        validation: kept.map_or(f64::NAN, |e| e.validation),
        reference: kept.map_or(f64::NAN, |e| e.reference),
        cpu_seconds: cpu_since(start),
    };
    let data: Vec<String> = windows.iter().map(|p| p.display().to_string()).collect();
    let card = fitted.card::<K>(
        &options,
        serde_json::json!({
            "generation": generation,
            "data": data,
            "positions": fitted.positions,
            "quiet": filter.quiet,
            "no_forced": filter.no_forced,
            "options": options,
            "losses": fitted.losses,
            "figures": figures,
            "provenance": provenance,
        }),
    );
    // Written beside, then renamed into place: a stopped session leaves no half network.
    let partial = path.with_extension("nnue.partial");
    pjlab_nnue::file::save(&partial, &card, &fitted.network)?;
    let card_file = pjlab_nnue::file::card_path(&path);
    std::fs::rename(pjlab_nnue::file::card_path(&partial), &card_file).map_err(io(&card_file))?;
    std::fs::rename(&partial, &path).map_err(io(&path))?;
    Ok(figures)
}

/// The Elo difference of a score, bounded at +-[`ELO_BOUND`] (a score of 0 or 1 gives none).
fn elo(score: f64) -> f64 {
    score_to_elo(score).clamp(-ELO_BOUND, ELO_BOUND)
}

/// The largest Elo difference the ledger writes.
const ELO_BOUND: f64 = 2000.0;

/// The agent spec of a player searching as `search` with the network `net` (none: the
/// hand-written evaluation).
fn player_spec(search: &str, net: Option<&Path>) -> String {
    match net {
        None => search.to_string(),
        Some(net) => {
            let sep = if search.contains(':') { ',' } else { ':' };
            format!("{search}{sep}eval=nnue:{}", net.display())
        }
    }
}

/// Plays (or finishes) generation `generation`'s gate: its candidate against generation
/// `best`'s network, with the SPRT of the spec, on the arena's [`play_run`] (which returns the
/// SPRT's decision and leaves `stop` as it is); `None` when `stop` was raised before it decided.
#[allow(clippy::too_many_arguments)]
pub(crate) fn gate<K: GameKit>(
    run: &Path,
    spec: &Spec,
    generation: u32,
    best: u32,
    workers: usize,
    provenance: &Provenance,
    stop: &AtomicBool,
    events: &mut dyn FnMut(Event),
) -> Result<Option<GateFigures>, Error> {
    let start = cpu_start();
    let g = &spec.gate;
    let dir = gen_dir(run, generation).join("gate");
    let label = |n: u32| {
        if n == 0 && spec.start.is_none() {
            "hand-written".to_string()
        } else {
            format!("gen-{n:03}")
        }
    };
    let candidate = net_file(run, generation);
    let best_file = best_net(run, spec, best);
    let new = RunSpec {
        game: K::INFO.name.into(),
        kind: RunKind::Match,
        players: vec![
            Player {
                label: label(generation),
                spec: player_spec(&g.player, Some(&candidate)),
            },
            Player {
                label: label(best),
                spec: player_spec(&g.player, best_file.as_deref()),
            },
        ],
        variants: g.variants.clone(),
        games: g.games,
        seed: seed::stream(spec.seed, GATE_STREAM, u64::from(generation)),
        opening_plies: g.opening_plies,
        opening_margin: None,
        max_plies: g.max_plies,
        sprt: Some(spec.sprt()),
        per_setup: false,
        time_per_move_ms: None,
        shard: None,
        command: provenance.command.clone(),
        sessions: Vec::new(),
        pooled_seeds: Vec::new(),
    };
    let launch = Launch {
        out: &dir,
        resume: session::games_file(&dir).exists(),
        shard: None,
        workers,
        provenance,
        holder: Some("pjlab nnue generations"),
        stop,
    };
    let factory = |agent: &str, seed: u64| {
        pjlab_agents::build::<K>(agent, seed).map_err(pjlab_core::BoxError::from)
    };
    let total = g.games;
    let ended = play_run::<K>(new, &launch, factory, &mut |p| {
        let done = match p {
            Progress::Opened { played, .. } | Progress::Played { played, .. } => played.len(),
        };
        events(Event::Progress {
            generation,
            step: Step::Gate,
            done: done as u64,
            total,
        });
    })?;
    let played = &ended.games;
    let decision = match ended.decision() {
        Some(SprtDecision::H1) => "H1",
        Some(_) => "H0",
        None if played.len() >= ended.scheduled => "cap",
        // Stopped from outside before a decision: the gate resumes next time.
        None => return Ok(None),
    };
    let state = ended
        .sprt
        .unwrap_or_else(|| report::sprt_state(&spec.sprt(), played).0);
    let mut wdl = Wdl::default();
    for game in played {
        wdl.add(if game.spec.first == 0 {
            game.result
        } else {
            -game.result
        });
    }
    let (lo, hi) = wdl.interval();
    let score = wdl.score();
    Ok(Some(GateFigures {
        games: played.len(),
        wdl: [wdl.wins, wdl.draws, wdl.losses],
        score: [score, lo, hi],
        elo: [elo(score), elo(lo), elo(hi)],
        llr: [state.llr, state.lower, state.upper],
        decision: decision.to_string(),
        cpu_seconds: cpu_since(start),
    }))
}
