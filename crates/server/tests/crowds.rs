//! One address cannot hold all of the server's connections: past its cap a new
//! connection gets one `too_many_connections` line and is closed; when one of its
//! connections closes, a new one is served again.

mod common;

use common::*;
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::net::TcpStream;

/// Connect and read the first line the server says, and whether it then closed.
async fn first_line(tcp: &str) -> (Value, BufReader<TcpStream>) {
    let stream = TcpStream::connect(tcp).await.expect("connect");
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    tokio::time::timeout(
        std::time::Duration::from_secs(5),
        reader.read_line(&mut line),
    )
    .await
    .expect("a line in time")
    .expect("read");
    (serde_json::from_str(&line).expect("JSON"), reader)
}

#[tokio::test]
async fn an_address_holds_at_most_its_share_of_connections() {
    let server = start(|c| c.limits.connections_per_address = 3).await;
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(Raw::connect(&server.tcp).await);
    }
    let (refused, mut crowded) = first_line(&server.tcp).await;
    assert_eq!(refused["code"], "too_many_connections", "{refused}");
    let mut rest = String::new();
    let read = tokio::time::timeout(
        std::time::Duration::from_secs(5),
        crowded.read_line(&mut rest),
    )
    .await
    .expect("closed in time");
    assert_eq!(read.expect("read"), 0, "then closed: {rest:?}");

    // One leaves; the next one is served once the server has seen the close.
    drop(held.pop());
    let mut served = false;
    for _ in 0..100 {
        let (first, _) = first_line(&server.tcp).await;
        if first["type"] == "welcome" {
            served = true;
            break;
        }
        assert_eq!(first["code"], "too_many_connections", "{first}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(served, "a slot came back");
    server.stop().await;
}

/// The WebSocket door counts against the same cap: over it, the upgrade is answered
/// with 429 instead of 101.
#[tokio::test]
async fn a_websocket_upgrade_over_the_cap_gets_429() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = start(|c| c.limits.connections_per_address = 1).await;
    let _held = Raw::connect(&server.tcp).await;
    let mut stream = TcpStream::connect(&server.http).await.unwrap();
    let upgrade = format!(
        "GET /ws HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
        server.http
    );
    stream.write_all(upgrade.as_bytes()).await.unwrap();
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).await.unwrap();
    assert_eq!(&head, b"HTTP/1.1 429", "{}", String::from_utf8_lossy(&head));
    server.stop().await;
}
