//! What an idle connection costs the server, over both native transports: the live heap
//! bytes a connection adds, counted by this test process's allocator. The clients are
//! plain blocking sockets that allocate nothing on the heap, so every byte counted is
//! the server's. The bounds keep issue 14's "< 64 KiB per idle match" from creeping
//! back through a connection's buffers: the WebSocket codec's default 128 KiB read
//! buffer, or an 8 KiB writer buffer kept by every connection, once held most of a
//! match's memory (docs/benchmarks.md, thirty-third session).

mod common;

use std::alloc::System;
use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, TcpStream};
use std::time::{Duration, Instant};

use arbiter_server::connection::addresses::AddressCounts;
use arbiter_server::heap::Counting;

/// Counts the process's live heap (the server's, since the clients allocate none).
#[global_allocator]
static HEAP: Counting<System> = Counting::new(System);

/// Connections opened on each transport; the figure is their heap over their number.
const CONNECTIONS: usize = 200;

/// Most heap bytes an idle TCP connection may hold. Measured at 6.0 KiB (its task,
/// about 2.1 KiB of it, its writer's task, its session, outbox and line buffer); the
/// bound leaves room for a session that learns more, not for a buffer of kibibytes
/// kept by every connection, nor for a message's handling held inline in its task.
const TCP_BOUND: usize = 8 * 1024;

/// Most heap bytes an idle WebSocket connection may hold: as over TCP, plus the
/// upgraded HTTP connection and the codec's buffers. Measured at 7.5 KiB.
const WS_BOUND: usize = 10 * 1024;

/// Where the clients connect from.
const LOOPBACK: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

/// A failing server is reported, not waited for forever.
const PATIENCE: Duration = Duration::from_secs(30);

/// `{"type":"ping"}` as a client's WebSocket text frame: FIN and text, a masked 15-byte
/// payload (RFC 6455, section 5.3: a client masks every frame).
fn masked_ping_frame() -> Vec<u8> {
    let payload = br#"{"type":"ping"}"#;
    let mask = [0x37, 0xfa, 0x21, 0x3d];
    let mut frame = vec![0x81, 0x80 | payload.len() as u8];
    frame.extend_from_slice(&mask);
    frame.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    frame
}

/// Read from `socket` until what has arrived contains `needle` (a stack buffer: the
/// client allocates nothing). Panics on end of stream or after [`PATIENCE`].
fn read_until(socket: &mut TcpStream, needle: &[u8]) {
    let mut seen = [0u8; 4096];
    let mut filled = 0;
    loop {
        if filled == seen.len() {
            // Keep the tail, where a needle cut in two would start.
            seen.copy_within(filled - needle.len().., 0);
            filled = needle.len();
        }
        let read = socket
            .read(&mut seen[filled..])
            .expect("the server answers");
        assert!(read > 0, "the server closed the connection");
        filled += read;
        if seen[..filled].windows(needle.len()).any(|w| w == needle) {
            return;
        }
    }
}

fn connect(address: &str) -> TcpStream {
    let socket = TcpStream::connect(address).expect("connect");
    socket.set_read_timeout(Some(PATIENCE)).expect("timeout");
    socket.set_nodelay(true).expect("nodelay");
    socket
}

/// A TCP connection the server has served once (a `ping`, answered), then left idle.
fn idle_tcp(address: &str) -> TcpStream {
    let mut socket = connect(address);
    socket.write_all(b"{\"type\":\"ping\"}\n").expect("send");
    read_until(&mut socket, b"pong");
    socket
}

/// A WebSocket connection at `/ws`, upgraded and served once, then left idle.
fn idle_websocket(http: &str) -> TcpStream {
    let mut socket = connect(http);
    let request = format!(
        "GET /ws HTTP/1.1\r\nHost: {http}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    );
    socket.write_all(request.as_bytes()).expect("send");
    read_until(&mut socket, b"\r\n\r\n");
    socket.write_all(&masked_ping_frame()).expect("send");
    read_until(&mut socket, b"pong");
    socket
}

/// Heap bytes a connection made by `open` adds, over [`CONNECTIONS`] of them. One is
/// opened first, so that what the first connection of a kind sets up once is not
/// counted as every connection's. Returns once the server has let go of them all, so
/// that their memory, freed as their tasks end, is not taken off the next count.
fn heap_per_connection(addresses: &AddressCounts, open: impl Fn() -> TcpStream) -> usize {
    let first = open();
    let mut sockets = Vec::with_capacity(CONNECTIONS);
    let before = HEAP.live();
    for _ in 0..CONNECTIONS {
        sockets.push(open());
    }
    let after = HEAP.live();
    drop((first, sockets));
    let waiting = Instant::now();
    while addresses.held(LOOPBACK) > 0 {
        assert!(
            waiting.elapsed() < PATIENCE,
            "the server kept closed connections"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    after.saturating_sub(before) / CONNECTIONS
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_connection_holds_a_few_kibibytes_over_either_transport() {
    let server = common::start(|config| {
        let crowd = 4 * CONNECTIONS;
        config.limits.connections_per_address = crowd;
        config.limits.http_connections_per_address = crowd;
    })
    .await;
    let (tcp, http) = (server.tcp.clone(), server.http.clone());
    let addresses = server.server.hub.addresses.clone();
    // Blocking sockets, off the runtime's workers; the server runs on them.
    let (tcp_bytes, ws_bytes) = tokio::task::spawn_blocking(move || {
        (
            heap_per_connection(&addresses, || idle_tcp(&tcp)),
            heap_per_connection(&addresses, || idle_websocket(&http)),
        )
    })
    .await
    .expect("the clients ran");
    println!("an idle connection's heap: TCP {tcp_bytes} bytes, WebSocket {ws_bytes} bytes");
    assert!(
        tcp_bytes <= TCP_BOUND,
        "an idle TCP connection holds {tcp_bytes} bytes"
    );
    assert!(
        ws_bytes <= WS_BOUND,
        "an idle WebSocket connection holds {ws_bytes} bytes"
    );
    server.stop().await;
}
