//! Misbehaving clients, one test each: every one gets a clear error or a recorded
//! ejection, the match ends correctly, and the server goes on serving everyone else.

use std::time::Duration;

use crate::common::*;
use arbiter_server::client::{play, BotPlan, BotReport, Games};
use serde_json::{json, Value};
use tokio::task::JoinHandle;

/// Short, for quick tests, yet roomy for a good bot on a loaded CI machine.
const DEADLINE: Duration = Duration::from_secs(1);

/// Spacegoo's reason (the reference's words) for a seat that sent nothing in time.
const MISSED: &str = "no command sent";

async fn server() -> TestServer {
    server_with(None).await
}

/// [`server`] with a house bot for leavers after `stand_in_grace` (`None`: none, so a
/// misbehaving seat's match ends in the ejection these tests check).
async fn server_with(stand_in_grace: Option<Duration>) -> TestServer {
    start(|config| {
        config.stand_in_grace = stand_in_grace;
        config.default_deadline = Some(DEADLINE);
        // No time bank: a misbehaving seat's deadline is exactly DEADLINE.
        config.time_bank = Duration::ZERO;
        config.limits.partial_line_timeout = Duration::from_millis(400);
        config.limits.rate = 50.0;
        config.limits.burst = 60;
        config.limits.max_strikes = 10;
    })
    .await
}

/// A raw client logged in as `name`.
async fn raw_player(tcp: &str, name: &str) -> Raw {
    let mut raw = Raw::connect(tcp).await;
    raw.send_json(json!({"type": "register", "name": name, "password": password(name)}))
        .await;
    raw.until(5, |m| m["type"] == "registered")
        .await
        .expect("registered");
    raw
}

/// Queue `raw` for `ruleset`; its `match_started`.
async fn queue(raw: &mut Raw, ruleset: &str) -> Value {
    raw.send_json(json!({"type": "queue", "ruleset": ruleset}))
        .await;
    raw.until(10, |m| m["type"] == "match_started")
        .await
        .expect("matched")
}

/// A well-behaved network bot playing one game of `ruleset`.
fn good_bot(tcp: &str, ruleset: &str, name: &str) -> JoinHandle<anyhow::Result<BotReport>> {
    let plan = BotPlan {
        session: None,
        server: tcp.to_string(),
        ruleset: ruleset.to_string(),
        name: name.to_string(),
        password: password(name),
        games: Games::Exactly(1),
        config: Value::Null,
        seats: None,
        reconnect_for: std::time::Duration::ZERO,
        queue_wait: None,
    };
    let players = random_players(ruleset);
    tokio::spawn(async move { play(&plan, players).await })
}

/// The misbehaving seat's match against a good bot: it ends, with the seat ejected
/// for a recorded reason, and the good bot's game counted.
async fn ends_with_ejection(
    server: &TestServer,
    good: JoinHandle<anyhow::Result<BotReport>>,
    started: &Value,
) -> String {
    let report = tokio::time::timeout(Duration::from_secs(30), good)
        .await
        .expect("the match ends")
        .unwrap()
        .expect("the good bot played to the end");
    assert_eq!(report.games.len(), 1);
    let match_id = started["match"].as_i64().unwrap();
    assert_eq!(report.games[0].match_id, match_id);
    let stored = finished_match(&server.http, match_id).await;
    assert_eq!(stored["status"], "finished", "{stored}");
    let seat = started["seat"].as_u64().unwrap() as usize;
    let reason = stored["outcome"]["ejected"][seat]
        .as_str()
        .unwrap_or_else(|| panic!("seat {seat} was not ejected: {stored}"))
        .to_string();
    assert_eq!(report.games[0].rank, 1, "the good bot wins");
    reason
}

