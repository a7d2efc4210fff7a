//! Reading training positions back: the Parquet table of a data run, or the text files of
//! earlier builds.

use std::path::{Path, PathBuf};

use pjlab_core::{Game, Heuristic, SparseFeatures};
use pjlab_run::table::Table;

use super::{POSITIONS, POSITIONS_FILE, Row};
use crate::Error;

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

/// The table a path names: a data run's directory stands for its [`POSITIONS_FILE`]; `None`
/// for a text file of earlier builds (any other path not ending in `.parquet`).
fn table_path(path: &Path) -> Option<PathBuf> {
    if path.is_dir() {
        Some(path.join(POSITIONS_FILE))
    } else if path.extension().is_some_and(|e| e == "parquet") {
        Some(path.to_path_buf())
    } else {
        None
    }
}

/// The rows of a positions table: `path` is a data run's directory or its `.parquet` file.
///
/// # Errors
/// [`Error::Table`] when it cannot be read or is not a table of [`POSITIONS`].
pub fn read_rows(path: &Path) -> Result<Vec<Row>, Error> {
    let path = table_path(path).unwrap_or_else(|| path.to_path_buf());
    let table = Table::read(&path, &POSITIONS)?;
    let positions = table.strs("position")?;
    let scores = table.i32s("score")?;
    let results = table.f32s("result")?;
    let games = table.u64s("game")?;
    let plies = table.u32s("ply")?;
    let variants = table.strs("variant")?;
    Ok(positions
        .into_iter()
        .zip(scores)
        .zip(results)
        .zip(games)
        .zip(plies)
        .zip(variants)
        .map(
            |(((((position, score), result), game), ply), variant)| Row {
                position,
                score,
                result,
                game,
                ply,
                variant,
            },
        )
        .collect())
}

/// Whether `result` is a game's result for one side (from 0 to 1).
fn is_result(result: f32) -> bool {
    (0.0..=1.0).contains(&result)
}

/// The labels of a data file, `(position, score, result)` a position, the results checked.
fn labels(path: &Path) -> Result<Vec<(String, i32, f32)>, Error> {
    let name = path.display().to_string();
    if table_path(path).is_some() {
        let rows = read_rows(path)?;
        if let Some(i) = rows.iter().position(|row| !is_result(row.result)) {
            return Err(Error::Data {
                path: name,
                line: i + 1,
                message: format!("bad result `{}`", rows[i].result),
            });
        }
        return Ok(rows
            .into_iter()
            .map(|row| (row.position, row.score, row.result))
            .collect());
    }
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: name.clone(),
        source,
    })?;
    let mut labels = Vec::new();
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
        let score: i32 = score
            .parse()
            .map_err(|_| bad(format!("bad score `{score}`")))?;
        let result: f32 = result
            .parse()
            .ok()
            .filter(|&r| is_result(r))
            .ok_or_else(|| bad(format!("bad result `{result}`")))?;
        labels.push((position.to_string(), score, result));
    }
    Ok(labels)
}

/// Reads a data file into samples, with the features of `features` and the static score of
/// `reference` (the game's hand-written evaluation), keeping the positions `filter` keeps.
/// `path` is a data run's directory, its `positions.parquet`, or a text file of earlier builds
/// (one position a line: `position<TAB>score<TAB>result`).
///
/// # Errors
/// [`Error::Io`] or [`Error::Table`] when it cannot be read, [`Error::Data`] on a line (or
/// row) that does not parse.
pub fn read<G: Game, H: Heuristic<G>>(
    path: &Path,
    features: &dyn SparseFeatures<G>,
    reference: &H,
    filter: Filter,
) -> Result<Vec<Sample>, Error> {
    let name = path.display().to_string();
    let mut buffer = vec![0u16; features.max_active()];
    let mut samples = Vec::new();
    let mut moves = Vec::new();
    for (i, (position, score, result)) in labels(path)?.into_iter().enumerate() {
        let bad = |message: String| Error::Data {
            path: name.clone(),
            line: i + 1,
            message,
        };
        let position = G::from_text(&position).map_err(|e| bad(e.to_string()))?;
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
