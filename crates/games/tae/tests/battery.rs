//! T&E runs the engine's one test battery, with the state's own consistency check
//! (regions against an independent union–find, counts, leaders), on the default game
//! and a small custom board where harvests and early ends come often.

use arbiter_engine::testkit::Battery;
use arbiter_tae::{Config, Tae};

#[test]
fn the_engine_battery_passes() {
    let custom: Config = serde_json::from_value(serde_json::json!({
        "board": "A..M..A\n.......\n..MMM..\n.......\nA..M..A\n",
        "bag": { "scientist": 20, "mining": 10, "merchant": 10, "settler": 10 },
        "leaders": ["merchant", "settler"],
        "bombers": 1,
    }))
    .expect("a valid custom board");
    Battery::<Tae> {
        configs: vec![Config::default(), custom],
        games: 3,
        max_decisions: 20_000,
        eject_one_in: Some(300),
        check_every: 7,
        invariants: |state| state.verify(),
        ..Battery::new()
    }
    .run();
}
