//! Reading a table back, checked against its schema.

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Float32Type, Int8Type, Int32Type, UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{Array, ArrayRef, ArrowPrimitiveType, RecordBatch};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::Encoding;
use parquet::column::page::PageReader;
use parquet::file::metadata::ParquetMetaData;
use parquet::file::serialized_reader::SerializedPageReader;

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
        // The decoder asserts that every column chunk's offsets and size are not negative
        // (`ColumnChunkMetaData::byte_range`): a damaged footer is refused before it asks.
        for group in builder.metadata().row_groups() {
            for column in group.columns() {
                let start = column
                    .dictionary_page_offset()
                    .unwrap_or(column.data_page_offset());
                if start < 0 || column.compressed_size() < 0 {
                    return Err(error(
                        path,
                        "damaged Parquet file: a column chunk with a negative offset or size",
                    ));
                }
            }
        }
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

/// Refuses a column chunk with a data page that asks for a dictionary (`PLAIN_DICTIONARY` or
/// `RLE_DICTIONARY`) before the chunk has given one, which the decoder asserts it has
/// ("Decoder for dict should have been set", finding 6 of `experiments/fuzzing`). The decoder
/// goes by the pages' headers, which a damaged footer's dictionary offset and list of encodings
/// need not match, so the pages are walked as the decoder walks them, from the chunk's first
/// page to its first dictionary page: a chunk that opens with its dictionary costs that page,
/// the others (no dictionary: booleans) are read page by page. The footer's offsets must have
/// been checked first (`SerializedPageReader` asserts on them).
///
/// # Errors
/// [`Error`] naming the row group and the column, for such a page or a page that does not read.
fn check_dictionaries(path: &Path, file: File, metadata: &ParquetMetaData) -> Result<(), Error> {
    let file = Arc::new(file);
    for (g, group) in metadata.row_groups().iter().enumerate() {
        // As the decoder takes it; the count is used only with an offset index, which the
        // reader does not load.
        let rows = usize::try_from(group.num_rows()).unwrap_or(0);
        for column in group.columns() {
            let refuse = |e: &dyn std::fmt::Display| {
                error(
                    path,
                    format!(
                        "damaged Parquet file: column {} of row group {g}: {e}",
                        column.column_path().string()
                    ),
                )
            };
            let mut pages = SerializedPageReader::new(Arc::clone(&file), column, rows, None)
                .map_err(|e| refuse(&e))?;
            // Only `get_next_page`, which the decoder calls itself: `peek_next_page` unwraps a
            // data page's header where the decoder refuses its absence (the fuzzer found it).
            while let Some(page) = pages.get_next_page().map_err(|e| refuse(&e))? {
                if page.is_dictionary_page() {
                    // A dictionary of no values with bytes in it: the string decoder divides
                    // those bytes by its count of values (the fuzzer found it: finding 7).
                    let bytes = page.buffer().len();
                    if page.num_values() == 0 && bytes > 0 {
                        return Err(refuse(&format!(
                            "a dictionary page of no values holding {bytes} bytes"
                        )));
                    }
                    break;
                }
                let encoding = page.encoding();
                if matches!(
                    encoding,
                    Encoding::PLAIN_DICTIONARY | Encoding::RLE_DICTIONARY
                ) {
                    return Err(refuse(&format!(
                        "a data page encoded {encoding} before any dictionary page"
                    )));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{Column, TableBuilder, Type, Value};
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

    /// A seed of `games_parquet` kept for a fuzzing finding.
    fn finding_6(name: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../fuzz/corpus/games_parquet")
            .join(name)
    }

    /// The dictionary check alone, without the catch behind it.
    fn check(path: &Path) -> Result<(), Error> {
        let file = File::open(path).unwrap();
        let builder = ParquetRecordBatchReaderBuilder::try_new(file.try_clone().unwrap()).unwrap();
        check_dictionaries(path, file, builder.metadata())
    }

    #[test]
    fn a_data_page_asking_for_a_missing_dictionary_is_refused_before_decoding() {
        // A games table whose `length` chunk lost its dictionary page offset in the footer, so
        // that it opens on a data page encoded `RLE_DICTIONARY`.
        let path = finding_6("finding-6-dictionary-page");
        let err = check(&path).unwrap_err().to_string();
        assert!(err.contains("column length of row group 0"), "{err}");
        assert!(err.contains("before any dictionary page"), "{err}");
        assert!(err.contains("damaged Parquet file: column "), "{err}");
        // The reader refuses it with the check's error, not with a decoder's caught panic.
        let games = Schema {
            name: "games/1",
            columns: &[],
        };
        let err = Table::read(&path, &games).unwrap_err().to_string();
        assert!(err.contains("before any dictionary page"), "{err}");
        assert!(!err.contains("should have been set"), "{err}");
        // The check's own first form peeked at each page's header, which panics on a data page
        // without its header part; reading the pages, as the decoder does, refuses the file.
        let path = finding_6("finding-6-data-page-without-header");
        let err = check(&path).unwrap_err().to_string();
        assert!(err.contains("damaged Parquet file: column "), "{err}");
    }

    #[test]
    fn a_dictionary_page_of_no_values_but_some_bytes_is_refused_before_decoding() {
        // A games table whose `network` chunk's dictionary page says 0 values and holds 44
        // bytes: the string decoder divided by zero on it (fuzzing finding 7).
        let path = finding_6("finding-7-empty-dictionary");
        let err = check(&path).unwrap_err().to_string();
        assert!(err.contains("column network of row group 0"), "{err}");
        assert!(
            err.contains("a dictionary page of no values holding 44 bytes"),
            "{err}"
        );
        let games = Schema {
            name: "games/1",
            columns: &[],
        };
        let err = Table::read(&path, &games).unwrap_err().to_string();
        assert!(err.contains("a dictionary page of no values"), "{err}");
    }

    #[test]
    fn tables_written_here_pass_the_dictionary_check() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.parquet");
        let mut b = TableBuilder::new(&T);
        let bag: Vec<u16> = (0..50).collect();
        // Repeated and distinct values, so that chunks hold a dictionary or none (booleans).
        for i in 0..5_000u64 {
            let name = format!("n{}", i % 7);
            b.row([
                i.into(),
                name.as_str().into(),
                (&bag[..(i % 50) as usize]).into(),
                (i % 3 == 0).into(),
            ])
            .unwrap();
        }
        b.write(&path, &[]).unwrap();
        check(&path).unwrap();
        let t = Table::read(&path, &T).unwrap();
        assert_eq!(t.len(), 5_000);
        assert_eq!(t.strs("name").unwrap()[8], "n1");
    }
}
