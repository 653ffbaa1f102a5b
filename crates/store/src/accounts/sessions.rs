//! Sessions: a random token stands for a logged-in account, so a web page stays signed
//! in across reloads without keeping the password. The token goes to the client once;
//! the store keeps only its SHA-256 (a token is 256 random bits, so a fast hash is
//! enough: there is nothing to guess, unlike a password).

use std::time::Duration;

use sha2::{Digest, Sha256};

use super::{Account, AccountId};
use crate::clock::now_ms;
use crate::connect::Store;
use crate::error::StoreError;

/// How long a session lasts after it is opened.
pub const SESSION_LIFETIME: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// A session token as given to the client: 64 lowercase hex digits. Its `Debug` hides
/// it, so it cannot reach a log by accident.
#[derive(Clone, PartialEq, Eq)]
pub struct SessionToken(String);

impl SessionToken {
    /// A token as a client sent it (after [`Store::resume_session`] accepted it).
    pub fn from_client(token: &str) -> SessionToken {
        SessionToken(token.to_ascii_lowercase())
    }

    /// The token's text, to send to its owner (and nowhere else).
    pub fn reveal(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for SessionToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SessionToken(…)")
    }
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut out, b| {
            let _ = write!(out, "{b:02x}");
            out
        })
}

fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

impl Store {
    /// Open a session for `account`: a fresh token, valid for [`SESSION_LIFETIME`].
    /// Expired sessions are swept here, so the table holds only live ones.
    pub async fn open_session(&self, account: AccountId) -> Result<SessionToken, StoreError> {
        let token = {
            use rand::RngCore;
            let mut bytes = [0u8; 32];
            // The thread RNG is a CSPRNG seeded from the operating system.
            rand::rng().fill_bytes(&mut bytes);
            hex(&bytes)
        };
        let now = now_ms();
        let lifetime = i64::try_from(SESSION_LIFETIME.as_millis()).unwrap_or(i64::MAX);
        sqlx::query("DELETE FROM sessions WHERE expires_at <= $1")
            .bind(now)
            .execute(&self.write)
            .await?;
        sqlx::query(
            "INSERT INTO sessions (token_hash, account_id, created_at, expires_at)
             VALUES ($1, $2, $3, $4)",
        )
        .bind(token_hash(&token))
        .bind(account)
        .bind(now)
        .bind(now.saturating_add(lifetime))
        .execute(&self.write)
        .await?;
        Ok(SessionToken(token))
    }

    /// The account a live session token stands for.
    pub async fn resume_session(&self, token: &str) -> Result<Account, StoreError> {
        // Anything not shaped like a token cannot be one; no need to ask the database.
        if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(StoreError::UnknownSession);
        }
        let row = sqlx::query(
            "SELECT accounts.id, accounts.name, accounts.created_at, accounts.is_bot
             FROM sessions JOIN accounts ON accounts.id = sessions.account_id
             WHERE sessions.token_hash = $1 AND sessions.expires_at > $2",
        )
        .bind(token_hash(&token.to_ascii_lowercase()))
        .bind(now_ms())
        .fetch_optional(&self.write)
        .await?;
        match row {
            Some(row) => Ok(Account::from_row(&row)?),
            None => Err(StoreError::UnknownSession),
        }
    }

    /// End a session (logging out): its token stops working at once, everywhere.
    pub async fn close_session(&self, token: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(token_hash(&token.to_ascii_lowercase()))
            .execute(&self.write)
            .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_never_prints() {
        let token = SessionToken("ab".repeat(32));
        assert_eq!(format!("{token:?}"), "SessionToken(…)");
    }

    #[test]
    fn the_stored_hash_is_sha256_hex() {
        // SHA-256 of the empty string, a well-known vector.
        assert_eq!(
            token_hash(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
