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

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, Float32Builder, ListBuilder, StringBuilder, UInt16Builder,
};
use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, Int8Type, UInt16Type, UInt32Type, UInt64Type};
use arrow_array::{
    Array, ArrayRef, Float32Array, Int8Array, RecordBatch, UInt32Array, UInt64Array,
};
use arrow_schema::{DataType, Field};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::Compression;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use pjlab_core::Game;

use crate::Error;
use crate::play::FinishedGame;

/// Footer metadata key holding the table's schema name and version.
pub const SCHEMA_KEY: &str = "pjlab.schema";
/// Schema of the games table.
pub const GAMES_SCHEMA: &str = "games/1";
/// Schema of the positions table.
pub const POSITIONS_SCHEMA: &str = "positions/1";

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

fn io(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Record(format!("{}: {e}", path.display()))
}

/// Writes `batch` to `path` atomically (a temporary file of a unique name beside it, renamed
/// into place, so concurrent writers never share one), with the schema key and `extra` key-value
/// pairs in the footer metadata.
fn write_batch(
    path: &Path,
    batch: RecordBatch,
    schema: &str,
    extra: &[(String, String)],
) -> Result<(), Error> {
    let mut metadata = vec![KeyValue::new(SCHEMA_KEY.to_string(), schema.to_string())];
    metadata.extend(
        extra
            .iter()
            .map(|(k, v)| KeyValue::new(k.clone(), v.clone())),
    );
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_key_value_metadata(Some(metadata))
        .build();
    let tmp = temporary_beside(path, ".parquet.tmp").map_err(|e| io(path, e))?;
    let mut writer = ArrowWriter::try_new(tmp.as_file(), batch.schema(), Some(props))
        .map_err(|e| io(tmp.path(), e))?;
    writer.write(&batch).map_err(|e| io(tmp.path(), e))?;
    writer.close().map_err(|e| io(tmp.path(), e))?;
    tmp.persist(path).map_err(|e| io(path, e.error))?;
    Ok(())
}

fn u16s<'a>(values: impl IntoIterator<Item = &'a [u16]>) -> ArrayRef {
    let mut b = ListBuilder::new(UInt16Builder::new());
    for v in values {
        b.values().append_slice(v);
        b.append(true);
    }
    Arc::new(b.finish())
}

/// Writes `games` as a games table at `games_path` and their samples as a positions table at
/// `positions_path`, each atomically, with `extra` key-value pairs in both footers (training
/// keeps its provenance there). The positions are written first: a games file means its
/// positions are complete (the learner role takes a chunk by its games file).
///
/// # Errors
/// [`Error::Record`] on any I/O or encoding failure.
pub fn write_games<G: Game>(
    games_path: &Path,
    positions_path: &Path,
    games: &[FinishedGame<G>],
    network: &str,
    extra: &[(String, String)],
) -> Result<(), Error> {
    let rows: Vec<GameRow> = games
        .iter()
        .map(|g| {
            let moves = g.start.line_to_text(&g.moves);
            GameRow {
                game_id: g.game_id,
                game: g.start.name().to_string(),
                variant: g.variant.clone(),
                setup_seed: g.setup_seed,
                start: g.start.to_text(),
                moves,
                result: g.result,
                termination: g.termination.name().to_string(),
                length: g.moves.len() as u32,
                network: network.to_string(),
            }
        })
        .collect();

    let samples = || {
        games
            .iter()
            .flat_map(|g| g.samples.iter().map(move |s| (g, s)))
    };
    let mut legal: Vec<Vec<u16>> = Vec::new();
    let mut buf = Vec::new();
    for (_, s) in samples() {
        s.position.legal_moves(&mut buf);
        legal.push(
            buf.iter()
                .map(|&m| s.position.action_index(m) as u16)
                .collect(),
        );
    }
    let actions: Vec<Vec<u16>> = samples()
        .map(|(_, s)| s.policy.iter().map(|&(a, _)| a as u16).collect())
        .collect();
    let mut probs = ListBuilder::new(Float32Builder::new());
    let mut position = StringBuilder::new();
    let mut target = BooleanBuilder::new();
    for (_, s) in samples() {
        probs
            .values()
            .append_slice(&s.policy.iter().map(|&(_, p)| p).collect::<Vec<_>>());
        probs.append(true);
        position.append_value(s.position.to_text());
        target.append_value(s.policy_target);
    }
    let batch = RecordBatch::try_from_iter([
        (
            "game_id",
            Arc::new(UInt64Array::from_iter_values(
                samples().map(|(g, _)| g.game_id),
            )) as ArrayRef,
        ),
        (
            "ply",
            Arc::new(UInt32Array::from_iter_values(samples().map(|(_, s)| s.ply))),
        ),
        ("position", Arc::new(position.finish())),
        ("legal", u16s(legal.iter().map(Vec::as_slice))),
        ("policy_actions", u16s(actions.iter().map(Vec::as_slice))),
        ("policy_probs", Arc::new(probs.finish())),
        (
            "search_value",
            Arc::new(Float32Array::from_iter_values(
                samples().map(|(_, s)| s.search_value),
            )),
        ),
        (
            "result",
            Arc::new(Float32Array::from_iter_values(
                samples().map(|(_, s)| s.result),
            )),
        ),
        ("policy_target", Arc::new(target.finish())),
    ])
    .map_err(|e| io(positions_path, e))?;
    write_batch(positions_path, batch, POSITIONS_SCHEMA, extra)?;
    write_game_rows(games_path, &rows, extra)
}

