//! A run's games in Parquet: the self-play `games/1` table (one row per game, moves in the game's
//! move text, the random opening plies included), with the run's [`RunSpec`] as JSON under the
//! footer key `pjlab.arena` and forfeit reasons under `pjlab.forfeits`. The `network` column holds
//! `<first side's label> vs <second side's label>` (each side's player plays all its seats);
//! `termination` is `rules`, `forfeit` or `max-plies`; `setup_seed` is as
//! [`crate::schedule::GameSpec::setup`] says. Each side's thinking time is under
//! `pjlab.clocks`: a JSON object from game id to
//! `[[moves, total_us, max_us, overruns, depth, nodes, effort], [...]]` (sums over the side's
//! moves), first side first; every decision's own figures are under `pjlab.efforts`: a JSON
//! object from game id to `[[side, us, depth, nodes, effort], ...]` in the order the moves were
//! decided (see [`pjlab_agents::MoveEffort`]). Records made before these were kept read back
//! with zeros and no moves.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use pjlab_core::{Game, GameKit};
use pjlab_selfplay::{GameRow, read_games, read_metadata, write_game_rows};

use crate::runner::{Clock, Ending, MoveEffort, Played};
use crate::schedule::RunSpec;
use crate::{Error, GameFault};

/// Footer key of the run's options.
pub const RUN_KEY: &str = "pjlab.arena";
/// Footer key of the forfeit reasons (a JSON object from game id to reason).
pub const FORFEITS_KEY: &str = "pjlab.forfeits";
/// Footer key of the sides' thinking times (see the module's docs).
pub const CLOCKS_KEY: &str = "pjlab.clocks";
/// Footer key of every decision's time and effort (see the module's docs).
pub const EFFORTS_KEY: &str = "pjlab.efforts";

/// A clock as `[moves, total_us, max_us, overruns, depth, nodes, effort]`.
fn clock_to_json(c: &Clock) -> Vec<u64> {
    vec![
        u64::from(c.moves),
        c.total.as_micros() as u64,
        c.max.as_micros() as u64,
        u64::from(c.over),
        c.depth,
        c.nodes,
        c.effort,
    ]
}

fn clock_from_json(c: &[u64]) -> Clock {
    let at = |i: usize| c.get(i).copied().unwrap_or(0);
    let count = |i: usize| at(i).min(u64::from(u32::MAX)) as u32;
    Clock {
        moves: count(0),
        total: Duration::from_micros(at(1)),
        max: Duration::from_micros(at(2)),
        over: count(3),
        depth: at(4),
        nodes: at(5),
        effort: at(6),
    }
}

/// A decision as `[side, us, depth, nodes, effort]`.
fn effort_to_json(m: &MoveEffort) -> [u64; 5] {
    [
        u64::from(m.side),
        m.spent.as_micros() as u64,
        u64::from(m.depth),
        m.nodes,
        m.effort,
    ]
}

fn effort_from_json(m: &[u64; 5]) -> MoveEffort {
    MoveEffort {
        side: u8::from(m[0] != 0),
        spent: Duration::from_micros(m[1]),
        depth: m[2].min(u64::from(u32::MAX)) as u32,
        nodes: m[3],
        effort: m[4],
    }
}

/// The games table's row for `game`.
pub fn row<K: GameKit>(run: &RunSpec, game: &Played<K>) -> GameRow {
    let moves = game.start.line_to_text(&game.moves);
    GameRow {
        game_id: game.spec.id,
        game: K::INFO.name.into(),
        variant: game.spec.variant.to_string(),
        setup_seed: game.spec.setup,
        start: game.start.to_text(),
        moves,
        result: game.result,
        termination: game.ending.name().into(),
        length: game.moves.len() as u32,
        network: format!(
            "{} vs {}",
            run.players[game.spec.first].label, run.players[game.spec.second].label
        ),
    }
}

/// Writes `games` (in id order) with `run` to `path`, atomically.
///
/// # Errors
/// [`Error::Records`] on I/O failure.
pub fn save<K: GameKit>(path: &Path, run: &RunSpec, games: &[Played<K>]) -> Result<(), Error> {
    let mut sorted: Vec<&Played<K>> = games.iter().collect();
    sorted.sort_by_key(|g| g.spec.id);
    let rows: Vec<GameRow> = sorted.iter().map(|g| row::<K>(run, g)).collect();
    let forfeits: BTreeMap<u64, &str> = sorted
        .iter()
        .filter_map(|g| g.forfeit.as_deref().map(|f| (g.spec.id, f)))
        .collect();
    let clocks: BTreeMap<u64, [Vec<u64>; 2]> = sorted
        .iter()
        .map(|g| (g.spec.id, g.clocks.each_ref().map(clock_to_json)))
        .collect();
    let efforts: BTreeMap<u64, Vec<[u64; 5]>> = sorted
        .iter()
        .map(|g| (g.spec.id, g.efforts.iter().map(effort_to_json).collect()))
        .collect();
    write_game_rows(
        path,
        &rows,
        &[
            (RUN_KEY.to_string(), serde_json::to_string(run)?),
            (FORFEITS_KEY.to_string(), serde_json::to_string(&forfeits)?),
            (CLOCKS_KEY.to_string(), serde_json::to_string(&clocks)?),
            (EFFORTS_KEY.to_string(), serde_json::to_string(&efforts)?),
        ],
    )?;
    Ok(())
}

