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
//! Both ends are the same [`pump`]. NATS keeps one publisher's order on a subject, so
//! the byte stream arrives whole and in order; an empty message is the end of it. Each
//! end queues at most [`QUEUED_CHUNKS`] chunks the other sent: a client that writes far
//! ahead of what its port reads is disconnected, as the port itself would disconnect a
//! flood. The port on the lobby's node sees the client's own address (the tunnel's
//! loopback socket is looked up in [`Tunnels::client_of`]), so its per-address caps and
//! login throttle count the client, not the node. A tunnel whose other node has died
//! is closed at the next heartbeat ([`Tunnels::close_dead`]); its client reconnects, as
//! after any lost connection, and is carried to the lobby's new node.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use futures::StreamExt;
use parking_lot::Mutex;
use serde::{Deserialize, Serialize};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::sync::mpsc;
use tokio::time::timeout;
use tokio_util::sync::CancellationToken;

use arbiter_store::{LiveNode, Store};

use super::asks::Ask;
use super::link::Mesh;
use crate::protocol::Refusal;

/// The most bytes one tunnel message carries (one read of the socket).
const CHUNK: usize = 16 * 1024;
/// A write to a tunnel's socket that takes longer than this (its reader stopped
/// reading) ends the tunnel, as a stalled write ends a spacegoo port connection.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// Chunks an end holds that its socket has not yet taken: at most 1 MiB.
pub const QUEUED_CHUNKS: usize = 64;

/// A compatibility port, as tunnels name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Port {
    Spacegoo,
    Qgame,
}

/// The bytes for the end of tunnel `(client_node, id)` on node `to`.
pub fn tunnel_subject(to: &str, client_node: &str, id: u64) -> String {
    format!("arbiter.{to}.tunnel.{client_node}.{id}")
}

/// Every tunnel end on `node` (what `node` subscribes to).
pub fn tunnels_subject(node: &str) -> String {
    format!("arbiter.{node}.tunnel.*.*")
}

/// The tunnel (client node, id) a subject names.
fn parse_tunnel_subject(subject: &str) -> Option<(String, u64)> {
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

    fn open_end(
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
    fn deliver(&self, key: &(String, u64), bytes: Bytes) {
        let ends = self.ends.lock();
        let Some(end) = ends.get(key) else {
            return;
        };
        if end.inbound.try_send(bytes).is_err() {
            tracing::info!(node = %key.0, id = key.1, "closing a tunnel: its queue is full or closed");
            end.stop.cancel();
        }
    }
}

impl Mesh {
    /// Carry a port connection to the node that holds the deployment's lobby, when that
    /// is another node, until it ends. `Err` gives the stream back, to be served here:
    /// this node holds the lobby, the stream came through a tunnel, or the lobby's node
    /// refused or did not answer (then its clients meet here, as without a deployment).
    pub async fn carry(
        self: &Arc<Self>,
        store: &Store,
        port: Port,
        stream: TcpStream,
        peer: SocketAddr,
    ) -> Result<(), TcpStream> {
        if self.tunnels.is_tunnel(peer) {
            return Err(stream);
        }
        let Ok(lobby) = self.matchmaker(store).await else {
            return Err(stream);
        };
        if lobby.name == self.node {
            return Err(stream);
        }
        let id = self.tunnels.next_id.fetch_add(1, Ordering::Relaxed);
        let key = (self.node.clone(), id);
        // Ready for the lobby node's bytes before it is asked: its port may greet the
        // client before the answer comes back.
        let (inbound, stop) = self.tunnels.open_end(key.clone(), lobby.clone());
        let ask = Ask::Tunnel {
            port,
            client_node: self.incarnation(),
            id,
            client: self.tunnels.client_of(peer),
        };
        if let Err(refusal) = self.ask(&lobby.name, &ask).await {
            tracing::warn!(node = %lobby.name, ?port, reason = %refusal.message, "serving a port connection here: the lobby's node did not take it");
            self.tunnels.ends.lock().remove(&key);
            return Err(stream);
        }
        tracing::debug!(node = %lobby.name, ?port, id, "port connection carried to the lobby's node");
        let to = tunnel_subject(&lobby.name, &self.node, id);
        // Until the tunnel ends: the caller holds the connection's place meanwhile.
        pump(self.clone(), key, to, stream, inbound, stop).await;
        Ok(())
    }

    /// Another node's client, carried here: connect it to this node's `port` as the
    /// client at `client` (see [`Mesh::carry`]).
    pub async fn take_tunnel(
        self: &Arc<Self>,
        port: Port,
        client_node: LiveNode,
        id: u64,
        client: IpAddr,
    ) -> Result<(), Refusal> {
        let address = self.tunnels.ports.lock().get(&port).copied();
        let Some(address) = address else {
            return Err(Refusal::new(
                "no_port",
                format!("the {port:?} port is not on at this node"),
            ));
        };
        let internal = |error: std::io::Error| {
            Refusal::new(
                "internal",
                format!("cannot reach this node's port: {error}"),
            )
        };
        // Bound first, so that the socket's address is known as this client's before
        // the port can accept it and count an address.
        let target = loopback(address);
        let socket = match target {
            SocketAddr::V4(_) => TcpSocket::new_v4(),
            SocketAddr::V6(_) => TcpSocket::new_v6(),
        }
        .map_err(internal)?;
        socket
            .bind(SocketAddr::new(target.ip(), 0))
            .map_err(internal)?;
        let local = socket.local_addr().map_err(internal)?;
        self.tunnels.clients.lock().insert(local, client);
        let stream = match socket.connect(target).await {
            Ok(stream) => stream,
            Err(error) => {
                self.tunnels.clients.lock().remove(&local);
                return Err(internal(error));
            }
        };
        let key = (client_node.name.clone(), id);
        let (inbound, stop) = self.tunnels.open_end(key.clone(), client_node.clone());
        let to = tunnel_subject(&client_node.name, &client_node.name, id);
        let mesh = self.clone();
        tokio::spawn(async move {
            pump(mesh.clone(), key, to, stream, inbound, stop).await;
            mesh.tunnels.clients.lock().remove(&local);
        });
        Ok(())
    }
}

/// Where this node reaches a port it listens on at `address` (a wildcard address is
/// reached on loopback).
fn loopback(address: SocketAddr) -> SocketAddr {
    match address.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => {
            SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), address.port())
        }
        IpAddr::V6(ip) if ip.is_unspecified() => {
            SocketAddr::new(IpAddr::V6(Ipv6Addr::LOCALHOST), address.port())
        }
        _ => address,
    }
}

