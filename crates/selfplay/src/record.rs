//! Game records in Parquet: one table of games and one of positions (schema version 1).
//!
//! Both files carry the key `pjlab.schema` in their footer metadata (`games/1`,
//! `positions/1`); readers refuse other values. Any column change bumps the version.
//!
//! **games** (one row per game)
//!
//! | column | type | meaning |
//! |---|---|---|
//! | `game_id` | uint64 | unique within a run |
//! | `game` | string | the game's name (`pijersi`, `abalone`, `chomp`, ...) |
//! | `variant` | string | setup variant (`classic`, `half-random`, `belgian-daisy`, ...; `full`/`random-diagram` for Chomp) |
//! | `setup_seed` | uint64 | seed the setup was drawn with (0 for fixed setups) |
//! | `start` | string | starting position in the game's text form (PSN for Pijersi, Abalone's position text, `<m>x<n>:<lengths>:<side>` for Chomp) |
//! | `moves` | `list<string>` | moves in the game's notation (UGI for Pijersi) |
//! | `result` | int8 | from the first side's view (White for Pijersi): 1 win, 0 draw, -1 loss |
//! | `termination` | string | `rules`, `resigned`, `max-plies`, or in matches `forfeit` (an engine hung, crashed or answered an illegal move) |
//! | `length` | uint32 | plies played |
//! | `network` | string | who played: the network's id in self-play (checkpoint name, or `uniform`); `<white> vs <black>` agent labels in matches |
//!
//! **positions** (one row per move played)
//!
//! | column | type | meaning |
//! |---|---|---|
//! | `game_id` | uint64 | the game's id |
//! | `ply` | uint32 | plies before this position |
//! | `position` | string | the position in the game's text form (PSN for Pijersi) |
//! | `legal` | `list<uint16>` | dense action indices of the legal moves |
//! | `policy_actions` | `list<uint16>` | action indices of the search policy's support |
//! | `policy_probs` | `list<float32>` | their probabilities (sum 1) |
//! | `search_value` | float32 | the search's value for the side to move, -1..1 |
//! | `result` | float32 | final result for the side to move: 1, 0, -1 |
//! | `policy_target` | bool | a full search (its policy trains the network) |

use std::path::Path;

use pjlab_core::Game;
use pjlab_run::table::{Column, Schema, Table, TableBuilder, Type, Value};

use crate::Error;
use crate::play::FinishedGame;

pub use pjlab_run::table::{SCHEMA_KEY, check_columns, list_of, temporary_beside};

/// Schema of the games table.
pub const GAMES_SCHEMA: &str = "games/1";
/// Schema of the positions table.
pub const POSITIONS_SCHEMA: &str = "positions/1";

/// The games table.
pub const GAMES: Schema = Schema {
    name: GAMES_SCHEMA,
    columns: &[
        Column::new("game_id", Type::U64),
        Column::new("game", Type::Str),
        Column::new("variant", Type::Str),
        Column::new("setup_seed", Type::U64),
        Column::new("start", Type::Str),
        Column::new("moves", Type::Strs),
        Column::new("result", Type::I8),
        Column::new("termination", Type::Str),
        Column::new("length", Type::U32),
        Column::new("network", Type::Str),
    ],
};

/// The positions table.
pub const POSITIONS: Schema = Schema {
    name: POSITIONS_SCHEMA,
    columns: &[
        Column::new("game_id", Type::U64),
        Column::new("ply", Type::U32),
        Column::new("position", Type::Str),
        Column::new("legal", Type::U16s),
        Column::new("policy_actions", Type::U16s),
        Column::new("policy_probs", Type::F32s),
        Column::new("search_value", Type::F32),
        Column::new("result", Type::F32),
        Column::new("policy_target", Type::Bool),
    ],
};

/// A row of the games table.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// See the module documentation for every field.
    pub game_id: u64,
    #[allow(missing_docs)]
    pub game: String,
    #[allow(missing_docs)]
    pub variant: String,
    #[allow(missing_docs)]
    pub setup_seed: u64,
    #[allow(missing_docs)]
    pub start: String,
    #[allow(missing_docs)]
    pub moves: Vec<String>,
    #[allow(missing_docs)]
    pub result: i8,
    #[allow(missing_docs)]
    pub termination: String,
    #[allow(missing_docs)]
    pub length: u32,
    #[allow(missing_docs)]
    pub network: String,
}

