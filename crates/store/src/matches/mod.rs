//! Matches: created when they start, their log appended entry by entry (entries of
//! different matches committed together, see `log_batcher`), finished or aborted,
//! listed, and rebuilt as engine records for replay.

mod create;
mod finish;
mod list;
mod log;
mod log_batcher;
mod log_commits;
mod log_tail;
mod record;
mod resume;
pub(crate) mod rows;
mod stand_ins;

pub use list::{DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT};
pub use log::QueuedEntry;
pub(crate) use log_batcher::{LogBatcher, POSTGRES_WRITES_AT_ONCE};
pub use log_commits::{LogCommitTotals, LogCommits};
pub use log_tail::FOLD_AT as LOG_FOLD_AT;
pub use record::RECORDS_AT_ONCE as RESUMABLE_AT_ONCE;
pub use resume::{MatchTerms, ResumableMatch};

use serde::Serialize;
use serde_json::Value;

use crate::accounts::AccountId;
use crate::error::StoreError;
use crate::ratings::{RatingChange, RatingSystem};

pub type MatchId = i64;

/// Who sits in a seat: a name always, an account for people and remote programs that
/// logged in, a bot name for house bots.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeatRecord {
    pub name: String,
    pub account_id: Option<AccountId>,
    pub bot: Option<String>,
}

/// A match as it starts: everything a replay needs before the first action.
#[derive(Debug, Clone, PartialEq)]
pub struct NewMatch {
    pub ruleset: String,
    /// The full configuration, defaults filled in.
    pub config: Value,
    pub seed: u64,
    /// Digest of the initial state (`DynState::digest`), checked on replay.
    pub initial_digest: String,
    /// In seat order.
    pub seats: Vec<SeatRecord>,
    /// `None` for an unrated match. When set, finishing the match moves the ratings of
    /// the seated accounts in the same transaction.
    pub rating: Option<RatingSystem>,
    /// The clock it is played on, kept so that it goes on with it after a restart or a
    /// takeover. `None` leaves it to the server that resumes it.
    pub terms: Option<MatchTerms>,
    /// The tournament game this match plays, if any: linked to it in the same
    /// transaction that records the match, so that no match of a tournament can exist
    /// that its tournament does not know of (a director stopped between the two would
    /// leave a game nobody counts, played to its end all the same). Refused unless
    /// this node directs the tournament and the game is undecided.
    pub tournament_game: Option<i64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchStatus {
    Running,
    Finished,
    /// Stopped without an outcome (the server stopped, or gave up on the match); the
    /// log up to that point is kept.
    Aborted,
}

impl MatchStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            MatchStatus::Running => "running",
            MatchStatus::Finished => "finished",
            MatchStatus::Aborted => "aborted",
        }
    }

    pub(crate) fn parse(s: &str) -> Result<MatchStatus, StoreError> {
        match s {
            "running" => Ok(MatchStatus::Running),
            "finished" => Ok(MatchStatus::Finished),
            "aborted" => Ok(MatchStatus::Aborted),
            other => Err(StoreError::Corrupt(format!("match status {other:?}"))),
        }
    }
}

/// How a seat came out of a finished match: a sole first place wins, a shared first
/// place draws, anything else (including being ejected, and a seat whose player left
/// it to the house bot, whatever the bot achieved) loses. Places count a left seat
/// below every seat whose player stayed (`Outcome::ranks_with_leavers`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatResult {
    Win,
    Draw,
    Loss,
}

impl SeatResult {
    pub fn as_str(self) -> &'static str {
        match self {
            SeatResult::Win => "win",
            SeatResult::Draw => "draw",
            SeatResult::Loss => "loss",
        }
    }

    pub(crate) fn parse(s: &str) -> Result<SeatResult, StoreError> {
        match s {
            "win" => Ok(SeatResult::Win),
            "draw" => Ok(SeatResult::Draw),
            "loss" => Ok(SeatResult::Loss),
            other => Err(StoreError::Corrupt(format!("seat result {other:?}"))),
        }
    }
}

/// A seat in a match listing; the result fields are set once the match finished.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeatSummary {
    pub seat: usize,
    pub name: String,
    pub account_id: Option<AccountId>,
    pub bot: Option<String>,
    pub rank: Option<u32>,
    pub score: Option<i64>,
    pub ejected: Option<String>,
    pub result: Option<SeatResult>,
    /// The log step from which the referee's house bot holds this seat, its player
    /// having gone silent: still playing it while the match runs, and played it to the
    /// end once finished (the player left, so `result` is a loss whatever the bot did).
    /// `None` when the seat's player plays (or took the seat back). Left out of the
    /// JSON when `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub house_bot_from: Option<u64>,
}

/// A match as lists and pages show it (no configuration, no log).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchSummary {
    pub id: MatchId,
    pub ruleset: String,
    pub status: MatchStatus,
    pub rating: Option<RatingSystem>,
    pub seats: Vec<SeatSummary>,
    /// Log entries written so far.
    pub moves: u64,
    /// The outcome's one-line summary, or why the match was aborted.
    pub summary: Option<String>,
    /// The server that ran it.
    pub node: String,
    /// Unix milliseconds, written as RFC 3339 text.
    #[serde(serialize_with = "crate::clock::rfc3339::serialize")]
    pub created_at: i64,
    #[serde(serialize_with = "crate::clock::rfc3339::option::serialize")]
    pub finished_at: Option<i64>,
}

/// Which matches to list, newest first. `before` pages: pass the last id of a page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MatchFilter {
    pub ruleset: Option<String>,
    /// An account name (any case): matches where that account held a seat.
    pub player: Option<String>,
    pub status: Option<MatchStatus>,
    /// Only ids below this.
    pub before: Option<MatchId>,
    /// Default [`DEFAULT_LIST_LIMIT`], at most [`MAX_LIST_LIMIT`].
    pub limit: Option<u32>,
}

/// What finishing a match changed beyond the match itself.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FinishedMatch {
    pub id: MatchId,
    /// One per rated account; empty for an unrated match.
    pub rating_changes: Vec<RatingChange>,
}
