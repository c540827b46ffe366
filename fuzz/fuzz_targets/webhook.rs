//! Fuzzes a webhook delivery: the body is `fuzzing::webhook`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::webhook(data));
