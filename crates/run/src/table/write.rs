//! Building a table row by row and writing it atomically.

use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, Float32Builder, Int8Builder, Int32Builder, ListBuilder, StringBuilder,
    UInt8Builder, UInt16Builder, UInt32Builder, UInt64Builder,
};
use arrow_array::{ArrayRef, RecordBatch};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;

use super::{Error, SCHEMA_KEY, Schema, SchemaError, Type, Value, error};

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
    /// [`SchemaError::RowLength`] or [`SchemaError::ValueType`] when the row has another number
    /// of values or a value of another type (nothing is appended then).
    pub fn row<'a>(
        &mut self,
        values: impl IntoIterator<Item = Value<'a>>,
    ) -> Result<(), SchemaError> {
        let values: Vec<Value<'a>> = values.into_iter().collect();
        if values.len() != self.columns.len() {
            return Err(SchemaError::RowLength {
                table: self.schema.name,
                values: values.len(),
                columns: self.columns.len(),
            });
        }
        let mut columns = self.schema.columns.iter().zip(&values);
        if let Some((column, value)) = columns.find(|(c, v)| c.ty != v.ty()) {
            return Err(SchemaError::ValueType {
                table: self.schema.name,
                column: column.name,
                expected: column.ty,
                value: format!("{value:?}"),
            });
        }
        for (builder, value) in self.columns.iter_mut().zip(&values) {
            builder.append(value);
        }
        Ok(())
    }

    /// The rows so far as one record batch.
    ///
    /// # Errors
    /// [`SchemaError::Arrow`] when Arrow refuses the columns (they differ in length only if a row was refused midway,
    /// which [`TableBuilder::row`] never leaves).
    pub fn finish(mut self) -> Result<RecordBatch, SchemaError> {
        let arrays: Vec<(&str, ArrayRef)> = self
            .schema
            .columns
            .iter()
            .zip(&mut self.columns)
            .map(|(c, b)| (c.name, b.finish()))
            .collect();
        RecordBatch::try_from_iter(arrays).map_err(|e| SchemaError::Arrow(e.to_string()))
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
