//! Fuzzes an .xlsx, .ods or .csv file on a drive, read and edited: the body is `fuzzing::spreadsheet`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::spreadsheet(data));
