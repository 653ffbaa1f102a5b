//! What a connection sends: a queue of ready-made JSON lines, bounded in bytes, and a
//! switch to close the connection. Anything may hold a clone (the session, the
//! forwarders of its seats and spectated matches); none of them ever waits on a slow
//! client. Bounded by bytes, not lines: a spectator of a big board that never reads
//! holds at most its byte bound, however many views it falls behind.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

use tokio::sync::mpsc;
use tokio_util::sync::{
    CancellationToken, WaitForCancellationFuture, WaitForCancellationFutureOwned,
};

use crate::protocol::ServerMessage;

/// Identifies one client connection for the lifetime of the server.
pub type ConnId = u64;

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

/// One queued line of JSON: a connection's own, or one shared by many connections (a
/// tournament's state, sent to its thousand entrants as one allocation, not a copy
/// each: copying 174 KiB a thousand times held a runtime worker, and every match on
/// it, for tens of milliseconds; see docs/benchmarks.md).
#[derive(Clone, Debug)]
pub enum Line {
    Own(String),
    Shared(Arc<str>),
}

impl Line {
    /// The text, moved out if this connection owns it.
    pub fn into_string(self) -> String {
        match self {
            Line::Own(text) => text,
            Line::Shared(text) => text.to_string(),
        }
    }

    /// The bytes, moved out if this connection owns them.
    pub fn into_bytes(self) -> Vec<u8> {
        self.into_string().into_bytes()
    }
}

impl std::ops::Deref for Line {
    type Target = str;

    fn deref(&self) -> &str {
        match self {
            Line::Own(text) => text,
            Line::Shared(text) => text,
        }
    }
}

impl From<String> for Line {
    fn from(text: String) -> Line {
        Line::Own(text)
    }
}

impl From<&str> for Line {
    fn from(text: &str) -> Line {
        Line::Own(text.to_string())
    }
}

impl From<Arc<str>> for Line {
    fn from(text: Arc<str>) -> Line {
        Line::Shared(text)
    }
}

/// What a queued line costs beyond its text (the `String`, the queue's slot): so that a
/// flood of tiny lines is bounded too.
const LINE_OVERHEAD: usize = 64;

/// The switch that closes a connection: a token to wait on, and a flag beside it. Every
/// queued line asks whether the connection is closing, several times a move, and a
/// token's `is_cancelled` takes the token's lock, which the tasks of several matches
/// and the connection's own share; the flag is one atomic read.
#[derive(Clone, Debug, Default)]
pub struct Closing {
    token: CancellationToken,
    flags: Arc<Flags>,
}

/// A connection's switches, read on every line: one allocation for them all.
#[derive(Debug, Default)]
struct Flags {
    closed: AtomicBool,
    /// The client asked for its legal actions inside each prompt (`options`).
    legal_in_prompt: AtomicBool,
}

impl Closing {
    /// Close: the flag first, so that whoever the token wakes sees it set.
    pub fn cancel(&self) {
        self.flags.closed.store(true, Ordering::Release);
        self.token.cancel();
    }

    pub fn is_cancelled(&self) -> bool {
        self.flags.closed.load(Ordering::Acquire)
    }

    /// Resolves once closed.
    pub fn cancelled(&self) -> WaitForCancellationFuture<'_> {
        self.token.cancelled()
    }

    /// As [`Closing::cancelled`], owning its clone of the token.
    pub fn cancelled_owned(self) -> WaitForCancellationFutureOwned {
        self.token.cancelled_owned()
    }
}

/// The sending side of one connection.
#[derive(Clone, Debug)]
pub struct Outbox {
    conn: ConnId,
    lines: mpsc::UnboundedSender<Line>,
    /// Bytes queued and not yet taken by the transport.
    queued: Arc<AtomicUsize>,
    max_bytes: usize,
    close: Closing,
}

/// Lines a transport writes before it flushes, when many are queued at once.
pub const WRITE_BATCH: usize = 64;

/// The transport's side: lines to write and the signal to stop.
pub struct OutboxReceiver {
    lines: mpsc::UnboundedReceiver<Line>,
    queued: Arc<AtomicUsize>,
    pub close: Closing,
}

impl OutboxReceiver {
    /// The next line to write; `None` once every sender is gone.
    pub async fn recv(&mut self) -> Option<Line> {
        let line = self.lines.recv().await?;
        self.taken(&line);
        Some(line)
    }

    /// A line already queued, if any.
    pub fn try_recv(&mut self) -> Option<Line> {
        let line = self.lines.try_recv().ok()?;
        self.taken(&line);
        Some(line)
    }

    /// The lines to write together, `first` and what is queued after it, up to
    /// [`WRITE_BATCH`].
    ///
    /// A line's sender wakes the writer into its worker's next slot, so it would run
    /// before the other ready tasks whose lines are for this connection too (a client
    /// playing ten matches on it), and write one or two lines a system call. Yielding
    /// once lets them run first and their lines share the write: at 100 busy matches,
    /// ten a connection, half the sends, 17–35% more moves a second (TCP; see
    /// docs/benchmarks.md, "Lines for one connection share a write").
    pub async fn batch_after(&mut self, first: Line) -> Vec<Line> {
        let mut batch = vec![first];
        self.take_queued(&mut batch);
        if batch.len() < WRITE_BATCH {
            tokio::task::yield_now().await;
            self.take_queued(&mut batch);
        }
        batch
    }

