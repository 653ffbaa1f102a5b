//! What every door does to a socket it accepts (the native TCP door, the HTTP door
//! that carries `/ws`, the Q-Game port, the spacegoo port's route to the lobby), said
//! once:
//! - `TCP_NODELAY`: the server writes small lines and frames, and with Nagle's
//!   algorithm a write made while the previous one is unacknowledged waits for the
//!   peer's delayed acknowledgement (40 ms on Linux; it was a browser player's p99);
//! - the kernel send buffer is set rather than left to autotuning (megabytes on Linux):
//!   with a client that never reads, it is part of what the server holds for that
//!   client, beside the connection's outbox.
//!
//! A refusal of either is logged, not fatal.

use std::net::SocketAddr;
use std::os::fd::AsFd;

/// Prepare an accepted `socket`: no Nagle delay, a send buffer of `send_buffer` bytes.
pub fn prepare_accepted(socket: &impl AsFd, send_buffer: usize, peer: SocketAddr) {
    let socket = socket2::SockRef::from(socket);
    if let Err(error) = socket.set_tcp_nodelay(true) {
        tracing::debug!(%peer, %error, "cannot turn off the socket's Nagle delay");
    }
    if let Err(error) = socket.set_send_buffer_size(send_buffer) {
        tracing::debug!(%peer, %error, "cannot set the socket's send buffer");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A real loopback connection's accepted end, prepared: Nagle is off and the send
    /// buffer is the one asked for (Linux doubles what it is given, for its own
    /// bookkeeping), not the kernel's default.
    #[test]
    fn an_accepted_socket_sends_at_once_and_holds_the_buffer_asked_for() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
        let address = listener.local_addr().expect("an address");
        let _client = std::net::TcpStream::connect(address).expect("connected");
        let (accepted, peer) = listener.accept().expect("accepted");
        let before = socket2::SockRef::from(&accepted);
        assert!(
            !before.tcp_nodelay().expect("readable"),
            "Nagle is on by default"
        );
        prepare_accepted(&accepted, 64 * 1024, peer);
        let after = socket2::SockRef::from(&accepted);
        assert!(after.tcp_nodelay().expect("readable"));
        let size = after.send_buffer_size().expect("readable");
        assert!(
            (64 * 1024..=128 * 1024).contains(&size),
            "send buffer {size}"
        );
    }
}
