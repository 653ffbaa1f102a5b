//! One address cannot hold all of the server's connections: past its cap a new
//! connection gets one `too_many_connections` line and is closed; when one of its
//! connections closes, a new one is served again. The cap counts every door: native
//! TCP, WebSocket and both compatibility ports. Plain HTTP connections have a cap of
//! their own (a browser opens several), and API requests are paced per address.

use crate::common::*;
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
    assert_eq!(server.server.hub.metrics.connections_refused("tcp"), 1);

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
    let server = start(|c| c.limits.connections_per_address = 1).await;
    let _held = Raw::connect(&server.tcp).await;
    let (head, _) = upgrade(&server.http, None).await;
    assert_eq!(head, "HTTP/1.1 429");
    assert_eq!(server.server.hub.metrics.connections_refused("ws"), 1);
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
    assert_eq!(server.server.hub.metrics.connections_refused("spacegoo"), 1);

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
    assert_eq!(hub.metrics.connections_refused("qgame"), 1);

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

/// `GET path` on a fresh connection from `from` (any 127.x address reaches the server on
/// loopback, so tests can be two clients): the response's head and body as text.
async fn get_from(from: std::net::IpAddr, http: &str, path: &str) -> (String, String) {
    get_forwarded(from, http, path, None).await
}

/// The same, with an `X-Forwarded-For` header (as a reverse proxy writes it).
async fn get_forwarded(
    from: std::net::IpAddr,
    http: &str,
    path: &str,
    forwarded_for: Option<&str>,
) -> (String, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket.bind((from, 0).into()).expect("bind");
    let mut stream = socket
        .connect(http.parse().expect("address"))
        .await
        .expect("connect");
    let forwarded = forwarded_for
        .map(|client| format!("X-Forwarded-For: {client}\r\n"))
        .unwrap_or_default();
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: {http}\r\n{forwarded}Connection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut response = String::new();
    let read = stream.read_to_string(&mut response);
    tokio::time::timeout(std::time::Duration::from_secs(5), read)
        .await
        .expect("answered in time")
        .expect("read");
    let (head, body) = response.split_once("\r\n\r\n").expect("an HTTP response");
    (head.to_string(), body.to_string())
}

const HOME: [u8; 4] = [127, 0, 0, 1];

/// Whether a plain request is served (200) again, soon (once the server has seen a
/// connection close).
async fn served_again(http: &str) -> bool {
    eventually(|| async {
        let (head, _) = get_from(HOME.into(), http, "/api/rulesets").await;
        head.starts_with("HTTP/1.1 200")
    })
    .await
}

/// Plain HTTP connections have their own cap per address: with two idle ones held
/// and a cap of two, a request on a third connection is answered 429
/// `too_many_connections` (and the connection closed), while the native door still
/// serves the address; once an idle one closes, requests are served again.
#[tokio::test]
async fn plain_http_connections_are_capped_per_address() {
    let server = start(|c| {
        c.limits.http_connections_per_address = 2;
        c.limits.connections_per_address = 1;
    })
    .await;
    let home = std::net::IpAddr::from(HOME);
    let idle = TcpStream::connect(&server.http).await.expect("connect");
    let _idle_too = TcpStream::connect(&server.http).await.expect("connect");
    let crowded = eventually(|| async {
        let (head, body) = get_from(home, &server.http, "/api/rulesets").await;
        head.starts_with("HTTP/1.1 429") && body.contains("too_many_connections")
    })
    .await;
    assert!(crowded, "the third HTTP connection is refused");
    assert!(server.server.hub.metrics.connections_refused("http") >= 1);
    let (first, _native) = first_line(&server.tcp).await;
    assert_eq!(
        first["type"], "welcome",
        "the native door keeps its own count"
    );

    drop(idle);
    assert!(served_again(&server.http).await, "a slot came back");
    server.stop().await;
}

/// Send a WebSocket upgrade (through a proxy when `forwarded_for` is given) and read
/// the status line's first 12 bytes; the connection stays open with the stream.
async fn upgrade(http: &str, forwarded_for: Option<&str>) -> (String, TcpStream) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut ws = TcpStream::connect(http).await.unwrap();
    let forwarded = forwarded_for
        .map(|client| format!("X-Forwarded-For: {client}\r\n"))
        .unwrap_or_default();
    let upgrade = format!(
        "GET /ws HTTP/1.1\r\nHost: {http}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n{forwarded}\r\n"
    );
    ws.write_all(upgrade.as_bytes()).await.unwrap();
    let mut head = [0u8; 12];
    ws.read_exact(&mut head).await.unwrap();
    (String::from_utf8_lossy(&head).into_owned(), ws)
}

/// A WebSocket session counts with the native doors, not with plain HTTP: with a
/// native cap of one, the upgrade is accepted and holds the address's place, a native
/// TCP connection beside it is refused, and plain requests are still served.
#[tokio::test]
async fn a_websocket_session_counts_with_the_native_doors() {
    let server = start(|c| c.limits.connections_per_address = 1).await;
    let hub = server.server.hub.clone();
    let home = std::net::IpAddr::from(HOME);
    let (head, ws) = upgrade(&server.http, None).await;
    assert_eq!(head, "HTTP/1.1 101");
    assert_eq!(hub.addresses.held(home), 1);
    let (refused, _) = first_line(&server.tcp).await;
    assert_eq!(refused["code"], "too_many_connections", "{refused}");
    let (head, _) = get_from(home, &server.http, "/api/rulesets").await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");

    drop(ws);
    let freed = eventually(|| async { hub.addresses.held(home) == 0 }).await;
    assert!(freed, "the session's place came back");
    server.stop().await;
}

