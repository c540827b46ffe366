//! Fuzzes a WebDAV server's PROPFIND multistatus answer: the body is `fuzzing::webdav`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::webdav(data));
