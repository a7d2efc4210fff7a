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

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, Float32Builder, Int8Builder, Int32Builder, ListBuilder, StringBuilder,
    UInt8Builder, UInt16Builder, UInt32Builder, UInt64Builder,
};
use arrow_array::cast::AsArray;
use arrow_array::types::{
    Float32Type, Int8Type, Int32Type, UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{Array, ArrayRef, ArrowPrimitiveType, RecordBatch};
use arrow_schema::{DataType, Field};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::Compression;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;

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

/// A column being built.
enum Builder {
    U8(UInt8Builder),
    U16(UInt16Builder),
    U32(UInt32Builder),
    U64(UInt64Builder),
    I8(Int8Builder),
    I32(Int32Builder),
    F32(Float32Builder),
    Bool(BooleanBuilder),
    Str(StringBuilder),
    U16s(ListBuilder<UInt16Builder>),
    I32s(ListBuilder<Int32Builder>),
    F32s(ListBuilder<Float32Builder>),
    Strs(ListBuilder<StringBuilder>),
}

impl Builder {
    fn new(ty: Type) -> Builder {
        match ty {
            Type::U8 => Builder::U8(UInt8Builder::new()),
            Type::U16 => Builder::U16(UInt16Builder::new()),
            Type::U32 => Builder::U32(UInt32Builder::new()),
            Type::U64 => Builder::U64(UInt64Builder::new()),
            Type::I8 => Builder::I8(Int8Builder::new()),
            Type::I32 => Builder::I32(Int32Builder::new()),
            Type::F32 => Builder::F32(Float32Builder::new()),
            Type::Bool => Builder::Bool(BooleanBuilder::new()),
            Type::Str => Builder::Str(StringBuilder::new()),
            Type::U16s => Builder::U16s(ListBuilder::new(UInt16Builder::new())),
            Type::I32s => Builder::I32s(ListBuilder::new(Int32Builder::new())),
            Type::F32s => Builder::F32s(ListBuilder::new(Float32Builder::new())),
            Type::Strs => Builder::Strs(ListBuilder::new(StringBuilder::new())),
        }
    }

    /// Appends `value`; false (and nothing appended) when it is not of the column's type.
    fn append(&mut self, value: &Value<'_>) -> bool {
        match (self, value) {
            (Builder::U8(b), Value::U8(x)) => b.append_value(*x),
            (Builder::U16(b), Value::U16(x)) => b.append_value(*x),
            (Builder::U32(b), Value::U32(x)) => b.append_value(*x),
            (Builder::U64(b), Value::U64(x)) => b.append_value(*x),
            (Builder::I8(b), Value::I8(x)) => b.append_value(*x),
            (Builder::I32(b), Value::I32(x)) => b.append_value(*x),
            (Builder::F32(b), Value::F32(x)) => b.append_value(*x),
            (Builder::Bool(b), Value::Bool(x)) => b.append_value(*x),
            (Builder::Str(b), Value::Str(x)) => b.append_value(x),
            (Builder::U16s(b), Value::U16s(x)) => {
                b.values().append_slice(x);
                b.append(true);
            }
            (Builder::I32s(b), Value::I32s(x)) => {
                b.values().append_slice(x);
                b.append(true);
            }
            (Builder::F32s(b), Value::F32s(x)) => {
                b.values().append_slice(x);
                b.append(true);
            }
            (Builder::Strs(b), Value::Strs(x)) => {
                for s in x {
                    b.values().append_value(s);
                }
                b.append(true);
            }
            _ => return false,
        }
        true
    }

    fn finish(&mut self) -> ArrayRef {
        match self {
            Builder::U8(b) => Arc::new(b.finish()),
            Builder::U16(b) => Arc::new(b.finish()),
            Builder::U32(b) => Arc::new(b.finish()),
            Builder::U64(b) => Arc::new(b.finish()),
            Builder::I8(b) => Arc::new(b.finish()),
            Builder::I32(b) => Arc::new(b.finish()),
            Builder::F32(b) => Arc::new(b.finish()),
            Builder::Bool(b) => Arc::new(b.finish()),
            Builder::Str(b) => Arc::new(b.finish()),
            Builder::U16s(b) => Arc::new(b.finish()),
            Builder::I32s(b) => Arc::new(b.finish()),
            Builder::F32s(b) => Arc::new(b.finish()),
            Builder::Strs(b) => Arc::new(b.finish()),
        }
    }
}

/// A table being built, row by row.
pub struct TableBuilder {
    schema: &'static Schema,
    columns: Vec<Builder>,
}

impl TableBuilder {
    /// An empty table of `schema`.
    pub fn new(schema: &'static Schema) -> TableBuilder {
        TableBuilder {
            schema,
            columns: schema.columns.iter().map(|c| Builder::new(c.ty)).collect(),
        }
    }

    /// Appends a row: one value a column, in the schema's order.
    ///
    /// # Errors
    /// A message naming the column when the row has another number of values or a value of
    /// another type (nothing is appended then).
    pub fn row<'a>(&mut self, values: impl IntoIterator<Item = Value<'a>>) -> Result<(), String> {
        let values: Vec<Value<'a>> = values.into_iter().collect();
        if values.len() != self.columns.len() {
            return Err(format!(
                "a row of {} values for the {} columns of {}",
                values.len(),
                self.columns.len(),
                self.schema.name
            ));
        }
        let mut columns = self.schema.columns.iter().zip(&values);
        if let Some((column, value)) = columns.find(|(c, v)| c.ty != v.ty()) {
            return Err(format!(
                "column {} of {} is {:?}, not {value:?}",
                column.name, self.schema.name, column.ty
            ));
        }
        for (builder, value) in self.columns.iter_mut().zip(&values) {
            builder.append(value);
        }
        Ok(())
    }

    /// The rows so far as one record batch.
    ///
    /// # Errors
    /// When Arrow refuses the columns (they differ in length only if a row was refused midway,
    /// which [`TableBuilder::row`] never leaves).
    pub fn finish(mut self) -> Result<RecordBatch, String> {
        let arrays: Vec<(&str, ArrayRef)> = self
            .schema
            .columns
            .iter()
            .zip(&mut self.columns)
            .map(|(c, b)| (c.name, b.finish()))
            .collect();
        RecordBatch::try_from_iter(arrays).map_err(|e| e.to_string())
    }

    /// Writes the table to `path` atomically, with the schema's name and `extra` key-value
    /// pairs in the footer metadata.
    ///
    /// # Errors
    /// [`Error`] on any I/O or encoding failure.
    pub fn write(self, path: &Path, extra: &[(String, String)]) -> Result<(), Error> {
        let name = self.schema.name;
        let batch = self.finish().map_err(|e| error(path, e))?;
        write_batch(path, batch, name, extra)
    }
}

