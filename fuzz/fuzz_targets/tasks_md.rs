//! Fuzzes tasks.md: the body is `fuzzing::tasks_md`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::tasks_md(data));
