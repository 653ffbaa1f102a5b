//! Tournaments in a deployment of two nodes (one PostgreSQL, one NATS; both real): a
//! tournament's director runs on one node, and entrants connected to either play its
//! games; when that node dies, the other takes the tournament over and finishes it; and
//! a house tournament both nodes keep open exists once.

use std::collections::{HashMap, HashSet};
use std::sync::mpsc;
use std::time::Duration;

use crate::common::*;
use crate::deployment::{gated, nodes_named, resign_and_see_it_finish, two_nodes_with};
use crate::tournaments::{create, every_game_stored_and_replayable, tournament_bot};
use arbiter_server::client::{play, BotReport};
use serde_json::{json, Value};

/// Every game's players, as a set: no two games of `document` seat the same set.
fn assert_nobody_paired_twice(document: &Value) {
    let mut seen = HashSet::new();
    for game in document["games"].as_array().expect("games") {
        let mut players: Vec<String> = game["players"]
            .as_array()
            .expect("players")
            .iter()
            .map(|p| p.as_str().unwrap_or("").to_string())
            .collect();
        players.sort();
        assert!(seen.insert(players.clone()), "{players:?} met twice");
    }
}

/// The tournament's document, from `http`, once its status is `status` (up to 60 s).
async fn tournament_once(http: &str, id: i64, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..1200 {
        let (status, document) = http_get(http, &format!("/api/tournaments/{id}"), None).await;
        assert_eq!(status, 200, "{document}");
        if done(&document) {
            return document;
        }
        // Polling the shared store for a condition, not ordering: up to 60 s in all.
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("tournament {id} never got there");
}

async fn finished(bot: tokio::task::JoinHandle<anyhow::Result<BotReport>>) -> BotReport {
    tokio::time::timeout(Duration::from_secs(120), bot)
        .await
        .expect("the tournament ended in time")
        .expect("the bot task")
        .expect("the bot played the tournament")
}

/// A Swiss directed on alpha, with two entrants on each node: the ones on beta are
/// reached through their connections' stand-ins on alpha, and every game is played.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn entrants_on_either_node_play_a_tournament_directed_on_one() {
    let database = arbiter_store::testing::ScratchDatabase::create().await;
    let nats = nats_url().await;
    let (alpha, beta) = two_nodes_with(&database.url, &nats, Duration::from_secs(30), |_| {}).await;
    let mut host = registered(&alpha.tcp, "swiss-host").await;
    let id = create(
        &mut host,
        json!({"ruleset": "nim", "format": "swiss", "rounds": 3, "start_when": 4,
               "max_entrants": 4, "rated": false}),
    )
    .await;
    let mut bots = Vec::new();
    for n in 0..4 {
        let node = if n % 2 == 0 { &alpha } else { &beta };
        let plan = tournament_bot(node, "nim", &format!("both-nodes{n}"), id);
        let players = random_players("nim");
        bots.push(tokio::spawn(async move { play(&plan, players).await }));
    }
    for bot in bots {
        let report = finished(bot).await;
        assert_eq!(report.games.len(), 3, "a game a round");
        assert!(report.aborted.is_empty(), "{:?}", report.aborted);
    }
    let document = tournament_once(&beta.http, id, |d| d["status"] == "finished").await;
    assert_eq!(document["games"].as_array().map(Vec::len), Some(6));
    assert_nobody_paired_twice(&document);
    every_game_stored_and_replayable(&beta, &document).await;
    for game in document["games"].as_array().expect("games") {
        let (_, summary) =
            http_get(&beta.http, &format!("/api/matches/{}", game["match"]), None).await;
        assert_eq!(
            summary["node"], alpha.server.hub.config.node,
            "the director's node runs its games: {summary}"
        );
    }
    drop(host);
    alpha.stop().await;
    beta.stop().await;
    drop(database);
}