/// Writes a games table of `rows` at `path` atomically, with `extra` key-value pairs beside the
/// schema key in its footer metadata (matches keep their players and options there).
///
/// # Errors
/// [`Error::Record`] on any I/O or encoding failure.
pub fn write_game_rows(
    path: &Path,
    rows: &[GameRow],
    extra: &[(String, String)],
) -> Result<(), Error> {
    let strings = |f: &dyn Fn(&GameRow) -> &str| -> ArrayRef {
        let mut b = StringBuilder::new();
        for r in rows {
            b.append_value(f(r));
        }
        Arc::new(b.finish())
    };
    let mut moves = ListBuilder::new(StringBuilder::new());
    for r in rows {
        for m in &r.moves {
            moves.values().append_value(m);
        }
        moves.append(true);
    }
    let batch = RecordBatch::try_from_iter([
        (
            "game_id",
            Arc::new(UInt64Array::from_iter_values(
                rows.iter().map(|r| r.game_id),
            )) as ArrayRef,
        ),
        ("game", strings(&|r| &r.game)),
        ("variant", strings(&|r| &r.variant)),
        (
            "setup_seed",
            Arc::new(UInt64Array::from_iter_values(
                rows.iter().map(|r| r.setup_seed),
            )),
        ),
        ("start", strings(&|r| &r.start)),
        ("moves", Arc::new(moves.finish())),
        (
            "result",
            Arc::new(Int8Array::from_iter_values(rows.iter().map(|r| r.result))),
        ),
        ("termination", strings(&|r| &r.termination)),
        (
            "length",
            Arc::new(UInt32Array::from_iter_values(rows.iter().map(|r| r.length))),
        ),
        ("network", strings(&|r| &r.network)),
    ])
    .map_err(|e| io(path, e))?;
    write_batch(path, batch, GAMES_SCHEMA, extra)
}

/// The footer metadata of a Parquet file written here (the schema key included).
///
/// # Errors
/// [`Error::Record`] when the file cannot be opened or is not Parquet.
pub fn read_metadata(path: &Path) -> Result<Vec<(String, String)>, Error> {
    let file = File::open(path).map_err(|e| io(path, e))?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| io(path, e))?;
    Ok(builder
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .map(|kv| {
            kv.iter()
                .map(|k| (k.key.clone(), k.value.clone().unwrap_or_default()))
                .collect()
        })
        .unwrap_or_default())
}

fn read_batches(path: &Path, schema: &str) -> Result<Vec<RecordBatch>, Error> {
    let file = File::open(path).map_err(|e| io(path, e))?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| io(path, e))?;
    let found = builder
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .and_then(|kv| kv.iter().find(|k| k.key == SCHEMA_KEY))
        .and_then(|k| k.value.clone());
    if found.as_deref() != Some(schema) {
        return Err(io(
            path,
            format!("expected schema {schema}, found {found:?}"),
        ));
    }
    builder
        .build()
        .map_err(|e| io(path, e))?
        .map(|b| b.map_err(|e| io(path, e)))
        .collect()
}

fn column<'a>(path: &Path, batch: &'a RecordBatch, name: &str) -> Result<&'a ArrayRef, Error> {
    batch
        .column_by_name(name)
        .ok_or_else(|| io(path, format!("missing column {name}")))
}

/// A list column's type with items of type `item`, as the lab's writers make it.
pub fn list_of(item: DataType) -> DataType {
    DataType::List(Arc::new(Field::new("item", item, true)))
}

/// Whether two column types agree (lists by their items' types alone).
fn same_type(a: &DataType, b: &DataType) -> bool {
    match (a, b) {
        (DataType::List(x), DataType::List(y)) => same_type(x.data_type(), y.data_type()),
        _ => a == b,
    }
}

/// Checks that `batch` has each of the `expected` columns with its type, so that a reader's
/// casts cannot fail on a file that carries the right schema key but not the columns it
/// promises.
///
/// # Errors
/// A message naming the first missing or mistyped column.
pub fn check_columns(batch: &RecordBatch, expected: &[(&str, DataType)]) -> Result<(), String> {
    for (name, want) in expected {
        let Some(column) = batch.column_by_name(name) else {
            return Err(format!("missing column {name}"));
        };
        if !same_type(column.data_type(), want) {
            return Err(format!(
                "column {name} is {}, expected {want}",
                column.data_type()
            ));
        }
    }
    Ok(())
}

