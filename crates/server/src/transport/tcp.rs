//! The native protocol over TCP: one JSON object per line, each way.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use crate::connection::{Line, Outbox, OutboxReceiver};
use crate::hub::Hub;
use crate::protocol::{LineReader, ServerMessage};
use crate::session::{Flow, Session};

/// How long a closing connection's unread input is drained (see [`linger`]).
const LINGER: Duration = Duration::from_secs(2);

/// Accept connections until `shutdown`.
pub async fn serve(listener: TcpListener, hub: Arc<Hub>, shutdown: CancellationToken) {
    loop {
        tokio::select! {
            _ = shutdown.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    let max = hub.config.limits.connections_per_address;
                    match hub.addresses.enter(peer.ip(), max) {
                        Some(slot) => {
                            let (hub, shutdown) = (hub.clone(), shutdown.clone());
                            tokio::spawn(async move {
                                connection(stream, peer, hub, shutdown).await;
                                drop(slot);
                            });
                        }
                        None => {
                            hub.metrics.connection_refused("tcp");
                            tokio::spawn(refuse_crowded(stream, max));
                        }
                    }
                }
                Err(error) => {
                    // Out of file descriptors and the like: wait instead of spinning.
                    tracing::warn!(%error, "accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        }
    }
}

/// An address already holding its share of connections gets one line saying so.
async fn refuse_crowded(mut stream: TcpStream, max: usize) {
    let line = ServerMessage::error(
        "too_many_connections",
        format!("this address already holds {max} connections; close one first"),
    )
    .to_line();
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        let _ = stream.write_all(format!("{line}\n").as_bytes()).await;
        let _ = stream.shutdown().await;
    })
    .await;
}

/// One client, from its first byte to its last.
async fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    hub: Arc<Hub>,
    shutdown: CancellationToken,
) {
    let limits = hub.config.limits.clone();
    crate::connection::prepare_accepted(&stream, limits.socket_send_buffer, peer);
    let (read, write) = stream.into_split();
    let (outbox, receiver) = Outbox::new(limits.outbox_bytes);
    let writer = tokio::spawn(write_lines(write, receiver));
    let mut session = Session::start(hub, outbox.clone(), "tcp", peer);
    let mut reader = LineReader::new(read, limits.max_line);
    let tick = (limits.partial_line_timeout / 4).max(Duration::from_millis(10));
    let mut ticker = tokio::time::interval(tick);
    let mut partial_since: Option<Instant> = None;
    // Made once, not once a line: a fresh `cancelled()` registers with its token's
    // waiters and leaves again on every pass, and the server's shutdown token is one
    // for every connection, so each line read took a lock all connections share. A
    // child token is this connection's own, cancelled with its parent.
    let shutdown = shutdown.child_token();
    let closed = outbox.closed();
    let shutting_down = shutdown.cancelled();
    tokio::pin!(closed, shutting_down);
    loop {
        tokio::select! {
            _ = &mut closed => break,
            _ = &mut shutting_down => {
                session.server_closing();
                break;
            }
            read = reader.next_line() => {
                partial_since = None;
                let flow = match read {
                    Ok(Some(Ok(line))) => session.on_line(&line).await,
                    Ok(Some(Err(error))) => session.on_bad_frame(error),
                    Ok(None) | Err(_) => Flow::Close,
                };
                if flow == Flow::Close {
                    break;
                }
            }
            _ = ticker.tick() => {
                if reader.has_partial_line() {
                    let since = *partial_since.get_or_insert_with(Instant::now);
                    if since.elapsed() >= limits.partial_line_timeout {
                        session.on_line_timeout();
                        break;
                    }
                } else {
                    partial_since = None;
                }
            }
        }
    }
    session.finish().await;
    outbox.close();
    let _ = writer.await;
    linger(reader.into_inner()).await;
}

/// After the last line is written and the write side shut, read and discard what the
/// client is still sending for a moment before closing. Closing a socket with unread
/// input makes the kernel reset the connection, and a reset can destroy the closing
/// error message before the client reads it.
async fn linger(mut read: OwnedReadHalf) {
    let mut sink = vec![0u8; 64 * 1024];
    let mut left: usize = 64 * 1024 * 1024;
    let _ = tokio::time::timeout(LINGER, async {
        while left > 0 {
            match read.read(&mut sink).await {
                Ok(0) | Err(_) => break,
                Ok(n) => left = left.saturating_sub(n),
            }
        }
    })
    .await;
}

/// Write queued lines until the connection closes; then write what is already queued
/// (a closing error, say), briefly, and shut the socket.
async fn write_lines(mut out: OwnedWriteHalf, mut receiver: OutboxReceiver) {
    // One wait for the close, kept across lines (see `connection`); it may be polled
    // again once it has fired, and is ready again then.
    let closing = receiver.close.clone().cancelled_owned();
    tokio::pin!(closing);
    loop {
        let line = tokio::select! {
            biased;
            line = receiver.recv() => line,
            _ = &mut closing => None,
        };
        let Some(line) = line else { break };
        let batch = receiver.batch_after(line).await;
        // A closing connection still gets its queued lines, unless it stopped reading.
        let write = write_batch(&mut out, &batch);
        tokio::pin!(write);
        let written = tokio::select! {
            written = &mut write => written,
            _ = &mut closing => {
                tokio::time::timeout(Duration::from_millis(500), &mut write)
                    .await
                    .unwrap_or(Ok(()))
            }
        };
        if written.is_err() {
            receiver.close.cancel();
            return;
        }
    }
    let mut rest = Vec::new();
    while let Some(line) = receiver.try_recv() {
        rest.push(line);
    }
    let _ = tokio::time::timeout(Duration::from_millis(500), async {
        let _ = write_batch(&mut out, &rest).await;
        let _ = out.shutdown().await;
    })
    .await;
}

/// The batch's lines, each with its newline, in one write. The bytes are gathered for
/// this write only: a buffer kept with the connection (a `BufWriter`'s 8 KiB) would be
/// held by every idle connection, and a batch larger than it went out in several
/// writes.
async fn write_batch(out: &mut OwnedWriteHalf, lines: &[Line]) -> std::io::Result<()> {
    let mut bytes = Vec::with_capacity(lines.iter().map(|line| line.len() + 1).sum());
    for line in lines {
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
    }
    out.write_all(&bytes).await
}
