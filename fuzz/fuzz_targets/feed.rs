//! Fuzzes an RSS, Atom or JSON feed: the body is `fuzzing::feed`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::feed(data));
