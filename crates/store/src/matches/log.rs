//! Appending to a running match's log: one row per entry, committed at once, so a
//! crash keeps every entry written before it.

use arbiter_engine::LogEntry;

use super::rows::{signed, unsigned};
use super::MatchId;
use crate::connect::Store;
use crate::error::{is_unique_violation, StoreError};

impl Store {
    /// Write log entry `index` (0-based, the entry's position in the match record) of a
    /// running match. Entries must come in order, each exactly once.
    pub async fn append_log(
        &self,
        match_id: MatchId,
        index: usize,
        entry: &LogEntry,
    ) -> Result<(), StoreError> {
        let idx = signed(index, "log index")?;
        let json = serde_json::to_string(entry)
            .map_err(|e| StoreError::InvalidMatch(format!("unserializable log entry: {e}")))?;
        // One statement checks the match is running and the index is the next one.
        let written = sqlx::query(
            "INSERT INTO match_log (match_id, idx, entry)
             SELECT $1, $2, $3
             WHERE EXISTS (SELECT 1 FROM matches WHERE id = $1 AND status = 'running')
               AND (SELECT COALESCE(MAX(idx) + 1, 0) FROM match_log WHERE match_id = $1) = $2",
        )
        .bind(match_id)
        .bind(idx)
        .bind(json)
        .execute(&self.log)
        .await;
        match written {
            Ok(done) if done.rows_affected() == 1 => Ok(()),
            Ok(_) => Err(self.why_not_appended(match_id, index).await),
            Err(e) if is_unique_violation(&e) => Err(self.why_not_appended(match_id, index).await),
            Err(e) => Err(e.into()),
        }
    }

    async fn why_not_appended(&self, match_id: MatchId, index: usize) -> StoreError {
        let status: Result<Option<String>, _> =
            sqlx::query_scalar("SELECT status FROM matches WHERE id = $1")
                .bind(match_id)
                .fetch_optional(&self.write)
                .await;
        match status {
            Err(e) => e.into(),
            Ok(None) => StoreError::UnknownMatch(match_id),
            Ok(Some(status)) if status != "running" => StoreError::NotRunning(match_id),
            Ok(Some(_)) => {
                let next: Result<i64, _> = sqlx::query_scalar(
                    "SELECT COALESCE(MAX(idx) + 1, 0) FROM match_log WHERE match_id = $1",
                )
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
