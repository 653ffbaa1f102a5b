//! People must be able to play: a table's clock is its creator's (minutes by default,
//! not the seconds bots get), every prompt shows the seat's time bank, and a typo is
//! refused with its reason and may be tried again — in Q-Game too, whose course rules
//! eject only on the course's own port.

use crate::common::*;
use serde_json::json;

#[tokio::test]
async fn a_tables_clock_is_minutes_by_default_and_its_creators_to_set() {
    let server = start(|_| {}).await;
    let mut owner = registered(&server.tcp, "clock-owner").await;
    owner
        .send(&json!({"type": "create_table", "ruleset": "qgame", "seats": 2}))
        .await
        .unwrap();
    let table = owner.expect("table", |_| {}).await.unwrap();
    assert_eq!(table["deadline_ms"], 120_000, "{table}");
    assert_eq!(table["time_bank_ms"], 300_000, "{table}");
    owner
        .send(
            &json!({"type": "create_table", "ruleset": "tae", "seats": 2,
                      "deadline_ms": 45_000, "time_bank_ms": 0}),
        )
        .await
        .unwrap();
    let table = owner.expect("table", |_| {}).await.unwrap();
    assert_eq!(table["deadline_ms"], 45_000, "{table}");
    assert_eq!(table["time_bank_ms"], 0, "{table}");
    for bad in [
        json!({"type": "create_table", "ruleset": "tae", "seats": 2, "deadline_ms": 10}),
        json!({"type": "create_table", "ruleset": "tae", "seats": 2,
               "time_bank_ms": 100_000_000_000u64}),
    ] {
        owner.send(&bad).await.unwrap();
        let error = until(&mut owner, 5, |m| m["type"] == "error").await;
        assert_eq!(error["code"], "bad_clock", "{bad}: {error}");
    }
    server.stop().await;
}

#[tokio::test]
async fn a_persons_typo_is_refused_with_its_reason_and_retried() {
    let server = start(|_| {}).await;
    let mut person = registered(&server.tcp, "typo-person").await;
    let started = match_against_a_bot(&mut person, "qgame").await;
    assert_eq!(started["deadline_ms"], 120_000, "{started}");
    assert_eq!(started["time_bank_ms"], 300_000, "{started}");
    let match_id = started["match"].as_i64().unwrap();
    // The person's turn (the bot may move first): the prompt shows the whole bank.
    let prompt = until(&mut person, 10, |m| m["type"] == "prompt").await;
    assert_eq!(prompt["time_bank_ms"], 300_000, "{prompt}");
    let deadline = prompt["deadline_ms"].as_u64().unwrap();
    assert!(deadline > 300_000 && deadline <= 420_000, "{prompt}");

    // A tile far from the map, and then a shape that does not exist: both refused.
    for typo in [
        json!([{"coordinate": {"row": 50, "column": 50},
                "1tile": {"shape": "star", "color": "red"}}]),
        json!([{"coordinate": {"row": 0, "column": 1},
                "1tile": {"shape": "stra", "color": "red"}}]),
    ] {
        person
            .send(&json!({"type": "act", "match": match_id, "action": typo}))
            .await
            .unwrap();
        let refused = until(&mut person, 5, |m| {
            assert_ne!(m["type"], "ejected", "a typo must not eject: {m}");
            m["type"] == "rejected"
        })
        .await;
        assert!(
            !refused["message"].as_str().unwrap_or("").is_empty(),
            "{refused}"
        );
    }
    // The seat still owes its decision, and a good answer is taken.
    person
        .send(&json!({"type": "act", "match": match_id, "action": "pass"}))
        .await
        .unwrap();
    let next = until(&mut person, 10, |m| {
        assert_ne!(m["type"], "rejected", "{m}");
        m["type"] == "events" || m["type"] == "view" || m["type"] == "outcome"
    })
    .await;
    assert_ne!(next["type"], "ejected");
    let (status, summary) = http_get(&server.http, &format!("/api/matches/{match_id}"), None).await;
    assert_eq!(status, 200);
    if let Some(ejected) = summary["outcome"]["ejected"].as_array() {
        assert!(ejected[0].is_null(), "{summary}");
    }
    server.stop().await;
}
