//! The spacegoo port mounted by the server: two clients speaking the reference text
//! protocol play a whole game; while it runs the match is listed and watchable over the
//! native protocol like any other, and afterwards it is stored, rated and replayable
//! through the HTTP API. Accounts are the server's own: the port's login created them,
//! and the native protocol accepts the same names and passwords (but never hands a
//! port's seat to another connection).

use std::time::Duration;

use crate::common::*;
use arbiter_server::client::Connection;
use serde_json::{json, Value};
use tokio::sync::watch;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spacegoo_port_game_is_an_ordinary_match() {
    let server = start(|config| {
        config.spacegoo = Some("127.0.0.1:0".to_string());
        config.public_url = Some("https://goo.example.org".to_string());
    })
    .await;
    let port = server
        .server
        .spacegoo_addr
        .expect("the spacegoo port is on")
        .to_string();
    let (go, ready) = watch::channel(false);
    let ann = tokio::spawn(spacegoo_nop_client_from(
        port.clone(),
        "127.0.0.1",
        "ann",
        ready.clone(),
    ));
    let bob = tokio::spawn(spacegoo_nop_client_from(
        port.clone(),
        "127.0.0.1",
        "bob",
        ready,
    ));

    // The native protocol lists the port's match, marked with its port, and lets a
    // spectator watch it.
    let mut watcher = Connection::connect(&server.tcp).await.expect("connect");
    let listed = loop {
        watcher.send(&json!({"type": "matches"})).await.unwrap();
        let list = until(&mut watcher, 5, |m| m["type"] == "matches").await;
        if let Some(found) = list["matches"].as_array().and_then(|l| l.first()) {
            break found.clone();
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(listed["ruleset"], "spacegoo", "{listed}");
    assert_eq!(listed["port"], "spacegoo", "{listed}");
    assert_eq!(listed["rated"], true, "{listed}");
    let mut players: Vec<String> = listed["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect();
    players.sort();
    assert_eq!(players, ["ann", "bob"]);
    let match_id = listed["match"].as_i64().unwrap();

    // The same account over the native protocol: the password the port stored works,
    // but the seat stays with the spacegoo connection.
    let mut native = Connection::connect(&server.tcp).await.expect("connect");
    native
        .send(&json!({"type": "login", "name": "ann", "password": "secret-ann"}))
        .await
        .unwrap();
    until(&mut native, 10, |m| {
        assert_ne!(m["type"], "error", "{m}");
        m["type"] == "logged_in"
    })
    .await;
    native
        .send(&json!({"type": "act", "match": match_id, "action": "nop"}))
        .await
        .unwrap();
    let refused = until(&mut native, 5, |m| m["type"] == "error").await;
    assert_eq!(refused["code"], "not_seated", "{refused}");

    watcher
        .send(&json!({"type": "spectate", "match": match_id}))
        .await
        .unwrap();
    until(&mut watcher, 5, |m| m["type"] == "joined").await;
    go.send_replace(true);
    let mut views = 0;
    let outcome = loop {
        let message = tokio::time::timeout(Duration::from_secs(30), watcher.recv())
            .await
            .expect("the match goes on")
            .expect("message");
        assert_ne!(message["type"], "prompt", "a spectator is never prompted");
        match message["type"].as_str() {
            Some("view") => views += 1,
            Some("outcome") => break message,
            _ => {}
        }
    };
    assert!(views > 0);

    let ann = ann.await.unwrap();
    let bob = bob.await.unwrap();
    for lines in [&ann, &bob] {
        assert_spacegoo_game_ended(lines, match_id);
        // The link is where people reach the site, not the bound address.
        let link =
            format!("This game is now available at https://goo.example.org/#/replay/{match_id}");
        assert!(lines.contains(&link), "{lines:?}");
    }

    // Stored, rated and replayable like a native match.
    let stored = finished_match(&server.http, match_id).await;
    assert_eq!(stored["status"], "finished", "{stored}");
    assert_eq!(stored["ruleset"], "spacegoo");
    assert_eq!(stored["outcome"], outcome["outcome"]);
    let replay = spectator_replay(&server.http, match_id).await;
    assert_eq!(
        replay["steps"].as_array().map(Vec::len),
        stored["moves"].as_u64().map(|m| m as usize + 1)
    );
    let (status, board) = http_get(&server.http, "/api/leaderboard/spacegoo", None).await;
    assert_eq!(status, 200);
    assert_eq!(
        board["entries"].as_array().map(Vec::len),
        Some(2),
        "{board}"
    );

    // Counted like any other match, and gone from the live list.
    assert_settled_metrics(&server.http, &ONE_MATCH_FINISHED).await;
    watcher.send(&json!({"type": "matches"})).await.unwrap();
    let list = until(&mut watcher, 5, |m| m["type"] == "matches").await;
    assert_eq!(list["matches"], Value::Array(Vec::new()));
    server.stop().await;
}

/// A client that floods far past what the port reads, and reads only once the port has
/// let go of it, still finds the port's explanation: the unread rest of the flood was
/// read and dropped, not answered with a reset that would destroy the last lines.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_still_gets_its_explanation() {
    let server = start(|config| config.spacegoo = Some("127.0.0.1:0".to_string())).await;
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket
        .bind("127.0.0.4:0".parse().expect("address"))
        .expect("bind");
    let stream = socket
        .connect(server.spacegoo_port().parse().expect("address"))
        .await
        .expect("connect");
    let mut flooder = Raw {
        stream,
        buffer: Vec::new(),
    };
    flooder
        .send("nop\n".repeat(5_000).as_bytes())
        .await
        .expect("send");
    // The port lets go of the connection (its address slot) once it has closed it.
    let address = "127.0.0.4".parse().expect("address");
    for _ in 0..500 {
        if server.server.hub.addresses.held(address) == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(server.server.hub.addresses.held(address), 0);
    let mut lines = Vec::new();
    while let Some(line) = flooder.line(5).await {
        lines.push(line);
    }
    assert!(
        lines
            .iter()
            .any(|l| l == "too many lines: at most 20 per second"),
        "{lines:?}"
    );
    assert_eq!(
        lines.last().map(String::as_str),
        Some("closing connection. see you next time"),
        "{lines:?}"
    );
    server.stop().await;
}
