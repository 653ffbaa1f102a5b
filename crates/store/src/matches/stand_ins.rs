//! Stand-ins: the referee's house bot playing a seat whose player went silent past the
//! grace, from a log step until the player takes the seat back or the match ends.
//!
//! Why they are stored, not only kept by the referee: a seat the bot still holds when
//! the match finishes is its player's loss (for the seat's result and for ratings, see
//! `finish_match`), whatever the bot achieved, and that must survive a restart and be
//! the same on every node that reads the match. The log itself is unchanged: it holds
//! every action whoever chose it, so a replay verifies as before.
//!
//! Both writes first lock the match's row by a guarded no-op update (status `running`,
//! this node), as `finish_match` locks it by finishing: a stand-in is then written
//! either wholly before the match finishes (and counted) or refused, never in between
//! where the stored results would disagree with the stand-ins a record shows.

use sqlx::{AnyConnection, Row};

use super::rows::{signed, unsigned};
use super::MatchId;
use crate::connect::Store;
use crate::error::StoreError;

impl Store {
    /// Record that the house bot `bot` plays `seat` of a running match of this node from
    /// log step `from_step` (the number of log entries before its first decision).
    ///
    /// Idempotent: the same stand-in already open is `Ok` (a write retried after a lost
    /// answer). Refused for a match that is not running here (`NotRunning`: a finished
    /// match's results are already counted; another node's match is not ours to say who
    /// plays), and as `InvalidMatch` for an unknown seat, a seat another stand-in holds
    /// already, or a step before the seat's player last took it back (the stretches of
    /// one seat never overlap).
    pub async fn stand_in_began(
        &self,
        match_id: MatchId,
        seat: usize,
        bot: &str,
        from_step: usize,
    ) -> Result<(), StoreError> {
        let seat_i = signed(seat, "seat")?;
        let from = signed(from_step, "step")?;
        let invalid =
            |why: String| Err(StoreError::InvalidMatch(format!("match {match_id}: {why}")));
        let mut tx = self.write.begin().await?;
        self.lock_running(&mut tx, match_id).await?;
        let seats: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM match_seats WHERE match_id = $1")
            .bind(match_id)
            .fetch_one(&mut *tx)
            .await?;
        if seat_i >= seats {
            return invalid(format!("no seat {seat} in a match of {seats} seats"));
        }
        let open = sqlx::query(
            "SELECT bot, from_step FROM match_stand_ins
             WHERE match_id = $1 AND seat = $2 AND until_step IS NULL",
        )
        .bind(match_id)
        .bind(seat_i)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(open) = open {
            let open_bot: String = open.try_get("bot")?;
            let open_from: i64 = open.try_get("from_step")?;
            if open_bot == bot && open_from == from {
                return Ok(());
            }
            return invalid(format!(
                "seat {seat} is held by the house bot {open_bot:?} since step {open_from}"
            ));
        }
        let taken_back: Option<i64> = sqlx::query_scalar(
            "SELECT MAX(until_step) FROM match_stand_ins WHERE match_id = $1 AND seat = $2",
        )
        .bind(match_id)
        .bind(seat_i)
        .fetch_one(&mut *tx)
        .await?;
        if let Some(taken_back) = taken_back.filter(|&step| step > from) {
            return invalid(format!(
                "seat {seat}'s player took it back at step {taken_back}, after step {from_step}"
            ));
        }
        // A stretch that ended where it began (the player came back before the bot
        // chose anything) shares this one's key: it opens again, as one stretch.
        sqlx::query(
            "INSERT INTO match_stand_ins (match_id, seat, bot, from_step) VALUES ($1, $2, $3, $4)
             ON CONFLICT (match_id, seat, from_step)
             DO UPDATE SET bot = excluded.bot, until_step = NULL",
        )
        .bind(match_id)
        .bind(seat_i)
        .bind(bot)
        .bind(from)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Record that `seat`'s player took the seat back from the house bot at log step
    /// `at_step`: the open stand-in ends there, and the seat counts as played by its
    /// player when the match finishes.
    ///
    /// Idempotent: a stand-in of the seat already ended at `at_step` is `Ok`. Refused for
    /// a match that is not running here (`NotRunning`: once finished, the seat was
    /// counted as left, and ending the stand-in afterwards would make the record
    /// disagree with the stored results), and as `InvalidMatch` when no house bot holds
    /// the seat or `at_step` is before the bot began.
    pub async fn stand_in_ended(
        &self,
        match_id: MatchId,
        seat: usize,
        at_step: usize,
    ) -> Result<(), StoreError> {
        let seat_i = signed(seat, "seat")?;
        let at = signed(at_step, "step")?;
        let mut tx = self.write.begin().await?;
        self.lock_running(&mut tx, match_id).await?;
        let ended = sqlx::query(
            "UPDATE match_stand_ins SET until_step = $3
             WHERE match_id = $1 AND seat = $2 AND until_step IS NULL AND from_step <= $3",
        )
        .bind(match_id)
        .bind(seat_i)
        .bind(at)
        .execute(&mut *tx)
        .await?;
        if ended.rows_affected() > 0 {
            tx.commit().await?;
            return Ok(());
        }
        let open: Option<i64> = sqlx::query_scalar(
            "SELECT from_step FROM match_stand_ins
             WHERE match_id = $1 AND seat = $2 AND until_step IS NULL",
        )
        .bind(match_id)
        .bind(seat_i)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(from) = open {
            return Err(StoreError::InvalidMatch(format!(
                "match {match_id}: seat {seat} cannot be taken back at step {at_step}, \
                 before the house bot began at step {from}"
            )));
        }
        let already: Option<i64> = sqlx::query_scalar(
            "SELECT from_step FROM match_stand_ins
             WHERE match_id = $1 AND seat = $2 AND until_step = $3",
        )
        .bind(match_id)
        .bind(seat_i)
        .bind(at)
        .fetch_optional(&mut *tx)
        .await?;
        match already {
            Some(_) => Ok(()),
            None => Err(StoreError::InvalidMatch(format!(
                "match {match_id}: no house bot holds seat {seat}"
            ))),
        }
    }

    /// Lock the row of `match_id`, a running match of this node, for the rest of the
    /// transaction (PostgreSQL holds an updated row's lock until commit; SQLite's writer
    /// holds the whole database), so that `finish_match` waits for this transaction or
    /// this one sees the match finished. `NotRunning` or `UnknownMatch` otherwise.
    async fn lock_running(
        &self,
        conn: &mut AnyConnection,
        match_id: MatchId,
    ) -> Result<(), StoreError> {
        let locked = sqlx::query(
            "UPDATE matches SET node = node WHERE id = $1 AND status = 'running' AND node = $2",
        )
        .bind(match_id)
        .bind(&*self.node)
        .execute(&mut *conn)
        .await?;
        if locked.rows_affected() == 1 {
            return Ok(());
        }
        let exists: Option<i64> = sqlx::query_scalar("SELECT id FROM matches WHERE id = $1")
            .bind(match_id)
            .fetch_optional(&mut *conn)
            .await?;
        Err(match exists {
            Some(_) => StoreError::NotRunning(match_id),
            None => StoreError::UnknownMatch(match_id),
        })
    }
}

/// The seats whose stand-in is still open in `match_id`: their players left. Read inside
/// `finish_match`'s transaction, after it locked the match by finishing it.
pub(super) async fn left_seats(
    conn: &mut AnyConnection,
    match_id: MatchId,
) -> Result<Vec<usize>, StoreError> {
    let seats: Vec<i64> = sqlx::query_scalar(
        "SELECT DISTINCT seat FROM match_stand_ins
         WHERE match_id = $1 AND until_step IS NULL ORDER BY seat",
    )
    .bind(match_id)
    .fetch_all(&mut *conn)
    .await?;
    seats
        .into_iter()
        .map(|seat| unsigned(seat, "seat"))
        .collect()
}
