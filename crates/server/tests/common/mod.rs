//! What every server test needs: a real server on loopback ports with a scratch data
//! directory, clients, and a small HTTP client for the API.

#![allow(dead_code)]

use std::time::Duration;

use arbiter_server::client::{Connection, Decider, DeciderFactory, RandomFromView};
use arbiter_server::{Config, Server};
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::sync::watch;

/// Room made in a raw client's buffer before each read.
const READ_CHUNK: usize = 64 * 1024;

pub struct TestServer {
    pub server: Server,
    pub dir: tempfile::TempDir,
    pub tcp: String,
    pub http: String,
    /// The scratch PostgreSQL database under `ARBITER_TEST_DATABASE=postgres`.
    pub database: Option<arbiter_store::testing::ScratchDatabase>,
}

/// A server on 127.0.0.1:0 with SQLite in a fresh directory (or, with
/// `ARBITER_TEST_DATABASE=postgres`, a fresh PostgreSQL database, so the whole suite can
/// run against either store), fast matchmaking, and the configuration tweaked by
/// `tweak`.
pub async fn start(tweak: impl FnOnce(&mut Config)) -> TestServer {
    if let Ok(filter) = std::env::var("ARBITER_TEST_LOG") {
        let _ = tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::new(filter))
            .with_writer(std::io::stderr)
            .try_init();
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = Config::for_data_dir(dir.path().join("data"));
    config.pairing_interval = Duration::from_millis(100);
    let database = match std::env::var("ARBITER_TEST_DATABASE").as_deref() {
        Ok("postgres") => {
            let database = arbiter_store::testing::ScratchDatabase::create().await;
            config.database_url = database.url.clone();
            Some(database)
        }
        Ok("sqlite") | Err(_) => None,
        Ok(other) => panic!("ARBITER_TEST_DATABASE={other}: use sqlite or postgres"),
    };
    tweak(&mut config);
    let server = Server::start(config).await.expect("server starts");
    TestServer {
        tcp: server.tcp_addr.to_string(),
        http: server.http_addr.to_string(),
        server,
        dir,
        database,
    }
}

impl TestServer {
    pub async fn stop(self) {
        self.server.shutdown().await;
    }

    /// Stop the server as SIGTERM stops it, and start it again on the same store and
    /// the same addresses, as a host restarts it for an upgrade. Returns once every
    /// match it left running goes on.
    pub async fn restart(self) -> TestServer {
        let TestServer {
            server,
            dir,
            tcp,
            http,
            database,
        } = self;
        let mut config = server.hub.config.clone();
        config.tcp = tcp.clone();
        config.http = http.clone();
        server.shutdown().await;
        let server = Server::start(config)
            .await
            .expect("the server starts again");
        TestServer {
            server,
            dir,
            tcp,
            http,
            database,
        }
    }

    /// The spacegoo port's address (the test turned the port on).
    #[allow(dead_code)] // not every test binary uses the port
    pub fn spacegoo_port(&self) -> String {
        let address = self.server.spacegoo_addr.expect("the spacegoo port is on");
        address.to_string()
    }
}

pub fn password(name: &str) -> String {
    format!("pw-{name}-secret")
}

/// A connection logged in as a fresh account `name` (a person's).
pub async fn registered(tcp: &str, name: &str) -> Connection {
    registered_as(tcp, name, false).await
}

/// As [`registered`], the account a bot's when `bot` (a person's otherwise).
pub async fn registered_as(tcp: &str, name: &str, bot: bool) -> Connection {
    let mut connection = Connection::connect(tcp).await.expect("connect");
    connection
        .send(&json!({"type": "register", "name": name, "password": password(name), "bot": bot}))
        .await
        .expect("send");
    connection
        .expect("registered", |_| {})
        .await
        .expect("registered");
    connection
}

