//! Carrying a compatibility-port connection between two nodes: the requests that open a
//! tunnel ([`Mesh::carry`] on the client's node, [`Mesh::take_tunnel`] on the lobby's)
//! and the pump that moves its bytes. What a tunnel is, and its bounds:
//! [`super::tunnels`].

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

use bytes::Bytes;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::sync::mpsc;
use tokio::time::timeout;
use tokio_util::sync::CancellationToken;

use arbiter_store::{LiveNode, Store};

use super::asks::{Ask, Port};
use super::link::{next_message, Mesh};
use super::tunnels::{parse_tunnel_subject, tunnel_subject, CHUNK, WRITE_TIMEOUT};
use crate::protocol::Refusal;

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
        let id = self.tunnels.next_id();
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
            self.tunnels.forget_end(&key);
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
        let address = self.tunnels.port_address(port);
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
        self.tunnels.register_client(local, client);
        let stream = match socket.connect(target).await {
            Ok(stream) => stream,
            Err(error) => {
                self.tunnels.forget_client(local);
                return Err(internal(error));
            }
        };
        let key = (client_node.name.clone(), id);
        let (inbound, stop) = self.tunnels.open_end(key.clone(), client_node.clone());
        let to = tunnel_subject(&client_node.name, &client_node.name, id);
        let mesh = self.clone();
        tokio::spawn(async move {
            pump(mesh.clone(), key, to, stream, inbound, stop).await;
            mesh.tunnels.forget_client(local);
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
    mesh.tunnels.forget_end(&key);
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
    while let Some(message) = next_message(&mut messages, &shutdown).await {
        if let Some(key) = parse_tunnel_subject(&message.subject) {
            mesh.tunnels.deliver(&key, message.payload);
        }
    }
    // Every tunnel ends with the node.
    mesh.tunnels.stop_all();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wildcard_port_is_reached_on_loopback() {
        let any: SocketAddr = "0.0.0.0:6000".parse().expect("address");
        assert_eq!(loopback(any), "127.0.0.1:6000".parse().expect("address"));
        let any6: SocketAddr = "[::]:6000".parse().expect("address");
        assert_eq!(loopback(any6), "[::1]:6000".parse().expect("address"));
        let named: SocketAddr = "10.1.2.3:6000".parse().expect("address");
        assert_eq!(loopback(named), named);
    }
}
