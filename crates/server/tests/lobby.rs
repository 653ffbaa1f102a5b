//! Tables with house bots, reconnecting to a running match, matchmaking that never
//! pairs a user with itself, the protocol over WebSocket, and a server on PostgreSQL.

use std::time::Duration;

use crate::common::*;
use arbiter_server::client::{play, BotPlan, Games, SeatPool};
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

#[tokio::test]
async fn a_table_filled_with_house_bots_plays_to_the_end() {
    let server = start(|c| c.default_deadline = Some(Duration::from_secs(5))).await;
    let mut owner = registered(&server.tcp, "table-owner").await;
    let mut guest = registered(&server.tcp, "table-guest").await;
    owner
        .send(&json!({"type": "create_table", "ruleset": "tae", "seats": 4}))
        .await
        .unwrap();
    let table = owner.expect("table", |_| {}).await.unwrap();
    let id = table["table"].as_u64().unwrap();
    guest
        .send(&json!({"type": "join_table", "table": id}))
        .await
        .unwrap();
    let joined = guest.expect("table", |_| {}).await.unwrap();
    assert_eq!(joined["seats"][1]["player"], "table-guest");
    // Only the owner seats bots; unknown bots are refused with the list.
    guest
        .send(&json!({"type": "add_bot", "table": id, "bot": "random"}))
        .await
        .unwrap();
    let error = until(&mut guest, 5, |m| m["type"] == "error").await;
    assert_eq!(error["code"], "not_table_owner");
    owner
        .send(&json!({"type": "add_bot", "table": id, "bot": "skynet"}))
        .await
        .unwrap();
    let error = until(&mut owner, 5, |m| m["type"] == "error").await;
    assert_eq!(error["code"], "unknown_bot");
    assert!(error["message"].as_str().unwrap().contains("greedy"));
    owner
        .send(&json!({"type": "add_bot", "table": id, "bot": "mcts", "seat": 3}))
        .await
        .unwrap();
    let update = until(&mut owner, 5, |m| {
        m["type"] == "table" && m["seats"][3]["player"] == "bot:mcts"
    })
    .await;
    assert!(update["seats"][2]["player"].is_null());
    owner
        .send(&json!({"type": "start_table", "table": id, "fill": "random"}))
        .await
        .unwrap();
    let started = until(&mut owner, 5, |m| m["type"] == "match_started").await;
    assert_eq!(started["players"][2], "random#3");
    assert_eq!(started["players"][3], "mcts#4");
    assert_eq!(started["rated"], false);
    let match_id = started["match"].as_i64().unwrap();
    // Both people resign at their first chance; the bots (the search bot thinking
    // 100 ms a decision on the blocking pool) play on to the end.
    owner
        .send(&json!({"type": "resign", "match": match_id}))
        .await
        .unwrap();
    until(&mut guest, 5, |m| m["type"] == "match_started").await;
    guest.send(&json!({"type": "resign"})).await.unwrap();
    let outcome = until(&mut guest, 60, |m| m["type"] == "outcome").await;
    assert_eq!(outcome["outcome"]["ejected"][0], "resigned");
    assert_eq!(outcome["outcome"]["ejected"][1], "resigned");
    let stored = finished_match(&server.http, match_id).await;
    assert_eq!(stored["status"], "finished");
    assert_eq!(stored["seats"][3]["bot"], "mcts", "{stored}");
    server.stop().await;
}

