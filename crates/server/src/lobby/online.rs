//! Which connections each logged-in account has on this node, so that something the
//! lobby starts on its own (a tournament's next pairing) can reach the player the way a
//! queue's match does: `match_started` on a connection, and the seat attached there.

use std::collections::HashMap;

use arbiter_store::AccountId;
use parking_lot::Mutex;

use crate::connection::{ConnId, Outbox};

/// Logged-in connections by account, most recent last.
#[derive(Default)]
pub struct Online {
    by_account: Mutex<HashMap<AccountId, Vec<Outbox>>>,
}

impl Online {
    /// `outbox` is logged in as `account`.
    pub fn logged_in(&self, account: AccountId, outbox: &Outbox) {
        let mut by_account = self.by_account.lock();
        let outboxes = by_account.entry(account).or_default();
        outboxes.retain(|o| o.conn() != outbox.conn() && !o.is_closed());
        outboxes.push(outbox.clone());
    }

    /// The connection `conn` of `account` is gone.
    pub fn left(&self, account: AccountId, conn: ConnId) {
        let mut by_account = self.by_account.lock();
        if let Some(outboxes) = by_account.get_mut(&account) {
            outboxes.retain(|o| o.conn() != conn && !o.is_closed());
            if outboxes.is_empty() {
                by_account.remove(&account);
            }
        }
    }

    /// The account's most recent open connection, if it has one here.
    pub fn latest(&self, account: AccountId) -> Option<Outbox> {
        self.by_account
            .lock()
            .get(&account)?
            .iter()
            .rev()
            .find(|o| !o.is_closed())
            .cloned()
    }

    /// Accounts with a connection here now.
    pub fn count(&self) -> usize {
        self.by_account.lock().len()
    }
}
