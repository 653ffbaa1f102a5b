//! Servers sharing one database (a PostgreSQL deployment of several nodes). Each node
//! writes a heartbeat; a node whose heartbeat is older than the lease has died (or lost
//! the database), and a live node takes over that node's running matches, to go on
//! with them from their logs.
//!
//! Safe against a node that is only slow or cut off: the store's guards accept log
//! entries, outcomes and aborts of a running match only from the node that runs it, so
//! once its matches are taken over, such a node can write nothing more to them, and its
//! own writers end them there.

use std::time::Duration;

use sqlx::Row;

use crate::accounts::AccountId;
use crate::clock::now_ms;
use crate::connect::Store;
use crate::error::StoreError;
use crate::matches::MatchId;
use crate::tournaments::TournamentId;

/// A node of the deployment as it runs now: its name, and when its current process
/// started (a restarted node is a new incarnation). Nodes name themselves to each other
/// this way, hence serde.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LiveNode {
    pub name: String,
    pub started_at: i64,
}

/// A seat an account holds in a running match, and the node that runs the match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunningSeat {
    pub match_id: MatchId,
    pub seat: usize,
    pub node: String,
}

impl Store {
    /// Record that this node, whose process started at `started_at` (Unix
    /// milliseconds), is alive now.
    pub async fn heartbeat(&self, started_at: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO nodes (name, heartbeat_at, started_at) VALUES ($1, $2, $3)
             ON CONFLICT (name) DO UPDATE
             SET heartbeat_at = excluded.heartbeat_at, started_at = excluded.started_at,
                 stopped_at = NULL",
        )
        .bind(&*self.node)
        .bind(now_ms())
        .bind(started_at)
        .execute(&self.write)
        .await?;
        Ok(())
    }

    /// Take over every running match of another node whose latest heartbeat is older
    /// than `lease`: they become this node's (`node` set to this one, in one statement,
    /// so two survivors cannot both take one). Returns their ids, for this node to go
    /// on with from their logs. From then on the store refuses the old node's writes to
    /// them (log entries, outcome, abort), should it only have been cut off.
    pub async fn take_over_matches_of_silent_nodes(
        &self,
        lease: Duration,
    ) -> Result<Vec<MatchId>, StoreError> {
        let stale_before = stale_before(lease);
        let rows = sqlx::query(
            "UPDATE matches SET node = $1
             WHERE status = 'running' AND node <> $1
               AND node IN (SELECT name FROM nodes WHERE heartbeat_at <= $2)
             RETURNING id",
        )
        .bind(&*self.node)
        .bind(stale_before)
        .fetch_all(&self.write)
        .await?;
        Ok(rows
            .iter()
            .map(|row| row.try_get("id"))
            .collect::<Result<_, _>>()?)
    }

    /// Record that this node stopped in order, now: its heartbeat is made stale at
    /// once, so the other nodes of a deployment take its matches and tournaments over
    /// at their next sweep instead of after the lease, and its stop time is what its
    /// matches were down from.
    pub async fn stopped(&self) -> Result<(), StoreError> {
        sqlx::query("UPDATE nodes SET heartbeat_at = 0, stopped_at = $2 WHERE name = $1")
            .bind(&*self.node)
            .bind(now_ms())
            .execute(&self.write)
            .await?;
        Ok(())
    }

    /// The latest sign of life (heartbeat, or stop) among the other nodes whose
    /// heartbeat is older than `lease` (the silent ones), in Unix milliseconds: since
    /// when their matches have been down, at the least. `None` when no node is silent.
    pub async fn silent_since(&self, lease: Duration) -> Result<Option<i64>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT MAX(COALESCE(stopped_at, heartbeat_at)) FROM nodes
             WHERE heartbeat_at <= $1 AND name <> $2",
        )
        .bind(stale_before(lease))
        .bind(&*self.node)
        .fetch_one(&self.read)
        .await?)
    }

    /// Take over every open or running tournament of another node whose latest heartbeat
    /// is older than `lease`, as [`Store::take_over_matches_of_silent_nodes`] does
    /// matches; returns their ids, for this node's directors to go on with. The store
    /// refuses the old node's rounds, start and end from then on.
    pub async fn take_over_tournaments_of_silent_nodes(
        &self,
        lease: Duration,
    ) -> Result<Vec<TournamentId>, StoreError> {
        let stale_before = stale_before(lease);
        let ids = sqlx::query_scalar(
            "UPDATE tournaments SET node = $1
             WHERE status IN ('open', 'running') AND node <> $1
               AND node IN (SELECT name FROM nodes WHERE heartbeat_at <= $2)
             RETURNING id",
        )
        .bind(&*self.node)
        .bind(stale_before)
        .fetch_all(&self.write)
        .await?;
        Ok(ids)
    }

    /// The nodes whose heartbeat is younger than `lease`, oldest process first (then
    /// by name).
    pub async fn live_nodes(&self, lease: Duration) -> Result<Vec<LiveNode>, StoreError> {
        let fresh_after =
            now_ms().saturating_sub(i64::try_from(lease.as_millis()).unwrap_or(i64::MAX));
        let rows = sqlx::query(
            "SELECT name, started_at FROM nodes WHERE heartbeat_at > $1
             ORDER BY started_at, name",
        )
        .bind(fresh_after)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(LiveNode {
                    name: row.try_get("name")?,
                    started_at: row.try_get("started_at")?,
                })
            })
            .collect()
    }

    /// Every seat `account` holds in a running match, with the node running it, by
    /// match id: where a player who connects to any node plays on.
    pub async fn running_seats(&self, account: AccountId) -> Result<Vec<RunningSeat>, StoreError> {
        let rows = sqlx::query(
            "SELECT m.id, s.seat, m.node FROM matches m
             JOIN match_seats s ON s.match_id = m.id
             WHERE m.status = 'running' AND s.account_id = $1
             ORDER BY m.id, s.seat",
        )
        .bind(account)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|row| {
                let seat: i64 = row.try_get("seat")?;
                Ok(RunningSeat {
                    match_id: row.try_get("id")?,
                    seat: usize::try_from(seat)
                        .map_err(|_| StoreError::Corrupt(format!("seat {seat}")))?,
                    node: row.try_get("node")?,
                })
            })
            .collect()
    }
}

/// The heartbeat time (ms) before which a node counts as silent, given the lease.
fn stale_before(lease: Duration) -> i64 {
    now_ms().saturating_sub(i64::try_from(lease.as_millis()).unwrap_or(i64::MAX))
}
