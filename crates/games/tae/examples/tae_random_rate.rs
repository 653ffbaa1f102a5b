//! Random decisions per second of the rules alone, for profiling (e.g. under
//! `valgrind --tool=callgrind`, with few games):
//! `cargo run --release -p arbiter-tae --example tae_random_rate -- [games] [seats] [draw]`
//! where `draw` is `random_action` (the default: the engine's `random_playout`, which
//! draws without building the legal list) or `legal` (`legal(..).choose(rng)`, as the
//! engine's `RandomBot` and the criterion bench's rules-only figure do).

use std::time::Instant;

use rand::seq::IndexedRandom;

use arbiter_engine::playout::random_playout;
use arbiter_engine::{seeded_rng, Game, Turn};
use arbiter_tae::{Config, Tae};

/// Play one random game from `seed` drawing from the legal list; returns its decisions.
fn legal_list_game(config: &Config, seats: usize, seed: u64) -> Result<usize, String> {
    let mut state = Tae::new(config, seats, seed).map_err(|e| e.to_string())?;
    let mut rng = seeded_rng(seed ^ 0x5EED);
    let mut decisions = 0;
    while let Turn::One(seat) = Tae::to_act(&state) {
        let Some(action) = Tae::legal(&state, seat).choose(&mut rng).cloned() else {
            return Err(format!("seat {seat} has no legal action"));
        };
        Tae::apply(&mut state, seat, &action).map_err(|e| e.to_string())?;
        decisions += 1;
    }
    Ok(decisions)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2_000);
    let seats: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2);
    let from_list = args.next().as_deref() == Some("legal");
    let config = Config::default();
    let started = Instant::now();
    let mut decisions = 0usize;
    for seed in 0..games {
        let played = if from_list {
            legal_list_game(&config, seats, seed)
        } else {
            let mut rng = seeded_rng(seed ^ 0x5EED);
            random_playout::<Tae>(&config, seats, seed, &mut rng, 100_000)
                .map(|(_, played)| played)
                .map_err(|e| e.to_string())
        };
        match played {
            Ok(played) => decisions += played,
            Err(e) => {
                eprintln!("{e}");
                return;
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{games} games, {seats} seats, drawn from {}: {decisions} decisions in {secs:.3} s = \
         {:.0} decisions/s, {:.3} ms/game, {:.1} decisions/game",
        if from_list {
            "the legal list"
        } else {
            "random_action"
        },
        decisions as f64 / secs,
        secs * 1000.0 / games as f64,
        decisions as f64 / games as f64
    );
}
