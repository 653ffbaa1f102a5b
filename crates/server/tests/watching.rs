//! Which connection gets a match's lines: an account playing several matches names the
//! one it acts in, and a spectator who stops watching gets no further line of the match.
//! (The referee writes lines straight into each connection's outbox, so both rest on
//! the server's own bookkeeping rather than on a forwarding task per connection.)

use crate::common::*;
use arbiter_server::client::Connection;
use serde_json::{json, Value};

/// Answer the round of `match_id` prompted at `step` with "nop", and wait for the
/// next prompt: its step is returned. (Not the next view: the seat's own answer is a
/// step too, and when it comes in before the bot's, the round is still open.)
async fn play_a_round(owner: &mut Connection, match_id: i64, step: u64) -> u64 {
    owner
        .send(&json!({"type": "act", "match": match_id, "action": "nop"}))
        .await
        .expect("send");
    let prompt = until(owner, 10, |m| {
        assert_ne!(m["type"], "rejected", "{m}");
        m["type"] == "prompt" && m["match"] == match_id && m["step"].as_u64() > Some(step)
    })
    .await;
    prompt["step"].as_u64().expect("a step")
}

#[tokio::test]
async fn an_account_in_several_matches_names_the_one_it_acts_in() {
    let server = start(|_| {}).await;
    let mut owner = registered(&server.tcp, "several-owner").await;
    let first = match_against_a_bot(&mut owner, "spacegoo").await;
    let second = match_against_a_bot(&mut owner, "spacegoo").await;
    let (first, second) = (first["match"].as_i64(), second["match"].as_i64());
    let (Some(first), Some(second)) = (first, second) else {
        panic!("two matches started");
    };
    assert_ne!(first, second);

    owner.send(&json!({"type": "legal"})).await.expect("send");
    let refused = until(&mut owner, 10, |m| m["type"] == "error").await;
    assert_eq!(refused["code"], "ambiguous_match", "{refused}");

    owner
        .send(&json!({"type": "act", "match": second + first + 1000, "action": "nop"}))
        .await
        .expect("send");
    let refused = until(&mut owner, 10, |m| m["type"] == "error").await;
    assert_eq!(refused["code"], "no_such_match", "{refused}");

    // Named, each match takes its own answer.
    play_a_round(&mut owner, first, 0).await;
    play_a_round(&mut owner, second, 0).await;

    // Once the first is over, the second is the account's only match.
    owner
        .send(&json!({"type": "resign", "match": first}))
        .await
        .expect("send");
    until(&mut owner, 10, |m| {
        m["type"] == "outcome" && m["match"] == first
    })
    .await;
    let mut legal = Value::Null;
    for _ in 0..1000 {
        owner.send(&json!({"type": "legal"})).await.expect("send");
        legal = until(&mut owner, 10, |m| {
            m["type"] == "legal" || m["type"] == "error"
        })
        .await;
        // The first match leaves the list when its record is stored, just after its
        // outcome was told; until then the account still holds two matches.
        if legal["type"] == "legal" {
            break;
        }
        assert_eq!(legal["code"], "ambiguous_match", "{legal}");
        // Poll for the condition (not to order anything): up to 10 s in all.
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(legal["type"], "legal", "{legal}");
    assert_eq!(legal["match"], second, "{legal}");
    server.stop().await;
}

#[tokio::test]
async fn a_spectator_that_stops_watching_gets_no_further_line_of_the_match() {
    let server = start(|_| {}).await;
    let mut owner = registered(&server.tcp, "watched-owner").await;
    let started = match_against_a_bot(&mut owner, "spacegoo").await;
    let match_id = started["match"].as_i64().expect("a match id");

    let mut spectator = Connection::connect(&server.tcp).await.expect("connect");
    spectator
        .send(&json!({"type": "spectate", "match": match_id}))
        .await
        .expect("send");
    until(&mut spectator, 10, |m| {
        m["type"] == "view" && m["match"] == match_id
    })
    .await;
    spectator
        .send(&json!({"type": "unspectate", "match": match_id}))
        .await
        .expect("send");
    until(&mut spectator, 10, |m| m["type"] == "unspectated").await;

    // Two whole rounds: the first round's messages were all handed out before the
    // second round could begin.
    let step = play_a_round(&mut owner, match_id, 0).await;
    play_a_round(&mut owner, match_id, step).await;

    spectator
        .send(&json!({"type": "ping"}))
        .await
        .expect("send");
    let pong = until(&mut spectator, 10, |m| {
        assert_ne!(
            m["match"], match_id,
            "a line of the match after unspectated: {m}"
        );
        m["type"] == "pong"
    })
    .await;
    assert_eq!(pong["type"], "pong");
    server.stop().await;
}