/// `owner` opens a table of `ruleset` for two, fills the other seat with a random house
/// bot and starts it: the `match_started` message (the owner holds seat 0).
pub async fn match_against_a_bot(owner: &mut Connection, ruleset: &str) -> Value {
    owner
        .send(&json!({"type": "create_table", "ruleset": ruleset, "seats": 2}))
        .await
        .expect("send");
    let table = owner.expect("table", |_| {}).await.expect("a table");
    owner
        .send(&json!({"type": "start_table", "table": table["table"], "fill": "random"}))
        .await
        .expect("send");
    until(owner, 5, |m| m["type"] == "match_started").await
}

/// Read messages until one satisfies `pred` (returned), within `secs` seconds.
pub async fn until(connection: &mut Connection, secs: u64, pred: impl Fn(&Value) -> bool) -> Value {
    let wait = async {
        loop {
            let message = connection.recv().await.expect("message");
            if pred(&message) {
                return message;
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(secs), wait)
        .await
        .expect("the expected message came in time")
}

/// Random players that see only views, for any ruleset.
pub fn random_players(ruleset: &str) -> DeciderFactory {
    let game = arbiter_rulesets::find(ruleset).expect("ruleset").game;
    Box::new(move |config: &Value, seed: u64| {
        Ok(Box::new(RandomFromView::new(game.clone(), config.clone(), seed)) as Box<dyn Decider>)
    })
}

/// `GET path` (with Basic credentials if given): the status and the JSON body.
pub async fn http_get(http: &str, path: &str, basic: Option<(&str, &str)>) -> (u16, Value) {
    let authorization = basic.map(|(name, password)| {
        use base64::Engine;
        let token = base64::engine::general_purpose::STANDARD.encode(format!("{name}:{password}"));
        format!("Basic {token}")
    });
    http_get_authorized(http, path, authorization.as_deref()).await
}

/// `GET path` with this `Authorization` header value, if any.
pub async fn http_get_authorized(
    http: &str,
    path: &str,
    authorization: Option<&str>,
) -> (u16, Value) {
    let mut stream = TcpStream::connect(http).await.expect("connect to HTTP");
    let auth = authorization
        .map(|value| format!("Authorization: {value}\r\n"))
        .unwrap_or_default();
    let request = format!("GET {path} HTTP/1.1\r\nHost: {http}\r\n{auth}Connection: close\r\n\r\n");
    stream
        .write_all(request.as_bytes())
        .await
        .expect("send request");
    let mut response = Vec::new();
    stream
        .read_to_end(&mut response)
        .await
        .expect("read response");
    let text = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").expect("an HTTP response");
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status code");
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(body)
    } else {
        body.to_string()
    };
    let json = serde_json::from_str(&body).unwrap_or(Value::String(body));
    (status, json)
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if size == 0 || rest.len() < size {
            break;
        }
        out.push_str(&rest[..size]);
        body = rest[size..].trim_start_matches("\r\n");
    }
    out
}