/// A row of the positions table.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionRow {
    /// See the module documentation for every field.
    pub game_id: u64,
    #[allow(missing_docs)]
    pub ply: u32,
    #[allow(missing_docs)]
    pub position: String,
    #[allow(missing_docs)]
    pub legal: Vec<u16>,
    #[allow(missing_docs)]
    pub policy_actions: Vec<u16>,
    #[allow(missing_docs)]
    pub policy_probs: Vec<f32>,
    #[allow(missing_docs)]
    pub search_value: f32,
    #[allow(missing_docs)]
    pub result: f32,
    #[allow(missing_docs)]
    pub policy_target: bool,
}

/// The error of a row that does not fit the table written at `path`.
fn row(path: &Path) -> impl Fn(pjlab_run::table::SchemaError) -> Error + '_ {
    move |cause| Error::Row {
        path: path.display().to_string(),
        cause,
    }
}

/// Writes `games` as a games table at `games_path` and their samples as a positions table at
/// `positions_path`, each atomically, with `extra` key-value pairs in both footers (training
/// keeps its provenance there). The positions are written first: a games file means its
/// positions are complete (the learner role takes a chunk by its games file).
///
/// # Errors
/// [`Error::Table`] on any I/O or encoding failure, [`Error::Row`] on a row that does not
/// fit.
pub fn write_games<G: Game>(
    games_path: &Path,
    positions_path: &Path,
    games: &[FinishedGame<G>],
    network: &str,
    extra: &[(String, String)],
) -> Result<(), Error> {
    let mut positions = TableBuilder::new(&POSITIONS);
    let mut buf = Vec::new();
    for g in games {
        for s in &g.samples {
            s.position.legal_moves(&mut buf);
            let legal: Vec<u16> = buf
                .iter()
                .map(|&m| s.position.action_index(m) as u16)
                .collect();
            let actions: Vec<u16> = s.policy.iter().map(|&(a, _)| a as u16).collect();
            let probs: Vec<f32> = s.policy.iter().map(|&(_, p)| p).collect();
            let text = s.position.to_text();
            positions
                .row([
                    g.game_id.into(),
                    s.ply.into(),
                    text.as_str().into(),
                    legal.as_slice().into(),
                    actions.as_slice().into(),
                    probs.as_slice().into(),
                    s.search_value.into(),
                    s.result.into(),
                    s.policy_target.into(),
                ])
                .map_err(row(positions_path))?;
        }
    }
    positions.write(positions_path, extra)?;
    let rows: Vec<GameRow> = games
        .iter()
        .map(|g| GameRow {
            game_id: g.game_id,
            game: g.start.name().to_string(),
            variant: g.variant.clone(),
            setup_seed: g.setup_seed,
            start: g.start.to_text(),
            moves: g.start.line_to_text(&g.moves),
            result: g.result,
            termination: g.termination.name().to_string(),
            length: g.moves.len() as u32,
            network: network.to_string(),
        })
        .collect();
    write_game_rows(games_path, &rows, extra)
}

/// Writes a games table of `rows` at `path` atomically, with `extra` key-value pairs beside the
/// schema key in its footer metadata (matches keep their players and options there).
///
/// # Errors
/// [`Error::Table`] on any I/O or encoding failure, [`Error::Row`] on a row that does not
/// fit.
pub fn write_game_rows(
    path: &Path,
    rows: &[GameRow],
    extra: &[(String, String)],
) -> Result<(), Error> {
    let mut table = TableBuilder::new(&GAMES);
    for r in rows {
        table
            .row([
                r.game_id.into(),
                (&r.game).into(),
                (&r.variant).into(),
                r.setup_seed.into(),
                (&r.start).into(),
                r.moves.as_slice().into(),
                r.result.into(),
                (&r.termination).into(),
                r.length.into(),
                Value::from(&r.network),
            ])
            .map_err(row(path))?;
    }
    Ok(table.write(path, extra)?)
}

/// The footer metadata of a Parquet file written here (the schema key included).
///
/// # Errors
/// [`Error::Table`] when the file cannot be opened or is not Parquet.
pub fn read_metadata(path: &Path) -> Result<Vec<(String, String)>, Error> {
    Ok(pjlab_run::table::read_metadata(path)?)
}

