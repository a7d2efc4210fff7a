//! File inputs: the learned evaluation's network file and the Parquet records of games and
//! positions, each written to a temporary file and read by the lab's own reader. A games table
//! that reads is written again and reads back to the same rows.

use std::path::Path;

use crate::Target;

/// A `.nnue` network file (JSON with its card).
pub(crate) const NNUE_FILE: Target = Target {
    name: "nnue_file",
    about: "a .nnue network file read by pjlab_nnue::file::load",
    run: |data| {
        let _ = with_file(data, "net.nnue", pjlab_nnue::file::load);
    },
    test_inputs: 3_000,
};

/// A games table (Parquet), and its round trip.
pub(crate) const GAMES_PARQUET: Target = Target {
    name: "games_parquet",
    about: "a games table (Parquet) read; what reads is written again and reads back equal",
    run: |data| {
        if let Some(Ok(rows)) = with_file(data, "games.parquet", pjlab_selfplay::read_games) {
            let dir = tempfile::tempdir().expect("a temporary directory");
            let path = dir.path().join("again.parquet");
            pjlab_selfplay::write_game_rows(&path, &rows, &[])
                .expect("rows that read can be written");
            let again = pjlab_selfplay::read_games(&path).expect("what was written reads");
            assert_eq!(rows, again);
        }
    },
    test_inputs: 1_000,
};

/// A positions table (Parquet).
pub(crate) const POSITIONS_PARQUET: Target = Target {
    name: "positions_parquet",
    about: "a positions table (Parquet) read by pjlab_selfplay::read_positions",
    run: |data| {
        let _ = with_file(data, "positions.parquet", pjlab_selfplay::read_positions);
    },
    test_inputs: 1_000,
};

/// Writes `data` to a temporary file called `name` and reads it with `read` (`None` if the
/// temporary file cannot be made: the machine's fault, not the input's).
fn with_file<T>(data: &[u8], name: &str, read: impl Fn(&Path) -> T) -> Option<T> {
    let dir = tempfile::tempdir().ok()?;
    let path = dir.path().join(name);
    std::fs::write(&path, data).ok()?;
    Some(read(&path))
}