/// The columns of the games table and their types.
fn games_columns() -> Vec<(&'static str, DataType)> {
    vec![
        ("game_id", DataType::UInt64),
        ("game", DataType::Utf8),
        ("variant", DataType::Utf8),
        ("setup_seed", DataType::UInt64),
        ("start", DataType::Utf8),
        ("moves", list_of(DataType::Utf8)),
        ("result", DataType::Int8),
        ("termination", DataType::Utf8),
        ("length", DataType::UInt32),
        ("network", DataType::Utf8),
    ]
}

/// The columns of the positions table and their types.
fn positions_columns() -> Vec<(&'static str, DataType)> {
    vec![
        ("game_id", DataType::UInt64),
        ("ply", DataType::UInt32),
        ("position", DataType::Utf8),
        ("legal", list_of(DataType::UInt16)),
        ("policy_actions", list_of(DataType::UInt16)),
        ("policy_probs", list_of(DataType::Float32)),
        ("search_value", DataType::Float32),
        ("result", DataType::Float32),
        ("policy_target", DataType::Boolean),
    ]
}

/// Reads a games table.
///
/// # Errors
/// [`Error::Record`] on I/O errors, another schema, or a missing or mistyped column.
pub fn read_games(path: &Path) -> Result<Vec<GameRow>, Error> {
    let mut out = Vec::new();
    for batch in read_batches(path, GAMES_SCHEMA)? {
        check_columns(&batch, &games_columns()).map_err(|e| io(path, e))?;
        let c = |name| column(path, &batch, name);
        let game_id = c("game_id")?.as_primitive::<UInt64Type>();
        let game = c("game")?.as_string::<i32>();
        let variant = c("variant")?.as_string::<i32>();
        let seed = c("setup_seed")?.as_primitive::<UInt64Type>();
        let start = c("start")?.as_string::<i32>();
        let moves = c("moves")?.as_list::<i32>();
        let result = c("result")?.as_primitive::<Int8Type>();
        let termination = c("termination")?.as_string::<i32>();
        let length = c("length")?.as_primitive::<UInt32Type>();
        let network = c("network")?.as_string::<i32>();
        for i in 0..batch.num_rows() {
            let list = moves.value(i);
            let list = list.as_string::<i32>();
            out.push(GameRow {
                game_id: game_id.value(i),
                game: game.value(i).to_string(),
                variant: variant.value(i).to_string(),
                setup_seed: seed.value(i),
                start: start.value(i).to_string(),
                moves: (0..list.len()).map(|k| list.value(k).to_string()).collect(),
                result: result.value(i),
                termination: termination.value(i).to_string(),
                length: length.value(i),
                network: network.value(i).to_string(),
            });
        }
    }
    Ok(out)
}

/// Reads a positions table.
///
/// # Errors
/// [`Error::Record`] on I/O errors, another schema, or a missing or mistyped column.
pub fn read_positions(path: &Path) -> Result<Vec<PositionRow>, Error> {
    let mut out = Vec::new();
    for batch in read_batches(path, POSITIONS_SCHEMA)? {
        check_columns(&batch, &positions_columns()).map_err(|e| io(path, e))?;
        let c = |name| column(path, &batch, name);
        let game_id = c("game_id")?.as_primitive::<UInt64Type>();
        let ply = c("ply")?.as_primitive::<UInt32Type>();
        let position = c("position")?.as_string::<i32>();
        let legal = c("legal")?.as_list::<i32>();
        let actions = c("policy_actions")?.as_list::<i32>();
        let probs = c("policy_probs")?.as_list::<i32>();
        let value = c("search_value")?.as_primitive::<Float32Type>();
        let result = c("result")?.as_primitive::<Float32Type>();
        let target = c("policy_target")?.as_boolean();
        let u16_list = |l: ArrayRef| l.as_primitive::<UInt16Type>().values().to_vec();
        for i in 0..batch.num_rows() {
            out.push(PositionRow {
                game_id: game_id.value(i),
                ply: ply.value(i),
                position: position.value(i).to_string(),
                legal: u16_list(legal.value(i)),
                policy_actions: u16_list(actions.value(i)),
                policy_probs: probs
                    .value(i)
                    .as_primitive::<Float32Type>()
                    .values()
                    .to_vec(),
                search_value: value.value(i),
                result: result.value(i),
                policy_target: target.value(i),
            });
        }
    }
    Ok(out)
}

/// A uniquely named temporary file in `path`'s directory, to be persisted onto `path` once
/// written (an atomic write), readable as a file written the usual way would be (read and write
/// for everyone, less the umask; temporary files are otherwise private).
///
/// # Errors
/// When the file cannot be created.
pub fn temporary_beside(path: &Path, suffix: &str) -> std::io::Result<tempfile::NamedTempFile> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".pjlab-").suffix(suffix);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    builder.tempfile_in(dir)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::StringArray;

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
        for (name, _) in games_columns() {
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