/// Alpha directs a Swiss and stops in the middle of round 1 (its games' first moves
/// held back): beta takes the tournament and its matches over once alpha's lease runs
/// out, the interrupted games go on from their logs (their players, connected to beta,
/// get their seats back there), and the Swiss finishes with nobody paired twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_nodes_tournament_is_taken_over_and_finished() {
    let database = arbiter_store::testing::ScratchDatabase::create().await;
    let nats = nats_url().await;
    let (alpha, beta) = two_nodes_with(&database.url, &nats, Duration::from_secs(2), |_| {}).await;
    let mut host = registered(&alpha.tcp, "taken-host").await;
    let id = create(
        &mut host,
        // A short clock: the interrupted games' matches, taken over by beta with
        // nobody attached to their seats, are given up after missed deadlines (the
        // default 20 s each made the test wait about 50 s on timers alone).
        json!({"ruleset": "nim", "format": "swiss", "rounds": 3, "start_when": 4,
               "max_entrants": 4, "rated": false, "deadline_ms": 2000, "time_bank_ms": 0}),
    )
    .await;
    drop(host);
    let mut gates = Vec::new();
    let mut bots = Vec::new();
    for n in 0..4 {
        let (open, gate) = mpsc::channel::<()>();
        gates.push(open);
        let mut plan = tournament_bot(&beta, "nim", &format!("taken{n}"), id);
        // A node that stops may close the connections of the other node whose stand-ins
        // it held (the bots', on beta): a bot comes back by itself, as real bots and
        // the kits do, and finds its games again.
        plan.reconnect_for = Duration::from_secs(60);
        let players = gated("nim", gate);
        bots.push(tokio::spawn(async move { play(&plan, players).await }));
    }
    // Round 1 is under way on alpha: both games have their match.
    let first = tournament_once(&beta.http, id, |d| {
        d["round"] == 1
            && d["games"]
                .as_array()
                .is_some_and(|g| g.len() == 2 && g.iter().all(|g| g["match"].is_i64()))
    })
    .await;
    let interrupted: Vec<i64> = first["games"]
        .as_array()
        .expect("games")
        .iter()
        .filter_map(|g| g["match"].as_i64())
        .collect();
    alpha.stop().await;
    drop(gates);

    let mut reports = Vec::new();
    for bot in bots {
        reports.push(finished(bot).await);
    }
    let document = tournament_once(&beta.http, id, |d| d["status"] == "finished").await;
    let games = document["games"].as_array().expect("games");
    assert_eq!(games.len(), 6, "three rounds of two games: {document}");
    assert_nobody_paired_twice(&document);
    every_game_stored_and_replayable(&beta, &document).await;
    let owner = beta
        .server
        .hub
        .store
        .tournament(id)
        .await
        .expect("read")
        .expect("the tournament");
    assert_eq!(
        owner.node, beta.server.hub.config.node,
        "beta directs it now"
    );
    // The interrupted games went on from their logs on beta and decided round 1.
    let round_one: HashSet<i64> = games
        .iter()
        .filter(|g| g["round"] == 1)
        .filter_map(|g| g["match"].as_i64())
        .collect();
    for old in &interrupted {
        assert!(
            round_one.contains(old),
            "the game of match {old} was decided by it"
        );
        let (_, summary) = http_get(&beta.http, &format!("/api/matches/{old}"), None).await;
        assert_eq!(summary["status"], "finished", "{summary}");
        assert_eq!(summary["node"], beta.server.hub.config.node, "{summary}");
    }
    // Each bot saw the tournament end (a bot that came back counts only the games
    // after its return; the document above has every game).
    assert_eq!(reports.len(), 4);
    beta.stop().await;
    drop(database);
}

