//! Where a match's record goes as it is made, so a server can persist every log entry
//! the moment it is accepted (a crash loses nothing already decided).
//!
//! Write first, announce after: each event handed to a sink comes back as a [`Stored`]
//! that resolves once the event is durable, and the referee holds every message that
//! derives from it (views, events, the outcome) until then. So anything a player or a
//! spectator was told survives a `kill -9` of the server.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use arbiter_engine::{LogEntry, MatchRecord};
use tokio::sync::{mpsc, oneshot};

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
/// block: hand the event to a channel or a buffer and return a [`Stored`] that resolves
/// when the event is durable. Events are stored in the order given, so the latest
/// `Stored` resolving means every earlier one has too.
pub trait MatchSink: Send + Sync + 'static {
    fn record(&self, event: RecordEvent) -> Stored;
}

/// Resolves when a recorded event is durable (or the sink gave up on it: a store that
/// failed has logged why, and holding the match for ever would help nobody).
#[derive(Debug, Default)]
pub struct Stored(Option<oneshot::Receiver<()>>);

impl Stored {
    /// Already durable, or nothing to wait for (sinks that keep nothing).
    pub fn now() -> Stored {
        Stored(None)
    }

    /// Durable when `done` is sent to (or dropped).
    pub fn when(done: oneshot::Receiver<()>) -> Stored {
        Stored(Some(done))
    }

    /// A sender/`Stored` pair for sinks that finish the work elsewhere.
    pub fn pair() -> (oneshot::Sender<()>, Stored) {
        let (done, stored) = oneshot::channel();
        (done, Stored::when(stored))
    }
}

impl Future for Stored {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<()> {
        match &mut self.0 {
            None => Poll::Ready(()),
            // Sent or dropped: either way the sink is done with the event.
            Some(done) => Pin::new(done).poll(context).map(|_| ()),
        }
    }
}

/// An event on its way to a store writer, with the signal to send once it is stored.
pub type PendingEvent = (RecordEvent, oneshot::Sender<()>);

/// The simplest durable sink: an unbounded channel read by the store's writer, which
/// sends on the event's signal after writing it.
impl MatchSink for mpsc::UnboundedSender<PendingEvent> {
    fn record(&self, event: RecordEvent) -> Stored {
        let (done, stored) = Stored::pair();
        // A writer that went away cannot be helped from here: `done` is dropped with the
        // event, so nobody waits for it, and the match still finishes.
        let _ = self.send((event, done));
        stored
    }
}

/// A sink that keeps nothing (local matches whose record is taken from `wait`).
#[derive(Debug, Clone, Copy, Default)]
pub struct DiscardSink;

impl MatchSink for DiscardSink {
    fn record(&self, _event: RecordEvent) -> Stored {
        Stored::now()
    }
}