/// Writes `batch` to `path` atomically (a temporary file of a unique name beside it, renamed
/// into place, so concurrent writers never share one), with `schema` under [`SCHEMA_KEY`] and
/// `extra` key-value pairs in the footer metadata.
///
/// # Errors
/// [`Error`] on any I/O or encoding failure.
pub fn write_batch(
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
    let tmp = temporary_beside(path, ".parquet.tmp").map_err(|e| error(path, e))?;
    let mut writer = ArrowWriter::try_new(tmp.as_file(), batch.schema(), Some(props))
        .map_err(|e| error(tmp.path(), e))?;
    writer.write(&batch).map_err(|e| error(tmp.path(), e))?;
    writer.close().map_err(|e| error(tmp.path(), e))?;
    tmp.persist(path).map_err(|e| error(path, e.error))?;
    Ok(())
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

/// The footer metadata of a Parquet file (the schema key included), in file order.
///
/// # Errors
/// [`Error`] when the file cannot be opened or is not Parquet.
pub fn read_metadata(path: &Path) -> Result<Vec<(String, String)>, Error> {
    let file = File::open(path).map_err(|e| error(path, e))?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| error(path, e))?;
    Ok(metadata_of(&builder))
}

fn metadata_of(builder: &ParquetRecordBatchReaderBuilder<File>) -> Vec<(String, String)> {
    builder
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .map(|kv| {
            kv.iter()
                .map(|k| (k.key.clone(), k.value.clone().unwrap_or_default()))
                .collect()
        })
        .unwrap_or_default()
}

/// A table read back: its footer metadata and its rows, every column checked against the
/// schema.
#[derive(Clone, Debug)]
pub struct Table {
    path: String,
    metadata: Vec<(String, String)>,
    batches: Vec<RecordBatch>,
}

