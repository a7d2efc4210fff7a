#![no_main]
//! cargo-fuzz binary of the `ugi_session` target (`pjlab_fuzz`'s docs say what it checks).
libfuzzer_sys::fuzz_target!(|data: &[u8]| pjlab_fuzz::run("ugi_session", data));
