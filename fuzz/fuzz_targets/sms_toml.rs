//! Fuzzes sms.toml: the body is `fuzzing::sms_toml`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::sms_toml(data));
