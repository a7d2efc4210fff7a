//! Training positions from alpha-beta self-play: each position a game reached, labelled with
//! the score of a search from it (deeper than the static evaluation the network replaces) and
//! with the game's result, both for the side to move.
//!
//! The file is text, one position a line: `position<TAB>score<TAB>result`, the position in the
//! game's text form (so that the features are computed when training, by the feature set of the
//! day), the score in the search's centi-units (forced results beyond
//! [`pjlab_alphabeta::MATE_BOUND`]), the result 1, 0.5 or 0.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use pjlab_alphabeta::{Engine, Limits, Options};
use pjlab_core::{Game, GameKit, Heuristic, SetupVariant, SparseFeatures};
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::Error;

/// How the games are played.
#[derive(Clone, Debug, PartialEq)]
pub struct DataOptions {
    /// Games to play.
    pub games: usize,
    /// Depth of the search that chooses each move and labels each position.
    pub depth: u32,
    /// Random plies at the start of each game, drawn uniformly from this range (inclusive).
    pub opening_plies: (u32, u32),
    /// Share of the moves after the opening played at random instead of the search's choice
    /// (the position is still labelled by the search).
    pub random_moves: f64,
    /// Seed of the setups, openings and random moves.
    pub seed: u64,
    /// Threads playing games.
    pub workers: usize,
    /// Longest game, in plies, before it is abandoned (its positions kept with a draw).
    pub max_plies: u32,
    /// Label the end of the search's principal variation instead of the position searched:
    /// the position where the search's score comes from a static evaluation, with that score
    /// (negated for an odd number of plies), so that the network learns what a static
    /// evaluation there should have said. Skipped when the line ends the game.
    pub pv_leaf: bool,
}

/// What [`generate`] wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct DataSummary {
    /// Games played.
    pub games: usize,
    /// Positions written.
    pub positions: usize,
    /// Wins of the side that moved first, draws, wins of the second.
    pub results: [usize; 3],
}

/// Plays `options.games` games of alpha-beta against itself from `variants` in turn and writes
/// their positions to `out`, in game order whatever the number of workers (a function of the
/// options alone). `progress` is called after each game with the number finished.
///
/// # Errors
/// [`Error::Config`] on bad options, [`Error::Io`] when `out` cannot be written.
pub fn generate<K: GameKit>(
    variants: &[K::Variant],
    options: &DataOptions,
    out: &Path,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<DataSummary, Error> {
    if variants.is_empty() || options.workers == 0 || options.depth == 0 {
        return Err(Error::Config(
            "data needs a variant, a worker and a depth of at least 1".into(),
        ));
    }
    if options.opening_plies.0 > options.opening_plies.1
        || !(0.0..=1.0).contains(&options.random_moves)
    {
        return Err(Error::Config(
            "opening plies must be a range min..=max and random moves a share from 0 to 1".into(),
        ));
    }
    let eval = K::evaluation(None)?;
    let io = |source| Error::Io {
        path: out.display().to_string(),
        source,
    };
    let file = std::fs::File::create(out).map_err(io)?;
    let next = AtomicUsize::new(0);
    let writer = Mutex::new(Writer {
        file: std::io::BufWriter::new(file),
        pending: BTreeMap::new(),
        next: 0,
        summary: DataSummary {
            games: 0,
            positions: 0,
            results: [0; 3],
        },
        error: None,
    });
    std::thread::scope(|scope| {
        for _ in 0..options.workers {
            let eval = eval.clone();
            let (next, writer) = (&next, &writer);
            scope.spawn(move || {
                let mut engine = Engine::new(eval, Options::default());
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= options.games {
                        break;
                    }
                    let variant = variants[i % variants.len()];
                    let game = play::<K>(&mut engine, variant, options, i);
                    let done = writer.lock().expect("no worker panics").add(i, game);
                    progress(done);
                }
            });
        }
    });
    let mut writer = writer.into_inner().expect("no worker panics");
    writer.file.flush().map_err(io)?;
    match writer.error {
        Some(source) => Err(io(source)),
        None => Ok(writer.summary),
    }
}

/// Writes finished games in game order as soon as those before them are written, so that an
/// interrupted run keeps a prefix of the games.
struct Writer {
    file: std::io::BufWriter<std::fs::File>,
    pending: BTreeMap<usize, (String, i32)>,
    next: usize,
    summary: DataSummary,
    error: Option<std::io::Error>,
}

impl Writer {
    /// Adds game `index`; returns the number of games finished.
    fn add(&mut self, index: usize, game: (String, i32)) -> usize {
        self.pending.insert(index, game);
        while let Some((lines, winner)) = self.pending.remove(&self.next) {
            self.summary.games += 1;
            self.summary.positions += lines.lines().count();
            self.summary.results[(1 - winner) as usize] += 1;
            if self.error.is_none()
                && let Err(e) = self
                    .file
                    .write_all(lines.as_bytes())
                    .and_then(|()| self.file.flush())
            {
                self.error = Some(e);
            }
            self.next += 1;
        }
        self.summary.games + self.pending.len()
    }
}

