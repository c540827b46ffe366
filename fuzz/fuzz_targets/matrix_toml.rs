//! Fuzzes matrix.toml: the body is `fuzzing::matrix_toml`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::matrix_toml(data));