/// Reads a run's options from its games file, without its games: what `--resume` looks at
/// first, to know the game.
///
/// # Errors
/// [`Error::Records`] when the file is no games table, [`Error::Footer`] when it holds no run.
pub fn load_spec(path: &Path) -> Result<RunSpec, Error> {
    spec_in(path, &read_metadata(path)?)
}

/// The run's options in the footer `metadata` of `path`.
fn spec_in(path: &Path, metadata: &[(String, String)]) -> Result<RunSpec, Error> {
    let footer = |cause| footer_error(path, RUN_KEY, cause);
    let text = footer_text(metadata, RUN_KEY).ok_or_else(|| footer(None))?;
    serde_json::from_str(text).map_err(|e| footer(Some(e)))
}

/// The text under footer `key`, if any.
fn footer_text<'a>(metadata: &'a [(String, String)], key: &str) -> Option<&'a str> {
    metadata
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// Footer `key` of `path`, read as JSON; its default when the footer is missing (a record made
/// before the key was kept).
fn optional_footer<T: serde::de::DeserializeOwned + Default>(
    path: &Path,
    metadata: &[(String, String)],
    key: &'static str,
) -> Result<T, Error> {
    footer_text(metadata, key)
        .map(serde_json::from_str)
        .transpose()
        .map_err(|e| footer_error(path, key, Some(e)))
        .map(Option::unwrap_or_default)
}

fn footer_error(path: &Path, key: &'static str, cause: Option<serde_json::Error>) -> Error {
    Error::Footer {
        path: path.to_path_buf(),
        key,
        cause,
    }
}

/// Reads a run's options and games back, checking every game against the run's schedule and
/// replaying its moves under `K`'s rules.
///
/// # Errors
/// [`Error::Records`] or [`Error::Footer`] when the file is not a run's games table,
/// [`Error::Recorded`] when a game is not of the run's schedule or does not replay under `K`'s
/// rules.
pub fn load<K: GameKit>(path: &Path) -> Result<(RunSpec, Vec<Played<K>>), Error> {
    let metadata = read_metadata(path)?;
    let run = spec_in(path, &metadata)?;
    let forfeits: BTreeMap<u64, String> = optional_footer(path, &metadata, FORFEITS_KEY)?;
    let clocks: BTreeMap<u64, [Vec<u64>; 2]> = optional_footer(path, &metadata, CLOCKS_KEY)?;
    let mut efforts: BTreeMap<u64, Vec<[u64; 5]>> = optional_footer(path, &metadata, EFFORTS_KEY)?;
    let schedule = run.schedule::<K>()?;
    let rows = read_games(path)?;
    let mut games = Vec::with_capacity(rows.len());
    let mut legal = Vec::new();
    for r in rows {
        let bad = |fault| Error::Recorded {
            path: path.to_path_buf(),
            id: r.game_id,
            fault,
        };
        let spec = schedule
            .get(r.game_id as usize)
            .ok_or_else(|| bad(GameFault::NotScheduled))?;
        let start = spec.start();
        if K::Game::from_text(&r.start).ok().as_ref() != Some(&start) {
            return Err(bad(GameFault::Start {
                found: r.start.clone(),
                scheduled: start.to_text(),
            }));
        }
        let mut position = start.clone();
        let mut moves = Vec::with_capacity(r.moves.len());
        for text in &r.moves {
            let mv = position
                .parse_move(text)
                .ok()
                .filter(|&mv| {
                    position.legal_moves(&mut legal);
                    legal.contains(&mv)
                })
                .ok_or_else(|| bad(GameFault::IllegalMove(text.clone())))?;
            position.play_unchecked(mv);
            moves.push(mv);
        }
        let ending = Ending::from_name(&r.termination)
            .ok_or_else(|| bad(GameFault::Termination(r.termination.clone())))?;
        games.push(crate::runner::PlayedGame {
            spec: spec.clone(),
            start,
            moves,
            result: r.result,
            ending,
            forfeit: forfeits.get(&r.game_id).cloned(),
            clocks: clocks.get(&r.game_id).map_or_else(Default::default, |c| {
                c.each_ref().map(|c| clock_from_json(c))
            }),
            efforts: efforts
                .remove(&r.game_id)
                .unwrap_or_default()
                .iter()
                .map(effort_from_json)
                .collect(),
        });
    }
    Ok((run, games))
}
