//! One address cannot hold all of the server's connections: past its cap a new
//! connection gets one `too_many_connections` line and is closed; when one of its
//! connections closes, a new one is served again. The cap counts every door: native
//! TCP, WebSocket and both compatibility ports.

mod common;

use common::*;
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::net::TcpStream;

/// One line from the server (empty once it closed), within five seconds.
async fn line_from(reader: &mut BufReader<TcpStream>) -> String {
    let mut line = String::new();
    let read = reader.read_line(&mut line);
    let read = tokio::time::timeout(std::time::Duration::from_secs(5), read).await;
    read.expect("a line in time").expect("read");
    line
}

/// Connect and read the first line the server says, and whether it then closed.
async fn first_line(tcp: &str) -> (Value, BufReader<TcpStream>) {
    let stream = TcpStream::connect(tcp).await.expect("connect");
    let mut reader = BufReader::new(stream);
    let line = line_from(&mut reader).await;
    (serde_json::from_str(&line).expect("JSON"), reader)
}

/// Connect to the spacegoo port and read its first line.
async fn port_first_line(port: &str) -> String {
    let stream = TcpStream::connect(port).await.expect("connect");
    line_from(&mut BufReader::new(stream)).await
}

/// Ask `served` again, a little later each time, until it says yes (a slot comes back
/// once the server has seen a connection close); whether it did.
async fn eventually<F: std::future::Future<Output = bool>>(mut served: impl FnMut() -> F) -> bool {
    for _ in 0..100 {
        if served().await {
            return true;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    false
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
    assert_eq!(line_from(&mut crowded).await, "", "then closed");

    // One leaves; the next one is served once the server has seen the close.
    drop(held.pop());
    let served = eventually(|| async {
        let (first, _) = first_line(&server.tcp).await;
        if first["type"] != "welcome" {
            assert_eq!(first["code"], "too_many_connections", "{first}");
        }
        first["type"] == "welcome"
    })
    .await;
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

/// The spacegoo port counts against the same cap: with one native connection and one
/// port connection held, a second port connection gets the reference's line for a full
/// server and is closed; once the native one closes, the port serves again.
#[tokio::test]
async fn the_spacegoo_port_shares_the_address_cap() {
    let server = start(|c| {
        c.limits.connections_per_address = 2;
        c.spacegoo = Some("127.0.0.1:0".to_string());
    })
    .await;
    let port = server.spacegoo_port();
    let native = Raw::connect(&server.tcp).await;
    let welcome = "welcome to rocket-paper-spacegoo";
    let mut first = BufReader::new(TcpStream::connect(&port).await.expect("connect"));
    assert!(line_from(&mut first).await.starts_with(welcome));

    let full = arbiter_spacegoo_port::replies::TOO_MANY_CONNECTIONS;
    let mut crowded = BufReader::new(TcpStream::connect(&port).await.expect("connect"));
    assert_eq!(line_from(&mut crowded).await.trim_end(), full);
    assert_eq!(line_from(&mut crowded).await, "", "then closed");

    // The native connection leaves; the port serves once the server has seen it close.
    drop(native);
    let served = eventually(|| async {
        let line = port_first_line(&port).await;
        if !line.starts_with(welcome) {
            assert_eq!(line.trim_end(), full);
        }
        line.starts_with(welcome)
    })
    .await;
    assert!(served, "a slot came back");
    server.stop().await;
}

/// The Q-Game port counts against the same cap, from acceptance to the end of the
/// player's game: with a native connection holding the address's only slot, a course
/// client is closed before its name is read (the course protocol has no line for it);
/// once the native one closes, the next client signs up and holds the slot while it
/// waits for its game.
#[tokio::test]
async fn the_qgame_port_shares_the_address_cap() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = start(|c| {
        c.limits.connections_per_address = 1;
        c.qgame = Some("127.0.0.1:0".to_string());
    })
    .await;
    let port = server.server.qgame_addr.expect("the port is on");
    let hub = server.server.hub.clone();
    let home: std::net::IpAddr = [127, 0, 0, 1].into();
    let mut decided = hub.metrics.qgame_signups();
    let native = Raw::connect(&server.tcp).await;
    assert_eq!(hub.addresses.held(home), 1);

    let before = *decided.borrow_and_update();
    let mut refused = TcpStream::connect(port).await.expect("connect");
    let _ = refused.write_all(b"\"ann\"\n").await;
    decided.wait_for(|n| *n > before).await.expect("decided");
    let mut byte = [0u8; 1];
    let read = tokio::time::timeout(std::time::Duration::from_secs(5), refused.read(&mut byte))
        .await
        .expect("closed in time");
    assert!(matches!(read, Ok(0) | Err(_)), "closed unread: {read:?}");
    assert_eq!(hub.addresses.held(home), 1, "the refused one held nothing");

    drop(native);
    let freed = eventually(|| async { hub.addresses.held(home) == 0 }).await;
    assert!(freed, "the native connection gave its slot back");
    let before = *decided.borrow_and_update();
    let mut served = TcpStream::connect(port).await.expect("connect");
    served.write_all(b"\"ann\"\n").await.expect("write");
    decided.wait_for(|n| *n > before).await.expect("decided");
    assert_eq!(
        hub.addresses.held(home),
        1,
        "a waiting player holds the slot"
    );
    server.stop().await;
}
