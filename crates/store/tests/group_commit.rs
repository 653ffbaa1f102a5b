//! Log appends of many matches share commits (group commit) on both backends, and
//! nothing about it shows to a caller: every entry comes back in order, each refused
//! entry fails alone with its own error, and a lone entry is written at once.
//!
//! To put chosen entries in one batch without sleeping, a test holds the log's write
//! lock from its own connection, starts every append in order (an append queues its
//! entry when first polled), then releases the lock: the batcher is stuck writing the
//! first rows it took, so the rest queue behind it and go out together.

use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::task::Poll;
use std::time::Duration;

use crate::common::{new_match, played, TestDb};
use arbiter_engine::MatchRecord;
use arbiter_store::{Backend, MatchId, Store, StoreError};
use sqlx::{AnyConnection, Connection, Executor};

/// An append started in a burst.
type PendingAppend<'a> = Pin<Box<dyn Future<Output = Result<(), StoreError>> + Send + 'a>>;

async fn create(store: &Store, record: &MatchRecord) -> MatchId {
    store
        .create_match(&new_match(record, &[], None))
        .await
        .expect("create")
}

async fn log_of(store: &Store, id: MatchId) -> Vec<arbiter_engine::LogEntry> {
    store
        .match_record(id)
        .await
        .expect("read")
        .expect("exists")
        .log
}

/// A connection holding the write lock on `match_log` (after running `also` in the
/// same transaction), until [`burst`] commits it.
async fn hold_the_log(db: &TestDb, also: &[String]) -> AnyConnection {
    let mut held = AnyConnection::connect(&db.url).await.expect("connect");
    let lock: &[&str] = match db.store.backend() {
        Backend::Sqlite => &["BEGIN IMMEDIATE"],
        Backend::Postgres => &["BEGIN", "LOCK TABLE match_log IN EXCLUSIVE MODE"],
    };
    for statement in lock.iter().copied().chain(also.iter().map(String::as_str)) {
        held.execute(statement)
            .await
            .unwrap_or_else(|e| panic!("{statement}: {e}"));
    }
    held
}

