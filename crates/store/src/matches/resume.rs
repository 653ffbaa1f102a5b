//! Matches outlive their server. A match is its stored log: when the server running it
//! goes away (a crash, a stop, a node lost), the match is not ended but goes on from
//! that log, on the same server when it starts again or on another that takes it over.
//! What the store keeps for that, beside the log: the terms the match is played on
//! (its clock), so it goes on with the clock it started with, and each resumption, so
//! its record shows the gap.

use std::collections::HashMap;

use arbiter_engine::MatchRecord;
use serde::{Deserialize, Serialize};
use sqlx::Row;

use super::record::{in_list, with_ids, RECORDS_AT_ONCE};
use super::rows::{signed, unsigned};
use super::{MatchId, MatchSummary};
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

/// What a match needs to go on from its stored log.
#[derive(Debug, Clone)]
pub struct ResumableMatch {
    pub summary: MatchSummary,
    pub record: MatchRecord,
    /// `None` for a match stored before terms were.
    pub terms: Option<MatchTerms>,
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
        self.terms_of(&[match_id])
            .await?
            .remove(&match_id)
            .ok_or(StoreError::UnknownMatch(match_id))?
    }

    /// The terms of the matches `ids` (at most `RECORDS_AT_ONCE`), each parsed on its
    /// own; a match that does not exist is left out.
    async fn terms_of(
        &self,
        ids: &[MatchId],
    ) -> Result<HashMap<MatchId, Result<Option<MatchTerms>, StoreError>>, StoreError> {
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        let sql = format!(
            "SELECT id, terms FROM matches WHERE id IN ({})",
            in_list(ids.len())
        );
        let mut terms = HashMap::with_capacity(ids.len());
        for row in with_ids(&sql, ids).fetch_all(&self.read).await? {
            let match_id: MatchId = row.try_get("id")?;
            let text: Option<String> = row.try_get("terms")?;
            let parsed = text
                .map(|text| serde_json::from_str(&text))
                .transpose()
                .map_err(|e| StoreError::Corrupt(format!("match {match_id}: its terms: {e}")));
            terms.insert(match_id, parsed);
        }
        Ok(terms)
    }

    /// What the matches `ids` need to go on from their logs: summary, record and terms
    /// of each, read in a few queries for the lot (`RECORDS_AT_ONCE` a batch). The
    /// answer has one entry an id, in order; a match that does not exist or whose rows
    /// do not make a record has its own error.
    pub async fn resumable_matches(
        &self,
        ids: &[MatchId],
    ) -> Result<Vec<(MatchId, Result<ResumableMatch, StoreError>)>, StoreError> {
        let mut resumable = Vec::with_capacity(ids.len());
        for batch in ids.chunks(RECORDS_AT_ONCE) {
            let (summaries, mut records, mut terms) = tokio::try_join!(
                self.match_summaries(batch),
                self.match_records(batch),
                self.terms_of(batch),
            )?;
            let mut summaries: HashMap<MatchId, MatchSummary> = summaries
                .into_iter()
                .map(|summary| (summary.id, summary))
                .collect();
            for &id in batch {
                let parts = (
                    summaries.remove(&id),
                    records.remove(&id),
                    terms.remove(&id),
                );
                let one = match parts {
                    (Some(summary), Some(record), Some(terms)) => record.and_then(|record| {
                        Ok(ResumableMatch {
                            summary,
                            record,
                            terms: terms?,
                        })
                    }),
                    _ => Err(StoreError::UnknownMatch(id)),
                };
                resumable.push((id, one));
            }
        }
        Ok(resumable)
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
    /// in one transaction of a statement per `RECORDS_AT_ONCE` matches. A match that is
    /// no longer running here is left alone.
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
        for batch in resumed.chunks(RECORDS_AT_ONCE) {
            // `(VALUES (id, step), …)`: both backends name its columns column1, column2.
            let values = (0..batch.len())
                .map(|i| format!("(${}, ${})", 4 + 2 * i, 5 + 2 * i))
                .collect::<Vec<_>>()
                .join(", ");
            let sql = format!(
                "INSERT INTO match_resumptions (match_id, step, down_ms, resumed_at, node)
                 SELECT m.id, v.column2, $1, $2, $3
                 FROM (VALUES {values}) AS v JOIN matches m ON m.id = v.column1
                 WHERE m.status = 'running' AND m.node = $3"
            );
            let mut query = sqlx::query(&sql).bind(down).bind(now).bind(&*self.node);
            for &(match_id, step) in batch {
                query = query.bind(match_id).bind(signed(step, "step")?);
            }
            query.execute(&mut *tx).await?;
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
