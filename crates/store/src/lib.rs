//! Storage of accounts, matches (with their action logs) and ratings, in embedded SQLite
//! (the default: one file, nothing to install) or PostgreSQL (a deployment shared by
//! several servers). This crate is the one place SQL lives.
//!
//! Both backends run the same statements through sqlx's `Any` driver: the SQL is kept to
//! what SQLite and PostgreSQL share (`$n` parameters, `RETURNING`, `ON CONFLICT`), types
//! to integers, floats and text (JSON is stored as text, times as Unix milliseconds).
//! Each backend has its own migration folder, embedded in the binary.
//!
//! Durability: a match's log is written one row per entry as the match goes, each row
//! committed before [`Store::append_log`] returns, so a server killed mid-match keeps
//! every accepted action, and the match goes on from it when a server resumes it
//! ([`Store::running_matches_of_this_node`], [`Store::match_terms`]). Rows of different matches arriving together share one commit (group commit,
//! so many matches do not queue behind one commit each). Finishing a match, its per-seat
//! results and its rating changes are one transaction.

mod accounts;
mod clock;
mod connect;
mod error;
mod matches;
mod migrations;
mod nodes;
mod profiles;
mod ratings;
#[cfg(feature = "testing")]
pub mod testing;
mod tournaments;
mod writer_lock;

pub use accounts::{
    Account, AccountId, SessionToken, MAX_NAME_LEN, MAX_PASSWORD_LEN, SESSION_LIFETIME,
};
pub use clock::rfc3339::format as rfc3339;
pub use connect::{Backend, Store, DATABASE_FILE};
pub use error::StoreError;
pub use matches::{
    FinishedMatch, LogCommitTotals, LogCommits, MatchFilter, MatchId, MatchStatus, MatchSummary,
    MatchTerms, NewMatch, QueuedEntry, ResumableMatch, SeatRecord, SeatResult, SeatSummary,
    DEFAULT_LIST_LIMIT, LOG_FOLD_AT, MAX_LIST_LIMIT, RESUMABLE_AT_ONCE,
};
pub use nodes::{LiveNode, RunningSeat};
pub use profiles::{PlayerCounts, PlayerProfile};
pub use ratings::{
    LeaderboardEntry, Rating, RatingChange, RatingPoint, RatingSystem, ELO_K, INITIAL_DISPLAY,
};
pub use tournaments::{
    EntrantStatus, EntryRule, LateJoin, NewRound, NewTournament, Tournament, TournamentBye,
    TournamentEntrant, TournamentGame, TournamentId, TournamentStatus, MAX_TOURNAMENT_ENTRANTS,
    MAX_TOURNAMENT_NAME,
};
