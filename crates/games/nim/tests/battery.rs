//! Secret Nim runs the engine's one test battery, like every ruleset.

use arbiter_engine::testkit::Battery;
use arbiter_nim::{Config, Nim};

#[test]
fn the_engine_battery_passes() {
    Battery::<Nim> {
        configs: vec![
            Config::default(),
            Config { heaps: vec![1] },
            Config {
                heaps: vec![20, 1, 7, 3],
            },
        ],
        games: 16,
        eject_one_in: Some(12),
        invariants: |state| {
            let live = state.live_seats();
            match state.winner {
                None if state.stones() == 0 => Err("no stones left and no winner".into()),
                None if live.len() < 2 => Err("one seat left and no winner".into()),
                None if state.ejected[state.next].is_some() => {
                    Err(format!("seat {} is ejected but to move", state.next))
                }
                _ => Ok(()),
            }
        },
        ..Battery::new()
    }
    .run();
}
