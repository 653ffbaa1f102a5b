//! Every fuzz target's body over its seed inputs, over those inputs cut and with bytes
//! flipped, and over random bytes: on the stable toolchain, in every test run. The
//! long runs are cargo-fuzz's (`crates/fuzz`, figures in docs/reliability.md).

use arbiter_fuzz_targets::seeds::seeds;
use arbiter_fuzz_targets::TARGETS;
use proptest::prelude::*;

/// Each target has seeds to start from, and none of them breaks it.
#[test]
fn every_target_takes_its_seeds() {
    for (name, body) in TARGETS {
        let seeds = seeds(name);
        assert!(!seeds.is_empty(), "{name} has no seed inputs");
        for seed in &seeds {
            body(seed);
        }
    }
}

/// The seeds, cut at 200 lengths and with one byte changed at
/// each of 64 places: the malformed inputs a careless client sends.
#[test]
fn every_target_takes_its_seeds_cut_and_flipped() {
    for (name, body) in TARGETS {
        for seed in seeds(name) {
            let step = (seed.len() / 200).max(1);
            for end in (0..seed.len()).step_by(step) {
                body(&seed[..end]);
            }
            let stride = (seed.len() / 64).max(1);
            for at in (0..seed.len()).step_by(stride) {
                let mut flipped = seed.clone();
                flipped[at] ^= 0x5a;
                body(&flipped);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_target_takes_random_bytes(data in proptest::collection::vec(any::<u8>(), 0..512)) {
        for (_, body) in TARGETS {
            body(&data);
        }
    }

    /// Random bytes after a seed's first line: inside the format, then off it.
    #[test]
    fn every_target_takes_a_seed_with_random_bytes_after(
        pick in any::<usize>(),
        tail in proptest::collection::vec(any::<u8>(), 0..256),
    ) {
        for (name, body) in TARGETS {
            let seeds = seeds(name);
            let seed = &seeds[pick % seeds.len()];
            let head = seed.iter().position(|&b| b == b'\n').map_or(seed.len(), |at| at + 1);
            body(&[&seed[..head], &tail[..]].concat());
        }
    }
}
