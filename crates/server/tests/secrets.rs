//! A match's secrets leave through no door while it runs. The seed of a running match
//! (with the configuration, enough to rebuild every hidden hand and the draw order) must
//! not appear in anything the server says: the match summary and list, the spectators'
//! and the seat's replays, the record download, `/metrics`, error messages, a seat's own
//! messages, or the server's logs. Once the match is over it is published, and the
//! downloaded record replays with verification.
//!
//! The seed is unknown to the test until the end, so everything is captured while the
//! match runs and searched for the seed's digits afterwards (a random 64-bit seed has
//! 17–20 digits: no false alarm).

use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use crate::common::*;
use serde_json::json;

/// Everything the server logged in this test binary, at every level.
fn captured_logs() -> &'static Arc<Mutex<Vec<u8>>> {
    static LOGS: OnceLock<Arc<Mutex<Vec<u8>>>> = OnceLock::new();
    LOGS.get_or_init(|| {
        let logs = Arc::new(Mutex::new(Vec::new()));
        let sink = logs.clone();
        let _ = tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::new("trace"))
            .with_writer(move || LogWriter(sink.clone()))
            .try_init();
        logs
    })
}

struct LogWriter(Arc<Mutex<Vec<u8>>>);

impl Write for LogWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn no_door_shows_a_running_matchs_seed() {
    let logs = captured_logs();
    let server = start(|c| c.default_deadline = Some(Duration::from_secs(60))).await;
    let mut owner = registered(&server.tcp, "keeper").await;
    let started = match_against_a_bot(&mut owner, "qgame").await;
    let match_id = started["match"].as_i64().unwrap();
    // The person's prompt: the match now waits on them (60 s deadline).
    let mut told = vec![started.to_string()];
    told.push(
        until(&mut owner, 10, |m| m["type"] == "prompt")
            .await
            .to_string(),
    );

    let mut published = Vec::new();
    let (status, summary) = http_get(&server.http, &format!("/api/matches/{match_id}"), None).await;
    assert_eq!(status, 200, "{summary}");
    assert_eq!(summary["status"], "running");
    assert!(summary.get("seed").is_none(), "{summary}");
    published.push(summary.to_string());
    let (status, refused) = http_get(
        &server.http,
        &format!("/api/matches/{match_id}/record"),
        None,
    )
    .await;
    assert_eq!(status, 409, "{refused}");
    assert_eq!(refused["error"], "match_running");
    published.push(refused.to_string());
    for path in [
        "/api/matches".to_string(),
        "/api/matches?status=running".to_string(),
        format!("/api/matches/{match_id}/replay"),
        "/api/players/keeper".to_string(),
        "/api/leaderboard/qgame".to_string(),
    ] {
        let (status, body) = http_get(&server.http, &path, None).await;
        assert_eq!(status, 200, "{path}: {body}");
        published.push(body.to_string());
    }
    let (status, own) = http_get(
        &server.http,
        &format!("/api/matches/{match_id}/replay?seat=0"),
        Some(("keeper", &password("keeper"))),
    )
    .await;
    assert_eq!(status, 200, "{own}");
    published.push(own.to_string());
    published.push(http_text(&server.http, "/metrics").await);
    // A refused request's message is about the request, not the state behind it.
    owner
        .send(&json!({"type": "act", "match": match_id + 1000, "action": "pass"}))
        .await
        .unwrap();
    told.push(
        until(&mut owner, 5, |m| {
            m["type"] == "rejected" || m["type"] == "error"
        })
        .await
        .to_string(),
    );

    // The end: now the seed is published.
    owner
        .send(&json!({"type": "resign", "match": match_id}))
        .await
        .unwrap();
    until(&mut owner, 10, |m| m["type"] == "outcome").await;
    let ended = finished_match(&server.http, match_id).await;
    let seed = ended["seed"]
        .as_u64()
        .unwrap_or_else(|| panic!("an ended match shows its seed: {ended}"))
        .to_string();
    assert!(
        seed.len() >= 10,
        "a seed from the OS, not a small number: {seed}"
    );
    for text in published.iter().chain(&told) {
        assert!(
            !text.contains(&seed),
            "the seed leaked while running: {text}"
        );
    }
    let logged = String::from_utf8_lossy(&logs.lock().unwrap()).into_owned();
    assert!(logged.contains("match finished"), "the log capture works");
    assert!(!logged.contains(&seed), "the seed is in the server's log");

    // The record downloads and verifies, entry by entry.
    let (status, record) = http_get(
        &server.http,
        &format!("/api/matches/{match_id}/record"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{record}");
    let record: arbiter_engine::MatchRecord = serde_json::from_value(record).unwrap();
    assert_eq!(record.seed.to_string(), seed);
    arbiter_rulesets::registry()
        .replay(&record, true)
        .expect("the downloaded record verifies");
    server.stop().await;
}

/// Course players (the Q-Game port has no passwords) have accounts in a namespace no
/// native registration can enter, so nobody can squat a course player's account, read
/// its private replays or collect its rating.
#[tokio::test]
async fn nobody_registers_a_course_players_account() {
    let server = start(|_| {}).await;
    let mut squatter = Raw::connect(&server.tcp).await;
    for name in ["qgame:ann", "QGAME:ann", "spacegoo:ann"] {
        squatter
            .send_json(json!({"type": "register", "name": name, "password": "pw-squat-1"}))
            .await;
        let reply = squatter
            .until(5, |m| m["type"] == "error" || m["type"] == "registered")
            .await
            .expect("a reply");
        assert_eq!(reply["code"], "bad_name", "{name}: {reply}");
    }
    server.stop().await;
}

/// `GET path` as text (for `/metrics`).
async fn http_text(http: &str, path: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(http).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: {http}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let text = String::from_utf8_lossy(&response).into_owned();
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    text
}