/// Start `calls` in order while `held` blocks the log, then release it and wait for
/// every call: all but the first few rows are written in one batch.
///
/// The calls are then driven together, not awaited one after another: a call whose
/// row was refused asks the store why on its one writer connection, and a call left
/// unpolled while it waits for that connection (behind an earlier call awaited
/// first) could leave it waiting past the pool's timeout (CI under load saw
/// `PoolTimedOut` so).
async fn burst<F: Future + Unpin>(mut held: AnyConnection, calls: Vec<F>) -> Vec<F::Output> {
    let mut started = Vec::with_capacity(calls.len());
    for mut call in calls {
        let early = match poll_fn(|cx| Poll::Ready(Pin::new(&mut call).poll(cx))).await {
            Poll::Ready(output) => Some(output),
            Poll::Pending => None,
        };
        started.push((call, early));
    }
    held.execute("COMMIT").await.expect("release the log");
    let _ = held.close().await;
    poll_fn(|cx| {
        let mut all_done = true;
        for (call, output) in started.iter_mut().filter(|(_, output)| output.is_none()) {
            match Pin::new(call).poll(cx) {
                Poll::Ready(done) => *output = Some(done),
                Poll::Pending => all_done = false,
            }
        }
        if all_done {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    })
    .await;
    started
        .into_iter()
        .map(|(_, output)| output.expect("every call finished"))
        .collect()
}

/// Queue `entries` (match, index, entry) with `Store::queue_log` while the log is held,
/// then release it and wait for each to be stored: the batcher takes what was queued
/// when it woke (usually the first alone; under load a few), its write waits for the
/// lock, and it takes the rest together.
pub(crate) async fn queued_while_held(
    db: &TestDb,
    entries: &[(MatchId, usize, &arbiter_engine::LogEntry)],
) -> Vec<Result<(), StoreError>> {
    let held = hold_the_log(db, &[]).await;
    let mut queued = Vec::new();
    for &(id, index, entry) in entries {
        queued.push(db.store.queue_log(id, index, entry).await.expect("queued"));
    }
    let stored = queued.into_iter().map(|entry| Box::pin(entry.stored()));
    burst(held, stored.collect()).await
}

async fn many_matches_appending_at_once_keep_every_entry_in_order(db: &TestDb) {
    const MATCHES: usize = 40;
    const ENTRIES: usize = 30;
    let record = played("tae", 2, 21);
    assert!(record.log.len() >= ENTRIES);
    let mut ids = Vec::new();
    for _ in 0..MATCHES {
        ids.push(create(&db.store, &record).await);
    }
    let writers: Vec<_> = ids
        .iter()
        .map(|&id| {
            let store = db.store.clone();
            let log = record.log[..ENTRIES].to_vec();
            tokio::spawn(async move {
                for (index, entry) in log.iter().enumerate() {
                    store.append_log(id, index, entry).await.expect("append");
                }
            })
        })
        .collect();
    for writer in writers {
        writer.await.expect("writer");
    }
    for id in ids {
        assert_eq!(
            log_of(&db.store, id).await,
            record.log[..ENTRIES],
            "match {id}"
        );
    }
}

async fn refused_entries_fail_alone_in_their_batch(db: &TestDb) {
    let store = &db.store;
    let record = played("spacegoo", 2, 22);
    let (first, second) = (&record.log[0], &record.log[1]);
    let mut running = Vec::new();
    for _ in 0..6 {
        running.push(create(store, &record).await);
    }
    let [lead, a, b, c, d, e] = running[..] else {
        unreachable!("six matches")
    };
    let finished = create(store, &record).await;
    let outcome = record.outcome.as_ref().expect("outcome");
    store
        .finish_match(finished, outcome, 0)
        .await
        .expect("finish");
    let unknown = finished + 1000;
    // Twelve more, so the batch after the lead's passes 16 rows and its statement is
    // padded (21 rows on SQLite, 19 on PostgreSQL, which takes `a`'s and `c`'s second
    // entries in the batch after).
    let mut more = Vec::new();
    for _ in 0..12 {
        more.push(create(store, &record).await);
    }

    let before = store.log_commits().totals();
    let held = hold_the_log(db, &[]).await;
    let mut calls: Vec<PendingAppend<'_>> = vec![
        Box::pin(store.append_log(lead, 0, first)),
        Box::pin(store.append_log(a, 0, first)),
        Box::pin(store.append_log(b, 3, first)),
        Box::pin(store.append_log(c, 0, first)),
        Box::pin(store.append_log(finished, 0, first)),
        Box::pin(store.append_log(d, 0, first)),
        Box::pin(store.append_log(unknown, 0, first)),
        // The same match again: its row waits for the next batch, still in order.
        Box::pin(store.append_log(a, 1, second)),
        Box::pin(store.append_log(e, 0, first)),
        Box::pin(store.append_log(c, 1, second)),
    ];
    for &id in &more {
        calls.push(Box::pin(store.append_log(id, 0, first)));
    }
    let results = burst(held, calls).await;
    for accepted in [0, 1, 3, 5, 7, 8].into_iter().chain(9..22) {
        assert!(results[accepted].is_ok(), "{accepted}: {results:?}");
    }
    assert!(
        matches!(
            results[2],
            Err(StoreError::LogOutOfOrder {
                index: 3,
                expected: 0,
                ..
            })
        ),
        "{results:?}"
    );
    assert!(
        matches!(results[4], Err(StoreError::NotRunning(_))),
        "{results:?}"
    );
    assert!(
        matches!(results[6], Err(StoreError::UnknownMatch(_))),
        "{results:?}"
    );

    // The totals `/metrics` shows: 19 entries stored, by fewer statements than the 22
    // appends (the burst shared one), which took time.
    let after = store.log_commits().totals();
    assert_eq!(after.entries - before.entries, 19, "{before:?} {after:?}");
    let statements = after.commits - before.commits;
    assert!((1..22).contains(&statements), "{before:?} {after:?}");
    assert!(after.busy > before.busy, "{before:?} {after:?}");

    for id in [lead, d, e].into_iter().chain(more) {
        assert_eq!(log_of(store, id).await, record.log[..1]);
    }
    for id in [a, c] {
        assert_eq!(log_of(store, id).await, record.log[..2]);
    }
    assert!(log_of(store, b).await.is_empty());
    assert!(log_of(store, finished).await.is_empty());

    // PostgreSQL shows which transaction wrote a row: the seven rows took at most
    // five. Two statements wait for the lock (the first rows taken, and those taken
    // on the second connection meanwhile); every other row is queued by then, and
    // whichever statement ends first frees a connection for the rest of the burst
    // but for the matches still in the other. `a`'s and `c`'s second entries follow
    // their firsts' statements, one more each at worst.
    if store.backend() == Backend::Postgres {
        let mut conn = AnyConnection::connect(&db.url).await.expect("connect");
        let transactions: i64 = sqlx::query_scalar(&format!(
            "SELECT COUNT(DISTINCT xmin::text) FROM match_log
             WHERE match_id IN ({lead}, {a}, {c}, {d}, {e})"
        ))
        .fetch_one(&mut conn)
        .await
        .expect("count transactions");
        assert!(transactions <= 5, "{transactions} transactions for 7 rows");
    }
}