/// API requests faster than the address's pace are answered 429 `too_many_requests`
/// with `Retry-After`, not served; the pages, another address and the native door are
/// untouched.
#[tokio::test]
async fn http_requests_past_the_pace_get_429_with_retry_after() {
    let server = start(|c| {
        c.limits.http_rate = 0.01;
        c.limits.http_burst = 3;
    })
    .await;
    let home = std::net::IpAddr::from(HOME);
    for _ in 0..3 {
        let (head, _) = get_from(home, &server.http, "/api/rulesets").await;
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    }
    let (head, body) = get_from(home, &server.http, "/api/rulesets").await;
    assert!(head.starts_with("HTTP/1.1 429"), "{head}");
    let body: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(body["error"], "too_many_requests", "{body}");
    let retry_after: u64 = head
        .lines()
        .find_map(|line| {
            line.to_ascii_lowercase()
                .strip_prefix("retry-after:")
                .map(|v| v.trim().to_string())
        })
        .expect("a Retry-After header")
        .parse()
        .expect("whole seconds");
    assert!((1..=100).contains(&retry_after), "{retry_after}");

    // The pages and their files are not paced: a page load is dozens of them.
    for path in ["/", "/web/app.js", "/web/style.css"] {
        let (head, _) = get_from(home, &server.http, path).await;
        assert!(head.starts_with("HTTP/1.1 200"), "{path}: {head}");
    }

    let neighbour = std::net::IpAddr::from([127, 0, 0, 2]);
    let (head, _) = get_from(neighbour, &server.http, "/api/rulesets").await;
    assert!(head.starts_with("HTTP/1.1 200"), "another address: {head}");
    let (first, _) = first_line(&server.tcp).await;
    assert_eq!(
        first["type"], "welcome",
        "the native door is not paced by HTTP"
    );
    server.stop().await;
}

/// Behind a trusted reverse proxy, the proxy's own connections are not counted and each
/// request is counted by the client its `X-Forwarded-For` names: one client's pace and
/// connection cap do not touch another's. A peer that is not a trusted proxy is counted
/// by its own address whatever header it sends.
#[tokio::test]
async fn behind_a_trusted_proxy_each_forwarded_client_is_counted() {
    let server = start(|c| {
        c.trusted_proxies =
            arbiter_server::config::proxies::TrustedProxies::parse(["127.0.0.1"]).unwrap();
        c.limits.connections_per_address = 1;
        c.limits.http_connections_per_address = 1;
        c.limits.http_rate = 0.01;
        c.limits.http_burst = 2;
    })
    .await;
    let http = &server.http;
    let proxy = std::net::IpAddr::from(HOME);
    let status = |head: &str| head.get(9..12).unwrap_or_default().to_string();

    // The proxy holds idle connections past the cap of one and is still served.
    let _idle = [
        TcpStream::connect(http).await.expect("connect"),
        TcpStream::connect(http).await.expect("connect"),
    ];
    let (ann, bob) = (Some("203.0.113.7"), Some("203.0.113.8"));
    for _ in 0..2 {
        let (head, _) = get_forwarded(proxy, http, "/api/rulesets", ann).await;
        assert_eq!(status(&head), "200", "{head}");
    }
    let (head, body) = get_forwarded(proxy, http, "/api/rulesets", ann).await;
    assert_eq!(status(&head), "429", "{head}");
    assert!(body.contains("too_many_requests"), "{body}");
    let (head, _) = get_forwarded(proxy, http, "/api/rulesets", bob).await;
    assert_eq!(
        status(&head),
        "200",
        "another client behind the proxy: {head}"
    );

    // Not a trusted proxy: the header is not believed, its own address is paced.
    let stranger = std::net::IpAddr::from([127, 0, 0, 2]);
    let (head, _) = get_forwarded(stranger, http, "/api/rulesets", ann).await;
    assert_eq!(status(&head), "200", "{head}");

    // WebSocket sessions through the proxy take their client's place: one each.
    let (carl, dora) = (Some("198.51.100.1"), Some("198.51.100.2"));
    let (head, _carl_session) = upgrade(http, carl).await;
    assert_eq!(head, "HTTP/1.1 101");
    let (head, _) = upgrade(http, carl).await;
    assert_eq!(head, "HTTP/1.1 429", "carl's one place is taken");
    let (head, _dora_session) = upgrade(http, dora).await;
    assert_eq!(head, "HTTP/1.1 101");
    let hub = &server.server.hub;
    assert_eq!(hub.addresses.held("198.51.100.1".parse().unwrap()), 1);
    assert_eq!(
        hub.addresses.held(proxy),
        0,
        "the proxy itself holds nothing"
    );
    server.stop().await;
}
