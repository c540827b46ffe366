//! Fuzzes Codex's JSONL: the body is `fuzzing::codex_stream`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::codex_stream(data));
