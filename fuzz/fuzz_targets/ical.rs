//! Fuzzes iCalendar text and its recurrences: the body is `fuzzing::ical`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::ical(data));
