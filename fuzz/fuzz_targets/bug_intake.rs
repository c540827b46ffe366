//! Fuzzes a bug report: the body is `fuzzing::bug_intake`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::bug_intake(data));
