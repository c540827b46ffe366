//! Fuzzes runners.toml: the body is `fuzzing::runners_toml`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::runners_toml(data));