#[tokio::test]
async fn a_reconnecting_player_resumes_its_seat() {
    let server = start(|c| c.default_deadline = Some(Duration::from_secs(20))).await;
    let mut ann = registered(&server.tcp, "resume-ann").await;
    let mut bob = registered(&server.tcp, "resume-bob").await;
    for player in [&mut ann, &mut bob] {
        player
            .send(&json!({"type": "queue", "ruleset": "tae"}))
            .await
            .unwrap();
    }
    let ann_start = until(&mut ann, 5, |m| m["type"] == "match_started").await;
    until(&mut bob, 5, |m| m["type"] == "match_started").await;
    let match_id = ann_start["match"].as_i64().unwrap();
    let ann_seat = ann_start["seat"].as_u64().unwrap();
    // Ann's connection drops.
    drop(ann);
    tokio::time::sleep(Duration::from_millis(100)).await;
    // She logs in again on a new connection: the seat comes back with a fresh view.
    let mut again = arbiter_server::client::Connection::connect(&server.tcp)
        .await
        .unwrap();
    again
        .send(&json!({"type": "login", "name": "resume-ann", "password": password("resume-ann")}))
        .await
        .unwrap();
    let logged = again.expect("logged_in", |_| {}).await.unwrap();
    assert_eq!(logged["resumed"], json!([match_id]));
    let joined = until(&mut again, 5, |m| m["type"] == "joined").await;
    assert_eq!(joined["seat"], ann_seat);
    assert_eq!(joined["match"], match_id);
    let view = until(&mut again, 5, |m| m["type"] == "view").await;
    assert_eq!(view["match"], match_id);
    // She plays on from there: whoever owes the move passes until the match moves.
    if ann_seat == 0 {
        until(&mut again, 5, |m| m["type"] == "prompt").await;
        again
            .send(&json!({"type": "act", "action": "pass"}))
            .await
            .unwrap();
        let next = until(&mut again, 5, |m| m["type"] == "view").await;
        assert_eq!(next["step"], 1);
    } else {
        until(&mut bob, 5, |m| m["type"] == "prompt").await;
        bob.send(&json!({"type": "act", "action": "pass"}))
            .await
            .unwrap();
        let next = until(&mut again, 5, |m| m["type"] == "view").await;
        assert_eq!(next["step"], 1);
    }
    again.send(&json!({"type": "resign"})).await.unwrap();
    let outcome = until(&mut bob, 5, |m| m["type"] == "outcome").await;
    assert_eq!(outcome["outcome"]["ejected"][ann_seat as usize], "resigned");
    server.stop().await;
}

#[tokio::test]
async fn matchmaking_never_pairs_a_user_with_itself() {
    let server = start(|_| {}).await;
    let mut first = registered(&server.tcp, "solo").await;
    let mut second = arbiter_server::client::Connection::connect(&server.tcp)
        .await
        .unwrap();
    second
        .send(&json!({"type": "login", "name": "solo", "password": password("solo")}))
        .await
        .unwrap();
    second.expect("logged_in", |_| {}).await.unwrap();
    let mut replies = Vec::new();
    for connection in [&mut first, &mut second] {
        connection
            .send(&json!({"type": "queue", "ruleset": "spacegoo"}))
            .await
            .unwrap();
        replies.push(connection.expect("queued", |_| {}).await.unwrap());
    }
    // A lone player is told so, with the queue's size.
    assert_eq!(replies[0]["waiting"], 1, "{}", replies[0]);
    let note = replies[0]["note"].as_str().unwrap();
    assert!(note.contains("only one waiting"), "{note}");
    // Several pairing rounds pass with the same user twice in the queue: no match.
    let nothing = tokio::time::timeout(Duration::from_millis(600), first.recv()).await;
    assert!(nothing.is_err(), "{nothing:?}");
    // Someone else arrives and is paired with one of them.
    let mut other = registered(&server.tcp, "someone-else").await;
    other
        .send(&json!({"type": "queue", "ruleset": "spacegoo"}))
        .await
        .unwrap();
    let started = until(&mut other, 5, |m| m["type"] == "match_started").await;
    assert!(started["players"]
        .as_array()
        .unwrap()
        .contains(&json!("solo")));
    assert!(started["players"]
        .as_array()
        .unwrap()
        .contains(&json!("someone-else")));
    // Queue errors are explained.
    other
        .send(&json!({"type": "queue", "ruleset": "chess"}))
        .await
        .unwrap();
    assert_eq!(
        until(&mut other, 5, |m| m["type"] == "error").await["code"],
        "unknown_ruleset"
    );
    other
        .send(&json!({"type": "queue", "ruleset": "tae", "seats": 9}))
        .await
        .unwrap();
    assert_eq!(
        until(&mut other, 5, |m| m["type"] == "error").await["code"],
        "bad_seats"
    );
    other
        .send(&json!({"type": "queue", "ruleset": "spacecrack", "config": {"turns": 1}}))
        .await
        .unwrap();
    assert_eq!(
        until(&mut other, 5, |m| m["type"] == "error").await["code"],
        "bad_config"
    );
    server.stop().await;
}

