//! Stable fingerprints of states and events, so a replay can prove it reached the same
//! game.

use serde::Serialize;
use sha2::{Digest, Sha256};

/// Hex SHA-256 (first 16 bytes) of a value's JSON serialization.
pub fn digest_of<T: Serialize + ?Sized>(value: &T) -> String {
    let bytes = serde_json::to_vec(value).unwrap_or_default();
    hex16(&Sha256::digest(&bytes))
}

/// The first 16 bytes of a hash, as lowercase hex. Written from a table rather than
/// with `write!("{:02x}")`: formatting each byte was a sixth of a recorded Space Crack
/// game (two digests an entry).
pub fn hex16(hash: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut hex = String::with_capacity(32);
    for &b in hash.iter().take(16) {
        hex.push(char::from(DIGITS[usize::from(b >> 4)]));
        hex.push(char::from(DIGITS[usize::from(b & 0x0f)]));
    }
    hex
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SHA-256("abc") from FIPS 180-2, cut to its first 16 bytes.
    #[test]
    fn hex16_is_the_first_sixteen_bytes_in_lowercase_hex() {
        assert_eq!(
            hex16(&Sha256::digest(b"abc")),
            "ba7816bf8f01cfea414140de5dae2223"
        );
        assert_eq!(hex16(&[0x00, 0x0f, 0xf0, 0xff]), "000ff0ff");
    }
}
