//! Whole games through the port over loopback: two clients log in (Argon2id check),
//! are paired, and pass every round until the round limit. Two lengths, so the cost per
//! round is the difference divided by the extra rounds.

#[path = "../tests/client/mod.rs"]
mod client;

use std::time::Duration;

use arbiter_spacegoo_port::{serve, PortContext, SpacegooPortOptions};
use arbiter_store::Store;
use client::{passive, play, Client};
use criterion::{criterion_group, criterion_main, Criterion};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

fn games(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut group = c.benchmark_group("spacegoo_port");
    group.sample_size(10);
    for rounds in [10u32, 500] {
        let (address, shutdown) = runtime.block_on(async {
            let store = Store::open_data_dir(&dir.path().join(rounds.to_string()))
                .await
                .expect("store");
            let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
            let address = listener.local_addr().expect("address");
            let options = SpacegooPortOptions {
                max_rounds: rounds,
                pairing_interval: Duration::from_millis(2),
                close_delay: Duration::ZERO,
                ..SpacegooPortOptions::default()
            };
            let shutdown = CancellationToken::new();
            let context = PortContext {
                store,
                options,
                observer: None,
                admission: None,
                route: None,
            };
            tokio::spawn(serve(listener, context, shutdown.clone()));
            (address, shutdown)
        });
        group.bench_function(format!("game_of_{rounds}_rounds"), |b| {
            b.iter(|| {
                runtime.block_on(async {
                    let side = |user: &'static str| async move {
                        let mut client = Client::connect(address).await;
                        client.login(user, "pw").await;
                        play(&mut client, passive).await
                    };
                    let (one, two) = tokio::join!(side("ann"), side("bob"));
                    assert_eq!(one.reason, "game is a draw");
                    assert_eq!(two.states, rounds as usize);
                })
            })
        });
        shutdown.cancel();
    }
    group.finish();
}

criterion_group!(benches, games);
criterion_main!(benches);
