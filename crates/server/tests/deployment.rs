//! Two nodes of one deployment on loopback: one PostgreSQL database, one NATS server
//! (both real: the machine's own). Players connected to different nodes meet through
//! the one queue and finish a game of every ruleset, and a spectator connected to the
//! node that does not run the match sees exactly what a replay of it shows.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use crate::common::*;
use arbiter_qgame_course::actors::{ActorLevel, ActorSpec};
use arbiter_qgame_course::remote::client::{run_client, ClientEnd, ClientKind};
use arbiter_qgame_course::remote::SessionEnd;
use arbiter_server::client::{bot, BotPlan, Connection, Decider, DeciderFactory, Games};
use arbiter_server::mesh::asks::Ask;
use arbiter_server::mesh::link::NOT_MATCHMAKER;
use arbiter_server::{Config, Server};
use serde_json::{json, Value};
use tokio::sync::watch;

/// `resigner` resigns `match_id`; it and `opponent` are both told the outcome, and
/// `http` (any node) serves the match as finished.
pub(crate) async fn resign_and_see_it_finish(
    mut resigner: Connection,
    mut opponent: Connection,
    http: &str,
    match_id: i64,
) {
    resigner
        .send(&json!({"type": "resign", "match": match_id}))
        .await
        .expect("send");
    for player in [&mut resigner, &mut opponent] {
        let outcome = until(player, 10, |m| m["type"] == "outcome").await;
        assert_eq!(outcome["match"], match_id, "{outcome}");
    }
    let finished = finished_match(http, match_id).await;
    assert_eq!(finished["status"], "finished", "{finished}");
}

/// Two servers sharing `database` and NATS: "alpha-…" and "beta-…", named apart from
/// the nodes of the other tests running at the same time on the same NATS server.
/// Alpha sorts first, so it is the matchmaker.
async fn two_nodes(database: &str, nats: &str) -> (TestServer, TestServer) {
    two_nodes_with_lease(database, nats, Duration::from_secs(30)).await
}

async fn two_nodes_with_lease(
    database: &str,
    nats: &str,
    lease: Duration,
) -> (TestServer, TestServer) {
    two_nodes_with(database, nats, lease, |_| {}).await
}

/// [`two_nodes_with_lease`], each node's configuration also changed by `tweak`.
pub(crate) async fn two_nodes_with(
    database: &str,
    nats: &str,
    lease: Duration,
    tweak: fn(&mut Config),
) -> (TestServer, TestServer) {
    let mut nodes = nodes_named(&["alpha", "beta"], database, nats, lease, tweak).await;
    let beta = nodes.pop().expect("beta");
    let alpha = nodes.pop().expect("alpha");
    (alpha, beta)
}

/// Servers named after `names` (each with a tag of this run, apart from the nodes of
/// the other tests on the same NATS server), sharing `database` and NATS, started in
/// that order; each node's configuration changed by `tweak`.
pub(crate) async fn nodes_named(
    names: &[&str],
    database: &str,
    nats: &str,
    lease: Duration,
    tweak: fn(&mut Config),
) -> Vec<TestServer> {
    static DEPLOYMENT: AtomicU32 = AtomicU32::new(0);
    let tag = format!(
        "{}-{}",
        std::process::id(),
        DEPLOYMENT.fetch_add(1, Ordering::Relaxed)
    );
    let mut nodes = Vec::with_capacity(names.len());
    for name in names {
        let (database, nats) = (database.to_string(), nats.to_string());
        let name = format!("{name}-{tag}");
        nodes.push(
            start(move |config: &mut Config| {
                config.database_url = database;
                config.node = name;
                config.nats = Some(nats);
                config.node_lease = lease;
                tweak(config);
            })
            .await,
        );
    }
    nodes
}

/// A decider that waits, before its first decision, until `gate`'s sender is dropped:
/// the match cannot end before the test is ready to watch it.
struct Gated {
    inner: Box<dyn Decider>,
    gate: Option<mpsc::Receiver<()>>,
}

impl Decider for Gated {
    fn decide(&mut self, view: &Value, seat: usize) -> Result<Value, String> {
        if let Some(gate) = self.gate.take() {
            // Returns once the sender is gone.
            let _ = gate.recv();
        }
        self.inner.decide(view, seat)
    }

