//! Tournaments as stored: settings, entrants, each round's pairings and byes, and each
//! game's match and ranks. The pairing rules and standings live in `arbiter-tournament`
//! (pure); the director that runs a tournament lives in the server. What is here is
//! what lets a director go on after a crash: a round's pairings are written in one
//! transaction before its first match starts, and a game's match id before anyone is
//! told of it, so a restarted director pairs nobody twice and loses no finished game.

mod entrants;
mod games;
mod settings;

pub use entrants::LateJoin;
pub use settings::MAX_TOURNAMENT_NAME;

use serde::Serialize;
use serde_json::Value;

use crate::accounts::AccountId;
use crate::error::StoreError;
use crate::matches::MatchId;

pub type TournamentId = i64;

/// Most entrants any tournament may have: the store's guard against absurd sizes (each
/// format has its own, lower limit, checked before this).
pub const MAX_TOURNAMENT_ENTRANTS: u32 = 10_000;

/// A tournament as it is created.
#[derive(Debug, Clone, PartialEq)]
pub struct NewTournament {
    pub name: String,
    pub ruleset: String,
    /// The full configuration, defaults filled in.
    pub config: Value,
    /// `swiss`, `arena` or `round_robin`.
    pub format: String,
    /// Seats a game.
    pub seats: u32,
    /// Swiss: the number of rounds.
    pub rounds: Option<u32>,
    /// Arena: how long it runs, in milliseconds.
    pub duration_ms: Option<i64>,
    /// When it starts (Unix milliseconds); with `start_when`, whichever comes first.
    pub starts_at: Option<i64>,
    /// Starts once this many have joined.
    pub start_when: Option<u32>,
    pub deadline_ms: i64,
    pub time_bank_ms: i64,
    pub rated: bool,
    pub max_entrants: u32,
    pub created_by: Option<AccountId>,
    /// Who may enter: people, bots or both.
    pub entry: EntryRule,
}

/// Who may enter a tournament, by the kind of account (`Account::bot`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryRule {
    /// People's accounts only.
    People,
    /// Bots' accounts only.
    Bots,
    #[default]
    Both,
}

impl EntryRule {
    /// Every rule, as written.
    pub const ALL: [EntryRule; 3] = [EntryRule::People, EntryRule::Bots, EntryRule::Both];

    pub fn as_str(self) -> &'static str {
        match self {
            EntryRule::People => "people",
            EntryRule::Bots => "bots",
            EntryRule::Both => "both",
        }
    }

    /// The rule written `text`, if it is one.
    pub fn parse(text: &str) -> Option<EntryRule> {
        EntryRule::ALL
            .into_iter()
            .find(|rule| rule.as_str() == text)
    }

    /// Whether an account that is a bot (`bot`) or a person may enter.
    pub fn admits(self, bot: bool) -> bool {
        match self {
            EntryRule::People => !bot,
            EntryRule::Bots => bot,
            EntryRule::Both => true,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TournamentStatus {
    /// Taking entrants, not started.
    Open,
    Running,
    Finished,
    /// Ended without play (it could not start).
    Cancelled,
}

impl TournamentStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            TournamentStatus::Open => "open",
            TournamentStatus::Running => "running",
            TournamentStatus::Finished => "finished",
            TournamentStatus::Cancelled => "cancelled",
        }
    }

    pub(crate) fn parse(s: &str) -> Result<TournamentStatus, StoreError> {
        Ok(match s {
            "open" => TournamentStatus::Open,
            "running" => TournamentStatus::Running,
            "finished" => TournamentStatus::Finished,
            "cancelled" => TournamentStatus::Cancelled,
            other => return Err(StoreError::Corrupt(format!("tournament status {other:?}"))),
        })
    }
}

/// A stored tournament: its settings and where it stands.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Tournament {
    pub id: TournamentId,
    pub name: String,
    pub ruleset: String,
    pub config: Value,
    pub format: String,
    pub seats: u32,
    pub rounds: Option<u32>,
    pub duration_ms: Option<i64>,
    #[serde(serialize_with = "crate::clock::rfc3339::option::serialize")]
    pub starts_at: Option<i64>,
    pub start_when: Option<u32>,
    pub deadline_ms: i64,
    pub time_bank_ms: i64,
    pub rated: bool,
    pub max_entrants: u32,
    /// Who may enter: people, bots or both.
    pub entry: EntryRule,
    /// Active entrants now.
    pub entrants: u32,
    pub created_by: Option<AccountId>,
    /// The server whose director runs it.
    pub node: String,
    pub status: TournamentStatus,
    /// The latest round (arena: pairing wave) written; 0 before the first.
    pub round: u32,
    #[serde(serialize_with = "crate::clock::rfc3339::serialize")]
    pub created_at: i64,
    #[serde(serialize_with = "crate::clock::rfc3339::option::serialize")]
    pub started_at: Option<i64>,
    #[serde(serialize_with = "crate::clock::rfc3339::option::serialize")]
    pub finished_at: Option<i64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EntrantStatus {
    Active,
    Withdrawn,
}

/// Someone who joined a tournament.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TournamentEntrant {
    pub account_id: AccountId,
    pub name: String,
    /// The account is a bot's.
    pub bot: bool,
    /// The rating when joining (orders equal scores when pairing).
    pub rating: f64,
    pub status: EntrantStatus,
    /// An arena entrant who paused: not paired again until they resume.
    pub paused: bool,
    #[serde(serialize_with = "crate::clock::rfc3339::serialize")]
    pub joined_at: i64,
}

/// One game of a tournament: who sits where, the match playing it, how it ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TournamentGame {
    pub id: i64,
    pub round: u32,
    /// Account ids in seat order.
    pub seats: Vec<AccountId>,
    pub match_id: Option<MatchId>,
    /// Ranks in seat order (1 = best), once decided.
    pub ranks: Option<Vec<u8>>,
    /// Decided without play.
    pub forfeit: bool,
}

/// A round's pairing as the director writes it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NewRound {
    pub round: u32,
    /// Each game's account ids in seat order; with ranks when it is decided at once (a
    /// forfeit: someone in it has withdrawn).
    pub games: Vec<(Vec<AccountId>, Option<Vec<u8>>)>,
    pub byes: Vec<AccountId>,
}

/// A bye: a round an entrant sat out, scored as a win.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TournamentBye {
    pub round: u32,
    pub account_id: AccountId,
}

/// Why a request about a tournament was refused: a stable code and a sentence.
pub(crate) fn refused(code: &'static str, message: impl Into<String>) -> StoreError {
    StoreError::Tournament {
        code,
        message: message.into(),
    }
}
