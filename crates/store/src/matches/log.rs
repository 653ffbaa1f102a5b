//! Appending to a running match's log: one row per entry, committed before
//! `append_log` returns, so a crash keeps every entry a caller was told is written.
//! The commits themselves are shared by every match appending at the same time (see
//! `log_batcher`); each entry still gets its own answer.

use arbiter_engine::LogEntry;

use super::log_batcher::{Answer, LogRow};
use super::log_tail::NEXT_INDEX_SQL;
use super::rows::{signed, unsigned};
use super::MatchId;
use crate::connect::Store;
use crate::error::StoreError;

impl Store {
    /// Write log entry `index` (0-based, the entry's position in the match record) of a
    /// running match. Entries must come in order, each exactly once. On `Ok` the entry
    /// is committed, possibly together with other matches' entries.
    pub async fn append_log(
        &self,
        match_id: MatchId,
        index: usize,
        entry: &LogEntry,
    ) -> Result<(), StoreError> {
        self.queue_log(match_id, index, entry).await?.stored().await
    }

    /// Queue log entry `index` for writing and return at once (unless many appends
    /// wait already); [`QueuedEntry::stored`] then waits for its commit. Entries one
    /// caller queues are written in the order queued, so a match may queue its next
    /// entry before the last is committed, and on SQLite both share a commit. An
    /// entry queued after one that is refused or fails is refused too (the log never
    /// has a gap).
    pub async fn queue_log(
        &self,
        match_id: MatchId,
        index: usize,
        entry: &LogEntry,
    ) -> Result<QueuedEntry, StoreError> {
        let idx = signed(index, "log index")?;
        let entry = serde_json::to_string(entry)
            .map_err(|e| StoreError::InvalidMatch(format!("unserializable log entry: {e}")))?;
        // The row's own guards check the match is running here and the index is the
        // next one.
        let row = LogRow {
            match_id,
            idx,
            entry,
            node: self.node.clone(),
        };
        let answer = self.appends.queue(row).await?;
        Ok(QueuedEntry {
            store: self.clone(),
            match_id,
            index,
            answer,
        })
    }

    async fn why_not_appended(&self, match_id: MatchId, index: usize) -> StoreError {
        let status: Result<Option<(String, String)>, _> =
            sqlx::query_as("SELECT status, node FROM matches WHERE id = $1")
                .bind(match_id)
                .fetch_optional(&self.write)
                .await;
        match status {
            Err(e) => e.into(),
            Ok(None) => StoreError::UnknownMatch(match_id),
            Ok(Some((status, node))) if status != "running" || *node != *self.node => {
                StoreError::NotRunning(match_id)
            }
            Ok(Some(_)) => {
                let next: Result<i64, _> = sqlx::query_scalar(NEXT_INDEX_SQL)
                    .bind(match_id)
                    .fetch_one(&self.write)
                    .await;
                match next {
                    Err(e) => e.into(),
                    Ok(next) => match unsigned::<u64>(next, "log length") {
                        Ok(expected) => StoreError::LogOutOfOrder {
                            match_id,
                            index: index as u64,
                            expected,
                        },
                        Err(e) => e,
                    },
                }
            }
        }
    }
}

/// A log entry queued by [`Store::queue_log`], not yet known to be committed.
#[derive(Debug)]
pub struct QueuedEntry {
    store: Store,
    match_id: MatchId,
    index: usize,
    answer: Answer,
}

impl QueuedEntry {
    /// Wait until the entry is committed, or learn why it was not.
    pub async fn stored(self) -> Result<(), StoreError> {
        match self.answer.committed().await {
            Ok(true) => Ok(()),
            Ok(false) => Err(self.store.why_not_appended(self.match_id, self.index).await),
            Err(e) => Err(e.into()),
        }
    }
}
