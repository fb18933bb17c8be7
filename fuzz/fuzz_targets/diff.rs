//! The `diff` fuzz target; its body is `farm::fuzz_targets::diff`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| farm::fuzz_targets::diff(data));
