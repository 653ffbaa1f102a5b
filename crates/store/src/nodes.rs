//! Servers sharing one database (a PostgreSQL deployment of several nodes). Each node
//! writes a heartbeat; a node whose heartbeat is older than the lease has died (or lost
//! the database), and any live node ends that node's running matches as aborted, their
//! logs kept, as a restart of the node itself would (`abort_unfinished`).
//!
//! Safe against a node that is only slow or cut off: the store's guards accept log
//! entries and outcomes only for a running match, so once its matches are marked
//! aborted, such a node can write nothing more to them, and its own writers end them.

use std::time::Duration;

use crate::clock::now_ms;
use crate::connect::Store;
use crate::error::StoreError;

/// The reason stored for a match whose server stopped answering.
pub const ABORTED_BY_SILENT_NODE: &str =
    "its server stopped answering; another server of the deployment ended it";

impl Store {
    /// Record that this node is alive now.
    pub async fn heartbeat(&self) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO nodes (name, heartbeat_at) VALUES ($1, $2)
             ON CONFLICT (name) DO UPDATE SET heartbeat_at = excluded.heartbeat_at",
        )
        .bind(&*self.node)
        .bind(now_ms())
        .execute(&self.write)
        .await?;
        Ok(())
    }

    /// Mark aborted every running match of another node whose latest heartbeat is older
    /// than `lease`. Returns how many. Nodes that never wrote a heartbeat are left
    /// alone: nothing says whether they live.
    pub async fn abort_matches_of_silent_nodes(&self, lease: Duration) -> Result<u64, StoreError> {
        let now = now_ms();
        let stale_before = now.saturating_sub(i64::try_from(lease.as_millis()).unwrap_or(i64::MAX));
        let done = sqlx::query(
            "UPDATE matches SET status = 'aborted', end_reason = $3, finished_at = $4
             WHERE status = 'running' AND node <> $1
               AND node IN (SELECT name FROM nodes WHERE heartbeat_at <= $2)",
        )
        .bind(&*self.node)
        .bind(stale_before)
        .bind(ABORTED_BY_SILENT_NODE)
        .bind(now)
        .execute(&self.write)
        .await?;
        Ok(done.rows_affected())
    }
}
