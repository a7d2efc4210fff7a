#![no_main]
//! cargo-fuzz binary of the `agent_spec` target (`pjlab_fuzz`'s docs say what it checks).
libfuzzer_sys::fuzz_target!(|data: &[u8]| pjlab_fuzz::run("agent_spec", data));