/// The stored match once it is no longer running (a test that did not wait for the
/// outcome itself may look before the end). The bound only turns a hang into a failure:
/// 10 s was once too short for a loaded CI machine running the misbehaviour matrix.
pub async fn finished_match(http: &str, id: i64) -> Value {
    for _ in 0..1200 {
        let (status, body) = http_get(http, &format!("/api/matches/{id}"), None).await;
        assert_eq!(status, 200, "{body}");
        if body["status"] != "running" {
            return body;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("match {id} is still running after a minute of asking");
}

/// Connect to `address` from a socket whose kernel receive buffer is `window` bytes
/// (`None`: the kernel's): a reader that stops reading then holds little in its kernel.
pub async fn connect_with_window(address: std::net::SocketAddr, window: Option<u32>) -> TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
    if let Some(window) = window {
        socket
            .set_recv_buffer_size(window)
            .expect("a receive window");
    }
    socket.connect(address).await.expect("connect")
}

/// What one read of a [`Raw`] client gave.
#[derive(Debug, PartialEq, Eq)]
enum Read {
    /// Bytes, now at the end of the buffer.
    Data,
    /// The server closed the connection (or it failed).
    Closed,
    /// Nothing came before the deadline.
    TimedOut,
}

/// A raw TCP client: bytes in, lines out.
pub struct Raw {
    pub stream: TcpStream,
    pub buffer: Vec<u8>,
}

impl Raw {
    pub async fn connect(tcp: &str) -> Raw {
        let stream = TcpStream::connect(tcp).await.expect("connect");
        let mut raw = Raw {
            stream,
            buffer: Vec::new(),
        };
        let welcome = raw.line(5).await.expect("welcome");
        assert!(welcome.contains("\"welcome\""), "{welcome}");
        raw
    }

    pub async fn send(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.stream.write_all(bytes).await
    }

    pub async fn send_json(&mut self, message: Value) {
        let mut line = message.to_string();
        line.push('\n');
        self.send(line.as_bytes()).await.expect("send");
    }

    /// The next line, `None` when the server closed the connection or `secs` passed.
    pub async fn line(&mut self, secs: u64) -> Option<String> {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
        loop {
            if let Some(end) = self.buffer.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=end).collect();
                return Some(String::from_utf8_lossy(&line[..end]).into_owned());
            }
            if self.read_more(deadline).await != Read::Data {
                return None;
            }
        }
    }

    /// Read what the server sent next onto the end of the buffer, waiting until
    /// `deadline` at most. Straight into the buffer: a 64 KiB array here would sit in
    /// every future that awaits this one, and unoptimized builds give each await its
    /// own copy on the stack (a matrix cell's frame passed a worker thread's 2 MiB).
    async fn read_more(&mut self, deadline: tokio::time::Instant) -> Read {
        self.buffer.reserve(READ_CHUNK);
        let read = tokio::time::timeout_at(deadline, self.stream.read_buf(&mut self.buffer));
        match read.await {
            Ok(Ok(0)) | Ok(Err(_)) => Read::Closed,
            Ok(Ok(_)) => Read::Data,
            Err(_) => Read::TimedOut,
        }
    }

    /// The next JSON message.
    pub async fn json(&mut self, secs: u64) -> Option<Value> {
        let line = self.line(secs).await?;
        Some(serde_json::from_str(&line).expect("the server sends JSON lines"))
    }

    /// Messages until one satisfies `pred`; `None` if the connection ends first.
    pub async fn until(&mut self, secs: u64, pred: impl Fn(&Value) -> bool) -> Option<Value> {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let message = self.json(left.as_secs().max(1)).await?;
            if pred(&message) {
                return Some(message);
            }
            if left.is_zero() {
                return None;
            }
        }
    }

    /// True once the server has closed the connection (reads end), within `secs`.
    pub async fn closed_within(&mut self, secs: u64) -> bool {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
        loop {
            match self.read_more(deadline).await {
                Read::Data => {}
                Read::Closed => return true,
                Read::TimedOut => return false,
            }
        }
    }

    /// The lines received so far (after `closed_within`), as JSON.
    pub fn buffered(&self) -> Vec<Value> {
        String::from_utf8_lossy(&self.buffer)
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect()
    }
}

/// `/metrics` after exactly one match has started and finished, stored without failure.
pub const ONE_MATCH_FINISHED: [&str; 4] = [
    "arbiter_matches_started_total 1",
    "arbiter_matches_ended_total{status=\"finished\"} 1",
    "arbiter_matches_running 0",
    "arbiter_store_failures_total 0",
];

