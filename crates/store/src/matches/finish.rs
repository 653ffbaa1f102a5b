//! Ending a match: finished with an outcome (and its rating changes, in the same
//! transaction), or aborted with its log kept.

use arbiter_engine::Outcome;
use sqlx::Row;

use super::log_tail::LOG_LENGTH_SQL;
use super::rows::unsigned;
use super::stand_ins;
use super::{FinishedMatch, MatchId, SeatResult};
use crate::accounts::AccountId;
use crate::clock::now_ms;
use crate::connect::Store;
use crate::error::StoreError;
use crate::ratings::{self, RatingSystem};

impl Store {
    /// Mark a running match finished with `outcome` (per-seat ranks, scores and
    /// ejection reasons are stored beside the outcome JSON). A rated match moves the
    /// ratings of its seated accounts in the same transaction: a crash leaves either
    /// both or neither. A seat the house bot still holds (its stand-in never ended, see
    /// `stand_ins`) is its player's loss, and places below every seat whose player
    /// stayed in the ratings, whatever the bot achieved; its stored rank stays the
    /// game's. `log_entries` is the length of the caller's log: a match whose
    /// stored log is shorter (or longer) is refused, so a finished match is never served
    /// with part of its log.
    pub async fn finish_match(
        &self,
        match_id: MatchId,
        outcome: &Outcome,
        log_entries: usize,
    ) -> Result<FinishedMatch, StoreError> {
        let mut tx = self.write.begin().await?;
        let seat_rows = sqlx::query(
            "SELECT account_id, name FROM match_seats WHERE match_id = $1 ORDER BY seat",
        )
        .bind(match_id)
        .fetch_all(&mut *tx)
        .await?;
        if seat_rows.is_empty() {
            return Err(StoreError::UnknownMatch(match_id));
        }
        let seats: Vec<Option<AccountId>> = seat_rows
            .iter()
            .map(|row| row.try_get("account_id"))
            .collect::<Result<_, _>>()?;
        let names: Vec<String> = seat_rows
            .iter()
            .map(|row| row.try_get("name"))
            .collect::<Result<_, _>>()?;
        check_outcome(outcome, seats.len())?;
        let stored: i64 = sqlx::query_scalar(LOG_LENGTH_SQL)
            .bind(match_id)
            .fetch_one(&mut *tx)
            .await?;
        let stored = unsigned::<u64>(stored, "log length")?;
        if stored != log_entries as u64 {
            return Err(StoreError::IncompleteLog {
                match_id,
                stored,
                expected: log_entries as u64,
            });
        }
        let outcome_json = serde_json::to_string(outcome)
            .map_err(|e| StoreError::InvalidResult(format!("unserializable outcome: {e}")))?;
        let now = now_ms();
        // Guarded on status so two finishers (or a finisher and an abort) cannot both win.
        let updated = sqlx::query(
            "UPDATE matches SET status = 'finished', outcome = $2, end_reason = $3, finished_at = $4
             WHERE id = $1 AND status = 'running' AND node = $5
             RETURNING ruleset, rating_system",
        )
        .bind(match_id)
        .bind(outcome_json)
        // The match's one line for people names the winners by their seat names.
        .bind(outcome.headline(&names))
        .bind(now)
        .bind(&*self.node)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or(StoreError::NotRunning(match_id))?;
        let ruleset: String = updated.try_get("ruleset")?;
        let system: Option<String> = updated.try_get("rating_system")?;

        // Read after the update above, which locks the match's row until commit: a
        // stand-in written concurrently (it locks the same row first) is either counted
        // here or refused as the match is no longer running.
        let leavers = stand_ins::left_seats(&mut tx, match_id).await?;
        // The ranks results and ratings count: a seat whose player left to the house bot
        // ranks below every seat whose player stayed. The stored ranks and outcome stay
        // the game's own, which a replay verifies.
        let counted = outcome.ranks_with_leavers(&leavers);
        let winners = counted_winners(outcome, &counted, &leavers);
        for seat in 0..seats.len() {
            let result = if !winners.contains(&seat) {
                SeatResult::Loss
            } else if winners.len() == 1 {
                SeatResult::Win
            } else {
                SeatResult::Draw
            };
            sqlx::query(
                "UPDATE match_seats SET rank = $3, score = $4, ejected = $5, result = $6
                 WHERE match_id = $1 AND seat = $2",
            )
            .bind(match_id)
            .bind(seat as i64)
            .bind(i64::from(outcome.ranks[seat]))
            .bind(outcome.scores[seat])
            .bind(outcome.ejected[seat].as_deref())
            .bind(result.as_str())
            .execute(&mut *tx)
            .await?;
        }

        let mut rating_changes = Vec::new();
        if let Some(system) = system.as_deref().map(RatingSystem::parse).transpose()? {
            let placings: Vec<(AccountId, u32)> = seats
                .iter()
                .zip(&counted)
                .filter_map(|(account, rank)| account.map(|a| (a, *rank)))
                .collect();
            if placings.len() >= 2 {
                rating_changes =
                    ratings::apply_in(&mut tx, &ruleset, system, Some(match_id), &placings, now)
                        .await?;
            }
        }
        tx.commit().await?;
        self.appends.match_ended(match_id);
        Ok(FinishedMatch {
            id: match_id,
            rating_changes,
        })
    }

    /// Mark a running match of this node aborted (no outcome, no rating change),
    /// keeping its log. A match another node has taken over is not this node's to end.
    pub async fn abort_match(&self, match_id: MatchId, reason: &str) -> Result<(), StoreError> {
        let done = sqlx::query(
            "UPDATE matches SET status = 'aborted', end_reason = $2, finished_at = $3
             WHERE id = $1 AND status = 'running' AND node = $4",
        )
        .bind(match_id)
        .bind(reason)
        .bind(now_ms())
        .bind(&*self.node)
        .execute(&self.write)
        .await?;
        if done.rows_affected() == 1 {
            self.appends.match_ended(match_id);
            return Ok(());
        }
        let exists: Option<i64> = sqlx::query_scalar("SELECT id FROM matches WHERE id = $1")
            .bind(match_id)
            .fetch_optional(&self.write)
            .await?;
        Err(match exists {
            Some(_) => StoreError::NotRunning(match_id),
            None => StoreError::UnknownMatch(match_id),
        })
    }
}

/// The seats sharing first place as results count it: first in `counted` (the ranks
/// with leavers moved down), not ejected, and not left to the house bot (when every
/// seat was left, nobody wins).
fn counted_winners(outcome: &Outcome, counted: &[u32], leavers: &[usize]) -> Vec<usize> {
    (0..counted.len())
        .filter(|&seat| {
            counted[seat] == 1 && outcome.ejected[seat].is_none() && !leavers.contains(&seat)
        })
        .collect()
}

fn check_outcome(outcome: &Outcome, seats: usize) -> Result<(), StoreError> {
    if outcome.ranks.len() != seats
        || outcome.scores.len() != seats
        || outcome.ejected.len() != seats
    {
        return Err(StoreError::InvalidResult(format!(
            "the outcome has {} ranks, {} scores and {} ejection entries for {seats} seats",
            outcome.ranks.len(),
            outcome.scores.len(),
            outcome.ejected.len()
        )));
    }
    if outcome.ranks.contains(&0) {
        return Err(StoreError::InvalidResult("ranks start at 1".into()));
    }
    Ok(())
}
