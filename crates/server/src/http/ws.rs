//! The native protocol over WebSocket (on the HTTP port, at `/ws`): each text message is
//! one protocol message, each way. The WebSocket layer bounds message and frame sizes.
//!
//! The upgrade is done here rather than by axum's `WebSocketUpgrade` for one reason: a
//! connection closed for an oversized message must first drain what the client is still
//! sending (see [`linger`]), and only the raw socket can be drained without taking the
//! rest of the message into memory; axum's socket does not give it back.

use std::net::SocketAddr;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use futures::stream::{SplitSink, SplitStream};
use futures::{SinkExt, StreamExt};
use hyper::upgrade::{OnUpgrade, Upgraded};
use hyper_util::rt::TokioIo;
use tokio::io::AsyncReadExt;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::WebSocketStream;

use crate::connection::{Outbox, OutboxReceiver};
use crate::http::state::AppState;
use crate::protocol::FrameError;
use crate::session::{Flow, Session};

/// An upgraded `/ws` connection.
type WebSocket = WebSocketStream<TokioIo<Upgraded>>;

/// The codec's read buffer. Its default, 128 KiB, is allocated for every connection and
/// zero-filled up to its capacity before every read (tungstenite 0.29's `read_in`):
/// 125 KiB of memory a connection and a 128 KiB fill a message. A player's messages are
/// a few dozen bytes; a longer one (up to `max_line`) is reserved as its header
/// announces it and read a kibibyte at a time. 1 KiB rather than 4 keeps an idle match
/// of two browser players 6 KiB smaller, at the same speed under load.
const READ_BUFFER: usize = 1024;

/// How long a closing connection's unread input is drained (see [`linger`]).
const LINGER: Duration = Duration::from_secs(2);
/// Most bytes drained from a closing connection.
const LINGER_BYTES: usize = 64 * 1024 * 1024;

/// `GET /ws`: upgrade and run a session.
pub async fn upgrade(
    State(app): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    mut request: Request,
) -> Response {
    let Some(accept) = accept_key(request.method(), request.headers()) else {
        return (
            StatusCode::BAD_REQUEST,
            "this address speaks the native protocol over WebSocket: send a WebSocket upgrade",
        )
            .into_response();
    };
    let Some(on_upgrade) = request.extensions_mut().remove::<OnUpgrade>() else {
        return (
            StatusCode::BAD_REQUEST,
            "this connection cannot be upgraded",
        )
            .into_response();
    };
    let crowd = app.hub.config.limits.connections_per_address;
    let Some(slot) = app.hub.addresses.enter(peer.ip(), crowd) else {
        app.hub.metrics.connection_refused("ws");
        return (
            StatusCode::TOO_MANY_REQUESTS,
            format!("this address already holds {crowd} connections; close one first"),
        )
            .into_response();
    };
    let max = app.hub.config.limits.max_line;
    let config = WebSocketConfig::default()
        .read_buffer_size(READ_BUFFER)
        .max_message_size(Some(max))
        .max_frame_size(Some(max));
    tokio::spawn(async move {
        match on_upgrade.await {
            Ok(upgraded) => {
                let socket = WebSocketStream::from_raw_socket(
                    TokioIo::new(upgraded),
                    Role::Server,
                    Some(config),
                )
                .await;
                connection(socket, peer, app).await;
            }
            Err(error) => tracing::debug!(%peer, %error, "WebSocket upgrade failed"),
        }
        drop(slot);
    });
    let mut response = Response::new(Body::empty());
    *response.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
    let headers = response.headers_mut();
    headers.insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
    headers.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
    headers.insert(header::SEC_WEBSOCKET_ACCEPT, accept);
    response
}

/// The `Sec-WebSocket-Accept` answering a valid WebSocket upgrade request (RFC 6455,
/// section 4.2.1); `None` for anything else.
fn accept_key(method: &Method, headers: &HeaderMap) -> Option<HeaderValue> {
    let has_token = |name: header::HeaderName, token: &str| {
        headers.get_all(name).iter().any(|value| {
            value.to_str().is_ok_and(|text| {
                text.split(',')
                    .any(|part| part.trim().eq_ignore_ascii_case(token))
            })
        })
    };
    let valid = method == Method::GET
        && has_token(header::CONNECTION, "upgrade")
        && has_token(header::UPGRADE, "websocket")
        && headers
            .get(header::SEC_WEBSOCKET_VERSION)
            .is_some_and(|version| version == "13");
    let key = headers.get(header::SEC_WEBSOCKET_KEY)?;
    valid
        .then(|| HeaderValue::from_str(&derive_accept_key(key.as_bytes())).ok())
        .flatten()
}

