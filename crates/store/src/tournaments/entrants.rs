//! Joining and withdrawing. The tournament's row is updated first, in the same
//! transaction as the entrant's: its count of active entrants is the guard against
//! joining a full tournament, and its row lock orders concurrent joins (two joins at
//! once cannot both take the last place, or enter one account twice).

use sqlx::Row;

use super::{refused, EntrantStatus, EntryRule, TournamentEntrant, TournamentId};
use crate::accounts::AccountId;
use crate::clock::now_ms;
use crate::connect::Store;
use crate::error::StoreError;

/// When a running tournament still takes entrants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LateJoin {
    /// Only before it starts.
    Never,
    /// While its latest written round is at most this (Swiss: 1, so that a late
    /// entrant plays from round 2).
    UntilRound(u32),
    /// While it runs (arena).
    Always,
}

impl Store {
    /// Enter `account` (called `name`, rated `rating`) in tournament `id`. Refused,
    /// changing nothing, when the tournament is unknown, over, for the other kind of
    /// account (its entry rule: people or bots only), started (past `late`), full, or
    /// the account is already in it.
    pub async fn join_tournament(
        &self,
        id: TournamentId,
        account: AccountId,
        name: &str,
        rating: f64,
        late: LateJoin,
    ) -> Result<(), StoreError> {
        let (late_ok, late_round) = match late {
            LateJoin::Never => (0_i64, 0_i64),
            LateJoin::UntilRound(round) => (1, i64::from(round)),
            LateJoin::Always => (1, i64::MAX),
        };
        // Already in: say so, whatever else would refuse the join (a full or started
        // tournament). Checked again below, under the tournament row's lock.
        let entered: Option<String> = sqlx::query_scalar(
            "SELECT status FROM tournament_entrants
             WHERE tournament_id = $1 AND account_id = $2 AND status = 'active'",
        )
        .bind(id)
        .bind(account)
        .fetch_optional(&self.read)
        .await?;
        if entered.is_some() {
            return Err(already_entered(id));
        }
        let mut tx = self.write.begin().await?;
        let taken = sqlx::query(
            "UPDATE tournaments SET entrants = entrants + 1
             WHERE id = $1 AND entrants < max_entrants
               AND (status = 'open' OR (status = 'running' AND $2 = 1 AND round <= $3))
               AND (entry = 'both' OR entry = (SELECT CASE WHEN is_bot <> 0 THEN 'bots'
                                                           ELSE 'people' END
                                               FROM accounts WHERE id = $4))",
        )
        .bind(id)
        .bind(late_ok)
        .bind(late_round)
        .bind(account)
        .execute(&mut *tx)
        .await?;
        if taken.rows_affected() != 1 {
            drop(tx);
            return Err(self.why_not_joinable(id, account).await?);
        }
        let status: Option<String> = sqlx::query_scalar(
            "SELECT status FROM tournament_entrants WHERE tournament_id = $1 AND account_id = $2",
        )
        .bind(id)
        .bind(account)
        .fetch_optional(&mut *tx)
        .await?;
        match status.as_deref() {
            Some("active") => return Err(already_entered(id)),
            Some(_) => {
                sqlx::query(
                    "UPDATE tournament_entrants SET status = 'active', paused = 0, rating = $3, name = $4
                     WHERE tournament_id = $1 AND account_id = $2",
                )
                .bind(id)
                .bind(account)
                .bind(rating)
                .bind(name)
                .execute(&mut *tx)
                .await?;
            }
            None => {
                sqlx::query(
                    "INSERT INTO tournament_entrants
                         (tournament_id, account_id, name, rating, status, joined_at)
                     VALUES ($1, $2, $3, $4, 'active', $5)",
                )
                .bind(id)
                .bind(account)
                .bind(name)
                .bind(rating)
                .bind(now_ms())
                .execute(&mut *tx)
                .await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }

    /// Why tournament `id` does not take `account` now.
    async fn why_not_joinable(
        &self,
        id: TournamentId,
        account: AccountId,
    ) -> Result<StoreError, StoreError> {
        let row = sqlx::query(
            "SELECT status, entrants, max_entrants, entry,
                 (SELECT is_bot FROM accounts WHERE id = $2) AS is_bot
             FROM tournaments WHERE id = $1",
        )
        .bind(id)
        .bind(account)
        .fetch_optional(&self.write)
        .await?;
        let Some(row) = row else {
            return Ok(refused("no_such_tournament", format!("no tournament {id}")));
        };
        let status: String = row.try_get("status")?;
        let entrants: i64 = row.try_get("entrants")?;
        let max: i64 = row.try_get("max_entrants")?;
        let entry: String = row.try_get("entry")?;
        let entry = EntryRule::parse(&entry)
            .ok_or_else(|| StoreError::Corrupt(format!("tournament entry rule {entry:?}")))?;
        let bot = row.try_get::<Option<i64>, _>("is_bot")?.unwrap_or(0) != 0;
        Ok(match status.as_str() {
            "finished" | "cancelled" => {
                refused("tournament_over", format!("tournament {id} is over"))
            }
            _ if !entry.admits(bot) => entry_refused(id, entry),
            _ if entrants >= max => refused(
                "tournament_full",
                format!("tournament {id} is full ({max} entrants)"),
            ),
            _ => refused(
                "tournament_started",
                format!("tournament {id} has started and takes no more entrants"),
            ),
        })
    }

    /// Withdraw `account` from tournament `id` (its own entry: the caller passes the
    /// session's account). Its games not yet played become forfeits (the director's
    /// doing). Refused when it is not in the tournament or the tournament is over.
    pub async fn withdraw_from_tournament(
        &self,
        id: TournamentId,
        account: AccountId,
    ) -> Result<(), StoreError> {
        let mut tx = self.write.begin().await?;
        let open = sqlx::query(
            "UPDATE tournaments SET entrants = entrants - 1
             WHERE id = $1 AND status IN ('open', 'running') AND entrants > 0",
        )
        .bind(id)
        .execute(&mut *tx)
        .await?;
        if open.rows_affected() != 1 {
            drop(tx);
            return Err(match self.tournament(id).await? {
                None => refused("no_such_tournament", format!("no tournament {id}")),
                Some(t) if t.status.as_str() == "finished" || t.status.as_str() == "cancelled" => {
                    refused("tournament_over", format!("tournament {id} is over"))
                }
                Some(_) => refused("not_entered", format!("you are not in tournament {id}")),
            });
        }
        let left = sqlx::query(
            "UPDATE tournament_entrants SET status = 'withdrawn'
             WHERE tournament_id = $1 AND account_id = $2 AND status = 'active'",
        )
        .bind(id)
        .bind(account)
        .execute(&mut *tx)
        .await?;
        if left.rows_affected() != 1 {
            return Err(refused(
                "not_entered",
                format!("you are not in tournament {id}"),
            ));
        }
        tx.commit().await?;
        Ok(())
    }

    /// Everyone who joined tournament `id`, active or withdrawn, in joining order.
    pub async fn tournament_entrants(
        &self,
        id: TournamentId,
    ) -> Result<Vec<TournamentEntrant>, StoreError> {
        let rows = sqlx::query(
            "SELECT e.account_id, e.name, e.rating, e.status, e.paused, e.joined_at, a.is_bot
             FROM tournament_entrants e JOIN accounts a ON a.id = e.account_id
             WHERE e.tournament_id = $1 ORDER BY e.joined_at, e.account_id",
        )
        .bind(id)
        .fetch_all(&self.read)
        .await?;
        rows.iter().map(entrant_from_row).collect()
    }

    /// The entrants of tournament `id` among `accounts` (a game's seats): what a
    /// director needs to start one game, without reading a field of a thousand for it.
    pub async fn tournament_entrants_among(
        &self,
        id: TournamentId,
        accounts: &[AccountId],
    ) -> Result<Vec<TournamentEntrant>, StoreError> {
        if accounts.is_empty() {
            return Ok(Vec::new());
        }
        let placeholders: Vec<String> =
            (0..accounts.len()).map(|i| format!("${}", i + 2)).collect();
        let sql = format!(
            "SELECT e.account_id, e.name, e.rating, e.status, e.paused, e.joined_at, a.is_bot
             FROM tournament_entrants e JOIN accounts a ON a.id = e.account_id
             WHERE e.tournament_id = $1 AND e.account_id IN ({})",
            placeholders.join(", ")
        );
        let mut query = sqlx::query(&sql).bind(id);
        for account in accounts {
            query = query.bind(*account);
        }
        let rows = query.fetch_all(&self.read).await?;
        rows.iter().map(entrant_from_row).collect()
    }

    /// The open or running tournaments `account` takes part in (not withdrawn), with
    /// the node directing each: where a connection of a deployment names itself, so
    /// that the account's games reach it.
    pub async fn tournaments_entered(
        &self,
        account: AccountId,
    ) -> Result<Vec<(TournamentId, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT t.id, t.node FROM tournaments t
             JOIN tournament_entrants e ON e.tournament_id = t.id
             WHERE e.account_id = $1 AND e.status = 'active'
               AND t.status IN ('open', 'running')
             ORDER BY t.id",
        )
        .bind(account)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|row| Ok((row.try_get("id")?, row.try_get("node")?)))
            .collect()
    }

