//! A player's page: the account, its ratings, its record and its latest matches.

use serde::Serialize;
use sqlx::Row;

use crate::accounts::Account;
use crate::connect::Store;
use crate::error::StoreError;
use crate::matches::{MatchFilter, MatchSummary};
use crate::ratings::Rating;

/// How many recent matches a profile lists.
const RECENT_MATCHES: u32 = 20;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerProfile {
    pub account: Account,
    /// One per ruleset the player is rated in.
    pub ratings: Vec<Rating>,
    pub counts: PlayerCounts,
    /// Newest first.
    pub recent: Vec<MatchSummary>,
}

/// Seats the account has held, by how they ended (an account seated twice in one match
/// counts twice).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct PlayerCounts {
    pub seats: u64,
    pub running: u64,
    pub finished: u64,
    pub aborted: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Store {
    /// The profile of the account named `name` (any case), if it exists.
    pub async fn player_profile(&self, name: &str) -> Result<Option<PlayerProfile>, StoreError> {
        let Some(account) = self.account_by_name(name).await? else {
            return Ok(None);
        };
        let row = sqlx::query(
            "SELECT COUNT(*) AS seats,
                    COUNT(CASE WHEN m.status = 'running' THEN 1 END) AS running,
                    COUNT(CASE WHEN m.status = 'finished' THEN 1 END) AS finished,
                    COUNT(CASE WHEN m.status = 'aborted' THEN 1 END) AS aborted,
                    COUNT(CASE WHEN s.result = 'win' THEN 1 END) AS wins,
                    COUNT(CASE WHEN s.result = 'draw' THEN 1 END) AS draws,
                    COUNT(CASE WHEN s.result = 'loss' THEN 1 END) AS losses
             FROM match_seats s JOIN matches m ON m.id = s.match_id
             WHERE s.account_id = $1",
        )
        .bind(account.id)
        .fetch_one(&self.read)
        .await?;
        let count = |column: &str| -> Result<u64, StoreError> {
            let n: i64 = row.try_get(column)?;
            u64::try_from(n).map_err(|_| StoreError::Corrupt(format!("{column} count {n}")))
        };
        let counts = PlayerCounts {
            seats: count("seats")?,
            running: count("running")?,
            finished: count("finished")?,
            aborted: count("aborted")?,
            wins: count("wins")?,
            draws: count("draws")?,
            losses: count("losses")?,
        };
        let ratings = self.ratings_of(account.id).await?;
        let recent = self
            .list_matches(&MatchFilter {
                player: Some(account.name.clone()),
                limit: Some(RECENT_MATCHES),
                ..MatchFilter::default()
            })
            .await?;
        Ok(Some(PlayerProfile {
            account,
            ratings,
            counts,
            recent,
        }))
    }
}
