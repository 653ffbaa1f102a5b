//! A rolling restart: three nodes of one deployment (one PostgreSQL, one NATS; both
//! real) run queue matches and a Swiss tournament, and each node in turn is stopped as
//! SIGTERM stops it and started again, as a host upgrades a deployment node by node.
//! Every match and the tournament finish; no game is lost (aborted, left running) or
//! played twice; nobody sits in two queue matches at once.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use crate::common::*;
use crate::deployment::nodes_named;
use crate::tournaments::{create, every_game_stored_and_replayable, tournament_bot};
use arbiter_server::client::{play, BotPlan, BotReport, Games};
use arbiter_store::{MatchFilter, MatchStatus, MatchSummary};
use serde_json::{json, Value};

/// Queue games each queue bot plays, one after the other.
const QUEUE_GAMES: u32 = 3;
/// How long a bot keeps coming back after losing its node.
const COMING_BACK: Duration = Duration::from_secs(120);

/// A bot on `node` that plays `QUEUE_GAMES` T&E games from the queue of `pair`, and
/// comes back by itself when its node goes away.
///
/// Each pair queues with its own configuration (its own number of bombers), so the
/// matchmaker only ever pairs the two of it: with one shared queue, a bot slow to
/// come back could find every other bot done and wait alone for ever.
fn queue_bot(node: &TestServer, name: &str, pair: u32) -> BotPlan {
    BotPlan {
        session: None,
        server: node.tcp.clone(),
        ruleset: "tae".into(),
        name: name.into(),
        password: password(name),
        games: Games::Exactly(QUEUE_GAMES),
        config: json!({ "bombers": pair }),
        seats: Some(2),
        reconnect_for: COMING_BACK,
        // Longer than any partner's game and comeback; a bot left alone says so.
        queue_wait: Some(COMING_BACK * 2),
    }
}

/// The matches running on `node`, as the shared store lists them.
async fn running_on(node: &TestServer) -> Vec<MatchSummary> {
    let running = node
        .server
        .hub
        .store
        .list_matches(&MatchFilter {
            status: Some(MatchStatus::Running),
            limit: Some(200),
            ..MatchFilter::default()
        })
        .await
        .expect("list the running matches");
    running
        .into_iter()
        .filter(|m| m.node == node.server.hub.config.node)
        .collect()
}

async fn report_of(
    name: &str,
    bot: tokio::task::JoinHandle<anyhow::Result<BotReport>>,
) -> BotReport {
    // A guard against a hang, not a measure: the games take seconds.
    match tokio::time::timeout(Duration::from_secs(300), bot).await {
        Ok(Ok(Ok(report))) => report,
        Ok(Ok(Err(error))) => panic!("{name} did not play its games: {error:#}"),
        Ok(Err(error)) => panic!("{name}'s task failed: {error}"),
        Err(_) => panic!("{name} had not finished its games after 300 s"),
    }
}

