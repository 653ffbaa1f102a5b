//! The match record: enough to replay a match exactly, and nothing more.
//!
//! Replay = config + seed + accepted actions + ejections. Each log entry carries the
//! digest of the state it produced, so a replay proves it reached the same states.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::game::{ConfigError, Seat};
use crate::illegal::Illegal;
use crate::outcome::Outcome;

pub const RECORD_FORMAT: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchRecord {
    pub format: u32,
    pub ruleset: String,
    /// The full configuration (defaults filled in).
    pub config: Value,
    /// Who sat in each seat, in seat order.
    pub seats: Vec<String>,
    pub seed: u64,
    /// Digest of the state before any action.
    #[serde(default)]
    pub initial_digest: String,
    pub log: Vec<LogEntry>,
    pub outcome: Option<Outcome>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LogEntry {
    /// An accepted action.
    Act {
        seat: Seat,
        action: Value,
        digest: String,
    },
    /// A seat removed by the referee (timeout, illegal answer, disconnect).
    Eject {
        seat: Seat,
        reason: String,
        digest: String,
    },
}

impl LogEntry {
    /// Digest of the state after this entry.
    pub fn digest(&self) -> &str {
        match self {
            LogEntry::Act { digest, .. } | LogEntry::Eject { digest, .. } => digest,
        }
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReplayError {
    #[error("unknown ruleset {0:?}")]
    UnknownRuleset(String),
    #[error("the recorded configuration is refused: {0}")]
    Config(ConfigError),
    #[error("log entry {index} was refused on replay: {illegal}")]
    Rejected { index: usize, illegal: Illegal },
    #[error("replay diverged from the record {}", match .index { Some(i) => format!("after log entry {i}"), None => "in the initial state".to_string() })]
    Diverged { index: Option<usize> },
    #[error("the replayed outcome differs from the recorded one")]
    OutcomeDiffers,
}