/// Three bots that share four seats all finish: two games between them, whoever
/// meets whom. With a number of games each, an odd one out could be left queueing for
/// a partner who has played all its games (as the load benchmark's clients once were).
#[tokio::test]
async fn bots_drawing_games_from_one_pool_all_finish() {
    let server = start(|c| c.default_deadline = Some(Duration::from_secs(5))).await;
    let seats = SeatPool::new(4);
    let bots: Vec<_> = ["pool-a", "pool-b", "pool-c"]
        .into_iter()
        .map(|name| {
            let plan = BotPlan {
                session: None,
                server: server.tcp.clone(),
                ruleset: "spacegoo".into(),
                name: name.into(),
                password: password(name),
                games: Games::FromPool(seats.clone()),
                config: Value::Null,
                seats: None,
                reconnect_for: std::time::Duration::ZERO,
                queue_wait: None,
            };
            tokio::spawn(async move { play(&plan, random_players("spacegoo")).await })
        })
        .collect();
    let mut played = Vec::new();
    for bot in bots {
        // The bound only turns a hang into a failure.
        let report = tokio::time::timeout(Duration::from_secs(120), bot)
            .await
            .expect("every bot finished")
            .expect("the bot's task")
            .expect("the bot played");
        assert!(report.aborted.is_empty(), "{:?}", report.aborted);
        played.push(report.games.len());
    }
    assert_eq!(played.iter().sum::<usize>(), 4, "{played:?}");
    assert!(played.iter().all(|&games| games <= 2), "{played:?}");
    assert_eq!(seats.left(), 0);
}

type WebSocket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The next text message as JSON.
async fn next_json(ws: &mut WebSocket) -> Value {
    loop {
        if let Message::Text(text) = ws.next().await.expect("open").expect("frame") {
            return serde_json::from_str(&text).expect("JSON");
        }
    }
}

#[tokio::test]
async fn the_same_protocol_over_websocket() {
    let server = start(|c| c.default_deadline = Some(Duration::from_secs(5))).await;
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{}/ws", server.http))
        .await
        .expect("websocket");
    assert_eq!(next_json(&mut ws).await["type"], "welcome");
    let send = |v: Value| Message::Text(v.to_string().into());
    ws.send(send(
        json!({"type": "register", "name": "web", "password": "pw-web-secret"}),
    ))
    .await
    .unwrap();
    assert_eq!(next_json(&mut ws).await["type"], "registered");
    ws.send(send(json!({"type": "queue", "ruleset": "spacegoo"})))
        .await
        .unwrap();
    // A TCP bot takes the other seat; the WebSocket player resigns at its first prompt.
    let plan = BotPlan {
        session: None,
        server: server.tcp.clone(),
        ruleset: "spacegoo".into(),
        name: "tcp-bot".into(),
        password: password("tcp-bot"),
        games: Games::Exactly(1),
        config: Value::Null,
        seats: None,
        reconnect_for: std::time::Duration::ZERO,
        queue_wait: None,
    };
    let bot = tokio::spawn(async move { play(&plan, random_players("spacegoo")).await });
    let mut saw = Vec::new();
    loop {
        let message = tokio::time::timeout(Duration::from_secs(10), async {
            loop {
                if let Message::Text(text) = ws.next().await.expect("open").expect("frame") {
                    return serde_json::from_str::<Value>(&text).unwrap();
                }
            }
        })
        .await
        .expect("message");
        let kind = message["type"].as_str().unwrap_or("").to_string();
        saw.push(kind.clone());
        if kind == "prompt" {
            ws.send(send(json!({"type": "resign"}))).await.unwrap();
        }
        if kind == "outcome" {
            break;
        }
    }
    for kind in [
        "queued",
        "match_started",
        "joined",
        "view",
        "prompt",
        "ejected",
        "outcome",
    ] {
        assert!(saw.iter().any(|k| k == kind), "{kind} missing from {saw:?}");
    }
    let report = bot.await.unwrap().unwrap();
    assert_eq!(report.games[0].rank, 1);
    // Garbage over WebSocket gets the same errors.
    ws.send(Message::Text("nonsense".into())).await.unwrap();
    let error = loop {
        if let Message::Text(text) = ws.next().await.expect("open").expect("frame") {
            break serde_json::from_str::<Value>(&text).unwrap();
        }
    };
    assert_eq!(error["code"], "bad_json");
    // Many messages sent at once get every answer, in order: the server writes the
    // answers queued together in one flush (`batch_after`), not one by one.
    const BURST: usize = 40;
    for i in 0..BURST {
        let message = if i % 2 == 0 {
            send(json!({"type": "ping"}))
        } else {
            Message::Text("nonsense".into())
        };
        ws.feed(message).await.unwrap();
    }
    ws.flush().await.unwrap();
    for i in 0..BURST {
        let answer = next_json(&mut ws).await;
        if i % 2 == 0 {
            assert_eq!(answer["type"], "pong", "answer {i}: {answer}");
        } else {
            assert_eq!(answer["code"], "bad_json", "answer {i}: {answer}");
        }
    }
    server.stop().await;
}

