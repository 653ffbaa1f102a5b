//! Q-Game runs the engine's one test battery (hands and the pile are the secrets).

use arbiter_engine::testkit::Battery;
use arbiter_qgame::{Config, Qgame};

#[test]
fn the_engine_battery_passes() {
    Battery::<Qgame> {
        configs: vec![Config::default(), from_a_state0()],
        games: 2,
        eject_one_in: Some(300),
        check_every: 25,
        ..Battery::new()
    }
    .run();
}

/// A small course `state0`: a map of one tile, a pile of 12 and two short hands, so the
/// game ends within a few rounds and the unseen tiles come from these alone.
fn from_a_state0() -> Config {
    let tile = |color: &str, shape: &str| serde_json::json!({"color": color, "shape": shape});
    let colors = ["red", "green", "blue", "yellow", "orange", "purple"];
    let shapes = ["star", "8star", "square", "circle", "clover", "diamond"];
    let pile: Vec<_> = (0..12)
        .map(|i| tile(colors[i % 6], shapes[(i / 2) % 6]))
        .collect();
    serde_json::from_value(serde_json::json!({
        "state0": {
            "map": [[0, [0, tile("red", "star")]]],
            "tile*": pile,
            "players": [
                {"score": 3, "tile*": [tile("red", "square"), tile("blue", "star")]},
                {"score": 1, "tile*": [tile("red", "circle"), tile("green", "star"), tile("red", "8star")]}
            ]
        }
    }))
    .expect("a valid state0")
}
