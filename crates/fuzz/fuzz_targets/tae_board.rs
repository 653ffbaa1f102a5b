#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| arbiter_fuzz_targets::tae_board(data));
