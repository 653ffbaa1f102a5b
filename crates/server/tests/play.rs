//! Whole games through the server over loopback TCP, one test per ruleset: two network
//! bots (seeing only their views) register, get matched, play to the end; a spectator
//! watches; then the HTTP API serves the match, its outcome, its replay and ratings.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::common::*;
use arbiter_server::client::{play, BotPlan, Connection, Decider, DeciderFactory, Games};
use serde_json::{json, Value};

/// A player that holds its first decision until the spectator is watching: a random
/// game can be over in two moves (both players pass), before anyone could look.
struct Gated {
    inner: Box<dyn Decider>,
    go: Arc<AtomicBool>,
}

impl Decider for Gated {
    fn decide(&mut self, view: &Value, seat: usize) -> Result<Value, String> {
        // Bounded well below the 5 s deadline: the game goes on even if the test's
        // spectator never came.
        for _ in 0..400 {
            if self.go.load(Ordering::SeqCst) {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.inner.decide(view, seat)
    }
}

fn gated_random_players(ruleset: &str, go: Arc<AtomicBool>) -> DeciderFactory {
    let mut inner = random_players(ruleset);
    Box::new(move |config: &Value, seed: u64| {
        Ok(Box::new(Gated {
            inner: inner(config, seed)?,
            go: go.clone(),
        }) as Box<dyn Decider>)
    })
}

async fn full_game(ruleset: &str) {
    let server = start(|config| config.default_deadline = Some(Duration::from_secs(5))).await;
    let plan = |name: &str| BotPlan {
        session: None,
        server: server.tcp.clone(),
        ruleset: ruleset.to_string(),
        name: name.to_string(),
        password: password(name),
        games: Games::Exactly(1),
        config: Value::Null,
        seats: None,
        reconnect_for: std::time::Duration::ZERO,
        queue_wait: None,
    };
    let (ann, bob) = (format!("{ruleset}-ann"), format!("{ruleset}-bob"));
    let go = Arc::new(AtomicBool::new(false));
    let first = tokio::spawn({
        let plan = plan(&ann);
        let players = gated_random_players(ruleset, go.clone());
        async move { play(&plan, players).await }
    });
    let second = tokio::spawn({
        let plan = plan(&bob);
        let players = gated_random_players(ruleset, go.clone());
        async move { play(&plan, players).await }
    });

    // A spectator (not logged in) finds the match and watches it to the end.
    let mut watcher = Connection::connect(&server.tcp).await.expect("connect");
    let match_id = loop {
        watcher.send(&json!({"type": "matches"})).await.unwrap();
        let list = until(&mut watcher, 5, |m| {
            assert_ne!(m["type"], "error", "the server refused a request: {m}");
            m["type"] == "matches"
        })
        .await;
        if let Some(id) = list["matches"][0]["match"].as_i64() {
            break id;
        }
        // Poll again shortly (the match may not have started yet).
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    watcher
        .send(&json!({"type": "spectate", "match": match_id}))
        .await
        .unwrap();
    let mut seen_views = Vec::new();
    let mut joined = Value::Null;
    let mut released = false;
    let outcome = loop {
        let message = tokio::time::timeout(Duration::from_secs(60), watcher.recv())
            .await
            .expect("the match goes on")
            .expect("message");
        assert_ne!(message["type"], "prompt", "a spectator is never prompted");
        assert_ne!(message["type"], "error", "{message}");
        if !released {
            // Watching from the first view on: let the players go.
            go.store(true, Ordering::SeqCst);
            released = true;
        }
        match message["type"].as_str() {
            Some("joined") => joined = message,
            Some("view") => seen_views.push(message),
            Some("outcome") => break message,
            _ => {}
        }
    };
    assert_eq!(joined["seat"], Value::Null, "{joined}");

    let first = first.await.unwrap().expect("first bot plays");
    let second = second.await.unwrap().expect("second bot plays");
    assert_eq!(first.games.len(), 1);
    assert_eq!(first.games[0].match_id, match_id);
    assert_eq!(second.games[0].match_id, match_id);
    assert_ne!(first.games[0].seat, second.games[0].seat);
    assert!(first.games[0].decisions + second.games[0].decisions > 0);

    // The store has it, finished, with the outcome the players saw.
    let stored = finished_match(&server.http, match_id).await;
    assert_eq!(stored["status"], "finished", "{stored}");
    assert_eq!(stored["outcome"], outcome["outcome"]);
    assert_eq!(stored["ruleset"], ruleset);
    let (status, list) = http_get(
        &server.http,
        &format!("/api/matches?ruleset={ruleset}&player={ann}"),
        None,
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(list["matches"][0]["id"], match_id, "{list}");

    // The spectator replay verifies every digest; what the spectator saw live is
    // exactly the spectators' view at that step.
    let replay = spectator_replay(&server.http, match_id).await;
    let steps = replay["steps"].as_array().expect("steps");
    // The match has ended, so the second request is served from the replay cache.
    let metrics = &server.server.hub.metrics;
    let (cached, rebuilt) = (metrics.replays_served(true), metrics.replays_served(false));
    assert_eq!(spectator_replay(&server.http, match_id).await, replay);
    assert_eq!(
        metrics.replays_served(true),
        cached + 1,
        "served from the cache"
    );
    assert_eq!(metrics.replays_served(false), rebuilt, "not rebuilt");
    assert_eq!(steps.len() as u64, stored["moves"].as_u64().unwrap() + 1);
    assert_eq!(replay["outcome"], outcome["outcome"]);
    assert!(!seen_views.is_empty());
    for view in &seen_views {
        let step = view["step"].as_u64().unwrap() as usize;
        assert_eq!(
            view["view"], steps[step]["view"],
            "spectator view at step {step}"
        );
    }

    // A seat's own views: only for the account that held it.
    let ann_seat = first.games[0].seat;
    let bob_seat = second.games[0].seat;
    let path = format!("/api/matches/{match_id}/replay?seat={ann_seat}");
    assert_eq!(http_get(&server.http, &path, None).await.0, 401);
    let (status, own) = http_get(&server.http, &path, Some((&ann, &password(&ann)))).await;
    assert_eq!(status, 200, "{own}");
    assert_eq!(own["steps"].as_array().unwrap().len(), steps.len());
    let other = format!("/api/matches/{match_id}/replay?seat={bob_seat}");
    assert_eq!(
        http_get(&server.http, &other, Some((&ann, &password(&ann))))
            .await
            .0,
        403
    );
    assert_eq!(
        http_get(&server.http, &path, Some((&ann, "wrong"))).await.0,
        401
    );

    // Rated: both players are on the leaderboard, with one game each.
    let (status, board) =
        http_get(&server.http, &format!("/api/leaderboard/{ruleset}"), None).await;
    assert_eq!(status, 200);
    let entries = board["entries"].as_array().expect("entries");
    assert_eq!(entries.len(), 2, "{board}");
    assert!(entries.iter().all(|e| e["games"] == 1));
    let (status, profile) = http_get(&server.http, &format!("/api/players/{bob}"), None).await;
    assert_eq!(status, 200);
    assert_eq!(profile["counts"]["finished"], 1, "{profile}");
    assert_eq!(profile["ratings"][0]["ruleset"], ruleset);
    // The match leaves the live list once its store writer is done.
    assert_settled_metrics(&server.http, &ONE_MATCH_FINISHED).await;
    // The log writer's totals count this match's entries, each once.
    let (_, metrics) = http_get(&server.http, "/metrics", None).await;
    let committed = metrics
        .as_str()
        .unwrap_or_default()
        .lines()
        .find_map(|line| line.strip_prefix("arbiter_log_entries_committed_total "))
        .and_then(|value| value.parse::<u64>().ok());
    assert_eq!(committed, stored["moves"].as_u64(), "{metrics}");
    server.stop().await;
}

/// A whole game of every shipped ruleset (the registry's list, so a new one is in).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_ruleset_plays_a_game_through_the_server() {
    for shipped in arbiter_rulesets::all() {
        full_game(shipped.id()).await;
    }
}

#[tokio::test]
async fn the_api_answers_unknown_things_with_404() {
    let server = start(|_| {}).await;
    for path in [
        "/api/matches/999",
        "/api/matches/999/replay",
        "/api/leaderboard/chess",
        "/api/players/nobody",
        "/api/matches?ruleset=chess",
    ] {
        let (status, body) = http_get(&server.http, path, None).await;
        assert_eq!(status, 404, "{path}: {body}");
        assert!(body["message"].is_string(), "{path}: {body}");
    }
    let (status, rulesets) = http_get(&server.http, "/api/rulesets", None).await;
    assert_eq!(status, 200);
    let listed: Vec<&str> = rulesets
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|r| r["id"].as_str())
        .collect();
    let shipped: Vec<&str> = arbiter_rulesets::all().iter().map(|r| r.id()).collect();
    assert_eq!(listed, shipped, "every registered ruleset is listed");
    let (status, metrics) = http_get(&server.http, "/metrics", None).await;
    assert_eq!(status, 200);
    assert!(metrics
        .as_str()
        .unwrap_or("")
        .contains("arbiter_matches_running 0"));
    server.stop().await;
}
