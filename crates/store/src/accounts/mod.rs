//! Accounts: register, log in, look up.

mod names;
mod passwords;
mod sessions;
mod throttle;

pub(crate) use throttle::LoginThrottle;

pub use names::MAX_NAME_LEN;
pub use passwords::MAX_PASSWORD_LEN;
pub use sessions::{SessionToken, SESSION_LIFETIME};

use serde::Serialize;
use sqlx::any::AnyRow;
use sqlx::Row;

use crate::clock::now_ms;
use crate::connect::Store;
use crate::error::{is_unique_violation, StoreError};

pub type AccountId = i64;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Account {
    pub id: AccountId,
    /// As registered (case kept); lookups ignore case.
    pub name: String,
    /// Unix milliseconds, written as RFC 3339 text.
    #[serde(serialize_with = "crate::clock::rfc3339::serialize")]
    pub created_at: i64,
    /// A program rather than a person, as it said when it registered: what a
    /// tournament's entry rule (people, bots or both) judges.
    pub bot: bool,
}

/// The columns [`Account::from_row`] reads (of `accounts`, unqualified).
const ACCOUNT_COLUMNS: &str = "id, name, created_at, is_bot";

impl Account {
    pub(crate) fn from_row(row: &AnyRow) -> Result<Account, sqlx::Error> {
        Ok(Account {
            id: row.try_get("id")?,
            name: row.try_get("name")?,
            created_at: row.try_get("created_at")?,
            bot: row.try_get::<i64, _>("is_bot")? != 0,
        })
    }
}

impl Store {
    /// Say whether a program plays `account` (its kind, as [`Account::bot`]): for an
    /// account made before accounts had a kind, or one that changed hands. The kind is
    /// the account's own word either way, as at registration.
    pub async fn set_account_bot(&self, account: AccountId, bot: bool) -> Result<(), StoreError> {
        sqlx::query("UPDATE accounts SET is_bot = $1 WHERE id = $2")
            .bind(i64::from(bot))
            .bind(account)
            .execute(&self.write)
            .await?;
        Ok(())
    }

    /// Create a person's account. The password is stored only as an Argon2id hash.
    pub async fn register(&self, name: &str, password: &str) -> Result<Account, StoreError> {
        self.register_as(name, password, false).await
    }

    /// Create an account, a bot's (`bot`) or a person's; otherwise as [`Store::register`].
    pub async fn register_as(
        &self,
        name: &str,
        password: &str,
        bot: bool,
    ) -> Result<Account, StoreError> {
        names::validate(name)?;
        passwords::check(password)?;
        // Fail fast before the costly hash; the unique index settles races.
        if self.account_by_name(name).await?.is_some() {
            return Err(StoreError::NameTaken(name.to_string()));
        }
        let hash = self.hash_password(password).await?;
        self.insert_account(name, &hash, bot).await
    }

    /// The account of `player` on the compatibility port `port` (`qgame:ann`), created
    /// on first use. Its password is random and never shown: such a protocol has no
    /// passwords, so nobody logs in to these accounts, and no native name can be one.
    pub async fn port_account(&self, port: &str, player: &str) -> Result<Account, StoreError> {
        let name = names::port_account_name(port, player)?;
        if let Some(account) = self.account_by_name(&name).await? {
            return Ok(account);
        }
        let secret: String = {
            use rand::distr::{Alphanumeric, SampleString};
            Alphanumeric.sample_string(&mut rand::rng(), 32)
        };
        let hash = self.hash_password(&secret).await?;
        match self.insert_account(&name, &hash, false).await {
            // Another game signed the same player up a moment ago.
            Err(StoreError::NameTaken(_)) => self
                .account_by_name(&name)
                .await?
                .ok_or(StoreError::NameTaken(name)),
            other => other,
        }
    }

