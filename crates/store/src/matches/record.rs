//! Rebuilding the engine's match record from the stored rows, for replays.

use arbiter_engine::{LogEntry, MatchRecord, Outcome, StandIn};
use sqlx::Row;

use super::log_tail::chunk_entries;
use super::rows::unsigned;
use super::MatchId;
use crate::connect::{Backend, Store};
use crate::error::StoreError;

impl Store {
    /// The record of a match, exactly as the referee would have built it: replaying it
    /// with `Registry::replay(record, true)` verifies every state digest. A running
    /// match gives its log so far and no outcome; an aborted one, its log and no outcome.
    /// Its stand-ins (the house bot playing a silent player's seat) come in the order
    /// they began, by step then seat.
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
        // Entries one a row, in `match_log` or still in the tail, and those folded into
        // chunks (see `log_tail`).
        let rows = sqlx::query(
            "SELECT idx, entry FROM match_log WHERE match_id = $1
             UNION ALL SELECT idx, entry FROM match_log_tail WHERE match_id = $1",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?;
        let chunks =
            sqlx::query("SELECT first_idx, entries, log FROM match_log_chunk WHERE match_id = $1")
                .bind(id)
                .fetch_all(&mut *tx)
                .await?;
        // Who played which seat when: not part of the replay, but what the results
        // counted (a seat still held by the house bot at the end was left).
        let stand_in_rows = sqlx::query(
            "SELECT seat, bot, from_step, until_step FROM match_stand_ins WHERE match_id = $1
             ORDER BY from_step, seat",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?;
        let resumption_rows = sqlx::query(
            "SELECT step, down_ms FROM match_resumptions WHERE match_id = $1
             ORDER BY resumed_at, step",
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
        let parse = |idx: i64, json: &str| {
            serde_json::from_str::<LogEntry>(json)
                .map(|entry| (idx, entry))
                .map_err(|e| corrupt(&format!("log entry {idx}"), &e))
        };
        let mut indexed = Vec::with_capacity(rows.len());
        for row in &rows {
            let json: String = row.try_get("entry")?;
            indexed.push(parse(row.try_get("idx")?, &json)?);
        }
        for chunk in &chunks {
            let first: i64 = chunk.try_get("first_idx")?;
            let text: String = chunk.try_get("log")?;
            let entries =
                chunk_entries(first, chunk.try_get("entries")?, &text).ok_or_else(|| {
                    StoreError::Corrupt(format!("match {id}: the chunk from entry {first}"))
                })?;
            for (idx, json) in entries {
                indexed.push(parse(idx, json)?);
            }
        }
        indexed.sort_unstable_by_key(|&(idx, _)| idx);
        let mut log = Vec::with_capacity(indexed.len());
        for (position, (idx, entry)) in indexed.into_iter().enumerate() {
            if unsigned::<usize>(idx, "log index")? != position {
                return Err(StoreError::Corrupt(format!(
                    "match {id}: log entry {position} is missing"
                )));
            }
            log.push(entry);
        }
        let mut stand_ins = Vec::with_capacity(stand_in_rows.len());
        for row in &stand_in_rows {
            let until: Option<i64> = row.try_get("until_step")?;
            stand_ins.push(StandIn {
                seat: unsigned(row.try_get("seat")?, "seat")?,
                bot: row.try_get("bot")?,
                from_step: unsigned(row.try_get("from_step")?, "step")?,
                until_step: until.map(|step| unsigned(step, "step")).transpose()?,
            });
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
            stand_ins,
            resumptions: super::resume::resumptions_from(&resumption_rows)?,
        }))
    }
}
