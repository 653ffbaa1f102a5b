//! What a connection sends: a bounded queue of ready-made JSON lines and a switch to
//! close the connection. Anything may hold a clone (the session, the forwarders of its
//! seats and spectated matches); none of them ever waits on a slow client.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::protocol::ServerMessage;

/// Identifies one client connection for the lifetime of the server.
pub type ConnId = u64;

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

/// The sending side of one connection.
#[derive(Clone, Debug)]
pub struct Outbox {
    conn: ConnId,
    lines: mpsc::Sender<Arc<str>>,
    close: CancellationToken,
}

/// The transport's side: lines to write and the signal to stop.
pub struct OutboxReceiver {
    pub lines: mpsc::Receiver<Arc<str>>,
    pub close: CancellationToken,
}

impl Outbox {
    /// A new connection's outbox holding at most `capacity` unsent lines.
    pub fn new(capacity: usize) -> (Outbox, OutboxReceiver) {
        let (lines, receiver) = mpsc::channel(capacity.max(1));
        let close = CancellationToken::new();
        let conn = NEXT_CONN.fetch_add(1, Ordering::Relaxed);
        (
            Outbox {
                conn,
                lines,
                close: close.clone(),
            },
            OutboxReceiver {
                lines: receiver,
                close,
            },
        )
    }

    pub fn conn(&self) -> ConnId {
        self.conn
    }

    /// Queue one line. A client so far behind that its queue is full is disconnected
    /// (it can log in again and resume from a fresh view) instead of holding memory or
    /// slowing anyone down. False when the line was not queued.
    pub fn send_line(&self, line: Arc<str>) -> bool {
        if self.close.is_cancelled() {
            return false;
        }
        match self.lines.try_send(line) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                tracing::warn!(
                    conn = self.conn,
                    "client does not read its messages; closing"
                );
                self.close.cancel();
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }

    pub fn send(&self, message: &ServerMessage) -> bool {
        self.send_line(Arc::from(message.to_line()))
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
        let (outbox, mut receiver) = Outbox::new(2);
        assert!(outbox.send_line("a".into()));
        assert!(outbox.send_line("b".into()));
        assert!(!outbox.is_closed());
        assert!(!outbox.send_line("c".into()));
        assert!(outbox.is_closed());
        assert!(receiver.close.is_cancelled());
        outbox.closed().await;
        assert_eq!(receiver.lines.recv().await.as_deref(), Some("a"));
        assert_ne!(outbox.conn(), Outbox::new(1).0.conn());
    }
}