async fn an_entry_whose_insert_fails_does_not_fail_its_batch(db: &TestDb) {
    let store = &db.store;
    let record = played("spacegoo", 2, 23);
    let entry = &record.log[0];
    let mut ids = Vec::new();
    for _ in 0..4 {
        ids.push(create(store, &record).await);
    }
    let [lead, a, poisoned, c] = ids[..] else {
        unreachable!("four matches")
    };
    // A trigger refuses one match's first entry with an error, which aborts the
    // statement (and, on PostgreSQL, the transaction) holding it.
    let trigger = match store.backend() {
        // SQLite appends to the log's tail, or to the log itself when the commit is
        // light (see the store's `log_tail`).
        Backend::Sqlite => ["match_log_tail", "match_log"]
            .map(|table| {
                format!(
                    "CREATE TRIGGER poison_{table} BEFORE INSERT ON {table}
                     WHEN NEW.match_id = {poisoned} AND NEW.idx = 0
                     BEGIN SELECT RAISE(ABORT, 'poisoned entry'); END"
                )
            })
            .to_vec(),
        Backend::Postgres => vec![
            format!(
                "CREATE FUNCTION poison() RETURNS trigger LANGUAGE plpgsql AS $$
                 BEGIN
                     IF NEW.match_id = {poisoned} AND NEW.idx = 0 THEN
                         RAISE EXCEPTION 'poisoned entry';
                     END IF;
                     RETURN NEW;
                 END $$"
            ),
            "CREATE TRIGGER poison BEFORE INSERT ON match_log
             FOR EACH ROW EXECUTE FUNCTION poison()"
                .to_string(),
        ],
    };
    let held = hold_the_log(db, &trigger).await;
    let results = burst(
        held,
        vec![
            Box::pin(store.append_log(lead, 0, entry)),
            Box::pin(store.append_log(a, 0, entry)),
            Box::pin(store.append_log(poisoned, 0, entry)),
            Box::pin(store.append_log(c, 0, entry)),
            // Queued behind the failing entry (on SQLite in the same batch, where
            // nothing in the statement guards its index): never written past the gap.
            Box::pin(store.append_log(poisoned, 1, &record.log[1])),
        ],
    )
    .await;
    for accepted in [0, 1, 3] {
        assert!(results[accepted].is_ok(), "{accepted}: {results:?}");
    }
    assert!(
        matches!(&results[2], Err(e @ StoreError::Database(_)) if e.to_string().contains("poisoned entry")),
        "{results:?}"
    );
    assert!(
        matches!(
            results[4],
            Err(StoreError::LogOutOfOrder {
                index: 1,
                expected: 0,
                ..
            })
        ),
        "{results:?}"
    );
    for id in [lead, a, c] {
        assert_eq!(log_of(store, id).await, record.log[..1]);
    }
    assert!(log_of(store, poisoned).await.is_empty());
}

