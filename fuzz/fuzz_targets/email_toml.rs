//! Fuzzes email.toml: the body is `fuzzing::email_toml`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::email_toml(data));
