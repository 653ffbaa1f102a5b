//! What the referee tells a seat or a spectator. Transports put these on the wire as
//! JSON (`{"type":"prompt","step":4,"deadline_ms":2950,"turn":{...}}`); everything in
//! them went through the audience's projection (its view, its share of the events).

use arbiter_engine::{MatchRecord, Outcome, Seat, Turn};
use std::sync::Arc;

use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
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
    View { step: usize, view: JsonText },
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
        /// The seat's legal actions now, for a reader that asked for them
        /// ([`crate::Mailbox::wants_legal`]); as `legal` answers (a sample where the
        /// ruleset's moves are combinatorial).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        legal: Option<Vec<Value>>,
    },
    /// What the audience may see of the events of one step, as a JSON array.
    Events { events: JsonText },
    /// An answer was refused: `code` is the ruleset's (or `not_your_turn`,
    /// `malformed_action`, `ejected`, `reserved_action`).
    Rejected { code: String, message: String },
    /// The referee removed a seat (missed deadline, illegal answer, resignation).
    Ejected { seat: Seat, reason: String },
    /// The referee's house bot plays `seat` from `step` on: its player went silent.
    /// The player takes the seat back by reconnecting or answering (`take_seat`).
    StandIn {
        seat: Seat,
        bot: String,
        step: usize,
    },
    /// `seat`'s player took the seat back from the house bot at `step`.
    SeatTakenBack { seat: Seat, step: usize },
    /// The game is over; the last message before the referee closes the connection.
    Outcome {
        outcome: Outcome,
        /// The result in one line, naming winners by their seat names (account names).
        headline: String,
    },
    /// The match stopped without an outcome (it could not be recorded); the last message
    /// of the match. Nothing after the last view was applied for anyone, and no rating
    /// moves.
    Aborted { reason: String },
}

impl ToSeat {
    /// The last message of a match that ended with `outcome`, its headline naming the
    /// winners by `seats` (the seat names in seat order). Every door that tells a seat
    /// how its match ended builds it here, so they all say it the same way.
    pub fn outcome(outcome: Outcome, seats: &[String]) -> ToSeat {
        ToSeat::Outcome {
            headline: outcome.headline(seats),
            outcome,
        }
    }

    /// The last message of the finished match `record`: its outcome, or nothing for a
    /// record without one.
    pub fn finished(record: &MatchRecord) -> Option<ToSeat> {
        let outcome = record.outcome.clone()?;
        Some(ToSeat::outcome(outcome, &record.seats))
    }
}

/// What a seat may answer at one step of the match.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LegalActions {
    /// Log entries so far: the `step` of the view and prompt these actions answer.
    pub step: usize,
    pub actions: Vec<Value>,
}

/// A JSON document kept as its text, shared by every message that carries it. Views
/// are written once per audience per step straight from the ruleset's typed view, compared
/// as text with the last one sent, and copied into each line as they are: no
/// `serde_json::Value` tree is built, compared, cloned or dropped on a move.
#[derive(Clone)]
pub struct JsonText(Arc<str>);

impl JsonText {
    /// `text` must be one JSON document; anything else is kept as `null`. Checks the
    /// text by reading it through.
    pub fn new(text: String) -> JsonText {
        if serde_json::from_str::<IgnoredAny>(&text).is_ok() {
            JsonText(Arc::from(text))
        } else {
            JsonText(Arc::from("null"))
        }
    }

    /// Text the engine wrote as one JSON document (a view,
    /// [`arbiter_engine::DynState::view_json`], which the engine's test battery holds
    /// to the typed view; a step's events, [`arbiter_engine::EventBatch`]), kept without
    /// reading it through again: checking a view cost about as much as writing it.
    pub fn written(text: impl Into<Arc<str>>) -> JsonText {
        JsonText(text.into())
    }

    pub fn from_value(value: &Value) -> JsonText {
        JsonText(Arc::from(value.to_string()))
    }

    pub fn text(&self) -> &str {
        &self.0
    }

    /// The document as a tree, for code that reads into it.
    pub fn to_value(&self) -> Value {
        serde_json::from_str(self.text()).unwrap_or(Value::Null)
    }

    /// Whether both hold the same text (`JsonText`s written from equal values do).
    pub fn same_text(&self, text: &str) -> bool {
        self.text() == text
    }
}

impl PartialEq for JsonText {
    fn eq(&self, other: &JsonText) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.text() == other.text()
    }
}

impl std::fmt::Debug for JsonText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.text())
    }
}

impl Serialize for JsonText {
    /// Embedded as it is. serde_json embeds text only as a `RawValue`, and making one
    /// reads the text through; the server's line encoder writes views without this.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        RawValue::from_string(self.text().to_owned())
            .map_err(serde::ser::Error::custom)?
            .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for JsonText {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Through a tree: an internally tagged message buffers its fields first, and a
        // raw value cannot be read from that buffer. Only tests and tools read messages.
        Value::deserialize(deserializer).map(|value| JsonText::from_value(&value))
    }
}
