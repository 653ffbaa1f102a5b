//! Decisions and games per second of the rules alone, for profiling (e.g. under
//! `valgrind --tool=callgrind`, with few games):
//! `cargo run --release -p arbiter-spacegoo --example spacegoo_rate -- [mode] [games]`
//! where `mode` is
//! - `random` (the default): uniformly random decisions through the engine's
//!   `random_playout` (which draws with `Game::random_action`);
//! - `legal`: `legal(..).choose(rng)`, as the criterion bench's rules-only figure does;
//! - `reference`: the `reference` bot in both seats through `bot_playout`, as the
//!   criterion bench `spacegoo full game, reference bots` plays it.

use std::time::Instant;

use rand::seq::IndexedRandom;

use arbiter_engine::playout::{bot_playout, random_playout};
use arbiter_engine::{seeded_rng, Bot, Game, Turn};
use arbiter_spacegoo::{bots, Action, Config, Spacegoo};

/// One random game from `seed` drawing from the legal list; returns its decisions.
fn legal_list_game(config: &Config, seed: u64) -> Result<(usize, usize), String> {
    let mut state = Spacegoo::new(config, 2, seed).map_err(|e| e.to_string())?;
    let mut rng = seeded_rng(seed ^ 0x5EED);
    let mut decisions = 0;
    while let Turn::Sealed(waiting) = Spacegoo::to_act(&state) {
        let seat = waiting[0];
        let action = Spacegoo::legal(&state, seat)
            .choose(&mut rng)
            .cloned()
            .unwrap_or(Action::Nop);
        Spacegoo::apply(&mut state, seat, &action).map_err(|e| e.to_string())?;
        decisions += 1;
    }
    Ok((decisions, state.world().round as usize))
}

fn random_game(config: &Config, seed: u64) -> Result<(usize, usize), String> {
    let mut rng = seeded_rng(seed ^ 0x5EED);
    random_playout::<Spacegoo>(config, 2, seed, &mut rng, 100_000)
        .map(|(_, decisions)| (decisions, decisions / 2))
        .map_err(|e| e.to_string())
}

fn reference_game(config: &Config, seed: u64) -> Result<(usize, usize), String> {
    let mut seats: Vec<Box<dyn Bot<Spacegoo>>> = (0..2)
        .filter_map(|i| bots::bot("reference", seed.wrapping_add(i)))
        .collect();
    bot_playout::<Spacegoo>(config, seed, &mut seats, 100_000)
        .map(|played| (played.decisions, played.rounds))
        .map_err(|e| e.to_string())
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_else(|| "random".to_string());
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2_000);
    let play = match mode.as_str() {
        "random" => random_game,
        "legal" => legal_list_game,
        "reference" => reference_game,
        other => {
            eprintln!("unknown mode {other}: random, legal or reference");
            std::process::exit(2);
        }
    };
    let config = Config::default();
    let started = Instant::now();
    let (mut decisions, mut rounds) = (0usize, 0usize);
    for seed in 0..games {
        match play(&config, seed) {
            Ok((d, r)) => {
                decisions += d;
                rounds += r;
            }
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{mode}: {games} games, {decisions} decisions, {rounds} rounds in {secs:.3} s = \
         {:.0} decisions/s, {:.0} games/s, {:.1} rounds/game",
        decisions as f64 / secs,
        games as f64 / secs,
        rounds as f64 / games as f64
    );
}