/// One game: its lines and its winner (1 the first mover, 0 a draw, -1 the second).
fn play<K: GameKit>(
    engine: &mut Engine<K::Game, K::Eval>,
    variant: K::Variant,
    options: &DataOptions,
    index: usize,
) -> (String, i32) {
    let seed = options.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index as u64;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut position = variant.start(rng.random());
    engine.clear();
    let mut moves = Vec::new();
    let (lo, hi) = options.opening_plies;
    let opening = rng.random_range(lo..=hi);
    let mut labelled: Vec<(String, i32, pjlab_core::Side)> = Vec::new();
    let mut ply = 0;
    let outcome = loop {
        if let Some(outcome) = position.outcome() {
            break Some(outcome);
        }
        if ply >= options.max_plies {
            break None;
        }
        position.legal_moves(&mut moves);
        let mv = if ply < opening {
            *moves.choose(&mut rng).expect("a game not over has a move")
        } else {
            let result = engine.search(&position, &Limits::depth(options.depth));
            if options.pv_leaf {
                if let Some((leaf, score)) = pv_leaf(&position, &result.pv, result.score) {
                    labelled.push((leaf.to_text(), score, leaf.side_to_move()));
                }
            } else {
                labelled.push((position.to_text(), result.score, position.side_to_move()));
            }
            match result.best_move {
                Some(mv) if !rng.random_bool(options.random_moves) => mv,
                _ => *moves.choose(&mut rng).expect("a game not over has a move"),
            }
        };
        position.play_unchecked(mv);
        ply += 1;
    };
    let mut text = String::new();
    for (position, score, side) in labelled {
        let result = outcome.map_or(0.5, |o| (o.value_for(side) + 1.0) / 2.0);
        text.push_str(&format!("{position}\t{score}\t{result}\n"));
    }
    let winner = match outcome.and_then(|o| o.winner()) {
        Some(pjlab_core::Side::First) => 1,
        Some(pjlab_core::Side::Second) => -1,
        None => 0,
    };
    (text, winner)
}

/// The position at the end of `pv` from `root` and the score `score` (for the root's side to
/// move) for its own side to move; `None` when a move of the line is illegal or the line ends
/// the game.
fn pv_leaf<G: Game>(root: &G, pv: &[G::Move], score: i32) -> Option<(G, i32)> {
    let mut leaf = root.clone();
    for &mv in pv {
        leaf.play(mv).ok()?;
    }
    if leaf.outcome().is_some() {
        return None;
    }
    let odd = pv.len() % 2 == 1;
    Some((leaf, if odd { -score } else { score }))
}

/// One training position: its features from both points of view and its labels.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Features on from the side to move's view.
    pub stm: Vec<u16>,
    /// Features on from the other side's view.
    pub other: Vec<u16>,
    /// The search's score for the side to move.
    pub score: i32,
    /// The game's result for the side to move (1, 0.5, 0).
    pub result: f32,
    /// The hand-written evaluation's static score for the side to move: the base a residual
    /// network adds to, and the reference its loss is compared with.
    pub reference: i32,
}

/// Which positions of a data file training keeps.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Only positions whose side to move has no tactical move (by the game's evaluation): the
    /// static evaluation is used where quiescence stands pat, and the score of a position
    /// with a capture to make is the capture's, which no static judgement should learn.
    pub quiet: bool,
    /// Leave out positions whose search found a forced result.
    pub no_forced: bool,
}

/// Reads a data file into samples, with the features of `features` and the static score of
/// `reference` (the game's hand-written evaluation), keeping the positions `filter` keeps.
///
/// # Errors
/// [`Error::Io`] when it cannot be read, [`Error::Data`] on a line that does not parse.
pub fn read<G: Game, H: Heuristic<G>>(
    path: &Path,
    features: &dyn SparseFeatures<G>,
    reference: &H,
    filter: Filter,
) -> Result<Vec<Sample>, Error> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: name.clone(),
        source,
    })?;
    let mut buffer = vec![0u16; features.max_active()];
    let mut samples = Vec::new();
    let mut moves = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let bad = |message: String| Error::Data {
            path: name.clone(),
            line: i + 1,
            message,
        };
        let mut fields = line.split('\t');
        let (Some(position), Some(score), Some(result), None) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            return Err(bad("expected position, score and result".into()));
        };
        let position = G::from_text(position).map_err(|e| bad(e.to_string()))?;
        let score: i32 = score
            .parse()
            .map_err(|_| bad(format!("bad score `{score}`")))?;
        let result: f32 = result
            .parse()
            .ok()
            .filter(|r: &f32| (0.0..=1.0).contains(r))
            .ok_or_else(|| bad(format!("bad result `{result}`")))?;
        if filter.no_forced && score.abs() >= pjlab_alphabeta::MATE_BOUND {
            continue;
        }
        if filter.quiet {
            position.legal_moves(&mut moves);
            reference.retain_tactical(&position, &mut moves);
            if !moves.is_empty() {
                continue;
            }
        }
        let me = position.side_to_move();
        let n = features.active(&position, me, &mut buffer);
        let stm = buffer[..n].to_vec();
        let n = features.active(&position, me.other(), &mut buffer);
        let other = buffer[..n].to_vec();
        let reference = if position.outcome().is_none() {
            reference.evaluate(&position)
        } else {
            0
        };
        samples.push(Sample {
            stm,
            other,
            score,
            result,
            reference,
        });
    }
    Ok(samples)
}
