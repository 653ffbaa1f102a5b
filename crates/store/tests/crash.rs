//! A writer process killed with SIGKILL in the middle of a match loses no account, no
//! finished match and no committed log entry, on both backends.
//!
//! The test binary plays both parts: the parent runs this very test again as a child
//! process (same binary, `--exact` filter, the database URL in an environment
//! variable), lets it write, kills it mid-stream and then reopens the database.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use arbiter_store::{MatchFilter, MatchStatus, RatingSystem, Store};
use common::{new_match, played, store_played};

/// Set in the child: the database URL to write to.
const CHILD_URL: &str = "ARBITER_STORE_CRASH_CHILD_URL";
/// Log entries the parent waits to see committed before it kills the child.
const KILL_AFTER: usize = 25;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_writer_killed_mid_match_loses_nothing() {
    if let Ok(url) = std::env::var(CHILD_URL) {
        return child(&url).await;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!(
        "sqlite://{}",
        dir.path().join(arbiter_store::DATABASE_FILE).display()
    );
    parent("sqlite_writer_killed_mid_match_loses_nothing", &url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_writer_killed_mid_match_loses_nothing() {
    if let Ok(url) = std::env::var(CHILD_URL) {
        return child(&url).await;
    }
    let db = common::postgres().await;
    db.store.close().await;
    parent("postgres_writer_killed_mid_match_loses_nothing", &db.url).await;
}

/// The game the child plays: long enough to be killed in the middle of.
fn long_game() -> arbiter_engine::MatchRecord {
    let record = played("tae", 2, 31);
    assert!(
        record.log.len() > 2 * KILL_AFTER,
        "{} entries",
        record.log.len()
    );
    record
}

/// Write two accounts, a finished rated match, then stream a running match's log,
/// reporting each committed entry on stdout (after `@@ `), until killed.
async fn child(url: &str) {
    let store = Store::connect(url).await.expect("child: open");
    let ann = store
        .register("ann", "pw-ann")
        .await
        .expect("child: register");
    let bob = store
        .register("bob", "pw-bob")
        .await
        .expect("child: register");
    let seats = [Some(ann.id), Some(bob.id)];
    let finished = played("spacegoo", 2, 30);
    let (id, _) = store_played(&store, &finished, &seats, Some(RatingSystem::Elo)).await;
    println!("@@ finished {id}");

    let record = long_game();
    let running = store
        .create_match(&new_match(&record, &seats, None))
        .await
        .expect("child: create");
    println!("@@ running {running}");
    for (index, entry) in record.log.iter().enumerate() {
        store
            .append_log(running, index, entry)
            .await
            .expect("child: append");
        println!("@@ committed {index}");
    }
    // Not reached when the parent kills in time; then wait for the kill.
    tokio::time::sleep(std::time::Duration::from_secs(60)).await;
}

async fn parent(test_name: &str, url: &str) {
    let mut child = Command::new(std::env::current_exe().expect("test binary"))
        .args([test_name, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD_URL, url)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn the writer");
    let stdout = child.stdout.take().expect("child stdout");
    let mut finished_id = None;
    let mut running_id = None;
    let mut committed = None;
    for line in BufReader::new(stdout).lines() {
        let line = line.expect("read child output");
        // The test harness may print on the same line: read from the marker on.
        let Some((_, report)) = line.split_once("@@ ") else {
            continue;
        };
        let mut words = report.split_whitespace();
        let (Some(what), Some(n)) = (
            words.next(),
            words.next().and_then(|n| n.parse::<i64>().ok()),
        ) else {
            continue;
        };
        match what {
            "finished" => finished_id = Some(n),
            "running" => running_id = Some(n),
            "committed" => committed = Some(n as usize),
            _ => {}
        }
        if committed.is_some_and(|c| c >= KILL_AFTER) {
            break;
        }
    }
    // SIGKILL, while the child is still appending.
    child.kill().expect("kill the writer");
    child.wait().expect("reap the writer");
    let finished_id = finished_id.expect("the child finished a match");
    let running_id = running_id.expect("the child started a match");
    let committed = committed.expect("the child committed log entries");

    let store = Store::connect(url).await.expect("reopen after the kill");

    let ann = store.login("ann", "pw-ann").await.expect("ann survived");
    store.login("bob", "pw-bob").await.expect("bob survived");

    let registry = arbiter_rulesets::registry();
    let finished = store
        .match_record(finished_id)
        .await
        .expect("read")
        .expect("the finished match survived");
    assert_eq!(finished, played("spacegoo", 2, 30));
    registry
        .replay(&finished, true)
        .expect("finished match verifies");
    assert_eq!(
        store
            .rating(ann.id, "spacegoo")
            .await
            .expect("read")
            .map(|r| r.games),
        Some(1)
    );

    // The interrupted match is still running, ready to go on from its log.
    let interrupted = store
        .match_summary(running_id)
        .await
        .expect("read")
        .expect("kept");
    assert_eq!(interrupted.status, MatchStatus::Running);
    assert_eq!(
        store.running_matches_of_this_node().await.expect("list"),
        vec![running_id]
    );
    let partial = store
        .match_record(running_id)
        .await
        .expect("read")
        .expect("the interrupted match's log is kept");
    assert!(
        partial.log.len() > committed,
        "every entry reported committed is there: {} stored, entry {committed} reported",
        partial.log.len()
    );
    assert_eq!(partial.log, long_game().log[..partial.log.len()]);
    registry
        .replay(&partial, true)
        .expect("the kept log verifies");
    assert_eq!(
        store
            .list_matches(&MatchFilter::default())
            .await
            .expect("list")
            .len(),
        2
    );
}
