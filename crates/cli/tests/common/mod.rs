//! What the tests of `arbiter serve` share: a served server as a child process and
//! its banner, `arbiter bot` children, and a small HTTP client for the API.
#![allow(dead_code)] // each test binary uses its own part

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// A running `arbiter serve` and the addresses it printed.
pub struct Served {
    pub child: Child,
    pub tcp: String,
    pub http: String,
    /// Every line it printed on stdout before serving.
    pub banner: Vec<String>,
}

/// A test that fails midway must not leave its server running (the test binary's
/// end does not end its children).
impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn serve(data: &Path, extra: &[&str]) -> Served {
    serve_at(data, "127.0.0.1:0", "127.0.0.1:0", extra)
}

/// [`serve`] on given addresses (a server started again where its clients look for it).
pub fn serve_at(data: &Path, tcp: &str, http: &str, extra: &[&str]) -> Served {
    let mut command = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    command
        .args([
            "serve",
            "--http",
            http,
            "--tcp",
            tcp,
            "--spacegoo",
            "127.0.0.1:0",
            "--qgame",
            "127.0.0.1:0",
            "--data",
        ])
        .arg(data)
        .args(extra);
    serve_with(command)
}

/// Start a prepared `arbiter serve` command and read its banner.
pub fn serve_with(mut command: Command) -> Served {
    // ARBITER_TEST_SERVER_LOG=debug (a RUST_LOG filter) shows the servers' logs.
    let log = std::env::var("ARBITER_TEST_SERVER_LOG").ok();
    let mut child = command
        .env("RUST_LOG", log.as_deref().unwrap_or("warn"))
        .stdout(Stdio::piped())
        .stderr(if log.is_some() {
            Stdio::inherit()
        } else {
            Stdio::null()
        })
        .spawn()
        .expect("arbiter serve starts");
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = BufReader::new(stdout).lines();
    let (mut tcp, mut http, mut banner) = (None, None, Vec::new());
    while tcp.is_none()
        || http.is_none()
        || !banner.iter().any(|l: &String| l.starts_with("resumed"))
    {
        let line = lines
            .next()
            .expect("arbiter serve prints its addresses")
            .expect("a line");
        let mut words = line.split_whitespace();
        match (words.next(), words.next()) {
            (Some("tcp"), Some(addr)) => tcp = Some(addr.to_string()),
            (Some("http"), Some(url)) => http = Some(url.trim_start_matches("http://").to_string()),
            _ => {}
        }
        banner.push(line);
    }
    // Keep reading stdout in the background so the server never blocks on it.
    std::thread::spawn(move || for _ in lines {});
    Served {
        child,
        tcp: tcp.expect("tcp address"),
        http: http.expect("http address"),
        banner,
    }
}

/// `arbiter bot` playing `games` games; it gives up when it loses its server.
pub fn bot(server: &str, ruleset: &str, player: &str, name: &str, games: u32) -> Child {
    bot_coming_back(server, ruleset, player, name, games, "0s")
}

/// [`bot`] that connects again after losing its server, for `reconnect_for`.
pub fn bot_coming_back(
    server: &str,
    ruleset: &str,
    player: &str,
    name: &str,
    games: u32,
    reconnect_for: &str,
) -> Child {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "bot",
            "--server",
            server,
            "--ruleset",
            ruleset,
            "--player",
            player,
        ])
        .args(["--name", name, "--password", &format!("pw-{name}")])
        .args(["--games", &games.to_string()])
        // Searching players (mcts) think this long; the others ignore it.
        .args(["--think-ms", "20"])
        .args(["--reconnect-for", reconnect_for])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbiter bot starts")
}

pub fn finish(child: Child) -> Output {
    child.wait_with_output().expect("the process ends")
}

/// `GET path`: status and JSON body (HTTP/1.1, connection closed by the server). As a
/// well-behaved API client, waits out a `429` for as long as its `Retry-After` says
/// (the server paces each address's API requests) and asks again.
pub fn get(http: &str, path: &str) -> (u16, Value) {
    for _ in 0..60 {
        let (status, retry_after, body) = get_once(http, path);
        match retry_after {
            Some(seconds) if status == 429 => std::thread::sleep(Duration::from_secs(seconds)),
            _ => return (status, body),
        }
    }
    panic!("{path}: still paced after a minute of waiting as told");
}

/// One `GET path`: status, `Retry-After` in seconds (if sent) and JSON body.
pub fn get_once(http: &str, path: &str) -> (u16, Option<u64>, Value) {
    let mut stream = TcpStream::connect(http).expect("connect to HTTP");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {http}\r\nConnection: close\r\n\r\n"
    )
    .expect("request");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("response");
    let (head, body) = response.split_once("\r\n\r\n").expect("HTTP response");
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("status");
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        let mut out = String::new();
        let mut rest = body;
        while let Some((size, tail)) = rest.split_once("\r\n") {
            let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            if size == 0 || tail.len() < size {
                break;
            }
            out.push_str(&tail[..size]);
            rest = tail[size..].trim_start_matches("\r\n");
        }
        out
    } else {
        body.to_string()
    };
    let retry_after = head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("retry-after")
            .then(|| value.trim().parse().ok())
            .flatten()
    });
    (
        status,
        retry_after,
        serde_json::from_str(&body).unwrap_or(Value::String(body)),
    )
}

/// Poll `path` until `pred` holds (within `secs`).
pub fn wait_for(http: &str, path: &str, secs: u64, pred: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let (status, body) = get(http, path);
        if status == 200 && pred(&body) {
            return body;
        }
        assert!(
            start.elapsed() < Duration::from_secs(secs),
            "{path}: {body}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A free loopback address (bound and let go: a server started on it later).
pub fn free_address() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("its address").to_string()
}

/// Send `signal` (`TERM`, `KILL`) to `child`.
pub fn signal(child: &Child, signal: &str) {
    let sent = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "kill -{signal}");
}
