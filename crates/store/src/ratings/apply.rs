//! Applying one rated result: read, compute and write every player's rating inside one
//! transaction, with each row locked (PostgreSQL) so concurrent results never lose an
//! update.

use std::collections::HashSet;

use sqlx::{AnyConnection, Row};

use super::math::{self, Skill};
use super::{RatingChange, RatingSystem};
use crate::accounts::AccountId;
use crate::clock::now_ms;
use crate::connect::Store;
use crate::error::{is_foreign_key_violation, is_unique_violation, StoreError};
use crate::matches::MatchId;

impl Store {
    /// Rate one result outside a match the store ran (a tournament game, say):
    /// `placings` pairs each account with its place (1 = best, equal places tie).
    /// `match_id`, when given, is recorded in the history and can be rated only once.
    /// Matches created with a rating system are rated by [`Store::finish_match`].
    pub async fn apply_result(
        &self,
        ruleset: &str,
        system: RatingSystem,
        match_id: Option<MatchId>,
        placings: &[(AccountId, u32)],
    ) -> Result<Vec<RatingChange>, StoreError> {
        let mut tx = self.write.begin().await?;
        let changes = apply_in(&mut tx, ruleset, system, match_id, placings, now_ms()).await?;
        tx.commit().await?;
        Ok(changes)
    }
}

/// The work of `apply_result`, inside the caller's transaction.
pub(crate) async fn apply_in(
    conn: &mut AnyConnection,
    ruleset: &str,
    system: RatingSystem,
    match_id: Option<MatchId>,
    placings: &[(AccountId, u32)],
    now: i64,
) -> Result<Vec<RatingChange>, StoreError> {
    let accounts: HashSet<AccountId> = placings.iter().map(|(a, _)| *a).collect();
    if accounts.len() != placings.len() {
        return Err(StoreError::InvalidResult(
            "an account is placed more than once".into(),
        ));
    }
    if placings.iter().any(|(_, rank)| *rank == 0) {
        return Err(StoreError::InvalidResult("places start at 1".into()));
    }
    if placings.len() < 2 {
        return Err(StoreError::InvalidResult(
            "a rated result needs two or more accounts".into(),
        ));
    }

    // Lock in account order, so two results sharing players cannot deadlock.
    let mut order: Vec<AccountId> = accounts.into_iter().collect();
    order.sort_unstable();
    let start = math::initial(system);
    let mut current = std::collections::HashMap::new();
    for &account in &order {
        sqlx::query(
            "INSERT INTO ratings (account_id, ruleset, system, mu, sigma, display, games, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, 0, $7)
             ON CONFLICT (account_id, ruleset) DO NOTHING",
        )
        .bind(account)
        .bind(ruleset)
        .bind(system.as_str())
        .bind(start.mu)
        .bind(start.sigma)
        .bind(math::display(system, start))
        .bind(now)
        .execute(&mut *conn)
        .await
        .map_err(|e| {
            if is_foreign_key_violation(&e) {
                StoreError::UnknownAccountId(account)
            } else {
                e.into()
            }
        })?;
        // A no-op update takes the row lock and returns the latest committed values.
        let row = sqlx::query(
            "UPDATE ratings SET games = games WHERE account_id = $1 AND ruleset = $2
             RETURNING system, mu, sigma, display",
        )
        .bind(account)
        .bind(ruleset)
        .fetch_one(&mut *conn)
        .await?;
        let stored: String = row.try_get("system")?;
        if stored != system.as_str() {
            return Err(StoreError::RatingSystemMismatch {
                ruleset: ruleset.to_string(),
                stored,
                requested: system.as_str().to_string(),
            });
        }
        let skill = Skill {
            mu: row.try_get("mu")?,
            sigma: row.try_get("sigma")?,
        };
        let display: i64 = row.try_get("display")?;
        current.insert(account, (skill, display));
    }

    let skills: Vec<Skill> = placings.iter().map(|(a, _)| current[a].0).collect();
    let ranks: Vec<u32> = placings.iter().map(|(_, r)| *r).collect();
    let updated = math::update(system, &skills, &ranks)?;

    let mut changes = Vec::with_capacity(placings.len());
    for ((account, _), skill) in placings.iter().zip(updated) {
        let after = math::display(system, skill);
        sqlx::query(
            "UPDATE ratings SET mu = $3, sigma = $4, display = $5, games = games + 1, updated_at = $6
             WHERE account_id = $1 AND ruleset = $2",
        )
        .bind(account)
        .bind(ruleset)
        .bind(skill.mu)
        .bind(skill.sigma)
        .bind(after)
        .bind(now)
        .execute(&mut *conn)
        .await?;
        sqlx::query(
            "INSERT INTO rating_history (account_id, ruleset, match_id, mu, sigma, display, at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(account)
        .bind(ruleset)
        .bind(match_id)
        .bind(skill.mu)
        .bind(skill.sigma)
        .bind(after)
        .bind(now)
        .execute(&mut *conn)
        .await
        .map_err(|e| {
            if is_unique_violation(&e) {
                StoreError::InvalidResult(format!(
                    "match {} was already rated",
                    match_id.unwrap_or_default()
                ))
            } else if is_foreign_key_violation(&e) {
                StoreError::UnknownMatch(match_id.unwrap_or_default())
            } else {
                e.into()
            }
        })?;
        changes.push(RatingChange {
            account_id: *account,
            before: current[account].1,
            after,
            mu: skill.mu,
            sigma: skill.sigma,
        });
    }
    Ok(changes)
}
