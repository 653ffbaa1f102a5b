//! A tournament's rounds: each round's pairings and byes written at once, each game's
//! match recorded when it starts and its ranks when it is decided.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::{refused, NewRound, TournamentBye, TournamentGame, TournamentId};
use crate::connect::Store;
use crate::error::StoreError;
use crate::matches::rows::unsigned;
use crate::matches::MatchId;

impl Store {
    /// Write round `new.round`'s pairings and byes, and make it the tournament's latest
    /// round, in one transaction. Only the round after the latest one written is taken
    /// (and only while the tournament runs, and only by its node), so a director that is
    /// restarted, or two that race (one cut off while another node took the tournament
    /// over), cannot write a round twice. Returns the round's games.
    pub async fn write_round(
        &self,
        id: TournamentId,
        new: &NewRound,
    ) -> Result<Vec<TournamentGame>, StoreError> {
        let mut tx = self.write.begin().await?;
        let next = sqlx::query(
            "UPDATE tournaments SET round = $2
             WHERE id = $1 AND round = $3 AND status = 'running' AND node = $4",
        )
        .bind(id)
        .bind(i64::from(new.round))
        .bind(i64::from(new.round) - 1)
        .bind(&*self.node)
        .execute(&mut *tx)
        .await?;
        if next.rows_affected() != 1 {
            return Err(refused(
                "round_written",
                format!(
                    "round {} of tournament {id} cannot be written: it is not the next round of a running tournament of this node",
                    new.round
                ),
            ));
        }
        let mut games = Vec::with_capacity(new.games.len());
        for (seats, ranks) in &new.games {
            let game_id: i64 = sqlx::query_scalar(
                "INSERT INTO tournament_games (tournament_id, round, seats, ranks, forfeit)
                 VALUES ($1, $2, $3, $4, $5) RETURNING id",
            )
            .bind(id)
            .bind(i64::from(new.round))
            .bind(json(seats))
            .bind(ranks.as_deref().map(json))
            .bind(i64::from(ranks.is_some()))
            .fetch_one(&mut *tx)
            .await?;
            games.push(TournamentGame {
                id: game_id,
                round: new.round,
                seats: seats.clone(),
                match_id: None,
                ranks: ranks.clone(),
                forfeit: ranks.is_some(),
            });
        }
        for account in &new.byes {
            sqlx::query(
                "INSERT INTO tournament_byes (tournament_id, round, account_id) VALUES ($1, $2, $3)",
            )
            .bind(id)
            .bind(i64::from(new.round))
            .bind(account)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(games)
    }

    /// Game `game` ended with `ranks` (in seat order); `forfeit` when it was decided
    /// without play. Once: a decided game keeps its ranks (returns false then).
    pub async fn decide_game(
        &self,
        game: i64,
        ranks: &[u8],
        forfeit: bool,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE tournament_games SET ranks = $2, forfeit = $3 WHERE id = $1 AND ranks IS NULL",
        )
        .bind(game)
        .bind(json(ranks))
        .bind(i64::from(forfeit))
        .execute(&self.write)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The tournament whose game match `match_id` played, if any (a page showing the
    /// match links back to it).
    pub async fn tournament_of_match(
        &self,
        match_id: MatchId,
    ) -> Result<Option<TournamentId>, StoreError> {
        let id = sqlx::query_scalar(
            "SELECT tournament_id FROM tournament_games WHERE match_id = $1 LIMIT 1",
        )
        .bind(match_id)
        .fetch_optional(&self.read)
        .await?;
        Ok(id)
    }

    /// Every game of tournament `id`, by round.
    pub async fn tournament_games(
        &self,
        id: TournamentId,
    ) -> Result<Vec<TournamentGame>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, round, seats, match_id, ranks, forfeit FROM tournament_games
             WHERE tournament_id = $1 ORDER BY round, id",
        )
        .bind(id)
        .fetch_all(&self.read)
        .await?;
        rows.iter().map(game_from_row).collect()
    }

    /// Every bye of tournament `id`, by round.
    pub async fn tournament_byes(
        &self,
        id: TournamentId,
    ) -> Result<Vec<TournamentBye>, StoreError> {
        let rows = sqlx::query(
            "SELECT round, account_id FROM tournament_byes WHERE tournament_id = $1
             ORDER BY round, account_id",
        )
        .bind(id)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(TournamentBye {
                    round: unsigned(row.try_get("round")?, "round")?,
                    account_id: row.try_get("account_id")?,
                })
            })
            .collect()
    }
}

fn json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "[]".to_string())
}

fn game_from_row(row: &AnyRow) -> Result<TournamentGame, StoreError> {
    let seats: String = row.try_get("seats")?;
    let ranks: Option<String> = row.try_get("ranks")?;
    let corrupt = |e: serde_json::Error| StoreError::Corrupt(format!("tournament game: {e}"));
    Ok(TournamentGame {
        id: row.try_get("id")?,
        round: unsigned(row.try_get("round")?, "round")?,
        seats: serde_json::from_str(&seats).map_err(corrupt)?,
        match_id: row.try_get("match_id")?,
        ranks: ranks
            .as_deref()
            .map(serde_json::from_str)
            .transpose()
            .map_err(corrupt)?,
        forfeit: row.try_get::<i64, _>("forfeit")? != 0,
    })
}
