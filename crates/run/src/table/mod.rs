//! Parquet tables in the lab's conventions: columns declared once with their types
//! ([`Schema`]), a builder that appends rows and writes the file atomically (a temporary file
//! beside it, renamed into place) with the schema's name under [`SCHEMA_KEY`] in the footer,
//! and a reader that refuses another schema, a missing column or a mistyped one before handing
//! out typed columns. Columns are written without nulls; lists are `list<item>` as arrow's list
//! builders make them.
//!
//! ```
//! use pjlab_run::table::{Column, Schema, Table, TableBuilder, Type};
//! const SCORES: Schema = Schema {
//!     name: "scores/1",
//!     columns: &[Column::new("id", Type::U64), Column::new("moves", Type::Strs)],
//! };
//! let dir = tempfile::tempdir()?;
//! let path = dir.path().join("scores.parquet");
//! let mut table = TableBuilder::new(&SCORES);
//! table.row([7u64.into(), (&["e4".to_string()][..]).into()])?;
//! table.write(&path, &[("who".into(), "me".into())])?;
//! let read = Table::read(&path, &SCORES)?;
//! assert_eq!(read.u64s("id")?, [7]);
//! assert_eq!(read.str_lists("moves")?, [vec!["e4".to_string()]]);
//! assert_eq!(read.meta("who"), Some("me"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod damaged;
mod read;
mod write;

use std::path::Path;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::{DataType, Field};

pub use read::{Table, read_metadata};
pub use write::{TableBuilder, temporary_beside, write_batch};

/// Footer metadata key holding a table's schema name and version.
pub const SCHEMA_KEY: &str = "pjlab.schema";

/// A table that cannot be written or read: the file and what went wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct Error {
    /// The file.
    pub path: String,
    /// What went wrong.
    pub message: String,
}

fn error(path: &Path, e: impl std::fmt::Display) -> Error {
    Error {
        path: path.display().to_string(),
        message: e.to_string(),
    }
}

/// A row or a record batch that does not fit its table's columns.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SchemaError {
    /// A row with another number of values than the table has columns.
    #[error("a row of {values} values for the {columns} columns of {table}")]
    RowLength {
        /// The schema's name.
        table: &'static str,
        /// Values given.
        values: usize,
        /// Columns of the table.
        columns: usize,
    },
    /// A value of another type than its column's.
    #[error("column {column} of {table} is {expected:?}, not {value}")]
    ValueType {
        /// The schema's name.
        table: &'static str,
        /// The column.
        column: &'static str,
        /// The column's type.
        expected: Type,
        /// The value given, as `Debug` shows it.
        value: String,
    },
    /// A column the reader needs that the file lacks.
    #[error("missing column {0}")]
    MissingColumn(String),
    /// A column of another Arrow type than the reader needs.
    #[error("column {name} is {found}, expected {expected}")]
    ColumnType {
        /// The column.
        name: String,
        /// Its type in the file.
        found: String,
        /// The type the reader needs.
        expected: String,
    },
    /// Arrow refused the columns as a record batch.
    #[error("{0}")]
    Arrow(String),
}

/// A column's type.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Type {
    /// `uint8`.
    U8,
    /// `uint16`.
    U16,
    /// `uint32`.
    U32,
    /// `uint64`.
    U64,
    /// `int8`.
    I8,
    /// `int32`.
    I32,
    /// `float32`.
    F32,
    /// `bool`.
    Bool,
    /// `string` (UTF-8).
    Str,
    /// `list<uint16>`.
    U16s,
    /// `list<int32>`.
    I32s,
    /// `list<float32>`.
    F32s,
    /// `list<string>`.
    Strs,
}

impl Type {
    /// The Arrow type of the column.
    pub fn data_type(self) -> DataType {
        match self {
            Type::U8 => DataType::UInt8,
            Type::U16 => DataType::UInt16,
            Type::U32 => DataType::UInt32,
            Type::U64 => DataType::UInt64,
            Type::I8 => DataType::Int8,
            Type::I32 => DataType::Int32,
            Type::F32 => DataType::Float32,
            Type::Bool => DataType::Boolean,
            Type::Str => DataType::Utf8,
            Type::U16s => list_of(DataType::UInt16),
            Type::I32s => list_of(DataType::Int32),
            Type::F32s => list_of(DataType::Float32),
            Type::Strs => list_of(DataType::Utf8),
        }
    }
}

/// A list column's type with items of type `item`, as the lab's writers make it.
pub fn list_of(item: DataType) -> DataType {
    DataType::List(Arc::new(Field::new("item", item, true)))
}

