//! Helpers shared by the conformance tests: where the reference vectors live and how to read
//! them.
//!
//! The vectors are read from `../shared/vectors` beside the repository (override with the
//! `PJLAB_VECTORS` environment variable). A missing folder fails the tests loudly rather than
//! skipping them.

use std::path::PathBuf;

/// The folder holding the reference vectors.
pub fn vectors_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("PJLAB_VECTORS") {
        return PathBuf::from(dir);
    }
    // `shared/vectors` beside the checkout that holds the package cargo is testing (it names
    // that package's folder when it runs the tests); the path compiled in is the fallback (a
    // test binary reused from a build cache may have been compiled in another checkout).
    let running = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from);
    let beside = running.as_deref().and_then(|dir| {
        dir.ancestors()
            .map(|a| a.join("../shared/vectors"))
            .find(|v| v.is_dir())
    });
    beside.unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/vectors"))
}

/// The folder of the package whose tests are running.
///
/// Cargo names that folder in `CARGO_MANIFEST_DIR` when it runs a test binary; `compiled` (the
/// caller's `env!("CARGO_MANIFEST_DIR")`) is the fallback for a binary run by hand. The path
/// compiled in is not enough on its own: a test binary reused from a build cache shared by two
/// checkouts may have been compiled in the other one, and would read that checkout's files.
pub fn package_dir(compiled: &str) -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(compiled))
}

/// Reads a vector file, panicking with its path when it is missing.
pub fn read_vector(relative: &str) -> String {
    let path = vectors_dir().join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read reference vector {}: {e} (set PJLAB_VECTORS to the shared/vectors folder)",
            path.display()
        )
    })
}

/// Parses a count written with thousands separators (`1,181,445,032`).
pub fn parse_count(text: &str) -> u64 {
    text.trim()
        .replace(',', "")
        .parse()
        .unwrap_or_else(|_| panic!("not a count: {text:?}"))
}