/// Entries one caller queues without waiting (a match's sealed round, see
/// `Store::queue_log`) are written in order; on SQLite they share a commit. An entry
/// queued out of order is refused, and so is every later one of its match.
async fn a_matchs_queued_entries_keep_their_order_and_share_a_commit(db: &TestDb) {
    let store = &db.store;
    let record = played("spacegoo", 2, 25);
    let log = &record.log;
    let (steady, broken) = (create(store, &record).await, create(store, &record).await);
    let before = store.log_commits().totals();
    let entries = [
        (steady, 0),
        (steady, 1),
        (broken, 0),
        (steady, 2),
        (broken, 2),
        (broken, 3),
    ]
    .map(|(id, index)| (id, index, &log[index]));
    let results = queued_while_held(db, &entries).await;
    for stored in [0, 1, 2, 3] {
        assert!(results[stored].is_ok(), "{stored}: {results:?}");
    }
    for (refused, index) in [(4, 2), (5, 3)] {
        assert!(
            matches!(
                results[refused],
                Err(StoreError::LogOutOfOrder { index: i, expected: 1, .. }) if i == index
            ),
            "{refused}: {results:?}"
        );
    }
    assert_eq!(log_of(store, steady).await, log[..3]);
    assert_eq!(log_of(store, broken).await, log[..1]);
    // All were queued while the log was held, so SQLite's batcher took what was
    // queued when it woke, waited for the lock, and took the rest as one batch: at
    // most two statements. PostgreSQL's statements hold one row of a match, and two
    // run at once, so a row goes out alone whenever a connection is free: each of the
    // six may have had its own, and the count says nothing here.
    let after = store.log_commits().totals();
    assert_eq!(after.entries - before.entries, 4, "{before:?} {after:?}");
    if store.backend() == Backend::Sqlite {
        let statements = after.commits - before.commits;
        assert!((1..=2).contains(&statements), "{statements} statements");
    }
}

async fn a_lone_append_is_written_at_once(db: &TestDb) {
    let store = &db.store;
    let record = played("spacegoo", 2, 24);
    let id = create(store, &record).await;
    for (index, entry) in record.log[..3].iter().enumerate() {
        // Nothing else is appending: the entry must not wait for company. The bound
        // only turns a hang into a failure.
        tokio::time::timeout(Duration::from_secs(30), store.append_log(id, index, entry))
            .await
            .expect("a lone append completes")
            .expect("append");
        // Committed on return: another connection reads it.
        assert_eq!(log_of(store, id).await, record.log[..=index]);
    }
}

on_both_backends!(
    many_matches_appending_at_once_keep_every_entry_in_order,
    refused_entries_fail_alone_in_their_batch,
    an_entry_whose_insert_fails_does_not_fail_its_batch,
    a_matchs_queued_entries_keep_their_order_and_share_a_commit,
    a_lone_append_is_written_at_once,
);

/// SQLite's WAL, checkpointed beside the writer while log entries are committed one by
/// one, is started again from its beginning again and again: it stays bounded. 4,000
/// light commits (each into its match's page of `match_log`, over 4 KiB of WAL apiece,
/// about 6,800 frames in all) fill the writer's threshold (1,000 frames) six or seven
/// times; a WAL that never restarted would grow past 25 MB.
///
/// Restarts are counted, not the file's size: the size is the most frames written
/// between two restarts, and that depends on the disk. A checkpoint's `fsync` on a disk
/// busy with a build beside the tests took long enough for a thousand commits or more,
/// and the WAL grew to 14–25 MB between two restarts that came as they should. Two
/// restarts at least (of six or seven) leave room for such stalls and still fail a WAL
/// that stops restarting.
#[tokio::test]
async fn sqlite_checkpoints_the_log_beside_the_writer() {
    const MATCHES: usize = 160;
    const ENTRIES: usize = 25;
    let db = crate::common::sqlite().await;
    let store = &db.store;
    let record = played("spacegoo", 2, 25);
    assert!(record.log.len() >= ENTRIES);
    let wal = db
        .url
        .strip_prefix("sqlite://")
        .map(|path| format!("{path}-wal"))
        .expect("a sqlite URL");
    // The WAL header's checkpoint sequence number (bytes 12..16, big-endian): SQLite
    // adds one each time a writer starts the WAL again from its beginning.
    let restarts_so_far = || {
        let header = std::fs::read(&wal).expect("the WAL exists");
        let sequence: [u8; 4] = header[12..16].try_into().expect("a WAL header");
        u32::from_be_bytes(sequence)
    };
    let first = create(store, &record).await;
    store
        .append_log(first, 0, &record.log[0])
        .await
        .expect("append");
    let before = restarts_so_far();
    let mut largest = 0;
    for _ in 0..MATCHES {
        let id = create(store, &record).await;
        for (index, entry) in record.log.iter().take(ENTRIES).enumerate() {
            store.append_log(id, index, entry).await.expect("append");
        }
        largest = largest.max(std::fs::metadata(&wal).map_or(0, |m| m.len()));
    }
    let restarts = restarts_so_far() - before;
    assert!(
        restarts >= 2,
        "the WAL restarted {restarts} times over {} commits (largest: {largest} bytes)",
        MATCHES * ENTRIES
    );
}
