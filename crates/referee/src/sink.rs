//! Where a match's record goes as it is made, so a server can persist every log entry
//! the moment it is accepted (a crash loses nothing already decided).

use arbiter_engine::{LogEntry, MatchRecord};
use tokio::sync::mpsc;

/// One thing to persist, in the order the referee produced it.
#[derive(Debug, Clone, PartialEq)]
pub enum RecordEvent {
    /// The match started: the record's header (full configuration, seat names, seed,
    /// initial digest) with an empty log.
    Started { match_id: i64, record: MatchRecord },
    /// Log entry `index` (0-based, consecutive) was appended.
    Entry {
        match_id: i64,
        index: usize,
        entry: LogEntry,
    },
    /// The game ended; `record` is complete, with its outcome.
    Finished { match_id: i64, record: MatchRecord },
    /// The match stopped without an outcome (a ruleset defect, never a seat's doing).
    /// Entries already sent stay valid.
    Aborted { match_id: i64, reason: String },
}

/// Receives a match's [`RecordEvent`]s. Called from the match task, so it must not
/// block: hand the event to a channel or a buffer and return.
pub trait MatchSink: Send + Sync + 'static {
    fn record(&self, event: RecordEvent);
}

/// The simplest sink: an unbounded channel read by the store's writer.
impl MatchSink for mpsc::UnboundedSender<RecordEvent> {
    fn record(&self, event: RecordEvent) {
        // A store that went away cannot be helped from here; the match still finishes.
        let _ = self.send(event);
    }
}

/// A sink that keeps nothing (local matches whose record is taken from `wait`).
#[derive(Debug, Clone, Copy, Default)]
pub struct DiscardSink;

impl MatchSink for DiscardSink {
    fn record(&self, _event: RecordEvent) {}
}
