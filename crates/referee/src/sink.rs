//! Where a match's record goes as it is made, so a server can persist every log entry
//! the moment it is accepted (a crash loses nothing already decided).
//!
//! Write first, announce after: each event handed to a sink comes back as a [`Stored`]
//! that resolves once the event is durable, and the referee holds every message that
//! derives from it (views, events, the outcome) until then. So anything a player or a
//! spectator was told survives a `kill -9` of the server.
//!
//! A sink that cannot store an event (the database stayed unreachable, full or locked
//! past the writer's patience) resolves its `Stored` to [`Unstored`]: the referee then
//! tells nobody what followed from it, and ends the match as aborted.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use arbiter_engine::{LogEntry, MatchRecord, Outcome, Seat};
use tokio::sync::{mpsc, oneshot};

/// One thing to persist, in the order the referee produced it.
#[derive(Debug, Clone, PartialEq)]
pub enum RecordEvent {
    /// The match started: the record's header (full configuration, seat names, seed,
    /// initial digest) with an empty log.
    Started {
        match_id: i64,
        record: Box<MatchRecord>,
    },
    /// Log entry `index` (0-based, consecutive) was appended.
    Entry {
        match_id: i64,
        index: usize,
        entry: LogEntry,
    },
    /// A house bot began playing `seat` for its silent player before log entry `step`
    /// (`bot` names it), or the player took the seat back there (`bot` is `None`).
    StandIn {
        match_id: i64,
        seat: Seat,
        step: usize,
        bot: Option<String>,
    },
    /// The game ended with `outcome` (`None` only from a defective ruleset) after
    /// `entries` log entries, all sent before. Only what the store takes: the record
    /// itself (a thousand entries and more) is not copied for it.
    Finished {
        match_id: i64,
        outcome: Option<Outcome>,
        entries: usize,
    },
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

/// Why a sink gave up on an event: nothing that follows from it may be told.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Unstored(pub String);

/// What a sink's writer sends back for one event: stored, or why not.
pub type StoredSignal = oneshot::Sender<Result<(), Unstored>>;

/// Resolves when a recorded event is durable, or to [`Unstored`] when the sink gave up
/// on it (or its writer went away, which stores nothing more either).
#[derive(Debug, Default)]
pub struct Stored(Option<oneshot::Receiver<Result<(), Unstored>>>);

impl Stored {
    /// Already durable, or nothing to wait for (sinks that keep nothing).
    pub fn now() -> Stored {
        Stored(None)
    }

    /// Resolved by what `done` is sent (a dropped sender is a writer that went away).
    pub fn when(done: oneshot::Receiver<Result<(), Unstored>>) -> Stored {
        Stored(Some(done))
    }

    /// A sender/`Stored` pair for sinks that finish the work elsewhere.
    pub fn pair() -> (StoredSignal, Stored) {
        let (done, stored) = oneshot::channel();
        (done, Stored::when(stored))
    }
}

impl Future for Stored {
    type Output = Result<(), Unstored>;

    fn poll(mut self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<Self::Output> {
        match &mut self.0 {
            None => Poll::Ready(Ok(())),
            Some(done) => Pin::new(done).poll(context).map(|sent| {
                sent.unwrap_or_else(|_| Err(Unstored("the match's store writer stopped".into())))
            }),
        }
    }
}

/// An event on its way to a store writer, with the signal to send once it is stored.
/// Boxed, so that the channel's slots are a pointer each: tokio allocates a channel's
/// first block of 32 slots with the channel, and 32 unboxed events (296 bytes each)
/// were 9 KiB held by every match, idle or not.
pub type PendingEvent = Box<(RecordEvent, StoredSignal)>;

/// The simplest durable sink: an unbounded channel read by the store's writer, which
/// sends on the event's signal after writing it.
impl MatchSink for mpsc::UnboundedSender<PendingEvent> {
    fn record(&self, event: RecordEvent) -> Stored {
        let (done, stored) = Stored::pair();
        // A writer that went away stores nothing more: `done` is dropped with the event,
        // and the referee ends the match as unstored.
        let _ = self.send(Box::new((event, done)));
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
