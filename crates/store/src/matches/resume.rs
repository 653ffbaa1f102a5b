//! Matches outlive their server. A match is its stored log: when the server running it
//! goes away (a crash, a stop, a node lost), the match is not ended but goes on from
//! that log, on the same server when it starts again or on another that takes it over.
//! What the store keeps for that, beside the log: the terms the match is played on
//! (its clock), so it goes on with the clock it started with, and each resumption, so
//! its record shows the gap.

use serde::{Deserialize, Serialize};
use sqlx::Row;

use super::rows::{signed, unsigned};
use super::MatchId;
use crate::clock::now_ms;
use crate::connect::Store;
use crate::error::StoreError;

/// The terms a match is played on, stored with it (as JSON) when it starts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchTerms {
    /// Time per decision.
    pub deadline_ms: u64,
    /// Each seat's time bank at the start.
    pub time_bank_ms: u64,
    /// Missed deadlines in a row that abandon a seat; `None` never.
    #[serde(default)]
    pub abandon_after: Option<u32>,
    /// How long a silent remote seat waits before a house bot plays it; `None`: never.
    #[serde(default)]
    pub stand_in_grace_ms: Option<u64>,
    /// The compatibility port whose clients played the seats, if any (their protocol's
    /// rules for bad answers apply).
    #[serde(default)]
    pub port: Option<String>,
}

impl Store {
    /// The matches this node left running: every one goes on from its log when the
    /// node starts again. Oldest first.
    pub async fn running_matches_of_this_node(&self) -> Result<Vec<MatchId>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT id FROM matches WHERE status = 'running' AND node = $1 ORDER BY id",
        )
        .bind(&*self.node)
        .fetch_all(&self.read)
        .await?)
    }

    /// The terms `match_id` was started on; `None` for a match stored before terms were
    /// (it goes on with the server's queue clock).
    pub async fn match_terms(&self, match_id: MatchId) -> Result<Option<MatchTerms>, StoreError> {
        let text: Option<Option<String>> =
            sqlx::query_scalar("SELECT terms FROM matches WHERE id = $1")
                .bind(match_id)
                .fetch_optional(&self.read)
                .await?;
        match text {
            None => Err(StoreError::UnknownMatch(match_id)),
            Some(None) => Ok(None),
            Some(Some(text)) => serde_json::from_str(&text)
                .map(Some)
                .map_err(|e| StoreError::Corrupt(format!("match {match_id}: its terms: {e}"))),
        }
    }

    /// When this node last gave a sign of life (its stop, or its last heartbeat when
    /// it died), in Unix milliseconds; `None` for a node never seen. Read as the node
    /// starts, before its first heartbeat: how long its matches were down.
    pub async fn last_sign_of_life(&self) -> Result<Option<i64>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT COALESCE(stopped_at, heartbeat_at) FROM nodes WHERE name = $1",
        )
        .bind(&*self.node)
        .fetch_optional(&self.read)
        .await?)
    }

    /// Record that the matches `resumed` (id and log step) went on here after `down_ms`,
    /// in one transaction. A match that is no longer running here is left alone.
    pub async fn record_resumptions(
        &self,
        resumed: &[(MatchId, usize)],
        down_ms: u64,
    ) -> Result<(), StoreError> {
        if resumed.is_empty() {
            return Ok(());
        }
        let now = now_ms();
        let down = i64::try_from(down_ms).unwrap_or(i64::MAX);
        let mut tx = self.write.begin().await?;
        for &(match_id, step) in resumed {
            sqlx::query(
                "INSERT INTO match_resumptions (match_id, step, down_ms, resumed_at, node)
                 SELECT id, $2, $3, $4, $5 FROM matches
                 WHERE id = $1 AND status = 'running' AND node = $5",
            )
            .bind(match_id)
            .bind(signed(step, "step")?)
            .bind(down)
            .bind(now)
            .bind(&*self.node)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }
}

/// The resumptions of a match, in order, from their rows.
pub(super) fn resumptions_from(
    rows: &[sqlx::any::AnyRow],
) -> Result<Vec<arbiter_engine::Resumption>, StoreError> {
    rows.iter()
        .map(|row| {
            Ok(arbiter_engine::Resumption {
                step: unsigned(row.try_get("step")?, "step")?,
                down_ms: unsigned(row.try_get("down_ms")?, "down_ms")?,
            })
        })
        .collect()
}