    fn thinks(&self) -> bool {
        // On the blocking pool, where waiting on the gate blocks nothing else.
        true
    }
}

pub(crate) fn gated(ruleset: &str, gate: mpsc::Receiver<()>) -> DeciderFactory {
    let mut players = random_players(ruleset);
    let mut gate = Some(gate);
    Box::new(move |config: &Value, seed: u64| {
        let inner = players(config, seed)?;
        Ok(Box::new(Gated {
            inner,
            gate: gate.take(),
        }) as Box<dyn Decider>)
    })
}

fn plan(server: &str, ruleset: &str, name: &str) -> BotPlan {
    BotPlan {
        session: None,
        server: server.to_string(),
        ruleset: ruleset.to_string(),
        name: name.to_string(),
        password: password(name),
        games: Games::Exactly(1),
        config: Value::Null,
        seats: Some(2),
        reconnect_for: std::time::Duration::ZERO,
        queue_wait: None,
    }
}

/// The running match of `ruleset` as the shared store lists it (from either node).
async fn running_match(http: &str, ruleset: &str) -> Value {
    for _ in 0..500 {
        let (status, list) = http_get(
            http,
            &format!("/api/matches?status=running&ruleset={ruleset}"),
            None,
        )
        .await;
        assert_eq!(status, 200, "{list}");
        if let Some(found) = list["matches"].get(0) {
            return found.clone();
        }
        // Polling the shared store for a condition, not ordering: up to 10 s in all.
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("no running {ruleset} match appeared");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_on_two_nodes_meet_finish_every_ruleset_and_are_watched_from_either() {
    let database = arbiter_store::testing::ScratchDatabase::create().await;
    let nats = nats_url().await;
    let (alpha, beta) = two_nodes(&database.url, &nats).await;

    for ruleset in ["spacegoo", "tae", "qgame", "spacecrack"] {
        // One player on each node; the one on beta waits for the spectator.
        let (open_gate, gate) = mpsc::channel::<()>();
        let on_alpha = tokio::spawn({
            let plan = plan(&alpha.tcp, ruleset, &format!("{ruleset}-a"));
            async move { bot::play(&plan, random_players(&plan.ruleset)).await }
        });
        let on_beta = tokio::spawn({
            let plan = plan(&beta.tcp, ruleset, &format!("{ruleset}-b"));
            let players = gated(ruleset, gate);
            async move { bot::play(&plan, players).await }
        });

        // The match runs on one node; the spectator connects to the other.
        let running = running_match(&beta.http, ruleset).await;
        let match_id = running["id"].as_i64().expect("an id");
        let runs_on = running["node"].as_str().expect("a node").to_string();
        let elsewhere = if runs_on == alpha.server.hub.config.node {
            &beta
        } else {
            &alpha
        };
        let mut watcher = registered(&elsewhere.tcp, &format!("{ruleset}-w")).await;
        // The other node lists it among the live matches.
        watcher
            .send(&json!({"type": "matches"}))
            .await
            .expect("send");
        let listed = until(&mut watcher, 10, |m| m["type"] == "matches").await;
        assert!(
            listed["matches"]
                .as_array()
                .is_some_and(|l| l.iter().any(|m| m["match"] == match_id)),
            "{listed}"
        );
        watcher
            .send(&json!({"type": "spectate", "match": match_id}))
            .await
            .expect("send");
        let spectating = until(&mut watcher, 10, |m| {
            m["type"] == "spectating" || m["type"] == "error"
        })
        .await;
        assert_eq!(spectating["type"], "spectating", "{spectating}");
        drop(open_gate);

        // Every line of the match, to its outcome.
        let mut views: Vec<(u64, Value)> = Vec::new();
        let outcome = tokio::time::timeout(Duration::from_secs(120), async {
            loop {
                let message = watcher.recv().await.expect("a line");
                match message["type"].as_str() {
                    Some("view") => {
                        assert_eq!(message["match"], match_id, "{message}");
                        let step = message["step"].as_u64().expect("a step");
                        views.push((step, message["view"].clone()));
                    }
                    Some("outcome" | "aborted") => return message,
                    _ => {}
                }
            }
        })
        .await
        .expect("the match ended in time");
        assert_eq!(outcome["type"], "outcome", "{outcome}");

        let (a, b) = (
            on_alpha.await.expect("joined").expect("alpha's player"),
            on_beta.await.expect("joined").expect("beta's player"),
        );
        assert_eq!(a.games.len(), 1, "{ruleset}: {a:?}");
        assert_eq!(b.games.len(), 1, "{ruleset}: {b:?}");
        assert_eq!(a.games[0].match_id, match_id);
        assert_eq!(b.games[0].match_id, match_id);
        assert_ne!(a.games[0].seat, b.games[0].seat);

        let finished = finished_match(&alpha.http, match_id).await;
        assert_eq!(finished["status"], "finished", "{finished}");
        assert_eq!(finished["node"], runs_on.as_str(), "{finished}");

        // What the spectator on the other node saw is what the replay shows, step for
        // step, to the last.
        let replay = spectator_replay(&elsewhere.http, match_id).await;
        let steps = replay["steps"].as_array().expect("steps");
        assert!(!views.is_empty(), "{ruleset}: the spectator saw no view");
        for (step, view) in &views {
            assert_eq!(
                Some(view),
                steps.get(*step as usize).map(|s| &s["view"]),
                "{ruleset}: the view at step {step}"
            );
        }
        // A view is sent when it changes, so the last one sent is the final one.
        assert_eq!(
            views.last().map(|(_, view)| view),
            steps.last().map(|s| &s["view"]),
            "{ruleset}: the spectator saw the end"
        );
        assert!(
            views.windows(2).all(|w| w[0].0 < w[1].0),
            "{ruleset}: views in order"
        );
    }
    beta.stop().await;
    alpha.stop().await;
    drop(database);
}

/// A table opened on one node is listed and filled from the other; the match it
/// becomes reaches both players.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_opened_on_one_node_is_filled_from_the_other() {
    let database = arbiter_store::testing::ScratchDatabase::create().await;
    let nats = nats_url().await;
    let (alpha, beta) = two_nodes(&database.url, &nats).await;

    let mut owner = registered(&beta.tcp, "table-owner").await;
    owner
        .send(&json!({"type": "create_table", "ruleset": "tae", "seats": 2}))
        .await
        .expect("send");
    let table = until(&mut owner, 10, |m| {
        m["type"] == "table" || m["type"] == "error"
    })
    .await;
    assert_eq!(table["type"], "table", "{table}");
    let id = table["table"].as_u64().expect("a table id");

    let mut guest = registered(&alpha.tcp, "table-guest").await;
    guest.send(&json!({"type": "tables"})).await.expect("send");
    let listed = until(&mut guest, 10, |m| m["type"] == "tables").await;
    assert!(
        listed["tables"]
            .as_array()
            .is_some_and(|t| t.iter().any(|t| t["table"] == id)),
        "{listed}"
    );
    guest
        .send(&json!({"type": "join_table", "table": id}))
        .await
        .expect("send");
    let full = until(&mut owner, 10, |m| {
        m["type"] == "table" && m["seats"][1]["player"] == "table-guest"
    })
    .await;
    assert_eq!(full["owner"], "table-owner", "{full}");

    owner
        .send(&json!({"type": "start_table", "table": id}))
        .await
        .expect("send");
    let started_owner = until(&mut owner, 10, |m| m["type"] == "match_started").await;
    let started_guest = until(&mut guest, 10, |m| m["type"] == "match_started").await;
    let match_id = started_owner["match"].as_i64().expect("a match");
    assert_eq!(started_guest["match"], match_id);
    assert_eq!(started_owner["seat"], 0);
    assert_eq!(started_guest["seat"], 1);

    // Both play it: the guest resigns, and both are told the outcome.
    resign_and_see_it_finish(guest, owner, &beta.http, match_id).await;
    beta.stop().await;
    alpha.stop().await;
    drop(database);
}

/// Two fresh players, each on its node, queue for T&E, the first once its place is
/// confirmed, and are paired with each other: both connections and the match's id.
async fn paired_across(
    (first_node, first_name): (&TestServer, &str),
    (second_node, second_name): (&TestServer, &str),
) -> (Connection, Connection, i64) {
    let mut first = registered(&first_node.tcp, first_name).await;
    first
        .send(&json!({"type": "queue", "ruleset": "tae"}))
        .await
        .expect("send");
    let queued = until(&mut first, 10, |m| {
        m["type"] == "queued" || m["type"] == "error"
    })
    .await;
    assert_eq!(queued["type"], "queued", "{queued}");
    let mut second = registered(&second_node.tcp, second_name).await;
    second
        .send(&json!({"type": "queue", "ruleset": "tae"}))
        .await
        .expect("send");
    let started = until(&mut first, 10, |m| m["type"] == "match_started").await;
    let match_id = started["match"].as_i64().expect("a match");
    let other = until(&mut second, 10, |m| m["type"] == "match_started").await;
    assert_eq!(other["match"], match_id);
    (first, second, match_id)
}

/// The matchmaker (alpha) pairs players of both nodes, and the match runs on the node
/// of the player who queued first: matches spread over the deployment with their
/// players instead of all running on the matchmaker.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paired_match_runs_on_its_first_players_node() {
    let database = arbiter_store::testing::ScratchDatabase::create().await;
    let nats = nats_url().await;
    let (alpha, beta) = two_nodes(&database.url, &nats).await;

    let (first, second, match_id) =
        paired_across((&beta, "queue-first"), (&alpha, "queue-second")).await;
    let (_, running) = http_get(&alpha.http, &format!("/api/matches/{match_id}"), None).await;
    assert_eq!(
        running["node"],
        beta.server.hub.config.node.as_str(),
        "{running}"
    );
    // The first player's queue place (held on alpha, the matchmaker) became this match
    // on beta: beta forgets it, so that losing alpha would not queue them again into a
    // second match (issue 69: it did).
    let account = beta
        .server
        .hub
        .store
        .account_by_name("queue-first")
        .await
        .expect("read")
        .expect("the account");
    let conn = beta
        .server
        .hub
        .online
        .latest(account.id)
        .expect("online on beta")
        .conn();
    let mesh = beta.server.hub.mesh.as_ref().expect("a deployment");
    assert_eq!(
        mesh.queue_away(conn),
        None,
        "no queue place is left on alpha"
    );

    // The player on alpha plays it through beta: its resignation ends it for both.
    resign_and_see_it_finish(second, first, &alpha.http, match_id).await;
    beta.stop().await;
    alpha.stop().await;
    drop(database);
}

