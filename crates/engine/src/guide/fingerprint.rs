//! A 64-bit key per (seat, action), so a tree node finds the child for an action in
//! one lookup even when `legal` lists hundreds of them in a different order each time.

use std::hash::Hasher;
use std::io;

use crate::game::Seat;
use serde::Serialize;

/// FNV-1a over bytes: stable across runs and platforms, and fast on the short JSON of
/// an action.
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

impl io::Write for Fnv {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        Hasher::write(self, bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The key of `seat` playing `action`. Equal actions always get equal keys; the tree
/// still compares actions on a key match, so a collision cannot merge two moves.
pub fn fingerprint<A: Serialize>(seat: Seat, action: &A) -> u64 {
    let mut hasher = Fnv(0xcbf2_9ce4_8422_2325);
    hasher.write_u64(seat as u64);
    // Serializing into a hasher cannot fail on I/O; an action that refuses to
    // serialize keeps the seat-only key and is told apart by comparison.
    let _ = serde_json::to_writer(&mut hasher, action);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_actions_share_a_key_and_seats_do_not() {
        assert_eq!(fingerprint(0, &("send", 3)), fingerprint(0, &("send", 3)));
        assert_ne!(fingerprint(0, &("send", 3)), fingerprint(0, &("send", 4)));
        assert_ne!(fingerprint(0, &("send", 3)), fingerprint(1, &("send", 3)));
    }
}
