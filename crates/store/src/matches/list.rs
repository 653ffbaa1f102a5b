//! Match summaries: one by id, or a filtered page, newest first.

use std::collections::HashMap;

use sqlx::any::AnyRow;
use sqlx::Row;

use super::record::{in_list, with_ids};
use super::rows::unsigned;
use super::{MatchFilter, MatchId, MatchStatus, MatchSummary, SeatResult, SeatSummary};
use crate::connect::Store;
use crate::error::StoreError;
use crate::ratings::RatingSystem;

pub const DEFAULT_LIST_LIMIT: u32 = 50;
pub const MAX_LIST_LIMIT: u32 = 200;

const SUMMARY_COLUMNS: &str = "m.id, m.ruleset, m.status, m.rating_system, m.node, m.end_reason,
     m.created_at, m.finished_at,
     (SELECT COUNT(*) FROM match_log l WHERE l.match_id = m.id) + COALESCE(tail.moves, 0)
     + (SELECT CAST(COALESCE(SUM(c.entries), 0) AS BIGINT) FROM match_log_chunk c
        WHERE c.match_id = m.id)
     AS moves";
/// The matches, each with how many of its entries are still in the log's tail (see
/// `log_tail`): the tail has no index by match, so it is counted once per query.
const SUMMARY_FROM: &str = "matches m LEFT JOIN
     (SELECT match_id, COUNT(*) AS moves FROM match_log_tail GROUP BY match_id) tail
     ON tail.match_id = m.id";

impl Store {
    pub async fn match_summary(&self, id: MatchId) -> Result<Option<MatchSummary>, StoreError> {
        Ok(self.match_summaries(&[id]).await?.pop())
    }

    /// The summaries of the matches `ids` (at most `RECORDS_AT_ONCE`), by id; a match
    /// that does not exist is left out.
    pub(crate) async fn match_summaries(
        &self,
        ids: &[MatchId],
    ) -> Result<Vec<MatchSummary>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS} FROM {SUMMARY_FROM} WHERE m.id IN ({}) ORDER BY m.id",
            in_list(ids.len())
        );
        let rows = with_ids(&sql, ids).fetch_all(&self.read).await?;
        self.with_seats(rows).await
    }

    /// Matches passing `filter`, newest first.
    pub async fn list_matches(
        &self,
        filter: &MatchFilter,
    ) -> Result<Vec<MatchSummary>, StoreError> {
        let mut conditions = Vec::new();
        let mut binds: Vec<Bind> = Vec::new();
        if let Some(ruleset) = &filter.ruleset {
            binds.push(Bind::Text(ruleset.clone()));
            conditions.push(format!("m.ruleset = ${}", binds.len()));
        }
        if let Some(status) = filter.status {
            binds.push(Bind::Text(status.as_str().into()));
            conditions.push(format!("m.status = ${}", binds.len()));
        }
        if let Some(before) = filter.before {
            binds.push(Bind::Int(before));
            conditions.push(format!("m.id < ${}", binds.len()));
        }
        if let Some(player) = &filter.player {
            binds.push(Bind::Text(player.to_ascii_lowercase()));
            conditions.push(format!(
                "EXISTS (SELECT 1 FROM match_seats s JOIN accounts a ON a.id = s.account_id
                         WHERE s.match_id = m.id AND a.name_key = ${})",
                binds.len()
            ));
        }
        let limit = filter
            .limit
            .unwrap_or(DEFAULT_LIST_LIMIT)
            .clamp(1, MAX_LIST_LIMIT);
        binds.push(Bind::Int(i64::from(limit)));
        let where_clause = if conditions.is_empty() {
            String::new()
        } else {
            format!("WHERE {}", conditions.join(" AND "))
        };
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS} FROM {SUMMARY_FROM} {where_clause} ORDER BY m.id DESC LIMIT ${}",
            binds.len()
        );
        let mut query = sqlx::query(&sql);
        for bind in binds {
            query = match bind {
                Bind::Text(s) => query.bind(s),
                Bind::Int(i) => query.bind(i),
            };
        }
        let rows = query.fetch_all(&self.read).await?;
        self.with_seats(rows).await
    }

    /// Turn match rows into summaries, fetching all their seats in one query.
    async fn with_seats(&self, rows: Vec<AnyRow>) -> Result<Vec<MatchSummary>, StoreError> {
        let mut summaries = rows
            .iter()
            .map(summary_from_row)
            .collect::<Result<Vec<_>, _>>()?;
        if summaries.is_empty() {
            return Ok(summaries);
        }
        let sql = format!(
            "SELECT s.match_id, s.seat, s.name, s.account_id, s.bot, s.rank, s.score, s.ejected,
                    s.result,
                    (SELECT MIN(h.from_step) FROM match_stand_ins h
                     WHERE h.match_id = s.match_id AND h.seat = s.seat
                       AND h.until_step IS NULL) AS house_bot_from
             FROM match_seats s WHERE s.match_id IN ({}) ORDER BY s.match_id, s.seat",
            in_list(summaries.len())
        );
        let mut query = sqlx::query(&sql);
        for summary in &summaries {
            query = query.bind(summary.id);
        }
        let mut seats: HashMap<MatchId, Vec<SeatSummary>> = HashMap::new();
        for row in query.fetch_all(&self.read).await? {
            let match_id: MatchId = row.try_get("match_id")?;
            seats
                .entry(match_id)
                .or_default()
                .push(seat_from_row(&row)?);
        }
        for summary in &mut summaries {
            summary.seats = seats.remove(&summary.id).unwrap_or_default();
        }
        Ok(summaries)
    }
}

enum Bind {
    Text(String),
    Int(i64),
}

fn summary_from_row(row: &AnyRow) -> Result<MatchSummary, StoreError> {
    let status: String = row.try_get("status")?;
    let rating: Option<String> = row.try_get("rating_system")?;
    Ok(MatchSummary {
        id: row.try_get("id")?,
        ruleset: row.try_get("ruleset")?,
        status: MatchStatus::parse(&status)?,
        rating: rating.as_deref().map(RatingSystem::parse).transpose()?,
        seats: Vec::new(),
        moves: unsigned(row.try_get("moves")?, "log length")?,
        summary: row.try_get("end_reason")?,
        node: row.try_get("node")?,
        created_at: row.try_get("created_at")?,
        finished_at: row.try_get("finished_at")?,
    })
}

fn seat_from_row(row: &AnyRow) -> Result<SeatSummary, StoreError> {
    let rank: Option<i64> = row.try_get("rank")?;
    let result: Option<String> = row.try_get("result")?;
    let house_bot_from: Option<i64> = row.try_get("house_bot_from")?;
    Ok(SeatSummary {
        seat: unsigned(row.try_get("seat")?, "seat")?,
        name: row.try_get("name")?,
        account_id: row.try_get("account_id")?,
        bot: row.try_get("bot")?,
        rank: rank.map(|r| unsigned(r, "rank")).transpose()?,
        score: row.try_get("score")?,
        ejected: row.try_get("ejected")?,
        result: result.as_deref().map(SeatResult::parse).transpose()?,
        house_bot_from: house_bot_from
            .map(|step| unsigned(step, "step"))
            .transpose()?,
    })
}