/// A node that restarted answers to its old name, as the youngest node now, so it is no
/// longer the matchmaker: a queue place asked of it by a node that looked before the
/// restart is refused (`not_matchmaker`), and the asking node looks again and queues
/// its player on the matchmaker now, where the next player meets them (issue 69: two
/// players could each wait for ever on a node that took itself for the matchmaker).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_matchmaker_refuses_the_places_it_no_longer_holds() {
    let database = arbiter_store::testing::ScratchDatabase::create().await;
    let nats = nats_url().await;
    let (alpha, beta) = two_nodes(&database.url, &nats).await;

    // Beta looks up the matchmaker (alpha) for a player who queues there and leaves.
    let mut early = registered(&beta.tcp, "mm-early").await;
    for request in [
        json!({"type": "queue", "ruleset": "tae"}),
        json!({"type": "leave_queue"}),
    ] {
        early.send(&request).await.expect("send");
        let answer = until(&mut early, 10, |m| {
            ["queued", "left_queue", "error"].contains(&m["type"].as_str().unwrap_or(""))
        })
        .await;
        assert_ne!(answer["type"], "error", "{answer}");
    }
    let alpha = alpha.restart().await;

    // Asked as a node whose view predates the restart asks: refused, nothing held.
    let mesh = beta.server.hub.mesh.as_ref().expect("a deployment");
    let ask = Ask::Queue {
        from: mesh.remote(1),
        account: 1,
        name: "mm-early".into(),
        ruleset: "tae".into(),
        config: Value::Null,
        seats: None,
    };
    let refused = mesh
        .ask(&alpha.server.hub.config.node, &ask)
        .await
        .expect_err("a restarted node is not the matchmaker");
    assert_eq!(refused.code, NOT_MATCHMAKER, "{}", refused.message);

    // A player of each node meets the other: both queue on beta.
    let (first, second, match_id) = paired_across((&beta, "mm-first"), (&alpha, "mm-second")).await;
    resign_and_see_it_finish(second, first, &beta.http, match_id).await;
    alpha.stop().await;
    beta.stop().await;
    drop(database);
}

