//! Creating a tournament, reading it back, listing them, and moving it from open to
//! running to finished.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::MAX_TOURNAMENT_ENTRANTS;
use super::{refused, EntryRule, NewTournament, Tournament, TournamentId, TournamentStatus};
use crate::accounts::AccountId;
use crate::clock::now_ms;
use crate::connect::Store;
use crate::error::{is_unique_violation, StoreError};
use crate::matches::rows::unsigned;

const COLUMNS: &str = "id, name, ruleset, config, format, seats, rounds, duration_ms, starts_at,
     start_when, deadline_ms, time_bank_ms, rated, max_entrants, entry, entrants, created_by,
     node, status, round, created_at, started_at, finished_at";

/// Longest tournament name.
pub const MAX_TOURNAMENT_NAME: usize = 80;

impl Store {
    /// Record a new tournament (open, owned by this node) and return its id.
    pub async fn create_tournament(&self, new: &NewTournament) -> Result<TournamentId, StoreError> {
        if new.name.trim().is_empty() || new.name.chars().count() > MAX_TOURNAMENT_NAME {
            return Err(refused(
                "bad_tournament",
                format!("a tournament's name is 1 to {MAX_TOURNAMENT_NAME} characters"),
            ));
        }
        if new.max_entrants < 2 || new.max_entrants > MAX_TOURNAMENT_ENTRANTS {
            return Err(refused(
                "bad_tournament",
                format!("max_entrants must be from 2 to {MAX_TOURNAMENT_ENTRANTS}"),
            ));
        }
        let id: TournamentId = sqlx::query_scalar(
            "INSERT INTO tournaments (name, ruleset, config, format, seats, rounds, duration_ms,
                 starts_at, start_when, deadline_ms, time_bank_ms, rated, max_entrants,
                 created_by, node, status, created_at, entry)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, 'open', $16,
                 $17)
             RETURNING id",
        )
        .bind(new.name.trim())
        .bind(&new.ruleset)
        .bind(new.config.to_string())
        .bind(&new.format)
        .bind(i64::from(new.seats))
        .bind(new.rounds.map(i64::from))
        .bind(new.duration_ms)
        .bind(new.starts_at)
        .bind(new.start_when.map(i64::from))
        .bind(new.deadline_ms)
        .bind(new.time_bank_ms)
        .bind(i64::from(new.rated))
        .bind(i64::from(new.max_entrants))
        .bind(new.created_by)
        .bind(&*self.node)
        .bind(now_ms())
        .bind(new.entry.as_str())
        .fetch_one(&self.write)
        .await
        .map_err(|error| {
            if is_unique_violation(&error) {
                refused(
                    "house_slot_taken",
                    format!(
                        "the house's {:?} starting then is already written (by another node)",
                        new.name.trim()
                    ),
                )
            } else {
                error.into()
            }
        })?;
        Ok(id)
    }

    pub async fn tournament(&self, id: TournamentId) -> Result<Option<Tournament>, StoreError> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM tournaments WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.read)
            .await?;
        row.as_ref().map(tournament_from_row).transpose()
    }

    /// Tournaments, newest first: those not yet finished, then the latest finished ones,
    /// `limit` in all.
    pub async fn list_tournaments(&self, limit: u32) -> Result<Vec<Tournament>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM tournaments
             ORDER BY CASE WHEN status IN ('open', 'running') THEN 0 ELSE 1 END, id DESC
             LIMIT $1"
        ))
        .bind(i64::from(limit.clamp(1, 500)))
        .fetch_all(&self.read)
        .await?;
        rows.iter().map(tournament_from_row).collect()
    }

    /// The tournaments this node's director should be running (open or running, owned
    /// here): what a restarted server picks up again.
    pub async fn unfinished_tournaments(&self) -> Result<Vec<TournamentId>, StoreError> {
        let ids = sqlx::query_scalar(
            "SELECT id FROM tournaments WHERE status IN ('open', 'running') AND node = $1
             ORDER BY id",
        )
        .bind(&*self.node)
        .fetch_all(&self.read)
        .await?;
        Ok(ids)
    }

    /// Tournaments `account` created that are not over: the server bounds them so one
    /// account cannot fill the list.
    pub async fn unfinished_tournaments_by(&self, account: AccountId) -> Result<u32, StoreError> {
        let count: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM tournaments WHERE created_by = $1 AND status IN ('open', 'running')",
        )
        .bind(account)
        .fetch_one(&self.read)
        .await?;
        unsigned(count, "count")
    }

    /// Open → running. False if it was not open (already started, or cancelled) or is
    /// not this node's (another node took it over).
    pub async fn start_tournament(&self, id: TournamentId) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE tournaments SET status = 'running', started_at = $2
             WHERE id = $1 AND status = 'open' AND node = $3",
        )
        .bind(id)
        .bind(now_ms())
        .bind(&*self.node)
        .execute(&self.write)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Running (or open) → `status` (finished or cancelled), once, by its node.
    pub async fn end_tournament(
        &self,
        id: TournamentId,
        status: TournamentStatus,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE tournaments SET status = $2, finished_at = $3
             WHERE id = $1 AND status IN ('open', 'running') AND node = $4",
        )
        .bind(id)
        .bind(status.as_str())
        .bind(now_ms())
        .bind(&*self.node)
        .execute(&self.write)
        .await?;
        Ok(done.rows_affected() == 1)
    }
}

fn tournament_from_row(row: &AnyRow) -> Result<Tournament, StoreError> {
    let config: String = row.try_get("config")?;
    let status: String = row.try_get("status")?;
    let entry: String = row.try_get("entry")?;
    let opt_u32 = |column: &str| -> Result<Option<u32>, StoreError> {
        let value: Option<i64> = row.try_get(column)?;
        value.map(|v| unsigned(v, column)).transpose()
    };
    Ok(Tournament {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        ruleset: row.try_get("ruleset")?,
        config: serde_json::from_str(&config)
            .map_err(|e| StoreError::Corrupt(format!("tournament config: {e}")))?,
        format: row.try_get("format")?,
        seats: unsigned(row.try_get("seats")?, "seats")?,
        rounds: opt_u32("rounds")?,
        duration_ms: row.try_get("duration_ms")?,
        starts_at: row.try_get("starts_at")?,
        start_when: opt_u32("start_when")?,
        deadline_ms: row.try_get("deadline_ms")?,
        time_bank_ms: row.try_get("time_bank_ms")?,
        rated: row.try_get::<i64, _>("rated")? != 0,
        max_entrants: unsigned(row.try_get("max_entrants")?, "max_entrants")?,
        entry: EntryRule::parse(&entry)
            .ok_or_else(|| StoreError::Corrupt(format!("tournament entry rule {entry:?}")))?,
        entrants: unsigned(row.try_get("entrants")?, "entrants")?,
        created_by: row.try_get("created_by")?,
        node: row.try_get("node")?,
        status: TournamentStatus::parse(&status)?,
        round: unsigned(row.try_get("round")?, "round")?,
        created_at: row.try_get("created_at")?,
        started_at: row.try_get("started_at")?,
        finished_at: row.try_get("finished_at")?,
    })
}
