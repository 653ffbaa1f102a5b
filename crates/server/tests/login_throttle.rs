//! Password guessing is throttled per account and per address, through every door that
//! logs in (native protocol, HTTP Basic), with a time to retry in the reply; throttled
//! attempts are refused before any hashing, so honest users elsewhere are not starved.
//! (The waits themselves, doubling and forgetting, are unit-tested on paused time in
//! the store.)

use crate::common::*;
use serde_json::{json, Value};

async fn login(raw: &mut Raw, name: &str, password: &str) -> Value {
    raw.send_json(json!({"type": "login", "name": name, "password": password}))
        .await;
    raw.until(10, |m| m["type"] == "error" || m["type"] == "logged_in")
        .await
        .expect("a reply to login")
}

#[tokio::test]
async fn guessing_a_password_is_throttled_with_a_retry_time_on_every_door() {
    let server = start(|_| {}).await;
    // An ended match with "guarded" in seat 0, whose private replay needs its password.
    let mut owner = registered(&server.tcp, "guarded").await;
    let started = match_against_a_bot(&mut owner, "qgame").await;
    let match_id = started["match"].as_i64().unwrap();
    owner
        .send(&json!({"type": "resign", "match": match_id}))
        .await
        .unwrap();
    until(&mut owner, 10, |m| m["type"] == "outcome").await;
    let private = format!("/api/matches/{match_id}/replay?seat=0");

    let mut guesser = Raw::connect(&server.tcp).await;
    // Five wrong guesses are answered as such; the sixth locks the account.
    for guess in 0..6 {
        let reply = login(&mut guesser, "guarded", &format!("guess-{guess}")).await;
        assert_eq!(reply["code"], "bad_credentials", "guess {guess}: {reply}");
        assert!(reply.get("retry_after_ms").is_none());
    }
    let reply = login(&mut guesser, "guarded", "guess-7").await;
    assert_eq!(reply["code"], "login_throttled", "{reply}");
    let wait = reply["retry_after_ms"].as_u64().expect("a retry time");
    assert!(wait > 0 && wait <= 1000, "{reply}");
    // Even the right password waits its turn: the lock is on the account.
    let mut owner = Raw::connect(&server.tcp).await;
    let reply = login(&mut owner, "guarded", &password("guarded")).await;
    assert_eq!(reply["code"], "login_throttled", "{reply}");

    // HTTP Basic is the same door: 429 and the same code.
    let (status, body) = http_get(&server.http, &private, Some(("guarded", "guess-8"))).await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["error"], "login_throttled", "{body}");
    // With the time to retry in whole seconds, as HTTP says it.
    let head = response_head(&server.http, &private, "guarded:guess-9").await;
    assert!(head.starts_with("HTTP/1.1 429"), "{head}");
    let retry_after = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("retry-after: ")
                .map(str::to_string)
        })
        .unwrap_or_else(|| panic!("a Retry-After header: {head}"));
    let seconds: u64 = retry_after.trim().parse().expect("whole seconds");
    assert!((1..=300).contains(&seconds), "{head}");

    // Another account from the same address is not locked by this one's failures.
    drop(registered(&server.tcp, "neighbour").await);
    let reply = login(&mut guesser, "neighbour", &password("neighbour")).await;
    assert_eq!(reply["type"], "logged_in", "{reply}");
    server.stop().await;
}

/// The status line and headers of `GET path` with Basic credentials `user:password`.
async fn response_head(http: &str, path: &str, credentials: &str) -> String {
    use base64::Engine;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let token = base64::engine::general_purpose::STANDARD.encode(credentials);
    let mut stream = tokio::net::TcpStream::connect(http).await.unwrap();
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: {http}\r\nAuthorization: Basic {token}\r\n\
         Connection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let text = String::from_utf8_lossy(&response).into_owned();
    text.split("\r\n\r\n")
        .next()
        .unwrap_or_default()
        .to_string()
}
