//! What the referee tells a seat or a spectator. Transports put these on the wire as
//! JSON (`{"type":"prompt","step":4,"deadline_ms":2950,"turn":{...}}`); everything in
//! them went through the audience's projection (its view, its share of the events).

use arbiter_engine::{Outcome, Seat, Turn};
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToSeat {
    /// First message of every (re)connection: which match and which seat (`None` for a
    /// spectator), the seat names in seat order and the full configuration.
    Joined {
        match_id: i64,
        ruleset: String,
        seat: Option<Seat>,
        seats: Vec<String>,
        config: Value,
    },
    /// The audience's view of the state after `step` log entries. Sent on joining and
    /// whenever it changes.
    View { step: usize, view: Value },
    /// The seat owes a decision about the state after `step` log entries, within
    /// `deadline_ms` milliseconds from when this was sent.
    Prompt {
        step: usize,
        /// Time left for this decision, time bank included.
        deadline_ms: u64,
        /// How much of `deadline_ms` is the seat's time bank (what it may still draw on
        /// across the whole match).
        time_bank_ms: u64,
        turn: Turn,
    },
    /// What the audience may see of the events of one step.
    Events { events: Vec<Value> },
    /// An answer was refused: `code` is the ruleset's (or `not_your_turn`,
    /// `malformed_action`, `ejected`, `reserved_action`).
    Rejected { code: String, message: String },
    /// The referee removed a seat (missed deadline, illegal answer, resignation).
    Ejected { seat: Seat, reason: String },
    /// The game is over; the last message before the referee closes the connection.
    Outcome {
        outcome: Outcome,
        /// The result in one line, naming winners by their seat names (account names).
        headline: String,
    },
}

/// What a seat may answer at one step of the match.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LegalActions {
    /// Log entries so far: the `step` of the view and prompt these actions answer.
    pub step: usize,
    pub actions: Vec<Value>,
}
