//! Compatibility-port connections carried to the node that holds the deployment's
//! lobby, so that every spacegoo or Q-Game client of the deployment waits in one
//! lobby and meets the others whatever node it reached.
//!
//! The ports speak the originals' protocols, whose lobbies and games live inside each
//! port; rather than teach two foreign protocols about remote seats, a node that does
//! not hold the lobby carries the client's bytes, unchanged, to the one that does,
//! where they enter that node's own port as one more TCP connection:
//!
//! ```text
//!   client ──TCP── node B: pump ──NATS arbiter.A.tunnel.B.<id>──▶ node A: pump ──TCP (loopback)──▶ A's port
//!   client ◀─TCP── node B: pump ◀─NATS arbiter.B.tunnel.B.<id>─── node A: pump ◀────────────────── A's port
//! ```
//!
//! Both ends are the same pump (`mesh/carry.rs`). NATS keeps one publisher's order on a
//! subject, so the byte stream arrives whole and in order; an empty message is the end
//! of it. Each end queues at most [`QUEUED_CHUNKS`] chunks the other sent: a client
//! that writes far ahead of what its port reads is disconnected, as the port itself
//! would disconnect a flood. The port on the lobby's node sees the client's own address
//! (the tunnel's loopback socket is looked up in [`Tunnels::client_of`]), so its
//! per-address caps and login throttle count the client, not the node. A tunnel whose
//! other node has died is closed at the next heartbeat ([`Tunnels::close_dead`]); its
//! client reconnects, as after any lost connection, and is carried to the lobby's new
//! node.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use bytes::Bytes;
use parking_lot::Mutex;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use arbiter_store::LiveNode;

use super::asks::Port;

/// The most bytes one tunnel message carries (one read of the socket).
pub(super) const CHUNK: usize = 16 * 1024;
/// A write to a tunnel's socket that takes longer than this (its reader stopped
/// reading) ends the tunnel, as a stalled write ends a spacegoo port connection.
pub(super) const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// Chunks an end holds that its socket has not yet taken: at most 1 MiB.
pub const QUEUED_CHUNKS: usize = 64;

/// The bytes for the end of tunnel `(client_node, id)` on node `to`.
pub fn tunnel_subject(to: &str, client_node: &str, id: u64) -> String {
    format!("arbiter.{to}.tunnel.{client_node}.{id}")
}

/// Every tunnel end on `node` (what `node` subscribes to).
pub fn tunnels_subject(node: &str) -> String {
    format!("arbiter.{node}.tunnel.*.*")
}

/// The tunnel (client node, id) a subject names.
pub(super) fn parse_tunnel_subject(subject: &str) -> Option<(String, u64)> {
    let mut tokens = subject.rsplitn(3, '.');
    let id = tokens.next()?.parse().ok()?;
    let client_node = tokens.next()?;
    Some((client_node.to_string(), id))
}

/// One end of a tunnel on this node.
struct End {
    /// Bytes the other end sent, for this end's socket.
    inbound: mpsc::Sender<Bytes>,
    /// The node (and incarnation) at the other end.
    other: LiveNode,
    /// Ends the pump (the other node died, or its bytes overflowed the queue).
    stop: CancellationToken,
}

/// This node's tunnel ends, and the ports tunnels enter here.
#[derive(Default)]
pub struct Tunnels {
    /// Where each port of this node listens (tunnels from other nodes connect there).
    ports: Mutex<HashMap<Port, SocketAddr>>,
    /// Ends by tunnel: (client node, id).
    ends: Mutex<HashMap<(String, u64), End>>,
    /// The local address of each tunnel's socket into a port here, with the address of
    /// the client it carries.
    clients: Mutex<HashMap<SocketAddr, IpAddr>>,
    next_id: AtomicU64,
}

impl Tunnels {
    /// Port `port` of this node listens on `address`.
    pub fn port_listens(&self, port: Port, address: SocketAddr) {
        self.ports.lock().insert(port, address);
    }

    /// The client a connection accepted from `peer` stands for: the client at the far
    /// end of a tunnel when `peer` is a tunnel's socket, else `peer` itself.
    pub fn client_of(&self, peer: SocketAddr) -> IpAddr {
        self.clients.lock().get(&peer).copied().unwrap_or(peer.ip())
    }

    /// Whether a connection accepted from `peer` came through a tunnel (it is served
    /// where it arrived, never carried on).
    pub fn is_tunnel(&self, peer: SocketAddr) -> bool {
        self.clients.lock().contains_key(&peer)
    }

