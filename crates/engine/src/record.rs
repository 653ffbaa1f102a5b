//! The match record: enough to replay a match exactly, and nothing more.
//!
//! Replay = config + seed + accepted actions + ejections. Each log entry carries a
//! digest, so a replay proves it reached the same game and names the first entry where
//! it did not.
//!
//! Format 2 (today's) chains the digests: an entry's digest covers the digest before it,
//! the entry itself, the events the rules produced for it (every secret in them
//! included), and at a checkpoint, every [`CHECKPOINT_EVERY`] entries and whenever the
//! game is over, the digest of the whole state. So recording costs a hash of a few
//! small values per entry instead of serialising the whole state; a replay that differs
//! in anything an event shows is caught at that entry, and one that differs only in
//! hidden state the events never show (a shuffled pile, say) at the next checkpoint.
//! Format 1 records (every entry the digest of the whole state) still verify.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::game::{ConfigError, Seat};
use crate::illegal::Illegal;
use crate::outcome::Outcome;

pub const RECORD_FORMAT: u32 = 2;

/// The first format, whose every entry holds the digest of the whole state after it.
pub const STATE_DIGEST_FORMAT: u32 = 1;

/// Entries between two digests of the whole state in a format 2 record.
pub const CHECKPOINT_EVERY: usize = 32;

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
    /// Stretches in which the referee's house bot played a seat whose player had gone
    /// silent ([`StandIn`]), in the order they began. Not part of the replay: the log
    /// holds every action whoever chose it. Left out of the JSON when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stand_ins: Vec<StandIn>,
    /// Each time the match went on after its server went away (a restart, a stop, a
    /// takeover by another server): at which step, and how long it was down. Not part
    /// of the replay. Left out of the JSON when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resumptions: Vec<Resumption>,
}

/// The match stopped with its server after `step` log entries and went on from its
/// stored log `down_ms` milliseconds later (as measured from the stopped server's last
/// sign of life), on whichever server then ran it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resumption {
    pub step: usize,
    pub down_ms: u64,
}

/// A house bot standing in for a seat's silent player: from log step `from_step` (the
/// number of log entries before its first decision) until the player took the seat
/// back at `until_step`, or to the end when `None`. A seat held by a stand-in when the
/// game ends counts as its player's loss for ratings and tournaments
/// ([`Outcome::ranks_with_leavers`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StandIn {
    pub seat: Seat,
    /// The house bot that played (one of the ruleset's bots).
    pub bot: String,
    pub from_step: usize,
    #[serde(default)]
    pub until_step: Option<usize>,
}

impl MatchRecord {
    /// The seats a stand-in still held when the record ends: their players left.
    pub fn left_seats(&self) -> Vec<Seat> {
        let mut seats: Vec<Seat> = self
            .stand_ins
            .iter()
            .filter(|stand_in| stand_in.until_step.is_none())
            .map(|stand_in| stand_in.seat)
            .collect();
        seats.sort_unstable();
        seats.dedup();
        seats
    }

    /// The outcome's ranks as results count them: a seat its player left ranks below
    /// every seat whose player stayed ([`Outcome::ranks_with_leavers`]).
    pub fn counted_ranks(&self) -> Option<Vec<u32>> {
        let outcome = self.outcome.as_ref()?;
        Some(outcome.ranks_with_leavers(&self.left_seats()))
    }
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

/// The digest chain of a format 2 record, entry by entry: what the producers of
/// records (the referee, local play, the test battery) and the replayer share.
#[derive(Debug, Clone)]
pub struct DigestChain {
    last: String,
    next_index: usize,
}

impl DigestChain {
    /// A chain starting from the digest of the initial state.
    pub fn new(initial_digest: &str) -> DigestChain {
        DigestChain {
            last: initial_digest.to_string(),
            next_index: 0,
        }
    }

    /// Whether the entry at `index` folds the whole state in.
    pub fn is_checkpoint(index: usize, over: bool) -> bool {
        over || (index + 1).is_multiple_of(CHECKPOINT_EVERY)
    }

    /// The next entry's digest: `entry` (its own digest field is ignored), the
    /// fingerprint of the events it produced, whether the game is over after it, and
    /// the whole state's digest, asked for only at a checkpoint.
    pub fn digest_next(
        &mut self,
        entry: &LogEntry,
        events: &str,
        over: bool,
        state_digest: impl FnOnce() -> String,
    ) -> String {
        let index = self.next_index;
        let mut hash = Sha256::new();
        hash.update(self.last.as_bytes());
        hash.update(index.to_le_bytes());
        match entry {
            LogEntry::Act { seat, action, .. } => {
                hash.update(b"act");
                hash.update(seat.to_le_bytes());
                hash.update(serde_json::to_vec(action).unwrap_or_default());
            }
            LogEntry::Eject { seat, reason, .. } => {
                hash.update(b"eject");
                hash.update(seat.to_le_bytes());
                hash.update(reason.as_bytes());
            }
        }
        hash.update(events.as_bytes());
        if DigestChain::is_checkpoint(index, over) {
            hash.update(state_digest().as_bytes());
        }
        self.last = crate::digest::hex16(&hash.finalize());
        self.next_index += 1;
        self.last.clone()
    }

    /// `entry` with its digest filled in ([`DigestChain::digest_next`]).
    pub fn seal(
        &mut self,
        mut entry: LogEntry,
        events: &str,
        over: bool,
        state_digest: impl FnOnce() -> String,
    ) -> LogEntry {
        let digest = self.digest_next(&entry, events, over, state_digest);
        match &mut entry {
            LogEntry::Act { digest: d, .. } | LogEntry::Eject { digest: d, .. } => *d = digest,
        }
        entry
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