    /// Pause (or resume) `account`'s pairing in arena `id`: a paused entrant stays in
    /// the standings and is paired again once resumed. Refused, changing nothing, for a
    /// tournament that is not an arena, is over, or that `account` is not in.
    pub async fn pause_in_tournament(
        &self,
        id: TournamentId,
        account: AccountId,
        paused: bool,
    ) -> Result<(), StoreError> {
        let changed = sqlx::query(
            "UPDATE tournament_entrants SET paused = $3
             WHERE tournament_id = $1 AND account_id = $2 AND status = 'active'
               AND EXISTS (SELECT 1 FROM tournaments
                           WHERE id = $1 AND format = 'arena' AND status IN ('open', 'running'))",
        )
        .bind(id)
        .bind(account)
        .bind(i64::from(paused))
        .execute(&self.write)
        .await?;
        if changed.rows_affected() == 1 {
            return Ok(());
        }
        Err(match self.tournament(id).await? {
            None => refused("no_such_tournament", format!("no tournament {id}")),
            Some(t) if t.format != "arena" => refused(
                "not_an_arena",
                format!("only an arena pauses; tournament {id} is {}", t.format),
            ),
            Some(t) if t.status.as_str() == "finished" || t.status.as_str() == "cancelled" => {
                refused("tournament_over", format!("tournament {id} is over"))
            }
            Some(_) => refused("not_entered", format!("you are not in tournament {id}")),
        })
    }
}

