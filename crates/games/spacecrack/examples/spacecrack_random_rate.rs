//! Random decisions per second of the rules alone, for profiling (e.g. under
//! `valgrind --tool=callgrind`, with few games):
//! `cargo run --release -p arbiter-spacecrack --example spacecrack_random_rate -- [games] [seats]`.
//! The engine's `random_playout`, which draws each action from the state without
//! building the legal list (as `arbiter bench spacecrack` plays).

use arbiter_engine::playout::print_random_rate;
use arbiter_spacecrack::{Config, SpaceCrack};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1_000);
    let seats: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2);
    if let Err(e) = print_random_rate::<SpaceCrack>(&Config::default(), games, seats) {
        eprintln!("{e}");
    }
}
