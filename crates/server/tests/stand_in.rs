//! The house bot for leavers, through a whole server: in a rated queue match a person
//! disconnects, and after the grace a house bot plays the seat; everyone is told, the
//! game is finished, and the leaver's seat counts as the loss. Logging in again (or
//! `take_seat`) takes the seat back, and then the game counts as played.

use std::time::Duration;

use crate::common::*;
use arbiter_server::client::Connection;
use serde_json::{json, Value};

/// A short grace, so the test does not wait a minute for it.
const GRACE: Duration = Duration::from_millis(300);

/// Two fresh accounts queued for a rated game of Secret Nim: both connections with
/// the match's id and the seat each holds.
async fn rated_pair(tcp: &str, names: [&str; 2]) -> [(Connection, i64, u64); 2] {
    let mut pair = Vec::new();
    for name in names {
        let mut connection = registered(tcp, name).await;
        connection
            .send(&json!({"type": "queue", "ruleset": "nim"}))
            .await
            .expect("send");
        pair.push(connection);
    }
    let mut seated = Vec::new();
    for mut connection in pair {
        let started = until(&mut connection, 30, |m| m["type"] == "match_started").await;
        let id = started["match"].as_i64().expect("a match id");
        let seat = started["seat"].as_u64().expect("a seat");
        seated.push((connection, id, seat));
    }
    let [a, b]: [(Connection, i64, u64); 2] = seated.try_into().ok().expect("two seats");
    assert_eq!(a.1, b.1, "the two were paired with each other");
    [a, b]
}

