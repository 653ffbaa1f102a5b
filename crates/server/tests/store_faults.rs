//! Faults in the store while matches run: PostgreSQL unreachable (a restart, a network
//! cut), SQLite locked by another process, the disk full. Each test plays a real match
//! over TCP against a house bot, breaks the store in the middle of it, and checks what
//! players, the API and the stored record show:
//!
//! - a fault that mends within the store patience pauses the match (nobody is told the
//!   move that waits to be stored) and the match then finishes, whole and replayable;
//! - one that outlasts it ends the match with `aborted` and a reason; the stored log
//!   holds exactly the moves the players were told, and once the store is back the match
//!   is marked aborted and new matches play, all without a restart;
//! - requests meanwhile get `store_unavailable`, not a hang or a generic failure.
//!
//! The faults are real: PostgreSQL is reached through a TCP proxy that the test cuts
//! (open connections die, new ones are refused); SQLite's write lock is held by a second
//! connection of the test's own; the disk is a small tmpfs filled by a ballast file.
//! Waits are on events (a message, a failure counted in `/metrics`), never on sleeps.

use std::time::Duration;

use crate::common::{http_get, match_against_a_bot, registered, spectator_replay, until};
use arbiter_server::client::{Connection, Decider, RandomFromView};
use arbiter_store::testing::{FaultProxy, ScratchDatabase, SmallDisk};
use serde_json::{json, Value};
use sqlx::{Connection as _, Executor};

/// One seat of a match, played by a random player from its views.
struct Seat {
    connection: Connection,
    match_id: i64,
    seat: usize,
    decider: RandomFromView,
    view: Option<Value>,
    /// The `step` of the latest view this seat was told.
    step: u64,
}

/// How a seat's wait ended.
#[derive(Debug)]
enum Next {
    /// The seat owes a move.
    Prompt,
    /// The match ended with this `outcome` or `aborted` message.
    End(Value),
}

impl Seat {
    /// `owner` starts a two-seat table of `ruleset` against a random house bot.
    async fn against_a_bot(mut owner: Connection, ruleset: &str) -> Seat {
        let started = match_against_a_bot(&mut owner, ruleset).await;
        let game = arbiter_rulesets::find(ruleset).expect("ruleset").game;
        Seat {
            connection: owner,
            match_id: started["match"].as_i64().expect("a match id"),
            seat: started["seat"].as_u64().expect("a seat") as usize,
            decider: RandomFromView::new(game, started["config"].clone(), 7),
            view: None,
            step: 0,
        }
    }

    /// Read this match's messages until it wants a move or ends.
    async fn next(&mut self) -> Next {
        loop {
            let message = tokio::time::timeout(Duration::from_secs(120), self.connection.recv())
                .await
                .expect("the match goes on")
                .expect("a message");
            if message["match"].as_i64() != Some(self.match_id) {
                continue;
            }
            match message["type"].as_str() {
                Some("view") => {
                    self.step = message["step"].as_u64().expect("a step");
                    self.view = Some(message["view"].clone());
                }
                Some("prompt") => return Next::Prompt,
                // A move gone stale (in a concurrent turn the bot moved first): the
                // seat still owes one, and the referee does not prompt again.
                Some("rejected") => return Next::Prompt,
                Some("outcome" | "aborted") => return Next::End(message),
                _ => {}
            }
        }
    }

    /// Answer the prompt with a random move from the view.
    async fn answer(&mut self) {
        let view = self.view.as_ref().expect("a view before a prompt");
        let action = self.decider.decide(view, self.seat).expect("a move");
        self.connection
            .send(&json!({"type": "act", "match": self.match_id, "action": action}))
            .await
            .expect("send");
    }

    /// Play until the match has logged at least `steps` entries and wants a move.
    async fn play_past(&mut self, steps: u64) {
        loop {
            match self.next().await {
                Next::Prompt if self.step >= steps => return,
                Next::Prompt => self.answer().await,
                Next::End(end) => panic!("the match ended before step {steps}: {end}"),
            }
        }
    }