/// A whole rated game with the server's store on PostgreSQL (a scratch database).
#[tokio::test]
async fn a_server_on_postgresql_plays_and_serves_a_game() {
    use sqlx::Connection;
    let admin_url = arbiter_store::testing::postgres_admin_url().await;
    let mut admin = sqlx::PgConnection::connect(&admin_url)
        .await
        .unwrap_or_else(|e| panic!("connect to PostgreSQL at {admin_url}: {e}"));
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let database = format!("arbiter_server_test_{}_{nanos}", std::process::id());
    sqlx::query(&format!("CREATE DATABASE {database}"))
        .execute(&mut admin)
        .await
        .expect("create the scratch database");
    let url = match admin_url.rsplit_once('/') {
        Some((server, _)) => format!("{server}/{database}"),
        None => panic!("{admin_url} names no database"),
    };
    let server = start(|c| {
        c.database_url = url.clone();
        c.default_deadline = Some(Duration::from_secs(5));
    })
    .await;
    let plan = |name: &str| BotPlan {
        session: None,
        server: server.tcp.clone(),
        ruleset: "spacegoo".into(),
        name: name.into(),
        password: password(name),
        games: Games::Exactly(1),
        config: Value::Null,
        seats: None,
        reconnect_for: std::time::Duration::ZERO,
        queue_wait: None,
    };
    let (a, b) = (plan("pg-a"), plan("pg-b"));
    let (ra, rb) = tokio::join!(
        play(&a, random_players("spacegoo")),
        play(&b, random_players("spacegoo"))
    );
    let (ra, rb) = (ra.unwrap(), rb.unwrap());
    assert_eq!(ra.games[0].match_id, rb.games[0].match_id);
    let stored = finished_match(&server.http, ra.games[0].match_id).await;
    assert_eq!(stored["status"], "finished");
    let (status, replay) = http_get(
        &server.http,
        &format!("/api/matches/{}/replay", ra.games[0].match_id),
        None,
    )
    .await;
    assert_eq!(status, 200, "{replay}");
    let (_, board) = http_get(&server.http, "/api/leaderboard/spacegoo", None).await;
    assert_eq!(board["entries"].as_array().map(Vec::len), Some(2));
    server.stop().await;
    sqlx::query(&format!("DROP DATABASE {database} WITH (FORCE)"))
        .execute(&mut admin)
        .await
        .expect("drop the scratch database");
}

