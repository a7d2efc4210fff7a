//! A run's games in Parquet: the self-play `games/1` table (one row per game, moves in UGI
//! notation, the random opening plies included), with the run's [`RunSpec`] as JSON under the
//! footer key `pjlab.arena` and forfeit reasons under `pjlab.forfeits`. The `network` column holds
//! `<white label> vs <black label>`; `termination` is `rules`, `forfeit` or `max-plies`;
//! `setup_seed` is as [`crate::schedule::GameSpec::setup`] says.

use std::collections::BTreeMap;
use std::path::Path;

use pjlab_core::Game;
use pjlab_pijersi::Position;
use pjlab_selfplay::{GameRow, read_games, read_metadata, write_game_rows};

use crate::Error;
use crate::runner::{Ending, PlayedGame};
use crate::schedule::RunSpec;

/// Footer key of the run's options.
pub const RUN_KEY: &str = "pjlab.arena";
/// Footer key of the forfeit reasons (a JSON object from game id to reason).
pub const FORFEITS_KEY: &str = "pjlab.forfeits";

/// The games table's row for `game`.
pub fn row(run: &RunSpec, game: &PlayedGame) -> GameRow {
    let moves = game.start.line_to_text(&game.moves);
    GameRow {
        game_id: game.spec.id,
        game: "pijersi".into(),
        variant: game.spec.variant.name().into(),
        setup_seed: game.spec.setup,
        start: game.start.to_string(),
        moves,
        result: game.result,
        termination: game.ending.name().into(),
        length: game.moves.len() as u32,
        network: format!(
            "{} vs {}",
            run.players[game.spec.white].label, run.players[game.spec.black].label
        ),
    }
}

/// Writes `games` (in id order) with `run` to `path`, atomically.
///
/// # Errors
/// [`Error::Record`] on I/O failure.
pub fn save(path: &Path, run: &RunSpec, games: &[PlayedGame]) -> Result<(), Error> {
    let mut sorted: Vec<&PlayedGame> = games.iter().collect();
    sorted.sort_by_key(|g| g.spec.id);
    let rows: Vec<GameRow> = sorted.iter().map(|g| row(run, g)).collect();
    let forfeits: BTreeMap<u64, &str> = sorted
        .iter()
        .filter_map(|g| g.forfeit.as_deref().map(|f| (g.spec.id, f)))
        .collect();
    let json = |v: Result<String, serde_json::Error>| v.map_err(|e| Error::Record(e.to_string()));
    write_game_rows(
        path,
        &rows,
        &[
            (RUN_KEY.to_string(), json(serde_json::to_string(run))?),
            (
                FORFEITS_KEY.to_string(),
                json(serde_json::to_string(&forfeits))?,
            ),
        ],
    )
    .map_err(|e| Error::Record(e.to_string()))
}

/// Reads a run's options and games back, checking every game against the run's schedule and
/// replaying its moves under our rules.
///
/// # Errors
/// [`Error::Record`] when the file is not a run's games table or a game does not replay.
pub fn load(path: &Path) -> Result<(RunSpec, Vec<PlayedGame>), Error> {
    let bad = |why: String| Error::Record(format!("{}: {why}", path.display()));
    let metadata = read_metadata(path).map_err(|e| Error::Record(e.to_string()))?;
    let find = |key: &str| metadata.iter().find(|(k, _)| k == key).map(|(_, v)| v);
    let run: RunSpec = serde_json::from_str(
        find(RUN_KEY).ok_or_else(|| bad(format!("no `{RUN_KEY}` footer: not a match file")))?,
    )
    .map_err(|e| bad(format!("bad `{RUN_KEY}` footer: {e}")))?;
    let forfeits: BTreeMap<u64, String> = find(FORFEITS_KEY)
        .map(|v| serde_json::from_str(v))
        .transpose()
        .map_err(|e| bad(format!("bad `{FORFEITS_KEY}` footer: {e}")))?
        .unwrap_or_default();
    let schedule = run.schedule()?;
    let rows = read_games(path).map_err(|e| Error::Record(e.to_string()))?;
    let mut games = Vec::with_capacity(rows.len());
    for r in rows {
        let spec = schedule
            .get(r.game_id as usize)
            .ok_or_else(|| bad(format!("game {} is not in the run's schedule", r.game_id)))?;
        let start = spec.start();
        if Position::from_psn(&r.start).ok().as_ref() != Some(&start) {
            return Err(bad(format!(
                "game {} starts from {} where the schedule says {start}",
                r.game_id, r.start
            )));
        }
        let mut position = start.clone();
        let mut moves = Vec::with_capacity(r.moves.len());
        for text in &r.moves {
            let mv = position
                .parse_move(text)
                .ok()
                .filter(|&mv| position.is_legal(mv))
                .ok_or_else(|| bad(format!("game {}: illegal move {text}", r.game_id)))?;
            position.play_unchecked(mv);
            moves.push(mv);
        }
        let ending = Ending::from_name(&r.termination)
            .ok_or_else(|| bad(format!("game {}: termination {}", r.game_id, r.termination)))?;
        games.push(PlayedGame {
            spec: spec.clone(),
            start,
            moves,
            result: r.result,
            ending,
            forfeit: forfeits.get(&r.game_id).cloned(),
        });
    }
    Ok((run, games))
}
