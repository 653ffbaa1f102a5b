//! Password guessing is throttled per account and per address, through every door that
//! logs in (native protocol, HTTP Basic), with a time to retry in the reply; throttled
//! attempts are refused before any hashing, so honest users elsewhere are not starved.
//! (The waits themselves, doubling and forgetting, are unit-tested on paused time in
//! the store.)

mod common;

use common::*;
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

    // Another account from the same address is not locked by this one's failures.
    drop(registered(&server.tcp, "neighbour").await);
    let reply = login(&mut guesser, "neighbour", &password("neighbour")).await;
    assert_eq!(reply["type"], "logged_in", "{reply}");
    server.stop().await;
}
