//! Stand-ins for the connections of other nodes that reached this node's matches or
//! queue: each is an ordinary [`Outbox`] (so seats, spectators, tables and queues need
//! no second path), drained by a task that publishes its lines to the connection's
//! node. Bounded like any outbox: a relay that falls its byte bound behind closes, and
//! the client's node closes the connection (the client logs in again and resumes).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use parking_lot::Mutex;

use super::asks::RemoteConn;
use crate::connection::{Outbox, OutboxReceiver};
use crate::matches::Watching;

/// One remote connection as this node knows it.
struct Relay {
    outbox: Outbox,
    /// Matches it watches here; dropping one stops that match's lines.
    watching: HashMap<i64, Watching>,
    /// Set when the client's node said the connection closed: no need to tell it.
    closed_there: Arc<AtomicBool>,
}

/// Where a relay's lines go: publish one line (or, empty, the request to close).
pub trait LineSink: Send + Sync + 'static {
    fn publish(
        &self,
        to: &RemoteConn,
        line: bytes::Bytes,
    ) -> impl std::future::Future<Output = bool> + Send;
}

#[derive(Default)]
pub struct Relays {
    by_conn: Mutex<HashMap<RemoteConn, Relay>>,
}

impl Relays {
    /// The stand-in outbox of `from`, made (with its publishing task) on first use or
    /// when the last one closed.
    pub fn outbox<S: LineSink>(
        &self,
        sink: &Arc<S>,
        from: &RemoteConn,
        max_bytes: usize,
    ) -> Outbox {
        let mut relays = self.by_conn.lock();
        if let Some(relay) = relays.get(from).filter(|r| !r.outbox.is_closed()) {
            return relay.outbox.clone();
        }
        let (outbox, receiver) = Outbox::new(max_bytes);
        let closed_there = Arc::new(AtomicBool::new(false));
        tokio::spawn(forward(
            sink.clone(),
            from.clone(),
            receiver,
            closed_there.clone(),
        ));
        relays.insert(
            from.clone(),
            Relay {
                outbox: outbox.clone(),
                watching: HashMap::new(),
                closed_there,
            },
        );
        outbox
    }

    /// Keep `watching` for `from` (replacing an earlier watch of the same match).
    pub fn watch(&self, from: &RemoteConn, match_id: i64, watching: Watching) {
        if let Some(relay) = self.by_conn.lock().get_mut(from) {
            relay.watching.insert(match_id, watching);
        }
    }

    /// Stop `from` watching `match_id`; false when it did not.
    pub fn unwatch(&self, from: &RemoteConn, match_id: i64) -> bool {
        let removed = self
            .by_conn
            .lock()
            .get_mut(from)
            .and_then(|relay| relay.watching.remove(&match_id));
        removed.is_some()
    }

    /// The connection closed on its node: close its stand-in (its seats detach, its
    /// queue place and watching end). Returns the stand-in's id on this node, for the
    /// lobby to forget it.
    pub fn closed(&self, from: &RemoteConn) -> Option<crate::connection::ConnId> {
        let relay = self.by_conn.lock().remove(from)?;
        relay.closed_there.store(true, Ordering::Relaxed);
        relay.outbox.close();
        Some(relay.outbox.conn())
    }

    /// This node stops: every stand-in ends (its queued lines still go). A player's
    /// connection on its own node stays open: the node that goes on with their match
    /// reattaches their seats to it (`Ask::SeatsResumed`), so nobody logs in again
    /// because a node they were never connected to restarted. A connection watching a
    /// match here is closed as before, since nothing would tell it where the match
    /// went: its client connects again and watches it where it runs now.
    pub fn end_leaving_connections_open(&self) {
        for (_, relay) in self.by_conn.lock().drain() {
            if relay.watching.is_empty() {
                relay.closed_there.store(true, Ordering::Relaxed);
            }
            relay.outbox.close();
        }
    }

    /// Remote connections known here.
    pub fn len(&self) -> usize {
        self.by_conn.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Publish the stand-in's lines in order until it closes; then, unless the client's
/// node closed it, ask that node to close the connection.
async fn forward<S: LineSink>(
    sink: Arc<S>,
    to: RemoteConn,
    mut receiver: OutboxReceiver,
    closed_there: Arc<AtomicBool>,
) {
    let close = receiver.close.clone();
    loop {
        tokio::select! {
            biased;
            line = receiver.recv() => match line {
                Some(line) => {
                    if !sink.publish(&to, bytes::Bytes::from(line.into_bytes())).await {
                        break;
                    }
                }
                None => break,
            },
            _ = close.cancelled() => {
                // Lines queued before the close still go, as a socket writer would.
                while let Some(line) = receiver.try_recv() {
                    if !sink.publish(&to, bytes::Bytes::from(line.into_bytes())).await {
                        break;
                    }
                }
                break;
            }
        }
    }
    if !closed_there.load(Ordering::Relaxed) {
        sink.publish(&to, bytes::Bytes::new()).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records what would be published.
    #[derive(Default)]
    struct Recorder {
        lines: Mutex<Vec<(RemoteConn, String)>>,
        notify: tokio::sync::Notify,
    }

    impl LineSink for Recorder {
        async fn publish(&self, to: &RemoteConn, line: bytes::Bytes) -> bool {
            let text = String::from_utf8_lossy(&line).into_owned();
            self.lines.lock().push((to.clone(), text));
            self.notify.notify_waiters();
            true
        }
    }

    fn conn(node: &str, conn: u64) -> RemoteConn {
        RemoteConn {
            node: node.into(),
            conn,
        }
    }

    async fn published(recorder: &Recorder, count: usize) -> Vec<String> {
        loop {
            let notified = recorder.notify.notified();
            {
                let lines = recorder.lines.lock();
                if lines.len() >= count {
                    return lines.iter().map(|(_, l)| l.clone()).collect();
                }
            }
            notified.await;
        }
    }

    #[tokio::test]
    async fn lines_go_out_in_order_and_a_close_here_tells_the_client_node() {
        let (relays, sink) = (Relays::default(), Arc::new(Recorder::default()));
        let from = conn("east", 4);
        let outbox = relays.outbox(&sink, &from, 1 << 16);
        assert!(outbox.send_line("one"));
        assert!(outbox.send_line("two"));
        assert_eq!(
            relays.outbox(&sink, &from, 1 << 16).conn(),
            outbox.conn(),
            "one stand-in per remote connection"
        );
        outbox.close();
        assert_eq!(published(&sink, 3).await, ["one", "two", ""]);
        assert_ne!(
            relays.outbox(&sink, &from, 1 << 16).conn(),
            outbox.conn(),
            "a closed stand-in is replaced"
        );
    }

    #[tokio::test]
    async fn a_close_from_the_client_node_is_not_echoed() {
        let (relays, sink) = (Relays::default(), Arc::new(Recorder::default()));
        let from = conn("west", 9);
        let outbox = relays.outbox(&sink, &from, 1 << 16);
        assert!(outbox.send_line("last"));
        assert_eq!(relays.closed(&from), Some(outbox.conn()));
        assert!(outbox.is_closed());
        assert_eq!(published(&sink, 1).await, ["last"]);
        // Nothing more comes. On this one-thread runtime the forwarding task ran to its
        // end in the poll that published "last" (every step after it is ready at once).
        assert_eq!(sink.lines.lock().len(), 1);
        assert!(relays.is_empty());
        assert_eq!(relays.closed(&from), None);
    }
}
