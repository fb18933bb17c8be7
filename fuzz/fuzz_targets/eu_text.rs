//! The `eu_text` fuzz target; its body is `farm::fuzz_targets::eu_text`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| farm::fuzz_targets::eu_text(data));