/// The server still serves: a new client registers and gets a pong.
async fn still_serving(server: &TestServer, name: &str) {
    let mut raw = raw_player(&server.tcp, name).await;
    raw.send_json(json!({"type": "ping"})).await;
    assert!(raw.until(5, |m| m["type"] == "pong").await.is_some());
    let (status, _) = http_get(&server.http, "/api/rulesets", None).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn garbage_bytes_get_errors_and_the_connection_stays() {
    let server = server().await;
    let good = good_bot(&server.tcp, "spacegoo", "garbage-good");
    let mut bad = raw_player(&server.tcp, "garbage-bad").await;
    let started = queue(&mut bad, "spacegoo").await;
    bad.send(b"\xff\xfe\x00\x01 binary junk\n").await.unwrap();
    let error = bad.until(5, |m| m["type"] == "error").await.unwrap();
    assert_eq!(error["code"], "bad_utf8", "{error}");
    for (line, code) in [
        ("this is not json\n", "bad_json"),
        ("{\"type\":\"teleport\"}\n", "unknown_type"),
        ("[1,2,3]\n", "bad_message"),
        ("{\"type\":\"act\"}\n", "bad_message"),
    ] {
        bad.send(line.as_bytes()).await.unwrap();
        let error = bad.until(5, |m| m["type"] == "error").await.unwrap();
        assert_eq!(error["code"], code, "{line}: {error}");
        assert!(error["message"].as_str().unwrap().len() > 10, "{error}");
    }
    // Still connected and understood; then it gives up its seat.
    bad.send_json(json!({"type": "ping"})).await;
    assert!(bad.until(5, |m| m["type"] == "pong").await.is_some());
    bad.send_json(json!({"type": "resign"})).await;
    let reason = ends_with_ejection(&server, good, &started).await;
    assert_eq!(reason, "resigned");
    still_serving(&server, "garbage-after").await;
    server.stop().await;
}

#[tokio::test]
async fn a_ten_megabyte_line_is_refused_and_the_connection_closed() {
    let server = server().await;
    let good = good_bot(&server.tcp, "spacegoo", "huge-good");
    let mut bad = raw_player(&server.tcp, "huge-bad").await;
    let started = queue(&mut bad, "spacegoo").await;
    let mut line = vec![b'x'; 10 * 1024 * 1024];
    line.push(b'\n');
    // The server closes while we are still writing; a broken pipe is expected.
    let _ = bad.send(&line).await;
    assert!(bad.closed_within(5).await, "the connection is closed");
    let errors: Vec<Value> = bad
        .buffered()
        .into_iter()
        .filter(|m| m["type"] == "error")
        .collect();
    assert!(
        errors.iter().any(|e| e["code"] == "line_too_long"),
        "{errors:?}"
    );
    let reason = ends_with_ejection(&server, good, &started).await;
    assert_eq!(reason, MISSED, "{reason}");
    still_serving(&server, "huge-after").await;
    server.stop().await;
}

#[tokio::test]
async fn an_unterminated_line_held_open_is_cut_off() {
    let server = server().await;
    let good = good_bot(&server.tcp, "spacegoo", "partial-good");
    let mut bad = raw_player(&server.tcp, "partial-bad").await;
    let started = queue(&mut bad, "spacegoo").await;
    bad.send(b"{\"type\":\"act\",\"action\":").await.unwrap();
    assert!(bad.closed_within(5).await, "the connection is closed");
    let errors: Vec<Value> = bad
        .buffered()
        .into_iter()
        .filter(|m| m["type"] == "error")
        .collect();
    assert!(
        errors.iter().any(|e| e["code"] == "line_timeout"),
        "{errors:?} {:?}",
        String::from_utf8_lossy(&bad.buffer)
    );
    let reason = ends_with_ejection(&server, good, &started).await;
    assert_eq!(reason, MISSED, "{reason}");
    still_serving(&server, "partial-after").await;
    server.stop().await;
}

#[tokio::test]
async fn a_silent_client_is_ejected_at_the_deadline() {
    let server = server().await;
    let good = good_bot(&server.tcp, "spacegoo", "silent-good");
    let mut bad = raw_player(&server.tcp, "silent-bad").await;
    let started = queue(&mut bad, "spacegoo").await;
    let prompt = bad.until(5, |m| m["type"] == "prompt").await.unwrap();
    assert!(prompt["deadline_ms"].as_u64().unwrap() <= DEADLINE.as_millis() as u64);
    // Say nothing: the referee ejects the seat and tells it so.
    let ejected = bad.until(5, |m| m["type"] == "ejected").await.unwrap();
    assert_eq!(ejected["seat"], started["seat"]);
    let outcome = bad.until(5, |m| m["type"] == "outcome").await.unwrap();
    assert!(outcome["outcome"]["ejected"][started["seat"].as_u64().unwrap() as usize].is_string());
    let reason = ends_with_ejection(&server, good, &started).await;
    assert_eq!(reason, MISSED, "{reason}");
    still_serving(&server, "silent-after").await;
    server.stop().await;
}

/// A client that disconnects mid-match is not simply ejected: its deadline passing
/// without a connection brings in the house bot, which plays the seat to the end; the
/// record says so, and the seat counts as its player's loss (`docs/protocol.md`, "A house
/// bot for leavers").
#[tokio::test]
async fn a_disconnect_mid_match_is_played_out_by_the_stand_in_and_lost() {
    let server = server_with(Some(Duration::from_secs(60))).await;
    let good = good_bot(&server.tcp, "spacegoo", "gone-good");
    let mut bad = raw_player(&server.tcp, "gone-bad").await;
    let started = queue(&mut bad, "spacegoo").await;
    bad.until(5, |m| m["type"] == "prompt").await.unwrap();
    drop(bad);
    let report = tokio::time::timeout(Duration::from_secs(120), good)
        .await
        .expect("the match ends")
        .unwrap()
        .expect("the good bot played to the end");
    let match_id = started["match"].as_i64().unwrap();
    assert_eq!(report.games[0].match_id, match_id);
    let stored = finished_match(&server.http, match_id).await;
    assert_eq!(stored["status"], "finished", "{stored}");
    let seat = started["seat"].as_u64().unwrap() as usize;
    assert!(
        stored["outcome"]["ejected"][seat].is_null(),
        "played, not ejected: {stored}"
    );
    assert!(stored["seats"][seat]["house_bot_from"].is_u64(), "{stored}");
    assert_eq!(stored["seats"][seat]["result"], "loss", "{stored}");
    assert_eq!(stored["seats"][1 - seat]["result"], "win", "{stored}");
    still_serving(&server, "gone-after").await;
    server.stop().await;
}

/// A flood of valid messages is paced (read at the rate limit, the rest left in the
/// socket) rather than refused: nothing a client sends is dropped. The flooder's match
/// ends by its deadline as usual, and the server goes on serving everyone else.
#[tokio::test]
async fn a_flood_is_paced_not_refused() {
    let server = server().await;
    let good = good_bot(&server.tcp, "spacegoo", "flood-good");
    let mut bad = raw_player(&server.tcp, "flood-bad").await;
    let started = queue(&mut bad, "spacegoo").await;
    // 2,000 pings (32 KB, within the socket's buffers): 40 s of messages at the limit.
    let flood: String = "{\"type\":\"ping\"}\n".repeat(2_000);
    bad.send(flood.as_bytes())
        .await
        .expect("the flood is written");
    let reason = ends_with_ejection(&server, good, &started).await;
    assert_eq!(reason, MISSED, "{reason}");
    still_serving(&server, "flood-after").await;
    // Replies keep coming, and none of them is a refusal.
    let mut pongs = 0;
    while pongs < 200 {
        let message = bad.json(10).await.expect("the flooder is still answered");
        assert_ne!(message["type"], "error", "{message}");
        if message["type"] == "pong" {
            pongs += 1;
        }
    }
    server.stop().await;
}

/// Two raw players in one match of `ruleset`: (player, match_started) by seat.
async fn two_raw(server: &TestServer, ruleset: &str, prefix: &str) -> Vec<(Raw, Value)> {
    let mut a = raw_player(&server.tcp, &format!("{prefix}-a")).await;
    let mut b = raw_player(&server.tcp, &format!("{prefix}-b")).await;
    a.send_json(json!({"type": "queue", "ruleset": ruleset}))
        .await;
    b.send_json(json!({"type": "queue", "ruleset": ruleset}))
        .await;
    let sa = a.until(10, |m| m["type"] == "match_started").await.unwrap();
    let sb = b.until(10, |m| m["type"] == "match_started").await.unwrap();
    assert_eq!(sa["match"], sb["match"]);
    let mut players = vec![(a, sa), (b, sb)];
    players.sort_by_key(|(_, s)| s["seat"].as_u64());
    players
}

#[tokio::test]
async fn acting_out_of_turn_is_rejected() {
    let server = server().await;
    let mut players = two_raw(&server, "tae", "turn").await;
    // Seat 0 moves first in T&E: seat 1 is prompted for nothing yet.
    players[0]
        .0
        .until(5, |m| m["type"] == "prompt")
        .await
        .unwrap();
    let (waiting, started) = &mut players[1];
    waiting
        .send_json(json!({"type": "act", "action": "pass"}))
        .await;
    let rejected = waiting.until(5, |m| m["type"] == "rejected").await.unwrap();
    assert_eq!(rejected["code"], "not_your_turn", "{rejected}");
    assert_eq!(rejected["match"], started["match"]);
    // It gives up; the match ends with the resignation recorded.
    waiting.send_json(json!({"type": "resign"})).await;
    let outcome = players[0]
        .0
        .until(5, |m| m["type"] == "outcome")
        .await
        .unwrap();
    assert_eq!(outcome["outcome"]["ejected"][1], "resigned");
    let stored = finished_match(&server.http, players[1].1["match"].as_i64().unwrap()).await;
    assert_eq!(stored["status"], "finished");
    still_serving(&server, "turn-after").await;
    server.stop().await;
}

#[tokio::test]
async fn acting_for_another_seat_or_match_is_refused() {
    let server = server().await;
    let mut players = two_raw(&server, "tae", "other").await;
    let match_id = players[0].1["match"].as_i64().unwrap();
    let (first, _) = &mut players[0];
    first.until(5, |m| m["type"] == "prompt").await.unwrap();
    first
        .send_json(json!({"type": "act", "match": match_id, "seat": 1, "action": "pass"}))
        .await;
    let error = first.until(5, |m| m["type"] == "error").await.unwrap();
    assert_eq!(error["code"], "not_your_seat", "{error}");
    // A stranger cannot act in the match at all.
    let mut stranger = raw_player(&server.tcp, "other-stranger").await;
    stranger
        .send_json(json!({"type": "act", "match": match_id, "action": "pass"}))
        .await;
    let error = stranger.until(5, |m| m["type"] == "error").await.unwrap();
    assert_eq!(error["code"], "not_seated", "{error}");
    // Nothing was applied: seat 0 still owes its move, makes it, and the game goes on.
    let (first, _) = &mut players[0];
    first
        .send_json(json!({"type": "act", "action": "pass"}))
        .await;
    let view = first.until(5, |m| m["type"] == "view").await.unwrap();
    assert_eq!(view["step"], 1, "{view}");
    first.send_json(json!({"type": "resign"})).await;
    let outcome = players[1]
        .0
        .until(5, |m| m["type"] == "outcome")
        .await
        .unwrap();
    assert_eq!(outcome["outcome"]["ejected"][0], "resigned");
    still_serving(&server, "other-after").await;
    server.stop().await;
}

#[tokio::test]
async fn an_illegal_action_is_refused_with_the_rules_reason() {
    let server = server().await;
    // T&E lets a seat try again after an illegal answer.
    let mut players = two_raw(&server, "tae", "illegal").await;
    let (first, _) = &mut players[0];
    first.until(5, |m| m["type"] == "prompt").await.unwrap();
    first
        .send_json(json!({"type": "act", "action": {"bomb": {"at": [99, 99]}}}))
        .await;
    let rejected = first.until(5, |m| m["type"] == "rejected").await.unwrap();
    assert!(
        rejected["message"].as_str().unwrap().len() > 5,
        "{rejected}"
    );
    first
        .send_json(json!({"type": "act", "action": {"dance": true}}))
        .await;
    let rejected = first.until(5, |m| m["type"] == "rejected").await.unwrap();
    assert_eq!(rejected["code"], "malformed_action", "{rejected}");
    first
        .send_json(json!({"type": "act", "action": "pass"}))
        .await;
    let view = first.until(5, |m| m["type"] == "view").await.unwrap();
    assert_eq!(view["step"], 1);
    first.send_json(json!({"type": "resign"})).await;
    players[1]
        .0
        .until(5, |m| m["type"] == "outcome")
        .await
        .unwrap();

    // Q-Game too, natively: only the course's own port keeps the course's ejection
    // (tested in qgame_port.rs).
    let mut players = two_raw(&server, "qgame", "qillegal").await;
    let match_id = players[0].1["match"].as_i64().unwrap();
    let (first, _) = &mut players[0];
    first.until(5, |m| m["type"] == "prompt").await.unwrap();
    let far_away = json!([{"coordinate": {"row": 40, "column": 40},
                           "1tile": {"shape": "star", "color": "red"}}]);
    first
        .send_json(json!({"type": "act", "action": far_away}))
        .await;
    let rejected = first
        .until(5, |m| {
            assert_ne!(m["type"], "ejected", "{m}");
            m["type"] == "rejected"
        })
        .await
        .unwrap();
    assert!(
        !rejected["message"].as_str().unwrap().is_empty(),
        "{rejected}"
    );
    first.send_json(json!({"type": "resign"})).await;
    let outcome = players[1]
        .0
        .until(5, |m| m["type"] == "outcome")
        .await
        .unwrap();
    assert_eq!(outcome["outcome"]["ranks"][1], 1, "{outcome}");
    let stored = finished_match(&server.http, match_id).await;
    assert_eq!(stored["outcome"]["ejected"][0], "resigned", "{stored}");
    still_serving(&server, "illegal-after").await;
    server.stop().await;
}