/// The node holding the deployment's queue dies with a player of another node waiting
/// there: once its lease runs out, that place is asked again of the next matchmaker
/// (here the player's own node), and the player is matched with the next one to queue.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_queue_place_outlives_the_node_that_held_it() {
    let database = arbiter_store::testing::ScratchDatabase::create().await;
    let nats = nats_url().await;
    let (alpha, beta) = two_nodes_with_lease(&database.url, &nats, Duration::from_secs(2)).await;

    let mut waiting = registered(&beta.tcp, "waits-long").await;
    waiting
        .send(&json!({"type": "queue", "ruleset": "tae"}))
        .await
        .expect("send");
    let queued = until(&mut waiting, 10, |m| {
        m["type"] == "queued" || m["type"] == "error"
    })
    .await;
    assert_eq!(queued["type"], "queued", "{queued}");

    // Alpha, the matchmaker, goes; its heartbeat stops.
    alpha.stop().await;
    let again = until(&mut waiting, 20, |m| {
        m["type"] == "queued" || m["type"] == "error"
    })
    .await;
    assert_eq!(again["type"], "queued", "queued again on beta: {again}");

    let mut next = registered(&beta.tcp, "comes-later").await;
    next.send(&json!({"type": "queue", "ruleset": "tae"}))
        .await
        .expect("send");
    let started = until(&mut waiting, 10, |m| m["type"] == "match_started").await;
    let other = until(&mut next, 10, |m| m["type"] == "match_started").await;
    assert_eq!(started["match"], other["match"]);
    beta.stop().await;
    drop(database);
}

