//! Each accepted socket's kernel send buffer is set rather than left to the kernel's
//! autotuning (megabytes on Linux): with a client that never reads, it is part of what
//! the server holds for that client, beside the connection's outbox.

use std::net::SocketAddr;
use std::os::fd::AsFd;

/// Set `socket`'s send buffer to `bytes`; a refusal is logged, not fatal.
pub fn cap_send_buffer(socket: &impl AsFd, bytes: usize, peer: SocketAddr) {
    if let Err(error) = socket2::SockRef::from(socket).set_send_buffer_size(bytes) {
        tracing::debug!(%peer, %error, "cannot set the socket's send buffer");
    }
}
