//! Full games between random bots per second, a fresh seed per game.

use arbiter_engine::local::{play_local, LocalOptions};
use arbiter_engine::Bot;
use arbiter_spacecrack::{bots, Config, SpaceCrack};
use criterion::{criterion_group, criterion_main, Criterion};

fn random_game(config: &Config, seats: usize, seed: u64) -> usize {
    let mut players: Vec<Box<dyn Bot<SpaceCrack>>> = (0..seats)
        .filter_map(|s| bots::bot("random", seed.wrapping_add(s as u64)))
        .collect();
    let names = (0..seats).map(|s| format!("random{s}")).collect();
    let played =
        play_local::<SpaceCrack>(config, names, &mut players, seed, LocalOptions::default())
            .expect("the default config is valid");
    played.record.log.len()
}

fn playouts(c: &mut Criterion) {
    let config = Config::default();
    let mut group = c.benchmark_group("spacecrack_random_game");
    for seats in [2usize, 4] {
        let mut seed = 0u64;
        group.bench_function(format!("{seats}_seats"), |b| {
            b.iter(|| {
                seed += 1;
                random_game(&config, seats, seed)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
