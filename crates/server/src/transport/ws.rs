//! The native protocol over WebSocket (on the HTTP port, at `/ws`): each text message is
//! one protocol message, each way. The WebSocket layer bounds message and frame sizes.

use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::response::{IntoResponse, Response};
use futures::{SinkExt, StreamExt};
use tokio::time::Instant;

use crate::http::state::AppState;
use crate::protocol::FrameError;
use crate::session::{Flow, Session};
use crate::transport::{Outbox, OutboxReceiver};

/// How long a closing connection's unread input is drained (see [`linger`]). Longer
/// than the TCP transport's: an oversized message is drained through the WebSocket
/// codec, which takes the rest of the frame whole (unmasking it) before it answers, and
/// the misbehaviour matrix lost the error to a reset 1 run in 8 at 2 s on a loaded
/// machine.
const LINGER: Duration = Duration::from_secs(5);

/// `GET /ws`: upgrade and run a session.
pub async fn upgrade(
    ws: WebSocketUpgrade,
    State(app): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
) -> Response {
    let crowd = app.hub.config.limits.connections_per_address;
    let Some(slot) = app.hub.addresses.enter(peer.ip(), crowd) else {
        return (
            axum::http::StatusCode::TOO_MANY_REQUESTS,
            format!("this address already holds {crowd} connections; close one first"),
        )
            .into_response();
    };
    let max = app.hub.config.limits.max_line;
    ws.max_message_size(max)
        .max_frame_size(max)
        .on_upgrade(move |socket| async move {
            connection(socket, peer, app).await;
            drop(slot);
        })
}

async fn connection(socket: WebSocket, peer: SocketAddr, app: AppState) {
    let hub = app.hub.clone();
    let limits = hub.config.limits.clone();
    let (sink, mut stream) = socket.split();
    let (outbox, receiver) = Outbox::new(limits.outbox_bytes);
    let writer = tokio::spawn(write_messages(sink, receiver, limits.ws_heartbeat));
    let mut session = Session::start(hub, outbox.clone(), "ws", peer);
    // Anything heard, pongs included, proves the client is not stuck mid-frame.
    let mut last_heard = Instant::now();
    let mut check = tokio::time::interval(limits.ws_heartbeat);
    loop {
        tokio::select! {
            _ = outbox.closed() => break,
            _ = check.tick() => {
                let silent = last_heard.elapsed();
                if silent > limits.ws_heartbeat * 2 {
                    session.on_silence(silent);
                    break;
                }
            }
            _ = app.shutdown.cancelled() => {
                session.server_closing();
                break;
            }
            message = stream.next() => {
                last_heard = Instant::now();
                let flow = match message {
                    Some(Ok(Message::Text(text))) => {
                        session.on_line(text.as_str().trim_end_matches(['\r', '\n'])).await
                    }
                    Some(Ok(Message::Binary(bytes))) => match std::str::from_utf8(&bytes) {
                        Ok(text) => session.on_line(text.trim_end_matches(['\r', '\n'])).await,
                        Err(_) => session.on_bad_frame(FrameError::NotUtf8),
                    },
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => Flow::Continue,
                    Some(Ok(Message::Close(_))) | None => Flow::Close,
                    Some(Err(error)) => {
                        // Oversized messages and protocol violations end up here.
                        let text = error.to_string();
                        if text.contains("too long") || text.contains("Space limit") || text.contains("size") {
                            session.on_bad_frame(FrameError::TooLong { limit: limits.max_line })
                        } else {
                            Flow::Close
                        }
                    }
                };
                if flow == Flow::Close {
                    break;
                }
            }
        }
    }
    session.finish().await;
    outbox.close();
    let _ = writer.await;
    linger(stream).await;
}

/// After the closing messages are written, read and discard what the client is still
/// sending for a moment (as the TCP transport does): dropping a socket with unread
/// input makes the kernel reset the connection, and the reset can destroy the closing
/// error before the client reads it (seen with a 10 MB message, whose rest was still
/// arriving when the bound refused it). The codec keeps the refused frame's header and
/// reads the rest of that frame into memory: what arrives within [`LINGER`], at most
/// the frame's declared length.
async fn linger(mut stream: futures::stream::SplitStream<WebSocket>) {
    let _ = tokio::time::timeout(LINGER, async {
        while let Some(read) = stream.next().await {
            if read.is_err() {
                break;
            }
        }
    })
    .await;
}

async fn write_messages(
    mut sink: futures::stream::SplitSink<WebSocket, Message>,
    mut receiver: OutboxReceiver,
    heartbeat: Duration,
) {
    let mut ping = tokio::time::interval_at(Instant::now() + heartbeat, heartbeat);
    loop {
        let close = receiver.close.clone();
        let message = tokio::select! {
            biased;
            line = receiver.recv() => line.map(|line| Message::Text(line.as_ref().into())),
            _ = close.cancelled() => None,
            _ = ping.tick() => Some(Message::Ping(Default::default())),
        };
        let Some(message) = message else { break };
        // Biased: a message already taken is sent if the socket takes it now, even when
        // the connection is closing (a closing error must reach the client); only a
        // send that would wait is given up.
        let sent = tokio::select! {
            biased;
            sent = sink.send(message) => sent,
            _ = receiver.close.cancelled() => Ok(()),
        };
        if sent.is_err() {
            receiver.close.cancel();
            return;
        }
    }
    let _ = tokio::time::timeout(Duration::from_millis(500), async {
        while let Some(line) = receiver.try_recv() {
            if sink
                .send(Message::Text(line.as_ref().into()))
                .await
                .is_err()
            {
                return;
            }
        }
        let _ = sink.close().await;
    })
    .await;
}
