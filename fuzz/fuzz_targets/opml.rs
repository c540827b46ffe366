//! Fuzzes an imported OPML file: the body is `fuzzing::opml`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::opml(data));
