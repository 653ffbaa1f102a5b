//! Full random Q-Game games per second (random legal actions, fresh seed each game).

use arbiter_engine::playout::random_playout;
use arbiter_engine::seeded_rng;
use arbiter_qgame::{Config, Qgame};
use criterion::{criterion_group, criterion_main, Criterion};

fn full_random_games(c: &mut Criterion) {
    let config = Config::default();
    let mut rng = seeded_rng(1);
    let mut seed = 0u64;
    for seats in [2usize, 4] {
        c.bench_function(&format!("qgame full random game, {seats} seats"), |b| {
            b.iter(|| {
                seed += 1;
                random_playout::<Qgame>(&config, seats, seed, &mut rng, 100_000)
                    .expect("valid config")
            })
        });
    }
}

criterion_group!(benches, full_random_games);
criterion_main!(benches);
