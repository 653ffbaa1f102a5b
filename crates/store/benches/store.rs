//! What the server pays the store per move and per match, on both backends: appending
//! one log entry (one committed row), storing a whole played match, rebuilding a
//! record for a replay, and the Argon2id cost of an account.

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{criterion_group, criterion_main, Criterion};
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

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = store_benches
}
criterion_main!(benches);
