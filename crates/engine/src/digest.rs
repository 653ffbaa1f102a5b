//! Stable fingerprints of states, so a replay can prove it reached the same states.

use serde::Serialize;
use sha2::{Digest, Sha256};

/// Hex SHA-256 (first 16 bytes) of a value's JSON serialization.
pub fn digest_of<T: Serialize + ?Sized>(value: &T) -> String {
    let bytes = serde_json::to_vec(value).unwrap_or_default();
    let hash = Sha256::digest(&bytes);
    hash[..16].iter().map(|b| format!("{b:02x}")).collect()
}
