//! Fuzzes engines.toml: the body is `fuzzing::engines_toml`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::engines_toml(data));
