//! Reading a table back, checked against its schema.

use std::fs::File;
use std::path::Path;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Float32Type, Int8Type, Int32Type, UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{Array, ArrayRef, ArrowPrimitiveType, RecordBatch};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use super::damaged::{check_dictionaries, check_offsets};
use super::{Error, SCHEMA_KEY, Schema, check_columns, error};

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
        let pages = file.try_clone().map_err(|e| error(path, e))?;
        let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| error(path, e))?;
        check_offsets(path, builder.metadata())?;
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
        // The decoder trusts a damaged file's offsets in places and may panic on them: what
        // is known to make it panic is refused before it decodes, and a panic that is still
        // found there is the file's fault and is refused as such. Every column is then
        // validated in full (offsets, lengths, UTF-8), so the typed getters read only sound
        // arrays.
        let decoded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            check_dictionaries(path, pages, builder.metadata())?;
            builder
                .build()
                .map_err(|e| error(path, e))?
                .map(|b| b.map_err(|e| error(path, e)))
                .collect::<Result<Vec<RecordBatch>, _>>()
        }));
        let batches = decoded.map_err(|cause| {
            let reason = cause
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| cause.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "the decoder failed".into());
            error(path, format!("damaged Parquet file: {reason}"))
        })??;
        let expected = schema.expected();
        for batch in &batches {
            check_columns(batch, &expected).map_err(|e| error(path, e))?;
            for column in batch.columns() {
                column
                    .to_data()
                    .validate_full()
                    .map_err(|e| error(path, format!("damaged Parquet file: {e}")))?;
            }
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
    use super::super::{Column, TableBuilder, Type, Value};
    use super::*;

    use super::super::TEST_SCHEMA as T;

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
        assert!(
            err.unwrap_err()
                .to_string()
                .contains("column id of test/1 is U64")
        );
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
