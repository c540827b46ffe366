//! Fuzzes CalDAV's multistatus XML: the body is `fuzzing::caldav`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::caldav(data));