/// The node holding the deployment's tables dies with a player of another node sitting
/// at one: once its lease runs out, the player is told the table closed (and why), and
/// a table opened again is held by the next matchmaker (here the player's own node).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_at_a_table_of_a_dead_node_is_told_it_closed() {
    let database = arbiter_store::testing::ScratchDatabase::create().await;
    let nats = nats_url().await;
    let (alpha, beta) = two_nodes_with_lease(&database.url, &nats, Duration::from_secs(2)).await;

    let mut owner = registered(&beta.tcp, "sits-waiting").await;
    let create = json!({"type": "create_table", "ruleset": "tae", "seats": 2});
    owner.send(&create).await.expect("send");
    let table = until(&mut owner, 10, |m| {
        m["type"] == "table" || m["type"] == "error"
    })
    .await;
    assert_eq!(table["type"], "table", "{table}");
    let id = table["table"].as_u64().expect("a table id");

    // Alpha, the matchmaker holding the table, goes; its heartbeat stops.
    alpha.stop().await;
    let closed = until(&mut owner, 20, |m| m["type"] == "table_closed").await;
    assert_eq!(closed["table"], id, "{closed}");
    assert!(
        closed["reason"]
            .as_str()
            .is_some_and(|r| r.contains("stopped")),
        "{closed}"
    );

    // Beta holds the tables now: a table opened again is listed there.
    owner.send(&create).await.expect("send");
    let again = until(&mut owner, 10, |m| {
        m["type"] == "table" || m["type"] == "error"
    })
    .await;
    assert_eq!(again["type"], "table", "{again}");
    assert_eq!(
        beta.server.hub.tables.list().len(),
        1,
        "the new table is held on beta"
    );
    beta.stop().await;
    drop(database);
}

