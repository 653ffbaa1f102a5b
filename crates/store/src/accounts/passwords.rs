//! Argon2id password hashes (PHC strings with a random salt). Hashing is deliberately
//! slow, so it runs on tokio's blocking pool, a few at a time.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use std::sync::OnceLock;

use crate::connect::Store;
use crate::error::StoreError;

/// Longer passwords are refused: hashing cost grows with length and nobody needs more.
pub const MAX_PASSWORD_LEN: usize = 1024;

/// Refuse passwords that cannot be registered.
pub(crate) fn check(password: &str) -> Result<(), StoreError> {
    if password.is_empty() {
        return Err(StoreError::WeakPassword);
    }
    if password.len() > MAX_PASSWORD_LEN {
        return Err(StoreError::PasswordTooLong {
            max: MAX_PASSWORD_LEN,
        });
    }
    Ok(())
}

/// Argon2id with the crate's defaults (v19, m = 19 MiB, t = 2, p = 1: OWASP's minimum).
fn hash(password: &str) -> Result<String, StoreError> {
    let salt = SaltString::encode_b64(&rand::random::<[u8; 16]>())
        .map_err(|e| StoreError::Hashing(e.to_string()))?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| StoreError::Hashing(e.to_string()))
}

fn verify(password: &str, stored: &str) -> Result<bool, StoreError> {
    let parsed = PasswordHash::new(stored)
        .map_err(|e| StoreError::Corrupt(format!("a stored password hash: {e}")))?;
    Ok(Argon2::default()
        .verify_password(password.as_bytes(), &parsed)
        .is_ok())
}

/// A hash of nothing anyone knows, verified against when the name is unknown so that
/// unknown names and wrong passwords cost the same.
fn decoy_hash() -> Result<&'static str, StoreError> {
    static DECOY: OnceLock<String> = OnceLock::new();
    if let Some(h) = DECOY.get() {
        return Ok(h);
    }
    let made = hash(&format!("{:032x}", rand::random::<u128>()))?;
    Ok(DECOY.get_or_init(|| made))
}

impl Store {
    pub(crate) async fn hash_password(&self, password: &str) -> Result<String, StoreError> {
        let password = password.to_string();
        self.on_hashing_pool(move || hash(&password)).await
    }

    /// True when `password` matches `stored`; with no stored hash (unknown name), does
    /// the same work against a decoy and answers false.
    pub(crate) async fn verify_password(
        &self,
        password: &str,
        stored: Option<String>,
    ) -> Result<bool, StoreError> {
        let password = password.to_string();
        self.on_hashing_pool(move || match stored {
            Some(stored) => verify(&password, &stored),
            None => verify(&password, decoy_hash()?).map(|_| false),
        })
        .await
    }

    async fn on_hashing_pool<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let _permit = self
            .hashing
            .acquire()
            .await
            .map_err(|e| StoreError::Hashing(e.to_string()))?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|e| StoreError::Hashing(e.to_string()))?
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_salted_argon2id_and_verify() {
        let a = hash("secret").expect("hash");
        let b = hash("secret").expect("hash");
        assert!(a.starts_with("$argon2id$v=19$"), "{a}");
        assert_ne!(a, b, "each hash has its own salt");
        assert!(verify("secret", &a).expect("verify"));
        assert!(!verify("Secret", &a).expect("verify"));
    }

    #[test]
    fn a_garbled_stored_hash_is_corruption_not_a_panic() {
        assert!(matches!(
            verify("x", "not a hash"),
            Err(StoreError::Corrupt(_))
        ));
    }

    #[test]
    fn empty_and_huge_passwords_are_refused() {
        assert!(matches!(check(""), Err(StoreError::WeakPassword)));
        assert!(matches!(
            check(&"x".repeat(MAX_PASSWORD_LEN + 1)),
            Err(StoreError::PasswordTooLong { .. })
        ));
        assert!(check("x").is_ok());
    }
}
