//! What the server pays the store per move and per match, on both backends: appending
//! one log entry (one committed row), many matches appending at once (what group commit
//! is for) or taking turns (a lightly loaded writer serving many matches), storing a
//! whole played match, rebuilding a record for a replay, and the Argon2id cost of an
//! account.

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tokio::runtime::Runtime;

use common::{new_match, played, store_played, TestDb};

fn backends(rt: &Runtime) -> Vec<(&'static str, TestDb)> {
    vec![
        ("sqlite", rt.block_on(common::sqlite())),
        ("postgres", rt.block_on(common::postgres())),
    ]
}

fn store_benches(c: &mut Criterion) {
    let rt = Runtime::new().expect("runtime");
    let game = played("tae", 2, 41);
    let entry = game.log[0].clone();
    let dbs = backends(&rt);
    for (backend, db) in &dbs {
        let store = &db.store;

        let id = rt
            .block_on(store.create_match(&new_match(&game, &[], None)))
            .expect("create");
        let mut index = 0;
        c.bench_function(&format!("{backend}/append_log"), |b| {
            b.iter(|| {
                rt.block_on(store.append_log(id, index, &entry))
                    .expect("append");
                index += 1;
            })
        });

        for size in [(1, 200), (100, 50)] {
            appends(c, &rt, (backend, db), &game, size, Turns::AtOnce);
        }
        appends(c, &rt, (backend, db), &game, (1000, 4), Turns::Rotating);

        c.bench_function(
            &format!("{backend}/store_match_{}_entries", game.log.len()),
            |b| b.iter(|| rt.block_on(store_played(store, &game, &[], None))),
        );

        let (stored, _) = rt.block_on(store_played(store, &game, &[], None));
        c.bench_function(
            &format!("{backend}/match_record_{}_entries", game.log.len()),
            |b| {
                b.iter(|| {
                    rt.block_on(store.match_record(stored))
                        .expect("read")
                        .expect("exists")
                })
            },
        );
    }

    let (_, db) = &dbs[0];
    rt.block_on(db.store.register("bench", "a password"))
        .expect("register");
    c.bench_function("login_argon2id", |b| {
        b.iter(|| {
            rt.block_on(db.store.login("bench", "a password"))
                .expect("login")
        })
    });
}

/// How the matches of [`appends`] take their turns.
#[derive(Clone, Copy)]
enum Turns {
    /// Each match its own writer task appending its entries in order, waiting for
    /// each, as the runner's writer tasks do: one match is a lone writer (an append's
    /// latency as the server sees it), a hundred a busy server.
    AtOnce,
    /// The matches one after another, one entry at a time, each append awaited: the
    /// writer commits single entries for many matches, as a server whose thousand
    /// matches move once a second each does (every commit light, none waiting). The
    /// mean per entry includes whatever the writer does besides the commits (folds).
    Rotating,
}

/// `matches` matches appending `entries` entries each, taking turns as `turns` says.
/// Only the appends are timed (creating the matches is not).
fn appends(
    c: &mut Criterion,
    rt: &Runtime,
    (backend, db): (&str, &TestDb),
    game: &arbiter_engine::MatchRecord,
    (matches, entries): (usize, usize),
    turns: Turns,
) {
    let name = match turns {
        Turns::AtOnce => "concurrent_appends",
        Turns::Rotating => "rotating_appends",
    };
    let mut group = c.benchmark_group(format!("{backend}/{name}"));
    group.sample_size(10);
    group.throughput(Throughput::Elements((matches * entries) as u64));
    group.bench_function(format!("{matches}_matches_x_{entries}_entries"), |b| {
        b.iter_custom(|iterations| {
            rt.block_on(async {
                let mut total = Duration::ZERO;
                for _ in 0..iterations {
                    let mut ids = Vec::with_capacity(matches);
                    for _ in 0..matches {
                        let id = db
                            .store
                            .create_match(&new_match(game, &[], None))
                            .await
                            .expect("create");
                        ids.push(id);
                    }
                    let started = Instant::now();
                    match turns {
                        Turns::AtOnce => at_once(&db.store, ids, &game.log, entries).await,
                        Turns::Rotating => {
                            for index in 0..entries {
                                let entry = &game.log[index % game.log.len()];
                                for &id in &ids {
                                    db.store.append_log(id, index, entry).await.expect("append");
                                }
                            }
                        }
                    }
                    total += started.elapsed();
                }
                total
            })
        })
    });
    group.finish();
}

/// [`Turns::AtOnce`]: a writer task per match.
async fn at_once(
    store: &arbiter_store::Store,
    ids: Vec<arbiter_store::MatchId>,
    log: &[arbiter_engine::LogEntry],
    entries: usize,
) {
    let writers: Vec<_> = ids
        .into_iter()
        .map(|id| {
            let store = store.clone();
            let log = log.to_vec();
            tokio::spawn(async move {
                for index in 0..entries {
                    let entry = &log[index % log.len()];
                    store.append_log(id, index, entry).await.expect("append");
                }
            })
        })
        .collect();
    for writer in writers {
        writer.await.expect("writer");
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = store_benches
}
criterion_main!(benches);
