//! Sessions: `registered` and `logged_in` carry a token; `resume` logs in with it (and
//! gives back live seats, as a password login does); `logout` ends it everywhere; the
//! HTTP API takes it as `Authorization: Bearer` for a seat's private replay.

use crate::common::*;
use arbiter_server::client::Connection;
use serde_json::{json, Value};

async fn connect(tcp: &str) -> Connection {
    Connection::connect(tcp).await.expect("connect")
}

async fn resume(tcp: &str, session: &str) -> (Connection, Value) {
    let mut connection = connect(tcp).await;
    connection
        .send(&json!({"type": "resume", "session": session}))
        .await
        .expect("send");
    let reply = until(&mut connection, 5, |m| {
        m["type"] == "logged_in" || m["type"] == "error"
    })
    .await;
    (connection, reply)
}

#[tokio::test]
async fn a_session_logs_in_again_and_resumes_seats_until_logged_out() {
    let server = start(|_| {}).await;
    let mut first = connect(&server.tcp).await;
    first
        .send(&json!({"type": "register", "name": "sam", "password": password("sam")}))
        .await
        .expect("send");
    let registered = first
        .expect("registered", |_| {})
        .await
        .expect("registered");
    let session = registered["session"]
        .as_str()
        .expect("a session token")
        .to_string();
    assert_eq!(session.len(), 64, "{registered}");

    // A match against a bot, then the page "reloads": a new connection resumes the seat.
    let started = match_against_a_bot(&mut first, "nim").await;
    let id = started["match"].as_i64().expect("match id");
    drop(first);
    let (mut second, reply) = resume(&server.tcp, &session).await;
    assert_eq!(reply["type"], "logged_in", "{reply}");
    assert_eq!(reply["name"], "sam");
    assert_eq!(reply["session"], session.as_str());
    assert_eq!(reply["resumed"], json!([id]));
    // The seat comes back: its view arrives on the new connection.
    until(&mut second, 5, |m| m["type"] == "view" && m["match"] == id).await;

    // The token reads the seat's private replay over HTTP; a wrong one does not.
    let (status, body) = http_get_authorized(
        &server.http,
        &format!("/api/matches/{id}/replay?seat=0"),
        Some(&format!("Bearer {session}")),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = http_get_authorized(
        &server.http,
        &format!("/api/matches/{id}/replay?seat=0"),
        Some(&format!("Bearer {}", "0".repeat(64))),
    )
    .await;
    assert_eq!(status, 401, "{body}");
    assert_eq!(body["error"], "unauthorized");

    // Logging out closes the connection and ends the token for everyone.
    second.send(&json!({"type": "logout"})).await.expect("send");
    second
        .expect("logged_out", |_| {})
        .await
        .expect("logged_out");
    assert!(
        second.recv().await.is_err(),
        "the connection closes after logout"
    );
    let (_third, reply) = resume(&server.tcp, &session).await;
    assert_eq!(reply["type"], "error", "{reply}");
    assert_eq!(reply["code"], "bad_session");

    // A password login gives a fresh token, and the seat is still sam's.
    let mut fourth = connect(&server.tcp).await;
    fourth
        .send(&json!({"type": "login", "name": "sam", "password": password("sam")}))
        .await
        .expect("send");
    let reply = fourth.expect("logged_in", |_| {}).await.expect("logged_in");
    let fresh = reply["session"].as_str().expect("a session token");
    assert_ne!(fresh, session);
    server.stop().await;
}

#[tokio::test]
async fn resume_refuses_garbage_and_a_second_login() {
    let server = start(|_| {}).await;
    for bad in [json!("nope"), json!("")] {
        let (_connection, reply) = resume(&server.tcp, bad.as_str().unwrap_or("")).await;
        assert_eq!(reply["code"], "bad_session", "{reply}");
    }
    // Not a string: a protocol error that names the message and what was expected.
    let mut raw = connect(&server.tcp).await;
    raw.send(&json!({"type": "resume", "session": 5}))
        .await
        .expect("send");
    let reply = until(&mut raw, 5, |m| m["type"] == "error").await;
    assert_eq!(reply["code"], "bad_message", "{reply}");
    let message = reply["message"].as_str().unwrap_or("");
    assert!(
        message.contains("resume") && message.contains("string"),
        "{reply}"
    );

    let mut logged = registered(&server.tcp, "kim").await;
    logged
        .send(&json!({"type": "resume", "session": "ab".repeat(32)}))
        .await
        .expect("send");
    let reply = until(&mut logged, 5, |m| m["type"] == "error").await;
    assert_eq!(reply["code"], "already_logged_in", "{reply}");
    server.stop().await;
}
