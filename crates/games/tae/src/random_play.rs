//! Seeded random matches for the unit tests of derived data: every state such a match
//! passes through, on the default board, on a small crowded one where regions join,
//! split and get harvested often, and on a large one.

use rand::seq::IndexedRandom;
use rand::Rng;

use arbiter_engine::{seeded_rng, Turn};

use crate::config::Config;
use crate::flow;
use crate::game::{legal, new_game};
use crate::state::State;

/// More decisions than any game takes.
const MAX_DECISIONS: usize = 20_000;

/// A small board with several artifacts, for frequent joins, conflicts and harvests.
pub(crate) fn crowded_config() -> Config {
    Config {
        board: Some("A..M..A\n.......\n..MMM..\n.......\nA..M..A\n".to_string()),
        bag: crate::kind::Tiles::new(20, 10, 10, 10),
        leaders: vec![crate::kind::Kind::Merchant, crate::kind::Kind::Settler],
        bombers: 1,
        ..Config::default()
    }
}

/// A 20 × 15 board: more cells than a set keeps inline (see `cellset.rs`).
pub(crate) fn large_config() -> Config {
    let rows: Vec<String> = (0..15)
        .map(|y| {
            (0..20)
                .map(|x| match (x * 7 + y * 5) % 23 {
                    0 => 'A',
                    1..=4 => 'M',
                    _ => '.',
                })
                .collect()
        })
        .collect();
    Config {
        board: Some(rows.join("\n")),
        ..Config::default()
    }
}

/// The configuration a test case picks: the default board, the crowded small one or
/// the large one.
pub(crate) fn config(pick: u8) -> Config {
    match pick % 3 {
        0 => Config::default(),
        1 => crowded_config(),
        _ => large_config(),
    }
}

/// Play a random match of `config` from `seed`, ejecting a random seat about once in
/// `eject_one_in` decisions (never if `None`), and call `visit` on every state.
pub(crate) fn play(
    config: &Config,
    seats: usize,
    seed: u64,
    eject_one_in: Option<u32>,
    mut visit: impl FnMut(&State),
) {
    let mut state = new_game(config, seats, seed).expect("a valid configuration");
    let mut rng = seeded_rng(seed ^ 0x7E57);
    visit(&state);
    for _ in 0..MAX_DECISIONS {
        let Turn::One(seat) = flow::to_act(&state) else {
            return;
        };
        if eject_one_in.is_some_and(|n| rng.random_range(0..n) == 0) {
            flow::eject(&mut state, rng.random_range(0..seats), "random ejection");
        } else {
            let action = legal(&state, seat)
                .choose(&mut rng)
                .cloned()
                .expect("a seat to act has an action");
            flow::apply(&mut state, seat, &action).expect("a listed action is legal");
        }
        visit(&state);
    }
    panic!("the game did not end within {MAX_DECISIONS} decisions");
}