/// A normal stop ends no match: every client is told `server_restarting` (with a
/// retry hint) and the connection closes; the match stays running in the store, and a
/// server started again on the same data goes on with it, where its players find their
/// seats again when they log in.
#[tokio::test]
async fn a_stop_tells_clients_to_come_back_and_ends_no_match() {
    let TestServer {
        server,
        dir,
        tcp,
        database,
        ..
    } = start(|c| c.default_deadline = Some(Duration::from_secs(30))).await;
    let mut ann = registered(&tcp, "down-ann").await;
    let mut bob = registered(&tcp, "down-bob").await;
    for player in [&mut ann, &mut bob] {
        player
            .send(&json!({"type": "queue", "ruleset": "tae"}))
            .await
            .unwrap();
    }
    let started = until(&mut ann, 5, |m| m["type"] == "match_started").await;
    until(&mut bob, 5, |m| m["type"] == "match_started").await;
    let match_id = started["match"].as_i64().unwrap();
    let mut config = server.hub.config.clone();
    server.shutdown().await;
    let restarting = until(&mut ann, 5, |m| m["type"] == "server_restarting").await;
    assert!(
        restarting["retry_after_ms"]
            .as_u64()
            .is_some_and(|ms| ms > 0),
        "{restarting}"
    );
    assert!(ann.recv().await.is_err(), "the connection is closed");
    let store = arbiter_store::Store::connect(&config.database_url)
        .await
        .unwrap();
    let summary = store.match_summary(match_id).await.unwrap().unwrap();
    assert_eq!(summary.status, arbiter_store::MatchStatus::Running);
    store.close().await;

    // Started again on the same data: the match goes on, and a login resumes the seat.
    config.tcp = "127.0.0.1:0".into();
    config.http = "127.0.0.1:0".into();
    let again = arbiter_server::Server::start(config)
        .await
        .expect("starts again");
    assert_eq!(again.resumed_on_start.resumed, 1);
    let mut ann = arbiter_server::client::Connection::connect(&again.tcp_addr.to_string())
        .await
        .unwrap();
    ann.send(&json!({"type": "login", "name": "down-ann", "password": password("down-ann")}))
        .await
        .unwrap();
    let logged_in = until(&mut ann, 5, |m| m["type"] == "logged_in").await;
    assert_eq!(logged_in["resumed"], json!([match_id]));
    until(&mut ann, 5, |m| {
        m["type"] == "joined" && m["match"] == match_id
    })
    .await;
    again.shutdown().await;
    drop((dir, database));
}

/// A table's `abandon_after`: a seat that misses that many deadlines in a row is out,
/// with the reason recorded (here after one missed second, so the test waits on the
/// `ejected` message rather than on minutes of turns). The table has no stand-in
/// (`stand_in_grace_ms` 0); with one, the house bot would play the seat instead
/// (`tests/stand_in.rs`).
#[tokio::test]
async fn a_table_seat_that_stops_answering_has_abandoned() {
    let server = start(|_| {}).await;
    let mut owner = registered(&server.tcp, "ida").await;
    owner
        .send(
            &json!({"type": "create_table", "ruleset": "nim", "seats": 2,
            "deadline_ms": 1000, "time_bank_ms": 0, "abandon_after": 1, "stand_in_grace_ms": 0}),
        )
        .await
        .expect("send");
    let table = owner.expect("table", |_| {}).await.expect("a table");
    owner
        .send(&json!({"type": "start_table", "table": table["table"], "fill": "random"}))
        .await
        .expect("send");
    let started = until(&mut owner, 5, |m| m["type"] == "match_started").await;
    let id = started["match"].as_i64().expect("match id");
    // Ida never answers: once her first decision's second is up, she is out.
    let ejected = until(&mut owner, 30, |m| m["type"] == "ejected" && m["seat"] == 0).await;
    assert_eq!(
        ejected["reason"],
        "abandoned the match: missed its deadline"
    );
    let stored = finished_match(&server.http, id).await;
    assert_eq!(
        stored["seats"][0]["ejected"], "abandoned the match: missed its deadline",
        "{stored}"
    );
    server.stop().await;
}

/// A bot alone in the queue does not wait for ever: past its `queue_wait` it gives up
/// with an error that says what happened and what to do.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_alone_in_the_queue_gives_up_after_its_wait() {
    let server = start(|_| {}).await;
    let plan = BotPlan {
        session: None,
        server: server.tcp.clone(),
        ruleset: "nim".into(),
        name: "lonely-bot".into(),
        password: password("lonely-bot"),
        games: Games::Exactly(1),
        config: Value::Null,
        seats: None,
        reconnect_for: std::time::Duration::ZERO,
        queue_wait: Some(Duration::from_millis(300)),
    };
    let error = play(&plan, random_players("nim"))
        .await
        .expect_err("nobody to play");
    let said = format!("{error:#}");
    assert!(
        said.contains("no nim match began within") && said.contains("--wait"),
        "{said}"
    );
    server.stop().await;
}