/// The refusal of an account of the kind tournament `id`'s rule `entry` leaves out.
fn entry_refused(id: TournamentId, entry: EntryRule) -> StoreError {
    match entry {
        EntryRule::Bots => refused(
            "entry_bots_only",
            format!("tournament {id} is for bots only, and this account is a person's (a bot says it is one with \"bot\": true when it registers or logs in)"),
        ),
        _ => refused(
            "entry_people_only",
            format!("tournament {id} is for people only, and this account is a bot's"),
        ),
    }
}

fn already_entered(id: TournamentId) -> StoreError {
    refused(
        "already_entered",
        format!("you are already in tournament {id}"),
    )
}

/// One row of `tournament_entrants`, as read by the queries above.
fn entrant_from_row(row: &sqlx::any::AnyRow) -> Result<TournamentEntrant, StoreError> {
    let status: String = row.try_get("status")?;
    Ok(TournamentEntrant {
        account_id: row.try_get("account_id")?,
        name: row.try_get("name")?,
        bot: row.try_get::<i64, _>("is_bot")? != 0,
        rating: row.try_get("rating")?,
        status: match status.as_str() {
            "active" => EntrantStatus::Active,
            "withdrawn" => EntrantStatus::Withdrawn,
            other => return Err(StoreError::Corrupt(format!("entrant status {other:?}"))),
        },
        paused: row.try_get::<i64, _>("paused")? != 0,
        joined_at: row.try_get("joined_at")?,
    })
}
