//! Fuzzes the runner protocol's frames: the body is `fuzzing::runner_frames`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::runner_frames(data));
