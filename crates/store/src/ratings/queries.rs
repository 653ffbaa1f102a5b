//! Reading ratings: one account's, a ruleset's leaderboard, an account's history.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::{LeaderboardEntry, Rating, RatingPoint, RatingSystem};
use crate::accounts::AccountId;
use crate::connect::Store;
use crate::error::StoreError;
use crate::matches::MAX_LIST_LIMIT;

const RATING_COLUMNS: &str = "r.account_id, a.name, r.ruleset, r.system, r.display, r.mu,
     r.sigma, r.games, r.updated_at";

impl Store {
    /// The account's rating in `ruleset`, or `None` before its first rated match there.
    pub async fn rating(
        &self,
        account_id: AccountId,
        ruleset: &str,
    ) -> Result<Option<Rating>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {RATING_COLUMNS} FROM ratings r JOIN accounts a ON a.id = r.account_id
             WHERE r.account_id = $1 AND r.ruleset = $2 AND r.games > 0"
        ))
        .bind(account_id)
        .bind(ruleset)
        .fetch_optional(&self.read)
        .await?;
        row.as_ref().map(rating_from_row).transpose()
    }

    /// Every ruleset the account has a rating in, by ruleset id.
    pub async fn ratings_of(&self, account_id: AccountId) -> Result<Vec<Rating>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {RATING_COLUMNS} FROM ratings r JOIN accounts a ON a.id = r.account_id
             WHERE r.account_id = $1 AND r.games > 0 ORDER BY r.ruleset"
        ))
        .bind(account_id)
        .fetch_all(&self.read)
        .await?;
        rows.iter().map(rating_from_row).collect()
    }

    /// The best `limit` (at most 200) rated accounts in `ruleset`: highest shown rating
    /// first, then most games, then earliest account.
    pub async fn leaderboard(
        &self,
        ruleset: &str,
        limit: u32,
    ) -> Result<Vec<LeaderboardEntry>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {RATING_COLUMNS} FROM ratings r JOIN accounts a ON a.id = r.account_id
             WHERE r.ruleset = $1 AND r.games > 0
             ORDER BY r.display DESC, r.games DESC, r.account_id ASC LIMIT $2"
        ))
        .bind(ruleset)
        .bind(i64::from(limit.clamp(1, MAX_LIST_LIMIT)))
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .enumerate()
            .map(|(i, row)| {
                let r = rating_from_row(row)?;
                Ok(LeaderboardEntry {
                    position: i as u32 + 1,
                    account_id: r.account_id,
                    name: r.name,
                    display: r.display,
                    mu: r.mu,
                    sigma: r.sigma,
                    games: r.games,
                })
            })
            .collect()
    }

    /// The account's rating after each of its last `limit` (at most 200) rated results
    /// in `ruleset`, oldest first.
    pub async fn rating_history(
        &self,
        account_id: AccountId,
        ruleset: &str,
        limit: u32,
    ) -> Result<Vec<RatingPoint>, StoreError> {
        let rows = sqlx::query(
            "SELECT match_id, display, mu, sigma, at FROM rating_history
             WHERE account_id = $1 AND ruleset = $2 ORDER BY id DESC LIMIT $3",
        )
        .bind(account_id)
        .bind(ruleset)
        .bind(i64::from(limit.clamp(1, MAX_LIST_LIMIT)))
        .fetch_all(&self.read)
        .await?;
        let mut points = rows
            .iter()
            .map(|row| {
                Ok(RatingPoint {
                    match_id: row.try_get("match_id")?,
                    display: row.try_get("display")?,
                    mu: row.try_get("mu")?,
                    sigma: row.try_get("sigma")?,
                    at: row.try_get("at")?,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        points.reverse();
        Ok(points)
    }
}

fn rating_from_row(row: &AnyRow) -> Result<Rating, StoreError> {
    let system: String = row.try_get("system")?;
    let games: i64 = row.try_get("games")?;
    Ok(Rating {
        account_id: row.try_get("account_id")?,
        name: row.try_get("name")?,
        ruleset: row.try_get("ruleset")?,
        system: RatingSystem::parse(&system)?,
        display: row.try_get("display")?,
        mu: row.try_get("mu")?,
        sigma: row.try_get("sigma")?,
        games: u64::try_from(games)
            .map_err(|_| StoreError::Corrupt(format!("rating games {games}")))?,
        updated_at: row.try_get("updated_at")?,
    })
}
