//! A game started from a given JState (the course's `state0`). The generic properties
//! (random play ends, replays, no leak, rebuilding from views) are the engine battery's,
//! in `battery.rs`.

use arbiter_engine::testkit::assert_state_from_view_round_trips;
use arbiter_engine::Game;
use arbiter_qgame::{Config, Qgame};

/// A game started from a given JState deals the unseen tiles from that state's tiles,
/// not from the full set.
#[test]
fn a_state0_game_rebuilds_from_its_own_tiles() {
    let config: Config = serde_json::from_value(serde_json::json!({
        "state0": {
            "map": [[0, [0, {"color": "red", "shape": "star"}]]],
            "tile*": [{"color": "blue", "shape": "circle"}, {"color": "green", "shape": "square"}],
            "players": [
                {"score": 3, "tile*": [{"color": "red", "shape": "square"}]},
                {"score": 1, "tile*": [{"color": "red", "shape": "circle"}, {"color": "blue", "shape": "star"}]}
            ]
        }
    }))
    .unwrap();
    let state = Qgame::new(&config, 2, 5).unwrap();
    assert_state_from_view_round_trips::<Qgame>(&config, &state, 2, 9);
    let mut rng = arbiter_engine::seeded_rng(1);
    let view = Qgame::view(&state, Some(0));
    let rebuilt = Qgame::state_from_view(&config, &view, 0, &mut rng).unwrap();
    let mut hidden: Vec<_> = rebuilt
        .pile
        .iter()
        .chain(&rebuilt.players[1].hand)
        .copied()
        .collect();
    let mut real: Vec<_> = state
        .pile
        .iter()
        .chain(&state.players[1].hand)
        .copied()
        .collect();
    hidden.sort();
    real.sort();
    assert_eq!(
        hidden, real,
        "the unseen tiles are exactly state0's unseen tiles"
    );
    // Another seat's view, or a view under the default configuration, is refused.
    assert!(Qgame::state_from_view(&config, &view, 1, &mut rng).is_err());
    assert!(Qgame::state_from_view(&Config::default(), &view, 0, &mut rng).is_err());
}
