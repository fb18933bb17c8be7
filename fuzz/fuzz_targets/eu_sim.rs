//! The `eu_sim` fuzz target; its body is `farm::fuzz_targets::eu_sim`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| farm::fuzz_targets::eu_sim(data));