/// Each node of three in turn stops and starts again while queue matches and a Swiss
/// run; every game is played once, to its end, by its own players.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rolling_restart_of_three_nodes_loses_no_game() {
    let database = arbiter_store::testing::ScratchDatabase::create().await;
    let nats = nats_url().await;
    // A lease of 30 s: a stopping node hands its matches and tournaments over at once,
    // so nothing here waits for a lease to run out.
    let mut nodes = nodes_named(
        &["alpha", "beta", "gamma"],
        &database.url,
        &nats,
        Duration::from_secs(30),
        // A minute a decision: a player whose own node restarts is away for its
        // comeback, and a match elsewhere would otherwise let the deadline (spacegoo's
        // is seconds) hand the seat to a house bot first. This test is about the games,
        // not about comebacks racing a bot's clock.
        |config| config.default_deadline = Some(Duration::from_secs(60)),
    )
    .await;

    // A Swiss of spacegoo directed on alpha, an entrant on each node and one more.
    let mut host = registered(&nodes[0].tcp, "rolling-host").await;
    let swiss = create(
        &mut host,
        json!({"ruleset": "spacegoo", "format": "swiss", "rounds": 3, "start_when": 4,
               "max_entrants": 4, "rated": false}),
    )
    .await;
    drop(host);
    let mut entrants = Vec::new();
    for n in 0..4 {
        let mut plan = tournament_bot(&nodes[n % 3], "spacegoo", &format!("rolling-e{n}"), swiss);
        plan.reconnect_for = COMING_BACK;
        let players = random_players("spacegoo");
        entrants.push(tokio::spawn(async move { play(&plan, players).await }));
    }
    // Queue players: a pair on each node, and a pair across each two nodes.
    let mut queuers = Vec::new();
    let mut names = Vec::new();
    for (n, (a, b)) in [(0, 0), (1, 1), (2, 2), (0, 1), (1, 2), (2, 0)]
        .into_iter()
        .enumerate()
    {
        for (side, node) in [(0, a), (1, b)] {
            let name = format!("rolling-q{n}{side}");
            let plan = queue_bot(&nodes[node], &name, n as u32);
            let players = random_players("tae");
            names.push(name);
            queuers.push(tokio::spawn(async move { play(&plan, players).await }));
        }
    }

    // Each node in turn, once it runs a match, stops and starts again.
    for i in 0..nodes.len() {
        // Polling the shared store for a condition, not ordering: up to 30 s.
        let mut held = Vec::new();
        for _ in 0..600 {
            held = running_on(&nodes[i]).await;
            if !held.is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(
            !held.is_empty(),
            "node {i} never ran a match while the games went on"
        );
        println!("restarting node {i} with {} running match(es)", held.len());
        let node = nodes.remove(i);
        nodes.insert(i, node.restart().await);
    }

    let mut queue_matches = HashSet::new();
    for (name, bot) in names.iter().zip(queuers) {
        let report = report_of(name, bot).await;
        assert!(report.aborted.is_empty(), "aborted: {:?}", report.aborted);
        // A match the opponent's move ended while this bot was coming back is over
        // when it is back (`missed`): played to its end all the same (checked below).
        assert_eq!(
            report.games.len() + report.missed.len(),
            QUEUE_GAMES as usize,
            "{report:?}"
        );
        queue_matches.extend(report.games.iter().map(|g| g.match_id));
        queue_matches.extend(report.missed.iter().copied());
    }
    for (n, bot) in entrants.into_iter().enumerate() {
        let report = report_of(&format!("rolling-e{n}"), bot).await;
        assert!(report.aborted.is_empty(), "aborted: {:?}", report.aborted);
    }

    // The Swiss finished, every game played once and stored.
    let (status, document) =
        http_get(&nodes[1].http, &format!("/api/tournaments/{swiss}"), None).await;
    assert_eq!(status, 200, "{document}");
    assert_eq!(document["status"], "finished", "{document}");
    let games = document["games"].as_array().expect("games");
    assert_eq!(games.len(), 6, "three rounds of two games: {document}");
    let mut pairs = HashSet::new();
    for game in games {
        let mut players: Vec<&str> = game["players"]
            .as_array()
            .expect("players")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        players.sort_unstable();
        assert!(pairs.insert(players.join(" ")), "paired twice: {players:?}");
    }
    every_game_stored_and_replayable(&nodes[2], &document).await;
    let tournament_matches: HashSet<i64> =
        games.iter().filter_map(|g| g["match"].as_i64()).collect();

    // Every match the deployment holds finished: none aborted, none left running, and
    // the queue's are exactly the games the players played (none lost, none twice).
    let all = nodes[0]
        .server
        .hub
        .store
        .list_matches(&MatchFilter {
            limit: Some(200),
            ..MatchFilter::default()
        })
        .await
        .expect("list the matches");
    let mut stored_queue_matches = HashSet::new();
    for summary in &all {
        assert_eq!(summary.status, MatchStatus::Finished, "{summary:?}");
        if !tournament_matches.contains(&summary.id) {
            stored_queue_matches.insert(summary.id);
        }
    }
    assert_eq!(stored_queue_matches, queue_matches);
    assert_eq!(queue_matches.len(), names.len() / 2 * QUEUE_GAMES as usize);

    // Nobody sat in two queue matches at once.
    let mut by_player: HashMap<&str, Vec<&MatchSummary>> = HashMap::new();
    for summary in all.iter().filter(|m| queue_matches.contains(&m.id)) {
        for seat in &summary.seats {
            by_player
                .entry(seat.name.as_str())
                .or_default()
                .push(summary);
        }
    }
    for (player, mut matches) in by_player {
        matches.sort_by_key(|m| m.created_at);
        for pair in matches.windows(2) {
            let ended = pair[0].finished_at.expect("finished");
            assert!(
                ended <= pair[1].created_at,
                "{player} was in match {} (until {ended}) and match {} (from {}) at once",
                pair[0].id,
                pair[1].id,
                pair[1].created_at
            );
        }
    }

    // The games the stops interrupted went on from their logs, each resumption on its
    // record.
    let mut resumed = 0;
    for summary in &all {
        let record = nodes[0]
            .server
            .hub
            .store
            .match_record(summary.id)
            .await
            .expect("read")
            .expect("the record");
        resumed += usize::from(!record.resumptions.is_empty());
        // Every player was back well within the resume grace: no seat was played by a
        // house bot for them.
        assert!(
            record.stand_ins.is_empty(),
            "match {}: {:?}",
            summary.id,
            record.stand_ins
        );
    }
    println!("{resumed} of {} matches went on after a stop", all.len());
    assert!(resumed > 0, "no match was interrupted");
    for node in nodes {
        node.stop().await;
    }
    drop(database);
}
