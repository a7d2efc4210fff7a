//! Refusing a damaged Parquet file before the decoder sees it: the decoder trusts a footer's
//! offsets and a page's header in places and asserts on them, so what is known to make it panic
//! (each a finding of `experiments/fuzzing`) is checked here first.

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use parquet::basic::Encoding;
use parquet::column::page::PageReader;
use parquet::file::metadata::ParquetMetaData;
use parquet::file::serialized_reader::SerializedPageReader;

use super::{Error, error};

/// Refuses a column chunk whose offset or size is negative, which the decoder asserts against
/// (`ColumnChunkMetaData::byte_range`).
///
/// # Errors
/// [`Error`] for such a chunk.
pub(super) fn check_offsets(path: &Path, metadata: &ParquetMetaData) -> Result<(), Error> {
    for group in metadata.row_groups() {
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
    Ok(())
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
pub(super) fn check_dictionaries(
    path: &Path,
    file: File,
    metadata: &ParquetMetaData,
) -> Result<(), Error> {
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
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

    use super::super::{Schema, Table, TableBuilder};
    use super::*;

    use super::super::TEST_SCHEMA as T;

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
