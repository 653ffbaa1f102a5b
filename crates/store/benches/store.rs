//! What the server pays the store per move and per match, on both backends: appending
//! one log entry (one committed row), many matches appending at once (what group commit
//! is for), storing a whole played match, rebuilding a record for a replay, and the
//! Argon2id cost of an account.

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

        for (matches, entries) in [(1, 200), (100, 50)] {
            concurrent_appends(c, &rt, (backend, db), &game, matches, entries);
        }

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

/// `matches` matches at once, each with its own writer task appending `entries` entries
/// in order and waiting for each, as the runner's writer tasks do: one match is a lone
/// writer (an append's latency as the server sees it), a hundred a busy server. Only the
/// appends are timed (creating the matches is not).
fn concurrent_appends(
    c: &mut Criterion,
    rt: &Runtime,
    (backend, db): (&str, &TestDb),
    game: &arbiter_engine::MatchRecord,
    matches: usize,
    entries: usize,
) {
    let mut group = c.benchmark_group(format!("{backend}/concurrent_appends"));
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
                    let writers: Vec<_> = ids
                        .into_iter()
                        .map(|id| {
                            let store = db.store.clone();
                            let log = game.log.clone();
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
                    total += started.elapsed();
                }
                total
            })
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = store_benches
}
criterion_main!(benches);