async fn connection(socket: WebSocket, peer: SocketAddr, app: AppState) {
    let hub = app.hub.clone();
    let limits = hub.config.limits.clone();
    let (sink, mut stream): (_, SplitStream<WebSocket>) = socket.split();
    let (outbox, receiver) = Outbox::new(limits.outbox_bytes);
    let writer = tokio::spawn(write_messages(sink, receiver, limits.ws_heartbeat));
    let mut session = Session::start(hub, outbox.clone(), "ws", peer);
    // Anything heard, pongs included, proves the client is not stuck mid-frame.
    let mut last_heard = Instant::now();
    let mut check = tokio::time::interval(limits.ws_heartbeat);
    // Made once, not once a message, as in the TCP transport's `connection` (why is
    // told there).
    let shutdown = app.shutdown.child_token();
    let closed = outbox.closed();
    let shutting_down = shutdown.cancelled();
    tokio::pin!(closed, shutting_down);
    loop {
        tokio::select! {
            _ = &mut closed => break,
            _ = check.tick() => {
                let silent = last_heard.elapsed();
                if silent > limits.ws_heartbeat * 2 {
                    session.on_silence(silent);
                    break;
                }
            }
            _ = &mut shutting_down => {
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
                    Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_))) => {
                        Flow::Continue
                    }
                    Some(Ok(Message::Close(_))) | None => Flow::Close,
                    // An oversized message or frame: refused before its payload is read.
                    Some(Err(WsError::Capacity(_))) => {
                        session.on_bad_frame(FrameError::TooLong { limit: limits.max_line })
                    }
                    // A protocol violation or a broken connection.
                    Some(Err(_)) => Flow::Close,
                };
                if flow == Flow::Close {
                    break;
                }
            }
        }
    }
    session.finish().await;
    outbox.close();
    if let Ok(sink) = writer.await {
        if let Ok(socket) = stream.reunite(sink) {
            linger(socket).await;
        }
    }
}

/// After the closing messages are written, read and discard what the client is still
/// sending for a moment (as the TCP transport does): dropping a socket with unread
/// input makes the kernel reset the connection, and the reset can destroy the closing
/// error before the client reads it (seen with a 10 MB message, whose rest was still
/// arriving when the bound refused it). The bytes are read from the raw socket, below
/// the WebSocket codec: the refused message is never taken into memory.
async fn linger(mut socket: WebSocket) {
    let raw = socket.get_mut();
    let mut sink = vec![0u8; 64 * 1024];
    let mut left = LINGER_BYTES;
    let _ = tokio::time::timeout(LINGER, async {
        while left > 0 {
            match raw.read(&mut sink).await {
                Ok(0) | Err(_) => break,
                Ok(n) => left = left.saturating_sub(n),
            }
        }
    })
    .await;
}

/// Write queued lines (and heartbeat pings) until the connection closes; then write
/// what is already queued, briefly, and send the close. Returns the sink, for the
/// drain.
async fn write_messages(
    mut sink: SplitSink<WebSocket, Message>,
    mut receiver: OutboxReceiver,
    heartbeat: Duration,
) -> SplitSink<WebSocket, Message> {
    let mut ping = tokio::time::interval_at(Instant::now() + heartbeat, heartbeat);
    // One wait for the close, kept across messages; ready again once fired.
    let closing = receiver.close.clone().cancelled_owned();
    tokio::pin!(closing);
    loop {
        let messages = tokio::select! {
            biased;
            line = receiver.recv() => match line {
                // The lines queued with it go in the same write, as over TCP.
                Some(line) => receiver
                    .batch_after(line)
                    .await
                    .into_iter()
                    .map(|line| Message::Text(line.into_string().into()))
                    .collect(),
                None => break,
            },
            _ = &mut closing => break,
            _ = ping.tick() => vec![Message::Ping(Default::default())],
        };
        // Biased: messages already taken are sent if the socket takes them now, even
        // when the connection is closing (a closing error must reach the client); only
        // a send that would wait is given up.
        let sent = tokio::select! {
            biased;
            sent = send_together(&mut sink, messages) => sent,
            _ = &mut closing => Ok(()),
        };
        if sent.is_err() {
            receiver.close.cancel();
            return sink;
        }
    }
    let _ = tokio::time::timeout(Duration::from_millis(500), async {
        while let Some(line) = receiver.try_recv() {
            if sink
                .send(Message::Text(line.into_string().into()))
                .await
                .is_err()
            {
                return;
            }
        }
        let _ = sink.close().await;
    })
    .await;
    sink
}

/// Queue `messages` in the WebSocket's write buffer, then flush them in one write.
async fn send_together(
    sink: &mut SplitSink<WebSocket, Message>,
    messages: Vec<Message>,
) -> Result<(), WsError> {
    for message in messages {
        sink.feed(message).await?;
    }
    sink.flush().await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn upgrade_headers(pairs: &[(header::HeaderName, &'static str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.append(name.clone(), HeaderValue::from_static(value));
        }
        headers
    }

    #[test]
    fn a_valid_upgrade_gets_the_rfc_6455_accept_key() {
        // The example of RFC 6455, section 1.3.
        let headers = upgrade_headers(&[
            (header::CONNECTION, "keep-alive, Upgrade"),
            (header::UPGRADE, "websocket"),
            (header::SEC_WEBSOCKET_VERSION, "13"),
            (header::SEC_WEBSOCKET_KEY, "dGhlIHNhbXBsZSBub25jZQ=="),
        ]);
        assert_eq!(
            accept_key(&Method::GET, &headers),
            Some(HeaderValue::from_static("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="))
        );
        assert_eq!(accept_key(&Method::POST, &headers), None);
    }

    #[test]
    fn anything_else_is_refused() {
        let complete = [
            (header::CONNECTION, "Upgrade"),
            (header::UPGRADE, "websocket"),
            (header::SEC_WEBSOCKET_VERSION, "13"),
            (header::SEC_WEBSOCKET_KEY, "dGhlIHNhbXBsZSBub25jZQ=="),
        ];
        for missing in 0..complete.len() {
            let mut pairs = complete.to_vec();
            pairs.remove(missing);
            assert_eq!(accept_key(&Method::GET, &upgrade_headers(&pairs)), None);
        }
        let mut old_version = complete.to_vec();
        old_version[2].1 = "8";
        assert_eq!(
            accept_key(&Method::GET, &upgrade_headers(&old_version)),
            None
        );
    }
}
