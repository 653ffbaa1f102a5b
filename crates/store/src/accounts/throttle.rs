//! Login throttling: failed logins are counted per account and per address, and past a
//! few free tries each further one must wait, twice as long each time (capped). A
//! throttled attempt is refused before any password hashing, so a guessing run costs
//! the server almost nothing and cannot crowd honest logins out of the hashing pool.
//!
//! Every door that logs in (the native protocol, HTTP Basic, the spacegoo port) goes
//! through [`crate::Store::login_from`], so one throttle covers them all. It is kept in
//! memory: a restart forgets it, which costs an attacker a restart it cannot cause.

use parking_lot::Mutex;
use std::collections::HashMap;
use std::net::IpAddr;
use std::time::Duration;

use tokio::time::Instant;

/// Failures an account may have before it is throttled.
const ACCOUNT_FREE: u32 = 5;
/// Failures an address may have before it is throttled (higher: a classroom or a club
/// shares one address).
const ADDRESS_FREE: u32 = 30;
/// The first wait, doubled for every further failure.
const FIRST_WAIT: Duration = Duration::from_secs(1);
/// The longest wait.
const MAX_WAIT: Duration = Duration::from_secs(300);
/// Failures older than this are forgotten.
const FORGET_AFTER: Duration = Duration::from_secs(15 * 60);
/// At most this many names and addresses are tracked (a bound on memory).
const MAX_TRACKED: usize = 100_000;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key {
    Account(String),
    Address(IpAddr),
}

#[derive(Debug, Clone, Copy)]
struct Failures {
    count: u32,
    last: Instant,
    /// No attempt is heard before this.
    locked_until: Instant,
}

#[derive(Debug, Default)]
pub(crate) struct LoginThrottle {
    failures: Mutex<HashMap<Key, Failures>>,
}

impl LoginThrottle {
    /// `Err(wait)` when the account (by its name key) or the address must wait.
    pub(crate) fn check(&self, account: &str, address: Option<IpAddr>) -> Result<(), Duration> {
        let now = Instant::now();
        let failures = self.failures.lock();
        let wait = keys(account, address)
            .filter_map(|key| failures.get(&key))
            .map(|f| f.locked_until.saturating_duration_since(now))
            .max()
            .unwrap_or_default();
        if wait.is_zero() {
            Ok(())
        } else {
            Err(wait)
        }
    }

    /// A wrong password (or unknown name) for `account` from `address`.
    pub(crate) fn failed(&self, account: &str, address: Option<IpAddr>) {
        let now = Instant::now();
        let mut failures = self.failures.lock();
        if failures.len() >= MAX_TRACKED {
            failures.retain(|_, f| now.saturating_duration_since(f.last) < FORGET_AFTER);
        }
        for key in keys(account, address) {
            if failures.len() >= MAX_TRACKED && !failures.contains_key(&key) {
                continue;
            }
            let free = match key {
                Key::Account(_) => ACCOUNT_FREE,
                Key::Address(_) => ADDRESS_FREE,
            };
            let entry = failures.entry(key).or_insert(Failures {
                count: 0,
                last: now,
                locked_until: now,
            });
            if now.saturating_duration_since(entry.last) >= FORGET_AFTER {
                entry.count = 0;
            }
            entry.count += 1;
            entry.last = now;
            if entry.count > free {
                let doublings = (entry.count - free - 1).min(16);
                let wait = FIRST_WAIT.saturating_mul(1 << doublings).min(MAX_WAIT);
                entry.locked_until = now + wait;
            }
        }
    }

    /// A successful login clears the account's failures (not the address's: one good
    /// password does not vouch for everyone behind an address).
    pub(crate) fn succeeded(&self, account: &str) {
        self.failures
            .lock()
            .remove(&Key::Account(account.to_string()));
    }
}

fn keys(account: &str, address: Option<IpAddr>) -> impl Iterator<Item = Key> {
    std::iter::once(Key::Account(account.to_string())).chain(address.map(Key::Address))
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOME: Option<IpAddr> = Some(IpAddr::V4(std::net::Ipv4Addr::LOCALHOST));

    #[tokio::test(start_paused = true)]
    async fn a_few_free_failures_then_doubling_waits_then_forgotten() {
        let throttle = LoginThrottle::default();
        for _ in 0..ACCOUNT_FREE {
            assert!(throttle.check("ann", HOME).is_ok());
            throttle.failed("ann", HOME);
        }
        assert!(throttle.check("ann", HOME).is_ok(), "five tries are free");
        throttle.failed("ann", HOME);
        assert_eq!(throttle.check("ann", HOME), Err(FIRST_WAIT));
        // Another address is throttled for this account too; another account is not.
        assert!(throttle.check("ann", None).is_err());
        assert!(throttle.check("bob", HOME).is_ok());
        tokio::time::advance(FIRST_WAIT).await;
        assert!(throttle.check("ann", HOME).is_ok());
        throttle.failed("ann", HOME);
        assert_eq!(throttle.check("ann", HOME), Err(FIRST_WAIT * 2));
        tokio::time::advance(FORGET_AFTER).await;
        throttle.failed("ann", HOME);
        assert!(
            throttle.check("ann", HOME).is_ok(),
            "old failures are forgotten"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn an_address_guessing_many_names_is_throttled() {
        let throttle = LoginThrottle::default();
        for n in 0..=ADDRESS_FREE {
            throttle.failed(&format!("name{n}"), HOME);
        }
        let wait = throttle.check("someone-new", HOME).unwrap_err();
        assert_eq!(wait, FIRST_WAIT);
        assert!(throttle.check("someone-new", None).is_ok());
    }

    #[tokio::test(start_paused = true)]
    async fn success_clears_the_account_and_waits_are_capped() {
        let throttle = LoginThrottle::default();
        for _ in 0..100 {
            throttle.failed("ann", None);
        }
        assert_eq!(throttle.check("ann", None), Err(MAX_WAIT));
        throttle.succeeded("ann");
        assert!(throttle.check("ann", None).is_ok());
    }
}
