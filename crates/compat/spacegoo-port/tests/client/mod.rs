//! A spacegoo client written from the protocol description alone (the seed README and
//! background §4–§5), sharing no code with the port: newline-terminated text lines over
//! TCP, `login user pass`, states are the lines that start with `{`, answers are `nop`
//! or `send origin target a b c`. Like the reference clients it ignores every other line
//! except the ones that end a game.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::TcpStream;

/// No single line may take longer than this to arrive in a test.
const LINE_WAIT: Duration = Duration::from_secs(20);

pub struct Client {
    reader: BufReader<OwnedReadHalf>,
    writer: OwnedWriteHalf,
    /// Every line received, in order.
    pub received: Vec<String>,
    /// Both directions in order: `"client → server: …"` and `"server → client: …"`.
    pub log: Vec<String>,
}

impl Client {
    pub async fn connect(address: SocketAddr) -> Client {
        let stream = TcpStream::connect(address).await.expect("connect");
        stream.set_nodelay(true).expect("nodelay");
        let (read, write) = stream.into_split();
        Client {
            reader: BufReader::new(read),
            writer: write,
            received: Vec::new(),
            log: Vec::new(),
        }
    }

    /// The next line, or `None` when the server closed the connection.
    pub async fn line(&mut self) -> Option<String> {
        let mut line = String::new();
        let read = tokio::time::timeout(LINE_WAIT, self.reader.read_line(&mut line))
            .await
            .expect("a line within the test's patience");
        match read {
            Ok(0) | Err(_) => None,
            Ok(_) => {
                let line = line.trim_end_matches('\n').to_string();
                self.received.push(line.clone());
                self.log.push(format!("server → client: {line}"));
                Some(line)
            }
        }
    }

    /// The next line, which must be there.
    pub async fn expect_line(&mut self) -> String {
        self.line()
            .await
            .expect("the server closed the connection early")
    }

    /// Send raw bytes (tests of bad input).
    pub async fn send_bytes(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).await.expect("write");
    }

    pub async fn send(&mut self, line: &str) {
        self.log.push(format!("client → server: {line}"));
        self.send_bytes(format!("{line}\n").as_bytes()).await;
    }

    /// Every remaining line until the server closes.
    pub async fn rest(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        while let Some(line) = self.line().await {
            lines.push(line);
        }
        lines
    }

    /// Read the welcome, log in, and return the score the server reports.
    pub async fn login(&mut self, user: &str, password: &str) -> f64 {
        let welcome = self.expect_line().await;
        assert!(
            welcome.starts_with("welcome to rocket-paper-spacegoo"),
            "{welcome}"
        );
        self.send(&format!("login {user} {password}")).await;
        let reply = self.expect_line().await;
        let score = reply
            .strip_prefix("your current score: ")
            .and_then(|rest| rest.strip_suffix(". waiting for game start..."))
            .unwrap_or_else(|| panic!("login refused: {reply}"));
        score.parse().expect("a score")
    }
}

/// How a game went, from one player's side.
#[derive(Debug, Clone)]
pub struct Played {
    pub game_id: i64,
    pub opponent: String,
    pub player_id: u64,
    /// States received while the game ran (not counting the final one).
    pub states: usize,
    /// The `game ended: …` line's reason and rating change.
    pub reason: String,
    pub rating_change: f64,
    pub final_state: Value,
}

/// How a client chooses its command from a state.
pub type Strategy = fn(&Value) -> String;

/// Always pass.
pub fn passive(_state: &Value) -> String {
    "nop".to_string()
}

/// From the own planet with the most ships, send half of them to the nearest planet
/// that is not ours once there are more than 30; otherwise pass.
pub fn attacker(state: &Value) -> String {
    let me = state["player_id"].as_u64().unwrap_or(0);
    let planets = state["planets"].as_array().cloned().unwrap_or_default();
    let total = |p: &Value| -> i64 {
        p["ships"]
            .as_array()
            .map(|s| s.iter().filter_map(Value::as_i64).sum())
            .unwrap_or(0)
    };
    let Some(origin) = planets
        .iter()
        .filter(|p| p["owner_id"].as_u64() == Some(me))
        .max_by_key(|p| total(p))
    else {
        return "nop".to_string();
    };
    if total(origin) <= 30 {
        return "nop".to_string();
    }
    let position = |p: &Value| (p["x"].as_i64().unwrap_or(0), p["y"].as_i64().unwrap_or(0));
    let (ox, oy) = position(origin);
    let Some(target) = planets
        .iter()
        .filter(|p| p["owner_id"].as_u64() != Some(me))
        .min_by_key(|p| {
            let (x, y) = position(p);
            (x - ox).pow(2) + (y - oy).pow(2)
        })
    else {
        return "nop".to_string();
    };
    let ships: Vec<i64> = origin["ships"]
        .as_array()
        .map(|s| s.iter().map(|n| n.as_i64().unwrap_or(0) / 2).collect())
        .unwrap_or_default();
    format!(
        "send {} {} {} {} {}",
        origin["id"],
        target["id"],
        ships.first().copied().unwrap_or(0),
        ships.get(1).copied().unwrap_or(0),
        ships.get(2).copied().unwrap_or(0)
    )
}

/// After login: wait for a game and play it to its end with `strategy`.
pub async fn play(client: &mut Client, strategy: Strategy) -> Played {
    let mut game_id = None;
    let mut opponent = String::new();
    let mut states = 0;
    let mut ended: Option<(String, f64)> = None;
    loop {
        let line = client.expect_line().await;
        if let Some(rest) = line.strip_prefix("game ") {
            if let Some((id, other)) = rest.split_once(" starts. other player is ") {
                game_id = Some(id.parse().expect("a game id"));
                opponent = other.to_string();
                continue;
            }
        }
        if let Some(rest) = line.strip_prefix("game ended: ") {
            let rest = rest
                .strip_suffix(" ELO for you. final state follows")
                .expect("the end line's shape");
            let (reason, change) = rest.rsplit_once(", ").expect("reason, change");
            ended = Some((reason.to_string(), change.parse().expect("a rating change")));
            continue;
        }
        if line.starts_with('{') {
            let state: Value = serde_json::from_str(&line).expect("a JSON state");
            let player_id = state["player_id"].as_u64().expect("player_id");
            if state["game_over"] == Value::Bool(true) {
                let (reason, rating_change) = ended.expect("the end line before the final state");
                return Played {
                    game_id: game_id.expect("game start line"),
                    opponent,
                    player_id,
                    states,
                    reason,
                    rating_change,
                    final_state: state,
                };
            }
            states += 1;
            client.send(&strategy(&state)).await;
        }
        // Every other line is information only.
    }
}