    /// Play to the end: the `outcome` or `aborted` message.
    async fn play_out(&mut self) -> Value {
        loop {
            match self.next().await {
                Next::Prompt => self.answer().await,
                Next::End(end) => return end,
            }
        }
    }
}

/// `arbiter_store_failures_total` in `/metrics` (kept in memory, so it answers while
/// the store is down).
async fn store_failures(http: &str) -> u64 {
    let (status, metrics) = http_get(http, "/metrics", None).await;
    assert_eq!(status, 200, "{metrics}");
    let text = metrics.as_str().unwrap_or_default();
    text.lines()
        .find_map(|line| line.strip_prefix("arbiter_store_failures_total "))
        .and_then(|count| count.trim().parse().ok())
        .unwrap_or_else(|| panic!("no store failure counter in:\n{text}"))
}

/// Wait until the store has failed more than `before` times: the fault has bitten.
async fn until_the_store_fails(http: &str, before: u64) {
    for _ in 0..600 {
        if store_failures(http).await > before {
            return;
        }
        // Polling a counter: there is no push for it.
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the store never failed");
}

/// Poll `GET /api/matches/{id}` until `check` accepts it (the store came back).
async fn until_stored(http: &str, id: i64, check: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..600 {
        let (status, body) = http_get(http, &format!("/api/matches/{id}"), None).await;
        if status == 200 && check(&body) {
            return body;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("match {id} never reached the expected state");
}

/// A registration on a fresh connection while the store is down: `store_unavailable`.
async fn registration_is_refused_clearly(tcp: &str, name: &str) {
    let mut connection = Connection::connect(tcp).await.expect("connect");
    connection
        .send(&json!({"type": "register", "name": name, "password": "pw-secret"}))
        .await
        .expect("send");
    let reply = until(&mut connection, 60, |m| {
        matches!(m["type"].as_str(), Some("registered" | "error"))
    })
    .await;
    assert_eq!(reply["code"], "store_unavailable", "{reply}");
}

/// The match as stored: finished, every move the players saw in its log, and a replay
/// that verifies every digest.
async fn assert_finished_whole(http: &str, seat: &Seat, outcome: &Value) {
    assert_eq!(outcome["type"], "outcome", "{outcome}");
    let stored = until_stored(http, seat.match_id, |m| m["status"] != "running").await;
    assert_eq!(stored["status"], "finished", "{stored}");
    assert_eq!(stored["moves"].as_u64(), Some(seat.step), "{stored}");
    let replay = spectator_replay(http, seat.match_id).await;
    assert_eq!(
        replay["steps"].as_array().map(Vec::len),
        Some(seat.step as usize + 1),
        "a view before the first move and after each"
    );
}

/// PostgreSQL goes away in mid-match (what a restart or a network cut looks like from
/// here) and comes back within the patience: the match waits, then finishes whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_outage_pauses_a_match_which_then_finishes_whole() {
    let database = ScratchDatabase::create().await;
    let proxy = FaultProxy::in_front_of(&database.url).await;
    let url = proxy.url_for(&database.url);
    let server = crate::common::start(|config| config.database_url = url).await;
    let owner = registered(&server.tcp, "ann").await;
    let mut seat = Seat::against_a_bot(owner, "spacegoo").await;
    seat.play_past(4).await;

    let failures = store_failures(&server.http).await;
    proxy.cut();
    seat.answer().await;
    until_the_store_fails(&server.http, failures).await;
    registration_is_refused_clearly(&server.tcp, "bob").await;
    proxy.restore();

    let outcome = seat.play_out().await;
    assert_finished_whole(&server.http, &seat, &outcome).await;
    registered(&server.tcp, "bob").await;
    server.stop().await;
}

/// PostgreSQL stays away past the patience: the match is aborted with a reason, its
/// stored log is exactly what the players were told, and once PostgreSQL is back the
/// match is marked aborted and new matches play, with no restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_outage_past_the_patience_aborts_the_match_and_the_server_recovers() {
    let database = ScratchDatabase::create().await;
    let proxy = FaultProxy::in_front_of(&database.url).await;
    let url = proxy.url_for(&database.url);
    let server = crate::common::start(|config| {
        config.database_url = url;
        config.store_patience = Duration::from_secs(2);
    })
    .await;
    let owner = registered(&server.tcp, "ann").await;
    let mut seat = Seat::against_a_bot(owner, "tae").await;
    seat.play_past(3).await;

    proxy.cut();
    seat.answer().await;
    let end = seat.play_out().await;
    assert_eq!(end["type"], "aborted", "{end}");
    let reason = end["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains("could not be recorded") && reason.contains("database"),
        "{reason}"
    );
    // Everything told is stored, and nothing more (checked below, once it is back).
    let told = seat.step;
    let (status, body) = http_get(
        &server.http,
        &format!("/api/matches/{}", seat.match_id),
        None,
    )
    .await;
    assert_eq!(
        (status, &body["error"]),
        (503, &json!("store_unavailable")),
        "{body}"
    );

    proxy.restore();
    let stored = until_stored(&server.http, seat.match_id, |m| m["status"] == "aborted").await;
    assert_eq!(stored["moves"].as_u64(), Some(told), "{stored}");
    assert!(
        stored["summary"]
            .as_str()
            .unwrap_or_default()
            .contains("could not be recorded"),
        "{stored}"
    );
    let replay = spectator_replay(&server.http, seat.match_id).await;
    assert_eq!(
        replay["steps"].as_array().map(Vec::len),
        Some(told as usize + 1)
    );

    // The same server plays on.
    let again = Connection::connect(&server.tcp).await.expect("connect");
    let mut again = {
        let mut connection = again;
        connection
            .login_or_register("ann", &crate::common::password("ann"))
            .await
            .expect("log in again");
        Seat::against_a_bot(connection, "spacegoo").await
    };
    let outcome = again.play_out().await;
    assert_finished_whole(&server.http, &again, &outcome).await;
    server.stop().await;
}

/// Another process holds SQLite's write lock longer than the busy timeout: the match
/// waits for it, then finishes whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_locked_sqlite_database_pauses_a_match_which_then_finishes_whole() {
    // SQLite whatever store the suite runs on (ARBITER_TEST_DATABASE).
    let server = crate::common::start(|config| {
        config.database_url = arbiter_server::config::sqlite_url(&config.data_dir);
    })
    .await;
    let owner = registered(&server.tcp, "ann").await;
    let mut seat = Seat::against_a_bot(owner, "spacecrack").await;
    seat.play_past(4).await;

    let file = server.server.data_dir.join(arbiter_store::DATABASE_FILE);
    let mut locker = sqlx::SqliteConnection::connect(&format!("sqlite://{}", file.display()))
        .await
        .expect("a second connection");
    locker
        .execute("BEGIN IMMEDIATE")
        .await
        .expect("take the write lock");
    let failures = store_failures(&server.http).await;
    seat.answer().await;
    until_the_store_fails(&server.http, failures).await;
    locker.execute("ROLLBACK").await.expect("release the lock");
    locker.close().await.expect("close");

    let outcome = seat.play_out().await;
    assert_finished_whole(&server.http, &seat, &outcome).await;
    server.stop().await;
}

/// The disk fills in mid-match: the match waits, registrations are refused clearly, and
/// once space is freed the match finishes whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_pauses_a_match_which_then_finishes_whole() {
    let disk = SmallDisk::mount("32m");
    let data = disk.path().join("data");
    let server = crate::common::start(|config| {
        *config = arbiter_server::Config {
            pairing_interval: config.pairing_interval,
            ..arbiter_server::Config::for_data_dir(&data)
        };
    })
    .await;
    let owner = registered(&server.tcp, "ann").await;
    let mut seat = Seat::against_a_bot(owner, "spacegoo").await;
    seat.play_past(4).await;

    let ballast = disk.fill();
    let failures = store_failures(&server.http).await;
    seat.answer().await;
    until_the_store_fails(&server.http, failures).await;
    registration_is_refused_clearly(&server.tcp, "bob").await;
    std::fs::remove_file(&ballast).expect("free the space");

    let outcome = seat.play_out().await;
    assert_finished_whole(&server.http, &seat, &outcome).await;
    registered(&server.tcp, "bob").await;
    server.stop().await;
}
