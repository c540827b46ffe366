//! Fuzzes a setting's value: the body is `fuzzing::setting_value`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::setting_value(data));