/// Once no match is running any more (a match leaves the live list when its store
/// writer is done), check that `/metrics` has every one of `lines`.
pub async fn assert_settled_metrics(http: &str, lines: &[&str]) {
    let mut metrics = String::new();
    for _ in 0..100 {
        let (status, body) = http_get(http, "/metrics", None).await;
        assert_eq!(status, 200);
        metrics = body.as_str().unwrap_or_default().to_string();
        if metrics.lines().any(|l| l == "arbiter_matches_running 0") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for line in lines {
        assert!(
            metrics.lines().any(|l| l == *line),
            "{line} missing:\n{metrics}"
        );
    }
}

/// The spectators' replay of a stored match (`GET /api/matches/{id}/replay`), which
/// must be served.
pub async fn spectator_replay(http: &str, match_id: i64) -> Value {
    let (status, replay) = http_get(http, &format!("/api/matches/{match_id}/replay"), None).await;
    assert_eq!(status, 200, "{replay}");
    replay
}

/// The NATS server for the tests of several nodes: `ARBITER_TEST_NATS_URL`, or the
/// machine's own at 127.0.0.1:4222, started (Debian's `nats-server` package) when it is
/// not running. Like PostgreSQL, a real server: the mesh is tested on what it runs on.
pub async fn nats_url() -> String {
    const DEFAULT: &str = "nats://127.0.0.1:4222";
    let configured = std::env::var("ARBITER_TEST_NATS_URL").ok();
    let url = configured.clone().unwrap_or_else(|| DEFAULT.to_string());
    let address = url.trim_start_matches("nats://").to_string();
    if TcpStream::connect(&address).await.is_ok() {
        return url;
    }
    if configured.is_some() {
        panic!("NATS is unreachable at {url} (ARBITER_TEST_NATS_URL)");
    }
    let binary = "/usr/sbin/nats-server";
    if !std::path::Path::new(binary).exists() {
        panic!(
            "NATS is unreachable at {url} and {binary} is not installed: install Debian's \
             `nats-server` package (these tests start it), start one yourself, or point \
             ARBITER_TEST_NATS_URL at one"
        );
    }
    // Detached, as the machine's own service runs; a second start of it is harmless.
    let started = std::process::Command::new("start-stop-daemon")
        .args([
            "--start",
            "--oknodo",
            "--background",
            "--exec",
            binary,
            "--",
        ])
        .args(["-a", "127.0.0.1", "-p", "4222"])
        .status();
    assert!(
        started.is_ok_and(|s| s.success()),
        "could not start {binary} with start-stop-daemon"
    );
    for _ in 0..100 {
        if TcpStream::connect(&address).await.is_ok() {
            return url;
        }
        // Waiting for an outside process to come up: there is no event to wait on but
        // its socket accepting.
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("started {binary}, but {url} still refuses connections");
}

/// A spacegoo port client's lines tell of the end of its game, with the link to replay
/// `match_id`.
pub fn assert_spacegoo_game_ended(lines: &[String], match_id: i64) {
    assert!(
        lines.iter().any(|l| l.starts_with("game ended")),
        "{lines:?}"
    );
    let link = lines
        .iter()
        .find(|l| l.starts_with("This game is now available at"))
        .expect("a link to the game");
    assert!(link.ends_with(&format!("/#/replay/{match_id}")), "{link}");
}

/// A spacegoo client written from the protocol description, connecting from `source`
/// (a loopback address of the test's choosing): log in, hold the first state line until
/// `go`, then answer every state line with `nop` until
/// the server says goodbye. Returns every line it read.
pub async fn spacegoo_nop_client_from(
    port: String,
    source: &str,
    name: &'static str,
    mut go: watch::Receiver<bool>,
) -> Vec<String> {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket
        .bind(format!("{source}:0").parse().expect("address"))
        .expect("bind");
    let stream = socket
        .connect(port.parse().expect("address"))
        .await
        .expect("connect");
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read).lines();
    write
        .write_all(format!("login {name} secret-{name}\n").as_bytes())
        .await
        .expect("write");
    let mut seen = Vec::new();
    while let Ok(Ok(Some(line))) =
        tokio::time::timeout(Duration::from_secs(30), lines.next_line()).await
    {
        if line.starts_with('{') {
            let _ = go.wait_for(|&ready| ready).await;
            write.write_all(b"nop\n").await.expect("write");
        }
        let closing = line.starts_with("closing connection");
        seen.push(line);
        if closing {
            break;
        }
    }
    seen
}