/// Until `server` counts `count` connections from `address` (polling: the count moves
/// on the server's own tasks). Up to 10 s.
async fn until_held(server: &TestServer, address: &str, count: usize) {
    let address = address.parse().expect("address");
    for _ in 0..500 {
        if server.server.hub.addresses.held(address) == count {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let held = server.server.hub.addresses.held(address);
    let node = &server.server.hub.config.node;
    panic!("{address} holds {held} connections on {node}, not {count}");
}

/// A node is among the deployment's live nodes as soon as it has started, not from its
/// heartbeat task's first turn: a node the others cannot see yet takes itself for the
/// matchmaker, and a port client reaching it then waits in a lobby of its own. On one
/// thread, as here, that task has not run when `start` returns.
#[tokio::test]
async fn a_started_node_is_live_at_once_and_the_next_defers_to_it() {
    let database = arbiter_store::testing::ScratchDatabase::create().await;
    let nats = nats_url().await;
    let (alpha, beta) = two_nodes(&database.url, &nats).await;
    let hub = &beta.server.hub;
    let live = hub
        .store
        .live_nodes(Duration::from_secs(30))
        .await
        .expect("the live nodes");
    let names: Vec<&str> = live.iter().map(|node| node.name.as_str()).collect();
    assert_eq!(
        names,
        [
            alpha.server.hub.config.node.as_str(),
            hub.config.node.as_str()
        ]
    );
    let mesh = hub.mesh.as_ref().expect("a node of a deployment");
    let lobby = mesh.matchmaker(&hub.store).await.expect("a matchmaker");
    assert_eq!(lobby.name, alpha.server.hub.config.node);
    beta.stop().await;
    alpha.stop().await;
    drop(database);
}

/// Spacegoo clients of the reference protocol, connected to different nodes, wait in
/// the deployment's one lobby and play each other: the one on beta is carried to alpha
/// (which holds the lobby), where the port counts the client's own address, not the
/// node's. Both see the whole game and the same replay link, and the match is stored
/// as alpha's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spacegoo_port_clients_of_two_nodes_meet_in_one_lobby() {
    let database = arbiter_store::testing::ScratchDatabase::create().await;
    let nats = nats_url().await;
    let (alpha, beta) = two_nodes_with(&database.url, &nats, Duration::from_secs(30), |c| {
        c.spacegoo = Some("127.0.0.1:0".to_string());
    })
    .await;
    let (go, ready) = watch::channel(false);
    let on_beta = tokio::spawn(spacegoo_nop_client_from(
        beta.spacegoo_port(),
        "127.0.0.2",
        "goo-beta",
        ready.clone(),
    ));
    let on_alpha = tokio::spawn(spacegoo_nop_client_from(
        alpha.spacegoo_port(),
        "127.0.0.3",
        "goo-alpha",
        ready,
    ));
    // Paired on alpha, the beta client counted there (and on beta, where it connected)
    // by its own address.
    let running = running_match(&beta.http, "spacegoo").await;
    assert_eq!(
        running["node"],
        alpha.server.hub.config.node.as_str(),
        "{running}"
    );
    until_held(&alpha, "127.0.0.2", 1).await;
    until_held(&beta, "127.0.0.2", 1).await;
    until_held(&alpha, "127.0.0.3", 1).await;
    for node in [&alpha, &beta] {
        let (status, metrics) = http_get(&node.http, "/metrics", None).await;
        assert_eq!(status, 200);
        let metrics = metrics.as_str().unwrap_or_default();
        assert!(
            metrics.lines().any(|l| l == "arbiter_tunnels_open 1"),
            "one tunnel end on each node:\n{metrics}"
        );
    }
    go.send_replace(true);

    let match_id = running["id"].as_i64().expect("an id");
    for lines in [
        on_beta.await.expect("beta client"),
        on_alpha.await.expect("alpha client"),
    ] {
        assert!(lines[0].starts_with("welcome"), "{lines:?}");
        assert_spacegoo_game_ended(&lines, match_id);
    }
    let finished = finished_match(&beta.http, match_id).await;
    assert_eq!(finished["status"], "finished", "{finished}");
    // The tunnel closed with its client, at both ends.
    until_held(&alpha, "127.0.0.2", 0).await;
    until_held(&beta, "127.0.0.2", 0).await;
    beta.stop().await;
    alpha.stop().await;
    drop(database);
}

/// Q-Game course clients connected to different nodes sign up in the deployment's one
/// lobby (the one on beta is carried to alpha, which holds it) and play one game to
/// the end, each hearing its `win` call; the match is alpha's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn qgame_port_clients_of_two_nodes_meet_in_one_lobby() {
    let database = arbiter_store::testing::ScratchDatabase::create().await;
    let nats = nats_url().await;
    let (alpha, beta) = two_nodes_with(&database.url, &nats, Duration::from_secs(30), |c| {
        c.qgame = Some("127.0.0.1:0".to_string());
        c.qgame_port.signup_period = Duration::from_secs(1);
    })
    .await;
    let mut clients = Vec::new();
    for (node, name, strategy) in [(&beta, "ann", "dag"), (&alpha, "bob", "ldasg")] {
        let port = node
            .server
            .qgame_addr
            .expect("the Q-Game port is on")
            .port();
        let spec = ActorSpec::parse(&json!([name, strategy]), ActorLevel::Loops).expect("a JActor");
        let kind = ClientKind::Player(spec);
        // A thread of its own, not the runtime's blocking pool: should the clients
        // never be matched, the test fails at its time limit instead of waiting on them.
        let (done, end) = tokio::sync::oneshot::channel();
        std::thread::spawn(move || done.send(run_client("127.0.0.1", port, &kind).end));
        clients.push(end);
    }
    for client in clients {
        let end = tokio::time::timeout(Duration::from_secs(60), client)
            .await
            .expect("the game ends within a minute")
            .expect("client thread");
        assert!(
            matches!(end, ClientEnd::Session(SessionEnd::Finished { .. })),
            "{end:?}"
        );
    }
    let (status, list) = http_get(&beta.http, "/api/matches?ruleset=qgame", None).await;
    assert_eq!(status, 200, "{list}");
    let matches = list["matches"].as_array().expect("a list");
    assert_eq!(matches.len(), 1, "one game for both: {list}");
    let id = matches[0]["id"].as_i64().expect("an id");
    let stored = finished_match(&beta.http, id).await;
    assert_eq!(
        stored["node"],
        alpha.server.hub.config.node.as_str(),
        "{stored}"
    );
    let mut players: Vec<&str> = stored["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .filter_map(|seat| seat["name"].as_str())
        .collect();
    players.sort();
    assert_eq!(players, ["qgame:ann", "qgame:bob"], "{stored}");
    beta.stop().await;
    alpha.stop().await;
    drop(database);
}

/// Tunnel ends the nodes hold now.
fn open_tunnel_ends(nodes: [&TestServer; 2]) -> usize {
    nodes
        .iter()
        .map(|node| node.server.hub.mesh.as_ref().map_or(0, |m| m.tunnels.len()))
        .sum()
}

/// Until neither node holds a tunnel end (polling: ends close on the nodes' own tasks).
/// Up to 10 s.
async fn until_no_tunnels(nodes: [&TestServer; 2]) {
    let open = || open_tunnel_ends(nodes);
    for _ in 0..500 {
        if open() == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("{} tunnel ends still open", open());
}

/// A spacegoo client carried from beta to alpha that floods the port meets the port's
/// own answer to a flood (its line, then the end of the connection), and the tunnel
/// closes at both ends with it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_through_a_tunnel_meets_the_ports_own_bound() {
    let database = arbiter_store::testing::ScratchDatabase::create().await;
    let nats = nats_url().await;
    let (alpha, beta) = two_nodes_with(&database.url, &nats, Duration::from_secs(30), |c| {
        c.spacegoo = Some("127.0.0.1:0".to_string());
    })
    .await;
    let mut flooder = Raw {
        stream: tokio::net::TcpStream::connect(beta.spacegoo_port())
            .await
            .expect("connect"),
        buffer: Vec::new(),
    };
    let welcome = flooder.line(10).await.expect("the port greets the client");
    assert!(welcome.starts_with("welcome"), "{welcome}");
    assert_eq!(
        open_tunnel_ends([&alpha, &beta]),
        2,
        "one tunnel, an end on each node"
    );
    // Far more than the port reads before it gives up on the client: what it has
    // not read is dropped while the client takes in the last lines.
    let flood = "nop\n".repeat(5_000);
    flooder.send(flood.as_bytes()).await.expect("send");
    let mut told = false;
    while let Some(line) = flooder.line(10).await {
        told |= line.starts_with("too many lines");
    }
    assert!(told, "the port's line for a flood came through the tunnel");
    until_no_tunnels([&alpha, &beta]).await;
    beta.stop().await;
    alpha.stop().await;
    drop(database);
}

/// A second server started on the data directory of a running one is refused at once,
/// with an error that names the cause, and the running one's match plays on (a second
/// server that opened the file would mark it aborted). Once the first stops, the
/// directory is free again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_server_on_one_sqlite_data_directory_is_refused() {
    let first = start(|config| {
        config.database_url = arbiter_server::config::sqlite_url(&config.data_dir);
    })
    .await;
    let data_dir = first.dir.path().join("data");
    let mut owner = registered(&first.tcp, "first-owner").await;
    let started = match_against_a_bot(&mut owner, "tae").await;
    let match_id = started["match"].as_i64().expect("a match");

    let refused = match Server::start(Config::for_data_dir(&data_dir)).await {
        Ok(_) => panic!("a second server started on a data directory in use"),
        Err(error) => format!("{error:#}"),
    };
    assert!(
        refused.contains("in use by another Arbiter server") && refused.contains("--data-dir"),
        "{refused}"
    );
    let (_, running) = http_get(&first.http, &format!("/api/matches/{match_id}"), None).await;
    assert_eq!(running["status"], "running", "{running}");

    first.server.shutdown().await;
    let again = Server::start(Config::for_data_dir(&data_dir))
        .await
        .expect("the directory is free once the first server stopped");
    again.shutdown().await;
}

