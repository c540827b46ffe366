//! Fuzzes a device's push subscription as its browser posts it: the body is `fuzzing::push_subscription`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::push_subscription(data));
