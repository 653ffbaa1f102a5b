//! A quick hasher for map cells. The rules look cells up dozens of times per decision,
//! and std's SipHash costs more than the rest of such a lookup. Keyed once per process,
//! so that whoever sends a map (a course referee, a `state0`) cannot work out in advance
//! which cells collide; not a cryptographic guarantee, as SipHash's would be. Nothing
//! depends on the resulting table order: the map lists its tiles sorted.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::OnceLock;

/// An odd 64-bit constant with well-spread bits (the fractional part of π).
const MULTIPLIER: u64 = 0x243f_6a88_85a3_08d3;

/// Builds [`CellHasher`]s with this process's key.
#[derive(Debug, Clone, Copy)]
pub struct CellHashing {
    key: u64,
}

impl Default for CellHashing {
    fn default() -> Self {
        static KEY: OnceLock<u64> = OnceLock::new();
        let key = *KEY.get_or_init(|| RandomState::new().hash_one(MULTIPLIER));
        CellHashing { key }
    }
}

impl BuildHasher for CellHashing {
    type Hasher = CellHasher;

    fn build_hasher(&self) -> CellHasher {
        CellHasher { state: self.key }
    }
}

/// Made for a `Coord`'s two `i32`s: they are packed into one word with the key (no
/// information lost) and mixed by two rounds of a 64×64→128-bit multiply folded to 64
/// bits. One round leaves some keys with nearby cells crowding a few buckets.
pub struct CellHasher {
    state: u64,
}

impl Hasher for CellHasher {
    fn write_i32(&mut self, value: i32) {
        self.state = self.state.rotate_left(32) ^ u64::from(value as u32);
    }

    /// Any other key: byte by byte, each mixed in fully.
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.state = fold_multiply(self.state ^ u64::from(byte));
        }
    }

    fn finish(&self) -> u64 {
        fold_multiply(fold_multiply(self.state))
    }
}

/// Mixes `value`: the 128-bit product with an odd constant, its halves folded together
/// so that high and low input bits both reach the low output bits.
fn fold_multiply(value: u64) -> u64 {
    let product = u128::from(value) * u128::from(MULTIPLIER);
    (product as u64) ^ ((product >> 64) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coord::Coord;
    use std::collections::HashSet;

    /// The low bits pick the bucket: neighbouring cells must spread over them as
    /// random values would (1024 of them hit about 647 of 1024 buckets), whatever the
    /// key.
    #[test]
    fn nearby_cells_spread_over_the_low_bits() {
        for key in (0..2000u64).map(|i| fold_multiply(i) ^ i) {
            let hashing = CellHashing { key };
            let buckets: HashSet<u64> = (-16..16)
                .flat_map(|row| (-16..16).map(move |column| Coord::new(row, column)))
                .map(|at| hashing.hash_one(at) & 1023)
                .collect();
            assert!(
                buckets.len() > 580,
                "key {key:#x}: {} buckets",
                buckets.len()
            );
        }
    }
}
