//! `login user pass` against the server's own accounts (Argon2id hashes in the store,
//! shared with the native protocol), with the reference's account creation on first use
//! when the operator allows it, and the reference's one-connection-per-account rule.

use parking_lot::Mutex;
use std::collections::HashSet;

use arbiter_store::{Account, AccountId, Store, StoreError};

use crate::replies;

/// Why a login failed, with the line to answer. The connection closes after either.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoginRefused {
    /// Wrong password, unknown name with creation off, or a name or password the
    /// store cannot hold: `invalid login`.
    Invalid,
    /// The store failed (a server fault).
    Unavailable,
    /// Too many failed logins for the name or from the address (ours).
    Throttled,
}

impl LoginRefused {
    pub fn reply(&self) -> &'static str {
        match self {
            LoginRefused::Invalid => replies::INVALID_LOGIN,
            LoginRefused::Unavailable => replies::LOGIN_UNAVAILABLE,
            LoginRefused::Throttled => replies::LOGIN_THROTTLED,
        }
    }
}

/// Check `username`/`password`; with `create`, an unknown name is registered with that
/// password (the reference's `ALLOW_ACCOUNT_CREATION`). Names follow the store's rules
/// (letters, digits, `_`, `-`, at most 32), stricter than the reference's 100 characters
/// of anything quotable: other names get `invalid login`.
///
/// A new name is registered without first failing a login: a failed login counts
/// against the client's address, and a class whose bots all sign up from one address
/// would otherwise be throttled after thirty. An address that is throttled (guessing
/// passwords) cannot register either.
pub async fn login(
    store: &Store,
    username: &str,
    password: &str,
    create: bool,
    from: Option<std::net::IpAddr>,
) -> Result<Account, LoginRefused> {
    if create {
        if let Some(account) = register_if_new(store, username, password, from).await? {
            return Ok(account);
        }
    }
    store
        .login_from(username, password, from)
        .await
        .map_err(|error| match error {
            StoreError::BadCredentials => LoginRefused::Invalid,
            StoreError::Throttled { .. } => LoginRefused::Throttled,
            other => fault(other),
        })
}

/// Register `username` when no account has it; `None` when one has (its password
/// decides, someone registered it meanwhile included).
async fn register_if_new(
    store: &Store,
    username: &str,
    password: &str,
    from: Option<std::net::IpAddr>,
) -> Result<Option<Account>, LoginRefused> {
    match store.account_by_name(username).await {
        Ok(Some(_)) => return Ok(None),
        Ok(None) => {}
        Err(error) => return Err(fault(error)),
    }
    if let Err(StoreError::Throttled { .. }) = store.check_throttle(username, from) {
        return Err(LoginRefused::Throttled);
    }
    match store.register(username, password).await {
        Ok(account) => Ok(Some(account)),
        Err(StoreError::NameTaken(_)) => Ok(None),
        Err(error) => Err(fault(error)),
    }
}

fn fault(error: StoreError) -> LoginRefused {
    if error.is_caller_error() {
        LoginRefused::Invalid
    } else {
        tracing::error!(%error, "spacegoo login failed in the store");
        LoginRefused::Unavailable
    }
}

/// Accounts logged in on this port now.
#[derive(Debug, Default)]
pub struct Online {
    accounts: Mutex<HashSet<AccountId>>,
}

impl Online {
    /// Mark `account` online; false when it already is.
    pub fn enter(&self, account: AccountId) -> bool {
        self.accounts.lock().insert(account)
    }

    pub fn leave(&self, account: AccountId) {
        self.accounts.lock().remove(&account);
    }
}
