//! A client that never reads holds at most its outbox's byte bound: a spectator of a
//! busy match that stops reading is disconnected once that much is queued for it, and
//! the match plays on for everyone else.

use std::time::Duration;

use crate::common::*;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const BOUND: usize = 64 * 1024;

/// A player that answers every prompt at once with its first legal order (not a pass:
/// a whole round of passing ends a T&E game) until the match ends.
async fn orderer(tcp: String, name: &'static str) {
    let mut me = registered(&tcp, name).await;
    me.send(&json!({"type": "queue", "ruleset": "tae"}))
        .await
        .unwrap();
    loop {
        let message = me.recv().await.expect("a message");
        match message["type"].as_str() {
            Some("prompt") => {
                me.send(&json!({"type": "legal", "match": message["match"]}))
                    .await
                    .unwrap();
            }
            Some("legal") => {
                let actions = message["actions"].as_array().cloned().unwrap_or_default();
                let pass = json!("pass");
                let Some(action) = actions.iter().find(|a| **a != pass).or(actions.first()) else {
                    continue; // nothing owed any more
                };
                me.send(&json!({"type": "act", "match": message["match"], "action": action}))
                    .await
                    .unwrap();
            }
            Some("outcome") => return,
            _ => {}
        }
    }
}

#[tokio::test]
async fn a_spectator_that_never_reads_is_dropped_at_its_byte_bound() {
    let server = start(|c| {
        c.limits.outbox_bytes = BOUND;
        c.limits.socket_send_buffer = 16 * 1024;
        c.pairing_interval = Duration::from_millis(50);
    })
    .await;
    // Two players who answer at once with orders: a long T&E game, and a full view
    // for the spectators after every order.
    let players = [
        tokio::spawn(orderer(server.tcp.clone(), "order-ann")),
        tokio::spawn(orderer(server.tcp.clone(), "order-bob")),
    ];
    let mut match_id = None;
    for _ in 0..500 {
        let (_, list) = http_get(&server.http, "/api/matches?status=running", None).await;
        match_id = list["matches"][0]["id"].as_i64();
        if match_id.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let match_id = match_id.expect("the queue paired the two players");
    // A spectator with a tiny receive window that never reads.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut idle = socket
        .connect(server.tcp.parse().unwrap())
        .await
        .expect("connect");
    let spectate = format!("{}\n", json!({"type": "spectate", "match": match_id}));
    idle.write_all(spectate.as_bytes()).await.unwrap();

    // It reads only until it is watching: `spectating`, then a line after it (the
    // match's view, which the match sends once the spectator is counted). The count
    // on the match's page then falls to 0 only when it is dropped. (Watching the count
    // rise to 1 first raced the drop: on PostgreSQL, with a page read slower than the
    // spectator's 64 KiB filled, no poll saw it.)
    let mut received = Vec::new();
    let mut chunk = [0u8; 1024];
    while !watching(&received) {
        let read = tokio::time::timeout(Duration::from_secs(30), idle.read(&mut chunk))
            .await
            .expect("the server answers the spectator")
            .expect("read");
        assert!(read > 0, "closed before it was watching");
        received.extend_from_slice(&chunk[..read]);
    }
    let spectators = |summary: &serde_json::Value| summary["live"]["spectators"].as_u64();
    let mut dropped = false;
    for _ in 0..3000 {
        let (_, summary) = http_get(&server.http, &format!("/api/matches/{match_id}"), None).await;
        if spectators(&summary) == Some(0) {
            dropped = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(dropped, "the idle spectator was never dropped");
    // Its connection is closed, well short of the whole stream.
    tokio::time::timeout(Duration::from_secs(30), idle.read_to_end(&mut received))
        .await
        .expect("the server closed the idle spectator's connection")
        .ok();
    let text = String::from_utf8_lossy(&received);
    assert!(text.contains("{\"type\":\"spectating\""), "it was watching");
    assert!(
        received.len() < 2 * 1024 * 1024,
        "far less than a whole match: {} bytes",
        received.len()
    );
    assert!(
        !text.contains("{\"type\":\"outcome\""),
        "the match is not over"
    );
    // The players were not disturbed: their match is still running.
    let (_, summary) = http_get(&server.http, &format!("/api/matches/{match_id}"), None).await;
    assert_eq!(summary["status"], "running", "{summary}");
    for player in players {
        player.abort();
    }
    still_serving_http(&server.http).await;
    server.stop().await;
}

async fn still_serving_http(http: &str) {
    let (status, _) = http_get(http, "/api/rulesets", None).await;
    assert_eq!(status, 200);
}

/// Half an HTTP request, then silence: the server closes the connection once the
/// header timeout has passed, instead of holding the socket for ever. (The timeout
/// below only detects a hang.)
#[tokio::test]
async fn a_half_sent_http_request_is_closed_after_the_header_timeout() {
    let server = start(|c| c.limits.http_header_timeout = Duration::from_millis(300)).await;
    let mut slow = tokio::net::TcpStream::connect(&server.http).await.unwrap();
    slow.write_all(b"GET /api/rulesets HTTP/1.1\r\nHost: arbiter\r\n")
        .await
        .unwrap();
    let mut rest = Vec::new();
    let closed = tokio::time::timeout(Duration::from_secs(30), slow.read_to_end(&mut rest))
        .await
        .expect("the server closed the half-sent request");
    assert!(closed.is_ok() || rest.is_empty(), "{closed:?}");
    // A whole request on a new connection is still answered.
    still_serving_http(&server.http).await;
    server.stop().await;
}

/// A WebSocket frame left half-sent: the client can no longer answer the server's
/// pings, so after two heartbeats of silence the server says why and closes. (The
/// timeout below only detects a hang.)
#[tokio::test]
async fn a_websocket_frame_left_half_sent_is_closed() {
    let server = start(|c| c.limits.ws_heartbeat = Duration::from_millis(200)).await;
    let mut stream = tokio::net::TcpStream::connect(&server.http).await.unwrap();
    let upgrade = format!(
        "GET /ws HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
        server.http
    );
    stream.write_all(upgrade.as_bytes()).await.unwrap();
    // The handshake's answer, up to its blank line.
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut byte = [0u8; 1];
        stream.read_exact(&mut byte).await.unwrap();
        head.push(byte[0]);
    }
    assert!(
        String::from_utf8_lossy(&head).starts_with("HTTP/1.1 101"),
        "{}",
        String::from_utf8_lossy(&head)
    );
    // A masked text frame announcing 100 bytes, of which only the header and the mask
    // arrive.
    stream
        .write_all(&[0x81, 0x80 | 100, 1, 2, 3, 4, b'{'])
        .await
        .unwrap();
    let mut rest = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut rest))
        .await
        .expect("the server closed the half-sent frame's connection")
        .ok();
    let text = String::from_utf8_lossy(&rest);
    assert!(text.contains("ws_timeout"), "{text}");
    server.stop().await;
}

/// Whether `received` holds `spectating` and a whole line after it.
fn watching(received: &[u8]) -> bool {
    let text = String::from_utf8_lossy(received);
    text.find("{\"type\":\"spectating\"")
        .and_then(|at| text[at..].find('\n').map(|end| at + end + 1))
        .is_some_and(|after| text[after..].contains('\n'))
}
