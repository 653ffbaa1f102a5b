//! Rebuilding the engine's match record from the stored rows, for replays and for
//! matches that go on after their server went away. Records are read many at a time
//! (a few queries for the lot, not a few a match): a server starting again after a
//! stop reads every match it left running.

use std::collections::HashMap;

use arbiter_engine::{LogEntry, MatchRecord, Outcome, StandIn};
use sqlx::any::AnyRow;
use sqlx::Row;

use super::log_tail::chunk_entries;
use super::rows::unsigned;
use super::MatchId;
use crate::connect::{Backend, Store};
use crate::error::StoreError;

/// How many matches one batch of queries reads: binds stay well under both backends'
/// limits, and a batch's rows fit in memory whatever the logs' lengths.
pub const RECORDS_AT_ONCE: usize = 256;

/// Every row of a batch of matches, grouped by match.
#[derive(Default)]
struct RowsOfMatch {
    seats: Vec<String>,
    /// Entries one a row, in `match_log` or still in the tail.
    entries: Vec<AnyRow>,
    /// Entries folded into chunks (see `log_tail`).
    chunks: Vec<AnyRow>,
    stand_ins: Vec<AnyRow>,
    resumptions: Vec<AnyRow>,
}

/// Which of a match's row lists a query's rows go to.
type RowsOf = fn(&mut RowsOfMatch) -> &mut Vec<AnyRow>;

impl Store {
    /// The record of a match, exactly as the referee would have built it: replaying it
    /// with `Registry::replay(record, true)` verifies every state digest. A running
    /// match gives its log so far and no outcome; an aborted one, its log and no outcome.
    /// Its stand-ins (the house bot playing a silent player's seat) come in the order
    /// they began, by step then seat.
    pub async fn match_record(&self, id: MatchId) -> Result<Option<MatchRecord>, StoreError> {
        self.match_records(&[id]).await?.remove(&id).transpose()
    }

    /// The records of the matches `ids` (at most `RECORDS_AT_ONCE` of them), read in one
    /// snapshot. A match that does not exist is absent from the answer; one whose rows
    /// do not make a record has its own error, so one bad log does not hide the others.
    pub(crate) async fn match_records(
        &self,
        ids: &[MatchId],
    ) -> Result<HashMap<MatchId, Result<MatchRecord, StoreError>>, StoreError> {
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        let within = in_list(ids.len());
        // One snapshot, so a match finishing meanwhile cannot pair a complete log with a
        // missing outcome.
        let mut tx = self.read.begin().await?;
        if self.backend() == Backend::Postgres {
            sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                .execute(&mut *tx)
                .await?;
        }
        let matches = with_ids(
            &format!(
                "SELECT id, ruleset, config, seed, record_format, initial_digest, outcome
             FROM matches WHERE id IN ({within})"
            ),
            ids,
        )
        .fetch_all(&mut *tx)
        .await?;
        let seats = with_ids(
            &format!(
                "SELECT match_id, name FROM match_seats WHERE match_id IN ({within})
             ORDER BY match_id, seat"
            ),
            ids,
        )
        .fetch_all(&mut *tx)
        .await?;
        let entries = with_ids(
            &format!(
                "SELECT match_id, idx, entry FROM match_log WHERE match_id IN ({within})
             UNION ALL SELECT match_id, idx, entry FROM match_log_tail
             WHERE match_id IN ({within})"
            ),
            ids,
        )
        .fetch_all(&mut *tx)
        .await?;
        let chunks = with_ids(
            &format!(
                "SELECT match_id, first_idx, entries, log FROM match_log_chunk
             WHERE match_id IN ({within})"
            ),
            ids,
        )
        .fetch_all(&mut *tx)
        .await?;
        // Who played which seat when: not part of the replay, but what the results
        // counted (a seat still held by the house bot at the end was left).
        let stand_ins = with_ids(
            &format!(
                "SELECT match_id, seat, bot, from_step, until_step FROM match_stand_ins
             WHERE match_id IN ({within}) ORDER BY match_id, from_step, seat"
            ),
            ids,
        )
        .fetch_all(&mut *tx)
        .await?;
        let resumptions = with_ids(
            &format!(
                "SELECT match_id, step, down_ms FROM match_resumptions
             WHERE match_id IN ({within}) ORDER BY match_id, resumed_at, step"
            ),
            ids,
        )
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;

        let mut rows: HashMap<MatchId, RowsOfMatch> = HashMap::with_capacity(matches.len());
        for row in seats {
            let name: String = row.try_get("name")?;
            rows.entry(row.try_get("match_id")?)
                .or_default()
                .seats
                .push(name);
        }
        let groups: [(Vec<AnyRow>, RowsOf); 4] = [
            (entries, |rows| &mut rows.entries),
            (chunks, |rows| &mut rows.chunks),
            (stand_ins, |rows| &mut rows.stand_ins),
            (resumptions, |rows| &mut rows.resumptions),
        ];
        for (group, field) in groups {
            for row in group {
                let match_id: MatchId = row.try_get("match_id")?;
                field(rows.entry(match_id).or_default()).push(row);
            }
        }
        let mut records = HashMap::with_capacity(matches.len());
        for row in &matches {
            let id: MatchId = row.try_get("id")?;
            let of_match = rows.remove(&id).unwrap_or_default();
            records.insert(id, record_from_rows(id, row, of_match));
        }
        Ok(records)
    }
}

/// `$1, $2, …, $n`: the placeholders of an `IN` list of `n` ids.
pub(crate) fn in_list(n: usize) -> String {
    (1..=n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `sql`, its `IN` list bound to `ids`.
pub(crate) fn with_ids<'q>(
    sql: &'q str,
    ids: &[MatchId],
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    let mut query = sqlx::query(sql);
    for &id in ids {
        query = query.bind(id);
    }
    query
}

/// One match's record from its rows.
fn record_from_rows(
    id: MatchId,
    row: &AnyRow,
    rows: RowsOfMatch,
) -> Result<MatchRecord, StoreError> {
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
    let mut indexed = Vec::with_capacity(rows.entries.len());
    for row in &rows.entries {
        let json: String = row.try_get("entry")?;
        indexed.push(parse(row.try_get("idx")?, &json)?);
    }
    for chunk in &rows.chunks {
        let first: i64 = chunk.try_get("first_idx")?;
        let text: String = chunk.try_get("log")?;
        let entries = chunk_entries(first, chunk.try_get("entries")?, &text).ok_or_else(|| {
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
    let mut stand_ins = Vec::with_capacity(rows.stand_ins.len());
    for row in &rows.stand_ins {
        let until: Option<i64> = row.try_get("until_step")?;
        stand_ins.push(StandIn {
            seat: unsigned(row.try_get("seat")?, "seat")?,
            bot: row.try_get("bot")?,
            from_step: unsigned(row.try_get("from_step")?, "step")?,
            until_step: until.map(|step| unsigned(step, "step")).transpose()?,
        });
    }
    Ok(MatchRecord {
        format: unsigned(row.try_get("record_format")?, "record format")?,
        ruleset: row.try_get("ruleset")?,
        config: serde_json::from_str(&config).map_err(|e| corrupt("config", &e))?,
        seats: rows.seats,
        seed: seed.parse().map_err(|e| corrupt("seed", &e))?,
        initial_digest: row.try_get("initial_digest")?,
        log,
        outcome: outcome
            .map(|o| serde_json::from_str::<Outcome>(&o))
            .transpose()
            .map_err(|e| corrupt("outcome", &e))?,
        stand_ins,
        resumptions: super::resume::resumptions_from(&rows.resumptions)?,
    })
}
