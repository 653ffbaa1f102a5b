//! Stable fingerprints of states and events, so a replay can prove it reached the same
//! game.

use serde::Serialize;
use sha2::{Digest, Sha256};

/// Hex SHA-256 (first 16 bytes) of a value's JSON serialization.
pub fn digest_of<T: Serialize + ?Sized>(value: &T) -> String {
    let bytes = serde_json::to_vec(value).unwrap_or_default();
    hex16(&Sha256::digest(&bytes))
}

/// The first 16 bytes of a hash, as lowercase hex.
pub fn hex16(hash: &[u8]) -> String {
    use std::fmt::Write;
    hash.iter()
        .take(16)
        .fold(String::with_capacity(32), |mut hex, b| {
            let _ = write!(hex, "{b:02x}");
            hex
        })
}
