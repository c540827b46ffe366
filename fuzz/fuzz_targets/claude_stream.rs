//! Fuzzes Claude Code's stream-json: the body is `fuzzing::claude_stream`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::claude_stream(data));
