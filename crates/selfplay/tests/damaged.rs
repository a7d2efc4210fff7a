//! Damaged record files are refused with an error naming the file, never a panic: the inputs
//! here are fuzzing's findings (`experiments/fuzzing/README.md`).

use std::path::Path;

/// A games table whose list offsets a mutation broke: the Arrow decoder panicked on it.
#[test]
fn a_games_table_with_broken_offsets_is_refused_as_damaged() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/damaged-offsets.parquet");
    let e = pjlab_selfplay::read_games(&path).unwrap_err().to_string();
    assert!(
        e.contains("damaged Parquet file") && e.contains("damaged-offsets.parquet"),
        "{e}"
    );
    // Nor does the positions reader panic on it.
    assert!(pjlab_selfplay::read_positions(&path).is_err());
}
