//! Full random games per second, default config (500 rounds), a fresh seed per game:
//! - `rules only`: uniformly random legal commands applied straight to the state;
//! - `play_local`: two `random` bots through the engine's recorded local match (adds
//!   determinization, a JSON log entry and a SHA-256 state digest per command);
//! - `reference bots`: the `reference` bot (the reference engine's benchmark policy) in
//!   both seats through `bot_playout` (rules and bot only, no recording), as
//!   `arbiter bench spacegoo --bot reference` plays it.
//! - `view text`: one seat's view written as JSON, on boards taken every 50 commands
//!   along random games (fleets in flight included), as a server writes one for every
//!   seat every round.

use arbiter_engine::local::{play_local, LocalOptions};
use arbiter_engine::playout::bot_playout;
use arbiter_engine::{Bot, Game, GameRng, Turn};
use arbiter_spacegoo::{bots, Action, Config, Spacegoo};
use criterion::{criterion_group, criterion_main, Criterion};
use rand::seq::IndexedRandom;

fn rules_only(seed: u64) -> u32 {
    random_game(seed, |_| {})
}

/// A random game from `seed`, each state after a command shown to `visit`; the last
/// round played.
fn random_game(seed: u64, mut visit: impl FnMut(&<Spacegoo as Game>::State)) -> u32 {
    let Ok(mut state) = Spacegoo::new(&Config::default(), 2, seed) else {
        return 0;
    };
    let mut rng: GameRng = arbiter_engine::seeded_rng(seed ^ 0xB0B);
    while let Turn::Sealed(waiting) = Spacegoo::to_act(&state) {
        let seat = waiting[0];
        let action = Spacegoo::legal(&state, seat)
            .choose(&mut rng)
            .cloned()
            .unwrap_or(Action::Nop);
        if Spacegoo::apply(&mut state, seat, &action).is_err() {
            break;
        }
        visit(&state);
    }
    state.world().round
}

fn recorded(seed: u64) -> usize {
    let mut seats: Vec<Box<dyn Bot<Spacegoo>>> = ["random", "random"]
        .iter()
        .enumerate()
        .filter_map(|(i, name)| bots::bot(name, seed.wrapping_add(i as u64)))
        .collect();
    let names = vec!["p1".to_string(), "p2".to_string()];
    match play_local::<Spacegoo>(
        &Config::default(),
        names,
        &mut seats,
        seed,
        LocalOptions::default(),
    ) {
        Ok(game) => game.record.log.len(),
        Err(_) => 0,
    }
}

fn reference_game(seed: u64) -> usize {
    let mut seats: Vec<Box<dyn Bot<Spacegoo>>> = (0..2)
        .filter_map(|i| bots::bot("reference", seed.wrapping_add(i)))
        .collect();
    bot_playout::<Spacegoo>(&Config::default(), seed, &mut seats, 10_000)
        .map_or(0, |played| played.rounds)
}

fn playouts(c: &mut Criterion) {
    let mut seed = 0u64;
    c.bench_function("spacegoo full random game, rules only", |b| {
        b.iter(|| {
            seed += 1;
            std::hint::black_box(rules_only(seed))
        })
    });
    let mut seed = 0u64;
    c.bench_function("spacegoo full random game, play_local", |b| {
        b.iter(|| {
            seed += 1;
            std::hint::black_box(recorded(seed))
        })
    });
}

fn reference_games(c: &mut Criterion) {
    let mut seed = 0u64;
    c.bench_function("spacegoo full game, reference bots", |b| {
        b.iter(|| {
            seed += 1;
            std::hint::black_box(reference_game(seed))
        })
    });
}

/// States every 50 commands along the random games of the first `games` seeds.
fn boards_along_random_games(games: u64) -> Vec<<Spacegoo as Game>::State> {
    let mut boards = Vec::new();
    for seed in 0..games {
        let mut commands = 0;
        random_game(seed, |state| {
            commands += 1;
            if commands % 50 == 0 {
                boards.push(state.clone());
            }
        });
    }
    boards
}

fn view_text(c: &mut Criterion) {
    let boards = boards_along_random_games(20);
    let mut next = 0;
    c.bench_function("spacegoo view text, one seat", |b| {
        b.iter(|| {
            next = (next + 1) % boards.len();
            std::hint::black_box(Spacegoo::view_text(&boards[next], Some(next % 2)))
        })
    });
}

criterion_group!(benches, playouts, reference_games, view_text);
criterion_main!(benches);
