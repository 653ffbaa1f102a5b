//! Full random games per second: the rules alone (legal + apply until the end), the
//! engine's `random_playout` (which draws with `Game::random_action`, without building
//! the legal list), and the same through the engine's local runner (determinized states
//! for the bots, a digest of the state after every decision, the match record).

use criterion::{criterion_group, criterion_main, Criterion};

use arbiter_engine::bot::RandomBot;
use arbiter_engine::local::{play_local, LocalOptions};
use arbiter_engine::playout::random_playout;
use arbiter_engine::{seeded_rng, Bot, Game, Turn};
use arbiter_tae::{Config, Tae};

fn random_game(config: &Config, seats: usize, seed: u64) -> usize {
    let Ok(mut state) = Tae::new(config, seats, seed) else {
        return 0;
    };
    let mut bots: Vec<RandomBot> = (0..seats)
        .map(|s| RandomBot::new(seed ^ s as u64))
        .collect();
    let mut steps = 0;
    while let Turn::One(seat) = Tae::to_act(&state) {
        let action = <RandomBot as Bot<Tae>>::decide(&mut bots[seat], &state, seat);
        if Tae::apply(&mut state, seat, &action).is_err() {
            break;
        }
        steps += 1;
    }
    steps
}

fn playouts(c: &mut Criterion) {
    let config = Config::default();
    for seats in [2usize, 4] {
        let mut seed = 0u64;
        c.bench_function(&format!("tae random game, {seats} seats"), |b| {
            b.iter(|| {
                seed += 1;
                random_game(&config, seats, seed)
            })
        });
    }
    let mut seed = 0u64;
    c.bench_function("tae random_playout, 2 seats", |b| {
        b.iter(|| {
            seed += 1;
            let mut rng = seeded_rng(seed);
            random_playout::<Tae>(&config, 2, seed, &mut rng, 100_000).map_or(0, |(_, n)| n)
        })
    });
    let mut seed = 0u64;
    c.bench_function("tae play_local random game, 2 seats", |b| {
        b.iter(|| {
            seed += 1;
            let mut bots: Vec<Box<dyn Bot<Tae>>> = (0..2)
                .map(|s| Box::new(RandomBot::new(seed ^ s)) as Box<dyn Bot<Tae>>)
                .collect();
            let names = vec!["a".to_string(), "b".to_string()];
            play_local::<Tae>(&config, names, &mut bots, seed, LocalOptions::default())
                .map(|m| m.record.log.len())
                .unwrap_or(0)
        })
    });
}

criterion_group!(benches, playouts);
criterion_main!(benches);
