#![no_main]
//! cargo-fuzz binary of the `positions_parquet` target (`pjlab_fuzz`'s docs say what it checks).
libfuzzer_sys::fuzz_target!(|data: &[u8]| pjlab_fuzz::run("positions_parquet", data));
