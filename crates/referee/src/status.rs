//! A live match at a glance, for lobbies and operators. The match task publishes it
//! after every change; reading it never waits for the match.

use arbiter_engine::Turn;
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchStatus {
    pub match_id: i64,
    pub ruleset: String,
    pub seats: Vec<SeatStatus>,
    /// Who owes a decision now.
    pub turn: Turn,
    /// Log entries so far.
    pub step: usize,
    pub spectators: usize,
    pub phase: Phase,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Running,
    Finished,
    /// Stopped without an outcome (a ruleset defect).
    Aborted,
    /// Stopped with its server, neither finished nor aborted: it goes on from its
    /// stored log when a server resumes it ([`crate::MatchHandle::suspend`]).
    Suspended,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeatStatus {
    pub name: String,
    pub player: PlayerKind,
    /// A remote seat with a live connection (bots are always connected).
    pub connected: bool,
    pub owes_decision: bool,
    /// Why the referee removed this seat, if it did.
    pub ejected: Option<String>,
    /// The house bot playing this remote seat for its silent player, if one is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stand_in: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayerKind {
    Remote,
    Bot,
}
