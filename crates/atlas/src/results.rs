//! What an atlas's report is computed from: every cell's records read into [`Results`] (each
//! variant's numbers, the classes of setups, each cell's progress, the ladder's ratings), and the
//! protocols compared pooled over variants (the pairs of variants are in `rank`).

use std::path::{Path, PathBuf};

use pjlab_arena::report::{Group, unique_games, variant_groups};
use pjlab_arena::{Played, RunSpec, record, session};
use pjlab_core::GameKit;
use pjlab_stats::stats::{RatingModel, Wdl, difference_interval, fit_ratings};

use crate::{Atlas, Cell, Error, cost};

/// One variant's numbers in one balance cell.
#[derive(Clone, Debug)]
pub struct Measure {
    /// Index of the level in the atlas.
    pub level: usize,
    /// Index of the protocol in the atlas.
    pub protocol: usize,
    /// The variant's name.
    pub variant: String,
    /// Its games (distinct games only in the results).
    pub group: Group,
    /// Whether the cell holding it has played all its games.
    pub complete: bool,
}

/// One class of setups (under the variant's first grouping: for Pijersi, the setups that are
/// the same game) in one balance cell: its setups' distinct games pooled.
#[derive(Clone, Debug)]
pub struct ClassMeasure {
    /// Index of the level in the atlas.
    pub level: usize,
    /// Index of the protocol in the atlas.
    pub protocol: usize,
    /// The variant's name.
    pub variant: String,
    /// What makes two setups one class (the title of the variant's first grouping: for
    /// Pijersi, the renamings and the mirror under which setups are the same game).
    pub grouping: &'static str,
    /// The class's name (its smallest layout).
    pub class: String,
    /// Setups of the class played.
    pub setups: usize,
    /// The first side's results over the class's distinct games.
    pub white: Wdl,
}

/// A cell's progress.
#[derive(Clone, Debug)]
pub struct Progress {
    /// The cell's directory, relative to the atlas's.
    pub dir: PathBuf,
    /// Games played.
    pub played: usize,
    /// Games scheduled.
    pub scheduled: usize,
    /// The wall-clock time of every move of the games played, summed, in seconds (one core
    /// each): CPU time only if nothing else ran and the run was never paused.
    pub thinking_seconds: f64,
    /// The games' CPU time on an idle core, in seconds, estimated (`cost`): each move's own
    /// time, but a move that ran at under half its player's median rate of work and lost over
    /// 10 ms by it (it waited for the processor, or was paused) counted at that median rate; a
    /// player that counts no work has its moves over twice their median time counted at the
    /// median time.
    pub cpu_seconds: f64,
    /// The processors its sessions ran on.
    pub cpus: Vec<String>,
}

/// The levels' ratings from the ladder.
#[derive(Clone, Debug)]
pub struct LadderRatings {
    /// Elo of each level (mean 0), in the atlas's order.
    pub elo: Vec<f64>,
    /// Half-width of each level's 95% interval.
    pub half_width: Vec<f64>,
    /// Distinct games rated.
    pub games: usize,
    /// Whether the ladder has played all its games.
    pub complete: bool,
}

/// Everything the report says, read from the cells' records.
#[derive(Clone, Debug)]
pub struct Results {
    /// Every variant of every balance cell that has games.
    pub measures: Vec<Measure>,
    /// Every class of setups of the enumerable variants of at most 36 setups.
    pub classes: Vec<ClassMeasure>,
    /// Every cell's progress, in the atlas's order.
    pub progress: Vec<Progress>,
    /// The ladder's ratings, once it has games.
    pub ladder: Option<LadderRatings>,
}

impl Results {
    /// The measure of `variant` at `level` under `protocol`, if played.
    pub fn find(&self, level: usize, protocol: usize, variant: &str) -> Option<&Measure> {
        self.measures
            .iter()
            .find(|m| m.level == level && m.protocol == protocol && m.variant == variant)
    }

    /// The games played and scheduled, summed over the cells of `level` under `protocol`.
    pub fn games_of(&self, atlas: &Atlas, level: usize, protocol: usize) -> (usize, usize) {
        self.cells_of(atlas, level, protocol)
            .fold((0, 0), |(p, s), g| {
                (p + g.played.min(g.scheduled), s + g.scheduled)
            })
    }

    /// Whether every cell of `level` under `protocol` has played all its games.
    pub fn finished(&self, atlas: &Atlas, level: usize, protocol: usize) -> bool {
        self.cells_of(atlas, level, protocol)
            .all(|g| g.played >= g.scheduled)
    }

    /// The progress of each cell of `level` under `protocol`.
    fn cells_of<'a>(
        &'a self,
        atlas: &'a Atlas,
        level: usize,
        protocol: usize,
    ) -> impl Iterator<Item = &'a Progress> + 'a {
        let (level, protocol) = (&atlas.levels[level].name, &atlas.protocols[protocol].name);
        atlas
            .cells()
            .into_iter()
            .zip(&self.progress)
            .filter(move |(c, _)| {
                c.level.as_ref() == Some(level) && c.protocol.as_ref() == Some(protocol)
            })
            .map(|(_, g)| g)
    }

    /// The highest level whose cells under `protocol` have all finished.
    pub fn top_complete(&self, atlas: &Atlas, protocol: usize) -> Option<usize> {
        (0..atlas.levels.len()).rev().find(|&l| {
            let ms: Vec<&Measure> = self
                .measures
                .iter()
                .filter(|m| m.level == l && m.protocol == protocol)
                .collect();
            let expected: usize = atlas.protocols[protocol]
                .runs
                .iter()
                .map(|r| r.variants.len())
                .sum();
            ms.len() == expected && ms.iter().all(|m| m.complete)
        })
    }
}

