//! Fuzzes an SMS gateway's webhook body: the body is `fuzzing::sms_webhook`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::sms_webhook(data));
