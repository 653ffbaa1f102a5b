//! `legal`: a seat asks which actions it may answer now, as the web page does to show
//! moves to click. For every ruleset a person plays a whole match against a house bot
//! answering each prompt with an action from the list, and none is refused unless the
//! match moved on in between (Space Crack's turns are concurrent: the bot may take the
//! ship first); only the seat's holder may ask.

use crate::common::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_listed_action_is_accepted_until_the_match_ends_in_every_ruleset() {
    let server = start(|_| {}).await;
    for ruleset in arbiter_rulesets::all() {
        let id = ruleset.id();
        let name = format!("{id}-player");
        let mut person = registered(&server.tcp, &name).await;
        let started = match_against_a_bot(&mut person, id).await;
        let match_id = started["match"].as_i64().expect("a match id");
        let mut answered = 0;
        // The step of the newest view, and of the list the last answer came from.
        let (mut seen, mut listed) = (0, 0);
        loop {
            let message = until(&mut person, 60, |m| {
                matches!(
                    m["type"].as_str(),
                    Some("view" | "prompt" | "legal" | "rejected" | "outcome")
                )
            })
            .await;
            match message["type"].as_str() {
                Some("view") => seen = message["step"].as_u64().expect("a step"),
                Some("prompt") => {
                    person
                        .send(&json!({"type": "legal", "match": match_id}))
                        .await
                        .expect("send");
                }
                Some("legal") => {
                    assert_eq!(message["match"], match_id, "{message}");
                    assert_eq!(message["seat"], 0, "{message}");
                    // Empty when the decision was already answered (a sealed round).
                    listed = message["step"].as_u64().expect("a step");
                    if let Some(action) = message["actions"].get(0) {
                        person
                            .send(&json!({"type": "act", "match": match_id, "action": action}))
                            .await
                            .expect("send");
                        answered += 1;
                    }
                }
                Some("rejected") => {
                    assert!(
                        seen > listed,
                        "{id}: a listed action was refused at the step it was listed for: {message}"
                    );
                    // Stale: ask again, as the page does.
                    person
                        .send(&json!({"type": "legal", "match": match_id}))
                        .await
                        .expect("send");
                }
                _ => break,
            }
        }
        assert!(answered > 0, "{id}: the person never answered");
        let stored = finished_match(&server.http, match_id).await;
        assert_eq!(stored["status"], "finished", "{id}: {stored}");
        assert!(
            stored["seats"][0]["ejected"].is_null(),
            "{id}: the person was ejected: {stored}"
        );
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_seat_holder_may_ask_for_its_moves() {
    let server = start(|_| {}).await;
    let mut owner = registered(&server.tcp, "owner").await;
    let started = match_against_a_bot(&mut owner, "nim").await;
    let match_id = started["match"].as_i64().expect("a match id");
    let mut other = registered(&server.tcp, "other").await;
    other
        .send(&json!({"type": "legal", "match": match_id}))
        .await
        .expect("send");
    let refused = until(&mut other, 10, |m| m["type"] == "error").await;
    assert_eq!(refused["code"], "not_seated", "{refused}");
    server.stop().await;
}

/// `options` with `legal_in_prompt`: every prompt carries the seat's legal actions, so
/// a bot answers without asking; a connection that did not ask gets bare prompts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prompts_carry_the_legal_actions_when_asked() {
    let server = start(|_| {}).await;
    let mut plain = registered(&server.tcp, "plain").await;
    match_against_a_bot(&mut plain, "nim").await;
    let prompt = until(&mut plain, 30, |m| m["type"] == "prompt").await;
    assert!(prompt.get("legal").is_none(), "not asked for: {prompt}");

    let mut person = registered(&server.tcp, "asks").await;
    person
        .send(&json!({"type": "options", "legal_in_prompt": true}))
        .await
        .expect("send");
    let options = until(&mut person, 5, |m| m["type"] == "options").await;
    assert_eq!(options, json!({"type": "options", "legal_in_prompt": true}));
    let started = match_against_a_bot(&mut person, "tae").await;
    let match_id = started["match"].as_i64().expect("a match id");
    let mut answered = 0;
    loop {
        let message = until(&mut person, 60, |m| {
            matches!(m["type"].as_str(), Some("prompt" | "rejected" | "outcome"))
        })
        .await;
        match message["type"].as_str() {
            Some("prompt") => {
                let legal = message["legal"]
                    .as_array()
                    .expect("the prompt lists the moves");
                assert!(
                    !legal.is_empty(),
                    "a seat that owes a decision has moves: {message}"
                );
                person
                    .send(&json!({"type": "act", "match": match_id, "action": legal[0]}))
                    .await
                    .expect("send");
                answered += 1;
            }
            Some("rejected") => panic!("a listed move was refused: {message}"),
            _ => break,
        }
    }
    assert!(
        answered > 5,
        "the person played the game: {answered} answers"
    );
    server.stop().await;
}