/// One end of a tunnel: the socket's bytes are published to the other end (`to`), the
/// other end's bytes (`inbound`) are written to the socket, until either side ends or
/// `stop`. Then the other end is told (an empty message) and the end is forgotten.
async fn pump(
    mesh: Arc<Mesh>,
    key: (String, u64),
    to: String,
    stream: TcpStream,
    mut inbound: mpsc::Receiver<Bytes>,
    stop: CancellationToken,
) {
    let _ = stream.set_nodelay(true);
    let (mut read, mut write) = stream.into_split();
    let mut buffer = vec![0u8; CHUNK];
    let mut told_other = false;
    loop {
        tokio::select! {
            () = stop.cancelled() => break,
            chunk = inbound.recv() => match chunk {
                // The other end finished (or its node said so).
                None => break,
                Some(bytes) if bytes.is_empty() => {
                    told_other = true;
                    break;
                }
                Some(bytes) => {
                    // A socket that takes nothing (its client stopped reading) ends
                    // the tunnel after a while, or sooner if the queue behind it
                    // overflows.
                    let written = tokio::select! {
                        written = timeout(WRITE_TIMEOUT, write.write_all(&bytes)) => {
                            matches!(written, Ok(Ok(())))
                        }
                        () = stop.cancelled() => false,
                    };
                    if !written {
                        break;
                    }
                }
            },
            read = read.read(&mut buffer) => match read {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let chunk = Bytes::copy_from_slice(&buffer[..n]);
                    if mesh.client.publish(to.clone(), chunk).await.is_err() {
                        break;
                    }
                }
            },
        }
    }
    mesh.tunnels.ends.lock().remove(&key);
    if !told_other {
        let _ = mesh.client.publish(to, Bytes::new()).await;
    }
    let _ = write.shutdown().await;
}

/// Hand each tunnel message that reaches this node to its end, until `shutdown`.
pub async fn deliver(
    mesh: Arc<Mesh>,
    mut messages: async_nats::Subscriber,
    shutdown: CancellationToken,
) {
    loop {
        let message = tokio::select! {
            _ = shutdown.cancelled() => break,
            message = messages.next() => match message {
                Some(message) => message,
                None => break,
            },
        };
        if let Some(key) = parse_tunnel_subject(&message.subject) {
            mesh.tunnels.deliver(&key, message.payload);
        }
    }
    // Every tunnel ends with the node.
    for end in mesh.tunnels.ends.lock().values() {
        end.stop.cancel();
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
    fn a_wildcard_port_is_reached_on_loopback() {
        let any: SocketAddr = "0.0.0.0:6000".parse().expect("address");
        assert_eq!(loopback(any), "127.0.0.1:6000".parse().expect("address"));
        let any6: SocketAddr = "[::]:6000".parse().expect("address");
        assert_eq!(loopback(any6), "[::1]:6000".parse().expect("address"));
        let named: SocketAddr = "10.1.2.3:6000".parse().expect("address");
        assert_eq!(loopback(named), named);
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