/// Log `name` in again on `tcp` (its node went away); the matches it resumes.
async fn back_on(tcp: &str, name: &str) -> (Connection, Value) {
    let mut connection = Connection::connect(tcp).await.expect("connect");
    connection
        .send(&json!({"type": "login", "name": name, "password": password(name)}))
        .await
        .expect("send");
    let logged_in = until(&mut connection, 10, |m| m["type"] == "logged_in").await;
    (connection, logged_in["resumed"].clone())
}

/// A node that stops in order hands its running match over at once: with a lease of
/// 30 s, the other node goes on with it within seconds (it does not wait for the lease),
/// and both players, one of them connected to the node that stopped, find it there and
/// finish it (issue 69: a graceful stop of a node aborted its matches).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopping_node_hands_its_matches_over_at_once() {
    let database = arbiter_store::testing::ScratchDatabase::create().await;
    let nats = nats_url().await;
    let (alpha, beta) = two_nodes(&database.url, &nats).await;
    let (first, second, match_id) =
        paired_across((&alpha, "handed-first"), (&beta, "handed-second")).await;
    let (_, running) = http_get(&beta.http, &format!("/api/matches/{match_id}"), None).await;
    assert_eq!(
        running["node"],
        alpha.server.hub.config.node.as_str(),
        "{running}"
    );

    alpha.stop().await;
    drop((first, second));
    // Polling the shared store for a condition, not ordering: up to 20 s, less than
    // the lease the node would otherwise have been waited for (30 s).
    let mut moved = Value::Null;
    for _ in 0..400 {
        let (_, now) = http_get(&beta.http, &format!("/api/matches/{match_id}"), None).await;
        moved = now;
        if moved["node"] == beta.server.hub.config.node.as_str() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        moved["node"],
        beta.server.hub.config.node.as_str(),
        "{moved}"
    );
    assert_eq!(moved["status"], "running", "{moved}");
    let (first, resumed) = back_on(&beta.tcp, "handed-first").await;
    assert_eq!(resumed, json!([match_id]));
    let (second, resumed) = back_on(&beta.tcp, "handed-second").await;
    assert_eq!(resumed, json!([match_id]));
    resign_and_see_it_finish(first, second, &beta.http, match_id).await;
    let (status, record) =
        http_get(&beta.http, &format!("/api/matches/{match_id}/record"), None).await;
    assert_eq!(status, 200, "{record}");
    assert_eq!(
        record["resumptions"].as_array().map(Vec::len),
        Some(1),
        "{record}"
    );
    beta.stop().await;
    drop(database);
}