impl Table {
    /// Reads the table at `path`, which must carry `schema`'s name under [`SCHEMA_KEY`] and
    /// each of its columns with its type.
    ///
    /// # Errors
    /// [`Error`] on I/O errors, another schema, or a missing or mistyped column.
    pub fn read(path: &Path, schema: &Schema) -> Result<Table, Error> {
        let file = File::open(path).map_err(|e| error(path, e))?;
        let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| error(path, e))?;
        let metadata = metadata_of(&builder);
        let found = metadata
            .iter()
            .find(|(k, _)| k == SCHEMA_KEY)
            .map(|(_, v)| v);
        if found.map(String::as_str) != Some(schema.name) {
            return Err(error(
                path,
                format!("expected schema {}, found {found:?}", schema.name),
            ));
        }
        let batches: Vec<RecordBatch> = builder
            .build()
            .map_err(|e| error(path, e))?
            .map(|b| b.map_err(|e| error(path, e)))
            .collect::<Result<_, _>>()?;
        let expected = schema.expected();
        for batch in &batches {
            check_columns(batch, &expected).map_err(|e| error(path, e))?;
        }
        Ok(Table {
            path: path.display().to_string(),
            metadata,
            batches,
        })
    }

    /// The value of footer key `key`.
    pub fn meta(&self, key: &str) -> Option<&str> {
        self.metadata
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The footer metadata, in file order.
    pub fn metadata(&self) -> &[(String, String)] {
        &self.metadata
    }

    /// Rows.
    pub fn len(&self) -> usize {
        self.batches.iter().map(RecordBatch::num_rows).sum()
    }

    /// Whether it has no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// An error about this table.
    pub fn error(&self, message: impl std::fmt::Display) -> Error {
        Error {
            path: self.path.clone(),
            message: message.to_string(),
        }
    }

    /// Column `name` over every batch, each batch's array through `read`.
    fn gather<T>(
        &self,
        name: &str,
        what: &str,
        read: impl Fn(&ArrayRef) -> Option<Vec<T>>,
    ) -> Result<Vec<T>, Error> {
        let mut out = Vec::with_capacity(self.len());
        for batch in &self.batches {
            let column = batch
                .column_by_name(name)
                .ok_or_else(|| self.error(format!("missing column {name}")))?;
            out.extend(read(column).ok_or_else(|| {
                self.error(format!(
                    "column {name} is {}, expected {what}",
                    column.data_type()
                ))
            })?);
        }
        Ok(out)
    }

    fn primitive<P: ArrowPrimitiveType>(&self, name: &str) -> Result<Vec<P::Native>, Error> {
        self.gather(name, &P::DATA_TYPE.to_string(), |a| {
            a.as_primitive_opt::<P>().map(|a| a.values().to_vec())
        })
    }

    fn primitive_lists<P: ArrowPrimitiveType>(
        &self,
        name: &str,
    ) -> Result<Vec<Vec<P::Native>>, Error> {
        self.gather(name, &format!("a list of {}", P::DATA_TYPE), |a| {
            let lists = a.as_list_opt::<i32>()?;
            (0..lists.len())
                .map(|i| {
                    let items = lists.value(i);
                    items.as_primitive_opt::<P>().map(|p| p.values().to_vec())
                })
                .collect()
        })
    }

    /// A `uint8` column.
    ///
    /// # Errors
    /// [`Error`] naming the column when it is missing or of another type.
    pub fn u8s(&self, name: &str) -> Result<Vec<u8>, Error> {
        self.primitive::<UInt8Type>(name)
    }

    /// A `uint16` column.
    ///
    /// # Errors
    /// As [`Table::u8s`].
    pub fn u16s(&self, name: &str) -> Result<Vec<u16>, Error> {
        self.primitive::<UInt16Type>(name)
    }

    /// A `uint32` column.
    ///
    /// # Errors
    /// As [`Table::u8s`].
    pub fn u32s(&self, name: &str) -> Result<Vec<u32>, Error> {
        self.primitive::<UInt32Type>(name)
    }

    /// A `uint64` column.
    ///
    /// # Errors
    /// As [`Table::u8s`].
    pub fn u64s(&self, name: &str) -> Result<Vec<u64>, Error> {
        self.primitive::<UInt64Type>(name)
    }

    /// An `int8` column.
    ///
    /// # Errors
    /// As [`Table::u8s`].
    pub fn i8s(&self, name: &str) -> Result<Vec<i8>, Error> {
        self.primitive::<Int8Type>(name)
    }

    /// An `int32` column.
    ///
    /// # Errors
    /// As [`Table::u8s`].
    pub fn i32s(&self, name: &str) -> Result<Vec<i32>, Error> {
        self.primitive::<Int32Type>(name)
    }

    /// A `float32` column.
    ///
    /// # Errors
    /// As [`Table::u8s`].
    pub fn f32s(&self, name: &str) -> Result<Vec<f32>, Error> {
        self.primitive::<Float32Type>(name)
    }

    /// A `bool` column.
    ///
    /// # Errors
    /// As [`Table::u8s`].
    pub fn bools(&self, name: &str) -> Result<Vec<bool>, Error> {
        self.gather(name, "Boolean", |a| {
            a.as_boolean_opt()
                .map(|b| b.iter().map(|v| v.unwrap_or(false)).collect())
        })
    }

    /// A string column.
    ///
    /// # Errors
    /// As [`Table::u8s`].
    pub fn strs(&self, name: &str) -> Result<Vec<String>, Error> {
        self.gather(name, "Utf8", |a| {
            let s = a.as_string_opt::<i32>()?;
            Some((0..s.len()).map(|i| s.value(i).to_string()).collect())
        })
    }

    /// A `list<uint16>` column.
    ///
    /// # Errors
    /// As [`Table::u8s`].
    pub fn u16_lists(&self, name: &str) -> Result<Vec<Vec<u16>>, Error> {
        self.primitive_lists::<UInt16Type>(name)
    }

    /// A `list<int32>` column.
    ///
    /// # Errors
    /// As [`Table::u8s`].
    pub fn i32_lists(&self, name: &str) -> Result<Vec<Vec<i32>>, Error> {
        self.primitive_lists::<Int32Type>(name)
    }

    /// A `list<float32>` column.
    ///
    /// # Errors
    /// As [`Table::u8s`].
    pub fn f32_lists(&self, name: &str) -> Result<Vec<Vec<f32>>, Error> {
        self.primitive_lists::<Float32Type>(name)
    }

    /// A `list<string>` column.
    ///
    /// # Errors
    /// As [`Table::u8s`].
    pub fn str_lists(&self, name: &str) -> Result<Vec<Vec<String>>, Error> {
        self.gather(name, "a list of Utf8", |a| {
            let lists = a.as_list_opt::<i32>()?;
            (0..lists.len())
                .map(|i| {
                    let items = lists.value(i);
                    let s = items.as_string_opt::<i32>()?;
                    Some((0..s.len()).map(|k| s.value(k).to_string()).collect())
                })
                .collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: Schema = Schema {
        name: "test/1",
        columns: &[
            Column::new("id", Type::U64),
            Column::new("name", Type::Str),
            Column::new("bag", Type::U16s),
            Column::new("ok", Type::Bool),
        ],
    };

    const OTHER: Schema = Schema {
        name: "test/1",
        columns: &[Column::new("id", Type::Str)],
    };

    #[test]
    fn rows_round_trip_and_bad_rows_or_files_are_errors_not_panics() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.parquet");
        let mut b = TableBuilder::new(&T);
        b.row([
            1u64.into(),
            "a".into(),
            (&[1u16, 2][..]).into(),
            true.into(),
        ])
        .unwrap();
        let err = b.row([1u32.into(), "a".into(), Value::U16s(&[]), true.into()]);
        assert!(err.unwrap_err().contains("column id of test/1 is U64"));
        assert!(b.row([1u64.into()]).is_err());
        b.row([2u64.into(), "b".into(), Value::U16s(&[]), false.into()])
            .unwrap();
        b.write(&path, &[("k".into(), "v".into())]).unwrap();
        let t = Table::read(&path, &T).unwrap();
        assert_eq!(t.len(), 2);
        assert_eq!(t.u64s("id").unwrap(), [1, 2]);
        assert_eq!(t.strs("name").unwrap(), ["a", "b"]);
        assert_eq!(t.u16_lists("bag").unwrap(), [vec![1, 2], vec![]]);
        assert_eq!(t.bools("ok").unwrap(), [true, false]);
        assert_eq!(t.meta("k"), Some("v"));
        assert_eq!(t.meta(SCHEMA_KEY), Some("test/1"));
        // Asking a column as another type, or one that is not there, is an error.
        assert!(
            t.u32s("id")
                .unwrap_err()
                .to_string()
                .contains("column id is UInt64, expected UInt32")
        );
        assert!(t.strs("nope").is_err());
        // A file whose columns are not the schema's, or of another schema.
        let err = Table::read(&path, &OTHER).unwrap_err().to_string();
        assert!(err.contains("column id is UInt64, expected Utf8"), "{err}");
        let another = Schema {
            name: "test/2",
            ..T
        };
        let err = Table::read(&path, &another).unwrap_err().to_string();
        assert!(err.contains("expected schema test/2"), "{err}");
        assert!(Table::read(&dir.path().join("none"), &T).is_err());
    }
}
