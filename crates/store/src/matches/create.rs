//! Recording a match as it starts.

use std::collections::HashSet;

use arbiter_engine::record::RECORD_FORMAT;

use super::{MatchId, NewMatch};
use crate::clock::now_ms;
use crate::connect::Store;
use crate::error::{is_foreign_key_violation, StoreError};
use crate::ratings::RatingSystem;
use crate::tournaments::refused;

/// Longest ruleset id, seat name or bot name accepted.
const MAX_LABEL_LEN: usize = 64;
/// More seats than any ruleset has; a guard against runaway input.
const MAX_SEATS: usize = 64;

impl Store {
    /// Record a starting match (status `running`), linked to its tournament game if it
    /// plays one, and return its id. Write its log with [`Store::append_log`] as it
    /// goes, then [`Store::finish_match`].
    pub async fn create_match(&self, new: &NewMatch) -> Result<MatchId, StoreError> {
        validate(new)?;
        let mut tx = self.write.begin().await?;
        let id: MatchId = sqlx::query_scalar(
            "INSERT INTO matches (ruleset, config, seed, record_format, initial_digest,
                                  rating_system, node, status, created_at, terms)
             VALUES ($1, $2, $3, $4, $5, $6, $7, 'running', $8, $9) RETURNING id",
        )
        .bind(&new.ruleset)
        .bind(new.config.to_string())
        .bind(new.seed.to_string())
        .bind(i64::from(RECORD_FORMAT))
        .bind(&new.initial_digest)
        .bind(new.rating.map(RatingSystem::as_str))
        .bind(&*self.node)
        .bind(now_ms())
        .bind(
            new.terms
                .as_ref()
                .map(|terms| serde_json::to_string(terms).unwrap_or_default()),
        )
        .fetch_one(&mut *tx)
        .await?;
        for (seat, record) in new.seats.iter().enumerate() {
            sqlx::query(
                "INSERT INTO match_seats (match_id, seat, name, account_id, bot)
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(id)
            .bind(seat as i64)
            .bind(&record.name)
            .bind(record.account_id)
            .bind(record.bot.as_deref())
            .execute(&mut *tx)
            .await
            .map_err(|e| {
                if is_foreign_key_violation(&e) {
                    StoreError::InvalidMatch(format!(
                        "seat {seat}: no account with id {}",
                        record.account_id.unwrap_or_default()
                    ))
                } else {
                    e.into()
                }
            })?;
        }
        if let Some(game) = new.tournament_game {
            let linked = sqlx::query(
                "UPDATE tournament_games SET match_id = $1
                 WHERE id = $2 AND ranks IS NULL AND tournament_id IN
                   (SELECT id FROM tournaments
                    WHERE node = $3 AND status IN ('open', 'running'))",
            )
            .bind(id)
            .bind(game)
            .bind(&*self.node)
            .execute(&mut *tx)
            .await?;
            if linked.rows_affected() != 1 {
                // Dropping the transaction takes the match back: nothing was recorded.
                return Err(refused(
                    "game_not_directed_here",
                    format!(
                        "tournament game {game} is decided, or its tournament is \
                         directed by another node now"
                    ),
                ));
            }
        }
        tx.commit().await?;
        self.appends.match_started(id);
        Ok(id)
    }
}

fn validate(new: &NewMatch) -> Result<(), StoreError> {
    let invalid = |why: String| Err(StoreError::InvalidMatch(why));
    if new.ruleset.is_empty() || new.ruleset.len() > MAX_LABEL_LEN {
        return invalid(format!("ruleset id {:?}", new.ruleset));
    }
    if new.seats.is_empty() || new.seats.len() > MAX_SEATS {
        return invalid(format!("{} seats", new.seats.len()));
    }
    for (seat, record) in new.seats.iter().enumerate() {
        if record.name.is_empty() || record.name.len() > MAX_LABEL_LEN {
            return invalid(format!("seat {seat}: name {:?}", record.name));
        }
        if record.bot.as_ref().is_some_and(|b| b.len() > MAX_LABEL_LEN) {
            return invalid(format!("seat {seat}: bot name too long"));
        }
    }
    if let Some(system) = new.rating {
        let accounts: Vec<_> = new.seats.iter().filter_map(|s| s.account_id).collect();
        let distinct: HashSet<_> = accounts.iter().collect();
        if distinct.len() != accounts.len() {
            return invalid("a rated match seats each account at most once".into());
        }
        if system == RatingSystem::Elo && new.seats.len() != 2 {
            return invalid(format!(
                "Elo rates two-seat matches, not {} seats",
                new.seats.len()
            ));
        }
    }
    Ok(())
}