    /// Tunnels open on this node.
    pub fn len(&self) -> usize {
        self.ends.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Close every tunnel whose other node is not among `live` (it died or restarted).
    pub fn close_dead(&self, live: &[LiveNode]) {
        for end in self.ends.lock().values() {
            if !live.contains(&end.other) {
                tracing::warn!(node = %end.other.name, "closing a tunnel: its other node stopped");
                end.stop.cancel();
            }
        }
    }

    pub(super) fn open_end(
        &self,
        key: (String, u64),
        other: LiveNode,
    ) -> (mpsc::Receiver<Bytes>, CancellationToken) {
        let (inbound, receiver) = mpsc::channel(QUEUED_CHUNKS);
        let stop = CancellationToken::new();
        let end = End {
            inbound,
            other,
            stop: stop.clone(),
        };
        self.ends.lock().insert(key, end);
        (receiver, stop)
    }

    /// Bytes from the other end of `key`'s tunnel. Never waits: an end whose queue is
    /// full is closed (its client wrote far ahead of what is read).
    pub(super) fn deliver(&self, key: &(String, u64), bytes: Bytes) {
        let ends = self.ends.lock();
        let Some(end) = ends.get(key) else {
            return;
        };
        if end.inbound.try_send(bytes).is_err() {
            tracing::info!(node = %key.0, id = key.1, "closing a tunnel: its queue is full or closed");
            end.stop.cancel();
        }
    }

    /// A new tunnel id of this node.
    pub(super) fn next_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// Where this node's `port` listens, if it is on.
    pub(super) fn port_address(&self, port: Port) -> Option<SocketAddr> {
        self.ports.lock().get(&port).copied()
    }

    /// The tunnel socket bound at `local` carries the client at `client`.
    pub(super) fn register_client(&self, local: SocketAddr, client: IpAddr) {
        self.clients.lock().insert(local, client);
    }

    pub(super) fn forget_client(&self, local: SocketAddr) {
        self.clients.lock().remove(&local);
    }

    pub(super) fn forget_end(&self, key: &(String, u64)) {
        self.ends.lock().remove(key);
    }

    /// Stop every tunnel end (the node is shutting down).
    pub(super) fn stop_all(&self) {
        for end in self.ends.lock().values() {
            end.stop.cancel();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subjects_name_the_receiving_node_and_the_tunnel() {
        let subject = tunnel_subject("east-1", "west_2", 42);
        assert_eq!(subject, "arbiter.east-1.tunnel.west_2.42");
        assert_eq!(
            parse_tunnel_subject(&subject),
            Some(("west_2".to_string(), 42))
        );
        assert_eq!(parse_tunnel_subject("arbiter.east-1.tunnel.west.x"), None);
        assert_eq!(tunnels_subject("east-1"), "arbiter.east-1.tunnel.*.*");
    }

    #[test]
    fn a_tunnel_socket_stands_for_its_client() {
        let tunnels = Tunnels::default();
        let socket: SocketAddr = "127.0.0.1:40000".parse().expect("address");
        let client: IpAddr = "192.0.2.7".parse().expect("address");
        assert_eq!(tunnels.client_of(socket), socket.ip());
        assert!(!tunnels.is_tunnel(socket));
        tunnels.clients.lock().insert(socket, client);
        assert_eq!(tunnels.client_of(socket), client);
        assert!(tunnels.is_tunnel(socket));
    }

    #[tokio::test]
    async fn an_end_whose_queue_overflows_is_stopped() {
        let tunnels = Tunnels::default();
        let other = LiveNode {
            name: "west".into(),
            started_at: 1,
        };
        let key = ("west".to_string(), 3);
        let (_receiver, stop) = tunnels.open_end(key.clone(), other.clone());
        for _ in 0..QUEUED_CHUNKS {
            tunnels.deliver(&key, Bytes::from_static(b"x"));
        }
        assert!(!stop.is_cancelled());
        tunnels.deliver(&key, Bytes::from_static(b"one too many"));
        assert!(stop.is_cancelled());

        let (_receiver, stop) = tunnels.open_end(
            ("east".to_string(), 4),
            LiveNode {
                name: "east".into(),
                started_at: 1,
            },
        );
        tunnels.close_dead(&[other]);
        assert!(stop.is_cancelled(), "east is not live");
    }
}