/// Answer every prompt with the first legal action until a message satisfies `stop`
/// (returned). Asks once at the start, for a prompt that came before.
async fn play_until(
    connection: &mut Connection,
    match_id: i64,
    stop: impl Fn(&Value) -> bool,
) -> Value {
    connection
        .send(&json!({"type": "legal", "match": match_id}))
        .await
        .expect("send");
    loop {
        let message = until(connection, 60, |_| true).await;
        if stop(&message) {
            return message;
        }
        match message["type"].as_str() {
            Some("prompt") | Some("rejected") => connection
                .send(&json!({"type": "legal", "match": match_id}))
                .await
                .expect("send"),
            Some("legal") => {
                if let Some(action) = message["actions"].get(0) {
                    connection
                        .send(&json!({"type": "act", "match": match_id, "action": action}))
                        .await
                        .expect("send");
                }
            }
            _ => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_leaver_is_stood_in_for_to_the_end_and_loses_the_rating() {
    let server = start(|config| config.stand_in_grace = Some(GRACE)).await;
    let [(ann, match_id, ann_seat), (mut bob, _, bob_seat)] =
        rated_pair(&server.tcp, ["ann", "bob"]).await;
    drop(ann);
    let stand_in = play_until(&mut bob, match_id, |m| m["type"] == "stand_in").await;
    assert_eq!(stand_in["match"], match_id, "{stand_in}");
    assert_eq!(stand_in["seat"], ann_seat, "{stand_in}");
    assert_eq!(
        stand_in["bot"], "greedy",
        "the ruleset's default stand-in: {stand_in}"
    );
    let outcome = play_until(&mut bob, match_id, |m| m["type"] == "outcome").await;
    assert!(
        outcome["outcome"]["ejected"][ann_seat as usize].is_null(),
        "played, not ejected: {outcome}"
    );

    let stored = finished_match(&server.http, match_id).await;
    let (ann_row, bob_row) = (
        &stored["seats"][ann_seat as usize],
        &stored["seats"][bob_seat as usize],
    );
    assert_eq!(ann_row["result"], "loss", "{stored}");
    assert_eq!(bob_row["result"], "win", "{stored}");
    assert!(ann_row["house_bot_from"].is_u64(), "{stored}");
    assert!(bob_row.get("house_bot_from").is_none(), "{stored}");
    let (status, record) = http_get(
        &server.http,
        &format!("/api/matches/{match_id}/record"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{record}");
    assert_eq!(record["stand_ins"][0]["seat"], ann_seat, "{record}");
    assert_eq!(record["stand_ins"][0]["bot"], "greedy", "{record}");
    assert!(record["stand_ins"][0]["until_step"].is_null(), "{record}");
    // Ratings move as the leaver's loss, whatever the bot achieved.
    let mut skill = Vec::new();
    for name in ["ann", "bob"] {
        let (status, player) = http_get(&server.http, &format!("/api/players/{name}"), None).await;
        assert_eq!(status, 200, "{player}");
        let rating = player["ratings"]
            .as_array()
            .and_then(|ratings| ratings.iter().find(|r| r["ruleset"] == "nim"))
            .unwrap_or_else(|| panic!("{name} has a nim rating: {player}"))
            .clone();
        skill.push(rating["mu"].as_f64().expect("a skill"));
    }
    assert!(skill[1] > skill[0], "bob gained on ann: {skill:?}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logging_in_again_takes_the_seat_back_and_the_game_counts() {
    let server = start(|config| config.stand_in_grace = Some(GRACE)).await;
    let [(ann, match_id, ann_seat), (mut bob, _, _)] =
        rated_pair(&server.tcp, ["cat", "dan"]).await;
    drop(ann);
    // Bob plays until the bot stands in, then waits (the game waits for him).
    play_until(&mut bob, match_id, |m| m["type"] == "stand_in").await;

    let mut ann = Connection::connect(&server.tcp).await.expect("connect");
    ann.send(&json!({"type": "login", "name": "cat", "password": password("cat")}))
        .await
        .expect("send");
    let back = until(&mut ann, 30, |m| m["type"] == "seat_taken_back").await;
    assert_eq!(back["seat"], ann_seat, "{back}");
    let told = until(&mut bob, 30, |m| m["type"] == "seat_taken_back").await;
    assert_eq!(told, back, "everyone hears it");

    // Both play it out; `take_seat` when the seat is the player's already changes nothing.
    ann.send(&json!({"type": "take_seat", "match": match_id}))
        .await
        .expect("send");
    let (ann_end, bob_end) = tokio::join!(
        play_until(&mut ann, match_id, |m| m["type"] == "outcome"),
        play_until(&mut bob, match_id, |m| m["type"] == "outcome"),
    );
    assert_eq!(ann_end["outcome"], bob_end["outcome"]);
    let stored = finished_match(&server.http, match_id).await;
    assert!(
        stored["seats"][ann_seat as usize]
            .get("house_bot_from")
            .is_none(),
        "{stored}"
    );
    let (_, record) = http_get(
        &server.http,
        &format!("/api/matches/{match_id}/record"),
        None,
    )
    .await;
    let stand_ins = record["stand_ins"]
        .as_array()
        .expect("the record lists the stand-in");
    assert_eq!(stand_ins.len(), 1, "{record}");
    assert!(stand_ins[0]["until_step"].is_u64(), "{record}");
    server.stop().await;
}

/// Both players of a rated tournament game leave it: house bots play both seats to the
/// end. Nobody won: both seats are stored as losses, the ratings do not move apart (a
/// draw of equals), and the tournament gives neither a win or a point, whatever the
/// bots achieved (issue 69: the standings gave one of them the win).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_every_player_left_is_won_by_nobody() {
    let server = start(|config| config.stand_in_grace = Some(GRACE)).await;
    let mut host = registered(&server.tcp, "left-host").await;
    let id = crate::tournaments::create(
        &mut host,
        json!({"ruleset": "nim", "format": "swiss", "rounds": 1, "start_when": 2,
               "max_entrants": 2, "rated": true, "deadline_ms": 1000, "time_bank_ms": 0}),
    )
    .await;
    let mut match_id = None;
    for name in ["left-ann", "left-bob"] {
        let mut player = registered(&server.tcp, name).await;
        player
            .send(&json!({"type": "join_tournament", "tournament": id}))
            .await
            .expect("send");
        until(&mut player, 10, |m| m["type"] == "tournament_joined").await;
        drop(player);
    }
    // Neither is connected when the game starts: both seats go to house bots.
    for _ in 0..1200 {
        let (_, document) = http_get(&server.http, &format!("/api/tournaments/{id}"), None).await;
        if let Some(found) = document["games"][0]["match"].as_i64() {
            match_id = Some(found);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let match_id = match_id.expect("the game started");
    let stored = finished_match(&server.http, match_id).await;
    for seat in 0..2 {
        let row = &stored["seats"][seat];
        assert_eq!(row["result"], "loss", "{stored}");
        assert!(row["house_bot_from"].is_u64(), "{stored}");
    }
    let mut skill = Vec::new();
    for name in ["left-ann", "left-bob"] {
        let (_, player) = http_get(&server.http, &format!("/api/players/{name}"), None).await;
        let rating = player["ratings"]
            .as_array()
            .and_then(|ratings| ratings.iter().find(|r| r["ruleset"] == "nim"))
            .unwrap_or_else(|| panic!("{name} is rated: {player}"))
            .clone();
        skill.push(rating["mu"].as_f64().expect("a skill"));
    }
    assert!(
        (skill[0] - skill[1]).abs() < 1e-9,
        "nobody gained on the other: {skill:?}"
    );
    let mut document = Value::Null;
    for _ in 0..1200 {
        let (_, now) = http_get(&server.http, &format!("/api/tournaments/{id}"), None).await;
        document = now;
        if document["status"] == "finished" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(document["status"], "finished", "{document}");
    for line in document["standings"].as_array().expect("standings") {
        assert_eq!(line["points"].as_f64(), Some(0.0), "{document}");
        assert_eq!(line["wins"], 0, "{document}");
        assert_eq!(line["losses"], 1, "{document}");
    }
    server.stop().await;
}
