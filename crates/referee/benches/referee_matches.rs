//! Whole matches of house bots through the referee (one task, bots on the blocking
//! pool, a channel hop per decision, a state snapshot per bot decision) next to the same
//! bots through the synchronous `play_local`, so the referee's own cost shows.

use std::sync::Arc;
use std::time::Duration;

use arbiter_referee::{DiscardSink, MatchSetup, Referee, SeatSetup};
use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::Value;

fn matches(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    for (id, bots) in [
        ("spacegoo", ["random", "random"]),
        ("spacecrack", ["random", "random"]),
        ("tae", ["random", "random"]),
        ("qgame", ["dag", "ldasg"]),
    ] {
        let ruleset = arbiter_rulesets::find(id).expect("shipped");
        let mut group = c.benchmark_group(format!("{id}_match"));
        let mut seed = 0u64;
        group.bench_function("referee", |b| {
            b.iter(|| {
                seed += 1;
                let seats = bots
                    .iter()
                    .enumerate()
                    .map(|(i, bot)| SeatSetup::house(format!("{bot}#{i}"), *bot, seed + i as u64))
                    .collect();
                let mut setup = MatchSetup::new(seed as i64, ruleset.clone(), seed, seats);
                setup.deadline = Duration::from_secs(60);
                runtime.block_on(async {
                    let handle = Referee::start(setup, Arc::new(DiscardSink)).expect("setup");
                    handle.wait().await.expect("a record")
                })
            })
        });
        let names: Vec<String> = bots.iter().map(|b| b.to_string()).collect();
        let mut seed = 0u64;
        group.bench_function("play_local", |b| {
            b.iter(|| {
                seed += 1;
                ruleset
                    .play_local(&Value::Null, &names, seed)
                    .expect("a record")
            })
        });
        group.finish();
    }
}

criterion_group!(benches, matches);
criterion_main!(benches);
