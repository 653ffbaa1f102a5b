//! Rebuilding the engine's match record from the stored rows, for replays.

use arbiter_engine::{LogEntry, MatchRecord, Outcome};
use sqlx::Row;

use super::rows::unsigned;
use super::MatchId;
use crate::connect::{Backend, Store};
use crate::error::StoreError;

impl Store {
    /// The record of a match, exactly as the referee would have built it: replaying it
    /// with `Registry::replay(record, true)` verifies every state digest. A running
    /// match gives its log so far and no outcome; an aborted one, its log and no outcome.
    pub async fn match_record(&self, id: MatchId) -> Result<Option<MatchRecord>, StoreError> {
        // One snapshot, so a match finishing meanwhile cannot pair a complete log with a
        // missing outcome.
        let mut tx = self.read.begin().await?;
        if self.backend() == Backend::Postgres {
            sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                .execute(&mut *tx)
                .await?;
        }
        let Some(row) = sqlx::query(
            "SELECT ruleset, config, seed, record_format, initial_digest, outcome
             FROM matches WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?
        else {
            return Ok(None);
        };
        let seats: Vec<String> =
            sqlx::query_scalar("SELECT name FROM match_seats WHERE match_id = $1 ORDER BY seat")
                .bind(id)
                .fetch_all(&mut *tx)
                .await?;
        // Folded entries and those still in the tail (see `log_tail`).
        let entries = sqlx::query(
            "SELECT idx, entry FROM match_log WHERE match_id = $1
             UNION ALL SELECT idx, entry FROM match_log_tail WHERE match_id = $1
             ORDER BY idx",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;

        let corrupt = |what: &str, e: &dyn std::fmt::Display| {
            StoreError::Corrupt(format!("match {id}: {what}: {e}"))
        };
        let config: String = row.try_get("config")?;
        let seed: String = row.try_get("seed")?;
        let outcome: Option<String> = row.try_get("outcome")?;
        let mut log = Vec::with_capacity(entries.len());
        for (position, entry) in entries.iter().enumerate() {
            let idx: i64 = entry.try_get("idx")?;
            if unsigned::<usize>(idx, "log index")? != position {
                return Err(StoreError::Corrupt(format!(
                    "match {id}: log entry {position} is missing"
                )));
            }
            let json: String = entry.try_get("entry")?;
            log.push(
                serde_json::from_str::<LogEntry>(&json)
                    .map_err(|e| corrupt(&format!("log entry {position}"), &e))?,
            );
        }
        Ok(Some(MatchRecord {
            format: unsigned(row.try_get("record_format")?, "record format")?,
            ruleset: row.try_get("ruleset")?,
            config: serde_json::from_str(&config).map_err(|e| corrupt("config", &e))?,
            seats,
            seed: seed.parse().map_err(|e| corrupt("seed", &e))?,
            initial_digest: row.try_get("initial_digest")?,
            log,
            outcome: outcome
                .map(|o| serde_json::from_str::<Outcome>(&o))
                .transpose()
                .map_err(|e| corrupt("outcome", &e))?,
        }))
    }
}