    /// Move lines already queued into `batch`, up to [`WRITE_BATCH`].
    fn take_queued(&mut self, batch: &mut Vec<Line>) {
        while batch.len() < WRITE_BATCH {
            match self.try_recv() {
                Some(line) => batch.push(line),
                None => break,
            }
        }
    }

    fn taken(&self, line: &str) {
        self.queued
            .fetch_sub(line.len() + LINE_OVERHEAD, Ordering::Relaxed);
    }
}

impl Outbox {
    /// A new connection's outbox holding at most `max_bytes` of unsent lines.
    pub fn new(max_bytes: usize) -> (Outbox, OutboxReceiver) {
        let (lines, receiver) = mpsc::unbounded_channel();
        let close = Closing::default();
        let queued = Arc::new(AtomicUsize::new(0));
        let conn = NEXT_CONN.fetch_add(1, Ordering::Relaxed);
        (
            Outbox {
                conn,
                lines,
                queued: queued.clone(),
                max_bytes,
                close: close.clone(),
            },
            OutboxReceiver {
                lines: receiver,
                queued,
                close,
            },
        )
    }

    /// Bytes queued and not yet taken by the transport.
    pub fn queued_bytes(&self) -> usize {
        self.queued.load(Ordering::Relaxed)
    }

    pub fn conn(&self) -> ConnId {
        self.conn
    }

    /// Whether this connection's prompts carry the seat's legal actions.
    pub fn legal_in_prompt(&self) -> bool {
        self.close.flags.legal_in_prompt.load(Ordering::Relaxed)
    }

    pub fn set_legal_in_prompt(&self, on: bool) {
        self.close
            .flags
            .legal_in_prompt
            .store(on, Ordering::Relaxed);
    }

    /// Queue one line. A client so far behind that its queue would pass its byte bound
    /// is disconnected (it can log in again and resume from a fresh view) instead of
    /// holding memory or slowing anyone down. False when the line was not queued. A
    /// shared line counts its whole length against each connection's bound: each still
    /// has it to write.
    pub fn send_line(&self, line: impl Into<Line>) -> bool {
        let line = line.into();
        if self.close.is_cancelled() {
            return false;
        }
        let cost = line.len() + LINE_OVERHEAD;
        let before = self.queued.fetch_add(cost, Ordering::Relaxed);
        if before + cost > self.max_bytes {
            self.queued.fetch_sub(cost, Ordering::Relaxed);
            tracing::warn!(
                conn = self.conn,
                queued = before,
                "client does not read its messages; closing"
            );
            self.close.cancel();
            return false;
        }
        if self.lines.send(line).is_err() {
            self.queued.fetch_sub(cost, Ordering::Relaxed);
            return false;
        }
        true
    }

    pub fn send(&self, message: &ServerMessage) -> bool {
        self.send_line(message.to_line())
    }

    /// Ask the transport to close the connection once the queued lines are written.
    pub fn close(&self) {
        self.close.cancel();
    }

    pub fn is_closed(&self) -> bool {
        self.close.is_cancelled() || self.lines.is_closed()
    }

    /// Resolves when the connection is closing or closed.
    pub async fn closed(&self) {
        tokio::select! {
            _ = self.close.cancelled() => {}
            _ = self.lines.closed() => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_full_outbox_closes_the_connection_instead_of_waiting() {
        let (outbox, mut receiver) = Outbox::new(2 * (LINE_OVERHEAD + 1));
        assert!(outbox.send_line("a"));
        assert!(outbox.send_line("b"));
        assert!(!outbox.is_closed());
        assert!(!outbox.send_line("c"));
        assert!(outbox.is_closed());
        assert!(receiver.close.is_cancelled());
        outbox.closed().await;
        assert_eq!(receiver.recv().await.as_deref(), Some("a"));
        assert_ne!(outbox.conn(), Outbox::new(1).0.conn());
    }

    #[tokio::test]
    async fn the_bound_is_in_bytes_and_taking_lines_frees_them() {
        let (outbox, mut receiver) = Outbox::new(10_000);
        let big = "x".repeat(4_000);
        assert!(outbox.send_line(big.clone()));
        assert!(outbox.send_line(big.clone()));
        assert_eq!(outbox.queued_bytes(), 2 * (4_000 + LINE_OVERHEAD));
        assert_eq!(receiver.recv().await.as_deref().map(str::len), Some(4_000));
        assert!(outbox.send_line(big.clone()), "room again once taken");
        assert!(
            !outbox.send_line(big),
            "a third queued line passes 10 000 bytes"
        );
        assert!(outbox.is_closed());
    }
}