/// Reads a games table.
///
/// # Errors
/// [`Error::Table`] on I/O errors, another schema, or a missing or mistyped column.
pub fn read_games(path: &Path) -> Result<Vec<GameRow>, Error> {
    let t = Table::read(path, &GAMES)?;
    let mut moves = t.str_lists("moves")?.into_iter();
    let mut game = t.strs("game")?.into_iter();
    let mut variant = t.strs("variant")?.into_iter();
    let mut start = t.strs("start")?.into_iter();
    let mut termination = t.strs("termination")?.into_iter();
    let mut network = t.strs("network")?.into_iter();
    let (seed, result, length) = (t.u64s("setup_seed")?, t.i8s("result")?, t.u32s("length")?);
    let ids = t.u64s("game_id")?;
    let mut out = Vec::with_capacity(ids.len());
    for (i, game_id) in ids.into_iter().enumerate() {
        out.push(GameRow {
            game_id,
            game: game.next().unwrap_or_default(),
            variant: variant.next().unwrap_or_default(),
            setup_seed: seed[i],
            start: start.next().unwrap_or_default(),
            moves: moves.next().unwrap_or_default(),
            result: result[i],
            termination: termination.next().unwrap_or_default(),
            length: length[i],
            network: network.next().unwrap_or_default(),
        });
    }
    Ok(out)
}

/// Reads a positions table.
///
/// # Errors
/// [`Error::Table`] on I/O errors, another schema, or a missing or mistyped column.
pub fn read_positions(path: &Path) -> Result<Vec<PositionRow>, Error> {
    let t = Table::read(path, &POSITIONS)?;
    let mut position = t.strs("position")?.into_iter();
    let mut legal = t.u16_lists("legal")?.into_iter();
    let mut actions = t.u16_lists("policy_actions")?.into_iter();
    let mut probs = t.f32_lists("policy_probs")?.into_iter();
    let (ply, value, result, target) = (
        t.u32s("ply")?,
        t.f32s("search_value")?,
        t.f32s("result")?,
        t.bools("policy_target")?,
    );
    let ids = t.u64s("game_id")?;
    let mut out = Vec::with_capacity(ids.len());
    for (i, game_id) in ids.into_iter().enumerate() {
        out.push(PositionRow {
            game_id,
            ply: ply[i],
            position: position.next().unwrap_or_default(),
            legal: legal.next().unwrap_or_default(),
            policy_actions: actions.next().unwrap_or_default(),
            policy_probs: probs.next().unwrap_or_default(),
            search_value: value[i],
            result: result[i],
            policy_target: target[i],
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::{ArrayRef, RecordBatch, StringArray, UInt64Array};
    use arrow_schema::DataType;
    use pjlab_run::table::{same_type, write_batch};
    use std::sync::Arc;

    #[test]
    fn a_table_with_the_right_key_but_a_mistyped_column_is_an_error_not_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.parquet");
        let row = GameRow {
            game_id: 1,
            game: "pijersi".into(),
            variant: "classic".into(),
            setup_seed: 0,
            start: "start".into(),
            moves: vec!["a1b2".into()],
            result: 1,
            termination: "rules".into(),
            length: 1,
            network: "init".into(),
        };
        write_game_rows(&path, std::slice::from_ref(&row), &[]).unwrap();
        assert_eq!(read_games(&path).unwrap(), vec![row]);
        // The same table with `length` as text under the games/1 key.
        let batch = RecordBatch::try_from_iter([
            (
                "game_id",
                Arc::new(UInt64Array::from_iter_values([1])) as ArrayRef,
            ),
            ("length", Arc::new(StringArray::from(vec!["one"]))),
        ])
        .unwrap();
        write_batch(&path, batch, GAMES_SCHEMA, &[]).unwrap();
        let err = read_games(&path).unwrap_err().to_string();
        assert!(err.contains("missing column game"), "{err}");
        let mut columns: Vec<(&str, ArrayRef)> = Vec::new();
        for column in GAMES.columns {
            let name = column.name;
            columns.push((name, Arc::new(UInt64Array::from_iter_values([1]))));
        }
        let batch = RecordBatch::try_from_iter(columns).unwrap();
        write_batch(&path, batch, GAMES_SCHEMA, &[]).unwrap();
        let err = read_games(&path).unwrap_err().to_string();
        assert!(
            err.contains("column game is UInt64, expected Utf8"),
            "{err}"
        );
        // Lists are compared by their items.
        assert!(same_type(
            &list_of(DataType::Utf8),
            &list_of(DataType::Utf8)
        ));
        assert!(!same_type(
            &list_of(DataType::Utf8),
            &list_of(DataType::UInt16)
        ));
    }
}
