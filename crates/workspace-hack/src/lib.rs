//! No code: this crate's manifest lists the features of shared dependencies that every build of
//! the lab must agree on (see its `Cargo.toml`), so that the workspace's tests, the binary built
//! alone and the Python package built alone by maturin reuse one compilation of Burn, tract and
//! parquet.