/// Whether two column types agree (lists by their items' types alone).
pub fn same_type(a: &DataType, b: &DataType) -> bool {
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
/// [`SchemaError::MissingColumn`] or [`SchemaError::ColumnType`] for the first missing or
/// mistyped column.
pub fn check_columns(
    batch: &RecordBatch,
    expected: &[(&str, DataType)],
) -> Result<(), SchemaError> {
    for (name, want) in expected {
        let Some(column) = batch.column_by_name(name) else {
            return Err(SchemaError::MissingColumn(name.to_string()));
        };
        if !same_type(column.data_type(), want) {
            return Err(SchemaError::ColumnType {
                name: name.to_string(),
                found: column.data_type().to_string(),
                expected: want.to_string(),
            });
        }
    }
    Ok(())
}

/// A column: its name and type.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Column {
    /// Its name in the file.
    pub name: &'static str,
    /// Its type.
    pub ty: Type,
}

impl Column {
    /// Column `name` of type `ty`.
    pub const fn new(name: &'static str, ty: Type) -> Column {
        Column { name, ty }
    }
}

/// A table's schema: its name and version (the footer's [`SCHEMA_KEY`]) and its columns in
/// file order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Schema {
    /// The name and version, such as `games/1`.
    pub name: &'static str,
    /// The columns, in file order.
    pub columns: &'static [Column],
}

impl Schema {
    /// The columns and their Arrow types, for [`check_columns`].
    pub fn expected(&self) -> Vec<(&'static str, DataType)> {
        self.columns
            .iter()
            .map(|c| (c.name, c.ty.data_type()))
            .collect()
    }
}

/// One cell of a row.
#[derive(Clone, Debug, PartialEq)]
pub enum Value<'a> {
    /// A `uint8`.
    U8(u8),
    /// A `uint16`.
    U16(u16),
    /// A `uint32`.
    U32(u32),
    /// A `uint64`.
    U64(u64),
    /// An `int8`.
    I8(i8),
    /// An `int32`.
    I32(i32),
    /// A `float32`.
    F32(f32),
    /// A `bool`.
    Bool(bool),
    /// A string.
    Str(&'a str),
    /// A `list<uint16>`.
    U16s(&'a [u16]),
    /// A `list<int32>`.
    I32s(&'a [i32]),
    /// A `list<float32>`.
    F32s(&'a [f32]),
    /// A `list<string>`.
    Strs(Vec<&'a str>),
}

impl Value<'_> {
    /// The type of column it belongs in.
    pub fn ty(&self) -> Type {
        match self {
            Value::U8(_) => Type::U8,
            Value::U16(_) => Type::U16,
            Value::U32(_) => Type::U32,
            Value::U64(_) => Type::U64,
            Value::I8(_) => Type::I8,
            Value::I32(_) => Type::I32,
            Value::F32(_) => Type::F32,
            Value::Bool(_) => Type::Bool,
            Value::Str(_) => Type::Str,
            Value::U16s(_) => Type::U16s,
            Value::I32s(_) => Type::I32s,
            Value::F32s(_) => Type::F32s,
            Value::Strs(_) => Type::Strs,
        }
    }
}

macro_rules! value_from {
    ($($t:ty => $v:ident),* $(,)?) => {
        $(impl<'a> From<$t> for Value<'a> {
            fn from(x: $t) -> Value<'a> {
                Value::$v(x)
            }
        })*
    };
}

value_from!(
    u8 => U8, u16 => U16, u32 => U32, u64 => U64, i8 => I8, i32 => I32, f32 => F32,
    bool => Bool, &'a str => Str, &'a [u16] => U16s, &'a [i32] => I32s, &'a [f32] => F32s,
    Vec<&'a str> => Strs,
);

impl<'a> From<&'a String> for Value<'a> {
    fn from(x: &'a String) -> Value<'a> {
        Value::Str(x)
    }
}

impl<'a> From<&'a [String]> for Value<'a> {
    fn from(x: &'a [String]) -> Value<'a> {
        Value::Strs(x.iter().map(String::as_str).collect())
    }
}

/// The schema the module's tests write: an integer, a string, a list and a boolean column.
#[cfg(test)]
const TEST_SCHEMA: Schema = Schema {
    name: "test/1",
    columns: &[
        Column::new("id", Type::U64),
        Column::new("name", Type::Str),
        Column::new("bag", Type::U16s),
        Column::new("ok", Type::Bool),
    ],
};