/// Reads every cell of the atlas in `dir`.
///
/// # Errors
/// [`Error::Arena`] for a games file that does not read or a cell whose schedule cannot be
/// made.
pub fn collect<K: GameKit>(dir: &Path, atlas: &Atlas) -> Result<Results, Error> {
    let mut results = Results {
        measures: Vec::new(),
        classes: Vec::new(),
        progress: Vec::new(),
        ladder: None,
    };
    for cell in atlas.cells() {
        let scheduled = cell.spec.shard_schedule::<K>()?.len();
        let parquet = session::games_file(&dir.join(&cell.dir));
        let (spec, played) = if parquet.exists() {
            record::load::<K>(&parquet)?
        } else {
            (cell.spec.clone(), Vec::new())
        };
        let complete = played.len() >= scheduled;
        let mut cpus: Vec<String> = Vec::new();
        for session in &spec.sessions {
            if !cpus.contains(&session.cpu) {
                cpus.push(session.cpu.clone());
            }
        }
        let (thinking_seconds, cpu_seconds) = cost::cell_seconds::<K>(&played);
        results.progress.push(Progress {
            dir: cell.dir.clone(),
            played: played.len(),
            scheduled,
            thinking_seconds,
            cpu_seconds,
            cpus,
        });
        if played.is_empty() {
            continue;
        }
        match (&cell.level, &cell.protocol) {
            (Some(level), Some(protocol)) => {
                let level = index(atlas.levels.iter().map(|l| &l.name), level);
                let protocol = index(atlas.protocols.iter().map(|p| &p.name), protocol);
                results
                    .classes
                    .extend(class_measures::<K>(&spec, &played, level, protocol)?);
                for (variant, group) in variant_groups::<K>(&spec, &played)? {
                    results.measures.push(Measure {
                        level,
                        protocol,
                        variant: variant.to_string(),
                        group,
                        complete,
                    });
                }
            }
            _ => results.ladder = Some(ladder_ratings::<K>(&cell, &played, complete)),
        }
    }
    Ok(results)
}

/// The classes of setups of a cell's enumerable variants of at most 36 setups: each setup's
/// distinct games (as the cell's report counts them), summed over the setups of a class under
/// the variant's first grouping (for Pijersi, the setups that are the same game).
fn class_measures<K: GameKit>(
    spec: &RunSpec,
    played: &[Played<K>],
    level: usize,
    protocol: usize,
) -> Result<Vec<ClassMeasure>, Error> {
    use pjlab_core::SetupVariant;
    let mut out = Vec::new();
    for v in spec.parsed_variants::<K>()? {
        let Some(count) = v.count().filter(|&c| (2..=36).contains(&c)) else {
            continue;
        };
        let mut by_setup: std::collections::BTreeMap<u64, Vec<&Played<K>>> =
            std::collections::BTreeMap::new();
        for g in played.iter().filter(|g| g.spec.variant == v) {
            by_setup.entry(g.spec.setup % count).or_default().push(g);
        }
        let mut classes: std::collections::BTreeMap<String, (&'static str, usize, Wdl)> =
            std::collections::BTreeMap::new();
        for members in by_setup.values() {
            let layout =
                <K::Variant as SetupVariant>::describe(&members[0].start).unwrap_or_default();
            let Some((_, grouping, class)) = <K::Variant as SetupVariant>::classes(&layout)
                .into_iter()
                .next()
            else {
                continue;
            };
            let entry = classes
                .entry(class)
                .or_insert((grouping, 0, Wdl::default()));
            entry.1 += 1;
            entry.2 += Group::of(members).white;
        }
        out.extend(
            classes
                .into_iter()
                .map(|(class, (grouping, setups, white))| ClassMeasure {
                    level,
                    protocol,
                    variant: v.to_string(),
                    grouping,
                    class,
                    setups,
                    white,
                }),
        );
    }
    Ok(out)
}

fn index<'a>(mut names: impl Iterator<Item = &'a String>, name: &str) -> usize {
    names.position(|n| n == name).unwrap_or(0)
}

fn ladder_ratings<K: GameKit>(cell: &Cell, played: &[Played<K>], complete: bool) -> LadderRatings {
    let games = unique_games(played);
    let triples: Vec<(usize, usize, i8)> = games
        .iter()
        .map(|g| (g.spec.first, g.spec.second, g.result))
        .collect();
    let n = cell.spec.players.len();
    let ratings = fit_ratings(n, &triples, &RatingModel::default());
    LadderRatings {
        elo: ratings.elo.clone(),
        half_width: (0..n).map(|i| ratings.half_width(i)).collect(),
        games: games.len(),
        complete,
    }
}

/// The first side's score under protocol `a` less under `b` at `level`, pooled over the
/// variants both played, with Newcombe's interval.
pub(crate) fn pooled_difference(
    results: &Results,
    level: usize,
    a: usize,
    b: usize,
) -> Option<(f64, f64, f64)> {
    let mut wa = Wdl::default();
    let mut wb = Wdl::default();
    for m in results
        .measures
        .iter()
        .filter(|m| m.level == level && m.protocol == a)
    {
        if let Some(o) = results.find(level, b, &m.variant) {
            merge(&mut wa, &m.group.white);
            merge(&mut wb, &o.group.white);
        }
    }
    (wa.games() > 0 && wb.games() > 0).then(|| {
        difference_interval(
            (wa.points(), wa.games() as f64),
            (wb.points(), wb.games() as f64),
        )
    })
}

fn merge(into: &mut Wdl, w: &Wdl) {
    *into += *w;
}