/// Both nodes keep the same house tournament open: each occurrence exists once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_house_tournament_of_two_nodes_opens_once() {
    let database = arbiter_store::testing::ScratchDatabase::create().await;
    let nats = nats_url().await;
    let (alpha, beta) = two_nodes_with(&database.url, &nats, Duration::from_secs(30), |config| {
        config
            .house_tournaments
            .push(arbiter_server::tournaments::house::HouseTournament {
                every: Duration::from_secs(1),
                settings: serde_json::from_value(json!({
                    "name": "Every second, twice housed", "ruleset": "nim", "format": "arena",
                    "duration_ms": 60000, "start_when": 64,
                }))
                .expect("settings"),
            });
    })
    .await;
    // Occurrences by start, until three have come and gone (each is cancelled at its
    // start for want of entrants, and the next opens).
    let mut by_start: HashMap<String, HashSet<i64>> = HashMap::new();
    for _ in 0..600 {
        let (status, listed) = http_get(&alpha.http, "/api/tournaments", None).await;
        assert_eq!(status, 200, "{listed}");
        for t in listed["tournaments"].as_array().expect("a list") {
            if t["name"] == "Every second, twice housed" {
                let start = t["starts_at"].as_str().unwrap_or("").to_string();
                by_start
                    .entry(start)
                    .or_default()
                    .insert(t["id"].as_i64().unwrap_or(-1));
            }
        }
        if by_start.len() >= 3 {
            break;
        }
        // Polling the shared store for a condition, not ordering: up to 30 s in all.
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(by_start.len() >= 3, "three occurrences: {by_start:?}");
    for (start, ids) in &by_start {
        assert_eq!(ids.len(), 1, "one occurrence starting {start}: {ids:?}");
    }
    alpha.stop().await;
    beta.stop().await;
    drop(database);
}

/// A match on a node that stops, whose players are connected to the two other nodes:
/// the node that takes it over has one of them at hand, and tells the other node, which
/// resumes its player's seat there for the open connection. Neither player logs in
/// again (issue 69: a client on a third node got `node_unreachable` once, then nothing,
/// until a house bot stood in for it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_on_two_other_nodes_move_with_a_match_whose_node_stops() {
    let database = arbiter_store::testing::ScratchDatabase::create().await;
    let nats = nats_url().await;
    let lease = Duration::from_secs(30);
    let mut nodes = nodes_named(
        &["alpha", "beta", "gamma"],
        &database.url,
        &nats,
        lease,
        |_| {},
    )
    .await;
    let mut host = registered(&nodes[0].tcp, "moved-host").await;
    let id = create(
        &mut host,
        json!({"ruleset": "spacegoo", "format": "swiss", "rounds": 1, "start_when": 2,
               "max_entrants": 2, "rated": false}),
    )
    .await;
    let mut players = Vec::new();
    for n in [1, 2] {
        let mut player = registered_as(&nodes[n].tcp, &format!("moved-{n}"), true).await;
        let join = json!({"type": "join_tournament", "tournament": id});
        player.send(&join).await.expect("send");
        players.push(player);
    }
    // The game's match runs on alpha, the director's node; both are prompted there.
    let mut match_id = Value::Null;
    for player in &mut players {
        let started = until(player, 20, |m| m["type"] == "match_started").await;
        match_id = started["match"].clone();
        until(player, 10, |m| {
            m["type"] == "prompt" && m["match"] == match_id
        })
        .await;
    }

    let alpha = nodes.remove(0);
    let alpha_node = alpha.server.hub.config.node.clone();
    alpha.stop().await;
    // Prompted again, on the same connections, by the node that goes on with it.
    for player in &mut players {
        until(player, 20, |m| {
            m["type"] == "prompt" && m["match"] == match_id
        })
        .await;
    }
    let (_, moved) = http_get(&nodes[0].http, &format!("/api/matches/{match_id}"), None).await;
    assert_ne!(moved["node"], alpha_node.as_str(), "{moved}");
    assert_eq!(moved["status"], "running", "{moved}");
    let second = players.pop().expect("two players");
    let first = players.pop().expect("two players");
    let match_id = match_id.as_i64().expect("a match id");
    resign_and_see_it_finish(first, second, &nodes[0].http, match_id).await;
    let document = tournament_once(&nodes[1].http, id, |d| d["status"] == "finished").await;
    assert_eq!(
        document["games"].as_array().map(Vec::len),
        Some(1),
        "{document}"
    );
    for node in nodes {
        node.stop().await;
    }
    drop(database);
}
