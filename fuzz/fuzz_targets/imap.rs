//! Fuzzes an IMAP server's replies: the body is `fuzzing::imap`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::imap(data));