    async fn insert_account(
        &self,
        name: &str,
        hash: &str,
        bot: bool,
    ) -> Result<Account, StoreError> {
        let created_at = now_ms();
        // `fetch_all`, not `fetch_one`: SQLite hands out a RETURNING row before the
        // statement's own commit, and a commit that then fails (a full disk) is only
        // reported to a caller that runs the statement to its end. With `fetch_one` the
        // account came back with an id although it was never stored.
        let rows = sqlx::query(
            "INSERT INTO accounts (name, name_key, password_hash, created_at, is_bot)
             VALUES ($1, $2, $3, $4, $5) RETURNING id",
        )
        .bind(name)
        .bind(names::key(name))
        .bind(hash)
        .bind(created_at)
        .bind(i64::from(bot))
        .fetch_all(&self.write)
        .await
        .map_err(|e| {
            if is_unique_violation(&e) {
                StoreError::NameTaken(name.to_string())
            } else {
                e.into()
            }
        })?;
        let row = rows
            .into_iter()
            .next()
            .ok_or_else(|| StoreError::Corrupt("an insert returned no account id".into()))?;
        Ok(Account {
            id: row.try_get("id")?,
            name: name.to_string(),
            created_at,
            bot,
        })
    }

    /// Check a name and password. Unknown names and wrong passwords give the same
    /// [`StoreError::BadCredentials`] after the same amount of hashing work. Throttled
    /// per account (see [`Store::login_from`] for the address too).
    pub async fn login(&self, name: &str, password: &str) -> Result<Account, StoreError> {
        self.login_from(name, password, None).await
    }

    /// [`Store::login`] from a client at `address`: failures count against the account
    /// and the address, and past a few of either, attempts are refused with
    /// [`StoreError::Throttled`] (and a time to retry) before any hashing.
    pub async fn login_from(
        &self,
        name: &str,
        password: &str,
        address: Option<std::net::IpAddr>,
    ) -> Result<Account, StoreError> {
        // Names that cannot exist share one key, so the throttle's memory stays bounded
        // by the name rules, whatever a client sends.
        let key = match names::validate_lookup(name) {
            Ok(()) => names::key(name),
            Err(_) => String::new(),
        };
        self.throttle
            .check(&key, address)
            .map_err(|retry_after| StoreError::Throttled { retry_after })?;
        match self.check_password(name, password).await {
            Ok(account) => {
                self.throttle.succeeded(&key);
                Ok(account)
            }
            Err(StoreError::BadCredentials) => {
                self.throttle.failed(&key, address);
                Err(StoreError::BadCredentials)
            }
            Err(other) => Err(other),
        }
    }

    /// Whether a login of `name` from `address` would be refused as throttled now,
    /// without counting an attempt: for a door that registers unknown names, so that an
    /// address which is guessing cannot register either.
    pub fn check_throttle(
        &self,
        name: &str,
        address: Option<std::net::IpAddr>,
    ) -> Result<(), StoreError> {
        let key = match names::validate_lookup(name) {
            Ok(()) => names::key(name),
            Err(_) => String::new(),
        };
        self.throttle
            .check(&key, address)
            .map_err(|retry_after| StoreError::Throttled { retry_after })
    }

    async fn check_password(&self, name: &str, password: &str) -> Result<Account, StoreError> {
        if password.is_empty() || password.len() > MAX_PASSWORD_LEN {
            return Err(StoreError::BadCredentials);
        }
        let row = if names::validate(name).is_ok() {
            sqlx::query(&format!(
                "SELECT {ACCOUNT_COLUMNS}, password_hash FROM accounts WHERE name_key = $1"
            ))
            .bind(names::key(name))
            .fetch_optional(&self.read)
            .await?
        } else {
            None
        };
        let (account, stored) = match &row {
            Some(row) => (
                Some(Account::from_row(row)?),
                Some(row.try_get::<String, _>("password_hash")?),
            ),
            None => (None, None),
        };
        match (self.verify_password(password, stored).await?, account) {
            (true, Some(account)) => Ok(account),
            _ => Err(StoreError::BadCredentials),
        }
    }

    /// The account with this name (any case), if there is one.
    pub async fn account_by_name(&self, name: &str) -> Result<Option<Account>, StoreError> {
        if names::validate_lookup(name).is_err() {
            return Ok(None);
        }
        let row = sqlx::query(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_key = $1"
        ))
        .bind(names::key(name))
        .fetch_optional(&self.read)
        .await?;
        Ok(row.as_ref().map(Account::from_row).transpose()?)
    }

    pub async fn account_by_id(&self, id: AccountId) -> Result<Option<Account>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.read)
        .await?;
        Ok(row.as_ref().map(Account::from_row).transpose()?)
    }
}
