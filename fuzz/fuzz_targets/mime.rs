//! Fuzzes a raw mail: the body is `fuzzing::mime`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::mime(data));
