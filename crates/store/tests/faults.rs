//! The store on a full disk and behind a database that goes away: every write fails
//! with an error that says it may be retried (`StoreError::is_transient`), nothing
//! half-written is read back as written, and the same store works again once the fault
//! mends, without being reopened.

use crate::common::{new_match, played};
use arbiter_engine::MatchRecord;
use arbiter_store::testing::{FaultProxy, ScratchDatabase, SmallDisk};
use arbiter_store::{MatchId, Store, StoreError};

fn transient<T: std::fmt::Debug>(result: Result<T, StoreError>, what: &str) {
    match result {
        Err(error) => assert!(error.is_transient(), "{what}: {error}"),
        Ok(value) => panic!("{what} succeeded during the fault: {value:?}"),
    }
}

/// An account, and a match with its first log entry stored.
async fn a_match_under_way(store: &Store, seed: u64) -> (MatchRecord, MatchId) {
    store.register("ann", "pw").await.expect("register");
    let record = played("spacegoo", 2, seed);
    let id = store
        .create_match(&new_match(&record, &[], None))
        .await
        .expect("create");
    store
        .append_log(id, 0, &record.log[0])
        .await
        .expect("append");
    (record, id)
}

/// Store the rest of the match's log and finish it.
async fn play_out(store: &Store, id: MatchId, record: &MatchRecord) {
    for (index, entry) in record.log.iter().enumerate().skip(1) {
        store.append_log(id, index, entry).await.expect("append");
    }
    let outcome = record.outcome.as_ref().expect("outcome");
    store
        .finish_match(id, outcome, record.log.len())
        .await
        .expect("finish");
}

/// A full disk: registrations and log entries fail as retryable, no account appears
/// that the caller was told failed (a SQLite `RETURNING` row once came back from an
/// insert whose commit then failed), and freeing space mends everything.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_fails_writes_retryably_and_they_work_once_space_is_freed() {
    let disk = SmallDisk::mount("16m");
    let store = Store::open_data_dir(&disk.path().join("data"))
        .await
        .expect("open");
    let (record, id) = a_match_under_way(&store, 31).await;

    let ballast = disk.fill();
    transient(store.register("bob", "pw").await, "a registration");
    assert_eq!(
        store.account_by_name("bob").await.expect("read"),
        None,
        "an account the store refused exists"
    );
    transient(store.append_log(id, 1, &record.log[1]).await, "a log entry");
    let kept = store.match_record(id).await.expect("read").expect("exists");
    assert_eq!(
        kept.log,
        record.log[..1],
        "the log holds exactly what was stored"
    );

    std::fs::remove_file(&ballast).expect("free the space");
    store
        .register("bob", "pw")
        .await
        .expect("register once space is freed");
    play_out(&store, id, &record).await;
    store.close().await;
}

/// PostgreSQL unreachable (its connections cut, new ones refused, as in a restart):
/// every kind of call fails as retryable, and the same store works again once it is
/// back, its pools reconnecting by themselves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_postgres_fails_calls_retryably_and_the_store_reconnects() {
    let database = ScratchDatabase::create().await;
    let proxy = FaultProxy::in_front_of(&database.url).await;
    let store = Store::connect(&proxy.url_for(&database.url))
        .await
        .expect("connect");
    let (record, id) = a_match_under_way(&store, 32).await;

    proxy.cut();
    transient(store.register("bob", "pw").await, "a registration");
    transient(store.append_log(id, 1, &record.log[1]).await, "a log entry");
    transient(store.match_summary(id).await, "a read");
    let outcome = record.outcome.as_ref().expect("outcome");
    transient(
        store.finish_match(id, outcome, record.log.len()).await,
        "finishing",
    );

    proxy.restore();
    store
        .register("bob", "pw")
        .await
        .expect("register once back");
    play_out(&store, id, &record).await;
    store.close().await;
}
