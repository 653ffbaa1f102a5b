//! Random decisions per second of the rules alone, for profiling (e.g. under
//! `valgrind --tool=callgrind`, with few games):
//! `cargo run --release -p arbiter-qgame --example qgame_random_rate -- [games] [seats]`.
//! The engine's `random_playout`, which draws each action from the frontier without
//! building the legal list (as `arbiter bench qgame` plays).

use std::time::Instant;

use arbiter_engine::playout::random_playout;
use arbiter_engine::seeded_rng;
use arbiter_qgame::{Config, Qgame};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1_000);
    let seats: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2);
    let config = Config::default();
    let started = Instant::now();
    let mut decisions = 0usize;
    for seed in 0..games {
        let mut rng = seeded_rng(seed ^ 0x5EED);
        match random_playout::<Qgame>(&config, seats, seed, &mut rng, 100_000) {
            Ok((_, played)) => decisions += played,
            Err(e) => {
                eprintln!("{e}");
                return;
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{games} games, {seats} seats: {decisions} decisions in {secs:.3} s = \
         {:.0} decisions/s, {:.3} ms/game, {:.1} decisions/game",
        decisions as f64 / secs,
        secs * 1000.0 / games as f64,
        decisions as f64 / games as f64
    );
}
