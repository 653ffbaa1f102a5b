//! Property tests: random play never panics and always ends, replays are byte-identical,
//! and no view leaks a hand or the pile order.

use arbiter_engine::local::{play_local, LocalOptions};
use arbiter_engine::testkit::{
    assert_replay_identical, assert_state_from_view_round_trips, assert_views_hide_secrets,
};
use arbiter_engine::{Bot, Game};
use arbiter_qgame::{bots, QConfig, QGame};
use proptest::prelude::*;

fn seats_of(names: &[&str], seed: u64) -> Vec<Box<dyn Bot<QGame>>> {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| bots::bot(n, seed + i as u64).expect("known bot"))
        .collect()
}

/// A Q-Game uses at most 1080 tiles and every round without a placement ends it, so a
/// few thousand decisions is a generous bound.
const DECISION_BOUND: usize = 5_000;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn random_play_never_panics_and_always_ends(seed in any::<u64>(), seats in 2usize..=4, greedy in any::<bool>()) {
        let names: Vec<&str> = (0..seats).map(|i| if greedy && i == 0 { "greedy" } else { "random" }).collect();
        let mut players = seats_of(&names, seed);
        let names = (0..seats).map(|i| format!("p{i}")).collect();
        let played = play_local::<QGame>(&QConfig::default(), names, &mut players, seed, LocalOptions { max_decisions: DECISION_BOUND }).unwrap();
        prop_assert!(played.record.log.len() < DECISION_BOUND, "the game did not end");
        let outcome = QGame::outcome(&played.state);
        prop_assert!(outcome.is_some());
        let outcome = outcome.unwrap();
        prop_assert!(outcome.ranks.iter().all(|&r| r >= 1 && r as usize <= seats));
    }

    #[test]
    fn replaying_a_record_gives_identical_views(seed in any::<u64>(), seats in 2usize..=4) {
        let names = ["ldasg", "dag", "greedy", "random"];
        let mut players = seats_of(&names[..seats], seed);
        assert_replay_identical::<QGame>(&QConfig::default(), &mut players, seed, LocalOptions::default());
    }

    #[test]
    fn views_never_show_other_hands_or_the_pile_order(seed in any::<u64>(), seats in 2usize..=4, turns in 0usize..30) {
        let config = QConfig::default();
        let mut state = QGame::new(&config, seats, seed).unwrap();
        let mut players = seats_of(&["random", "random", "random", "random"], seed);
        for _ in 0..turns {
            let Some(seat) = state.active() else { break };
            let action = players[seat].decide(&state, seat);
            QGame::apply(&mut state, seat, &action).unwrap();
            assert_views_hide_secrets::<QGame>(&state, seats, seed ^ 1);
        }
        for seat in 0..seats {
            let view = serde_json::to_value(QGame::view(&state, Some(seat))).unwrap();
            for (other, player) in view["players"].as_array().unwrap().iter().enumerate() {
                prop_assert_eq!(player.get("hand").is_some(), other == seat);
            }
            prop_assert!(view["pile"].is_u64(), "only the pile's size is shown");
        }
    }

    #[test]
    fn every_seat_rebuilds_a_state_from_its_view_alone(seed in any::<u64>(), seats in 2usize..=4, turns in 0usize..250, eject_at in proptest::option::of(0usize..250)) {
        let config = QConfig::default();
        let mut state = QGame::new(&config, seats, seed).unwrap();
        let mut players = seats_of(&["greedy", "random", "random", "random"], seed);
        assert_state_from_view_round_trips::<QGame>(&config, &state, seats, seed);
        for turn in 0..turns {
            let Some(seat) = state.active() else { break };
            if eject_at == Some(turn) {
                QGame::eject(&mut state, seat, "test ejection");
            } else {
                let action = players[seat].decide(&state, seat);
                QGame::apply(&mut state, seat, &action).unwrap();
            }
            assert_state_from_view_round_trips::<QGame>(&config, &state, seats, seed ^ turn as u64);
        }
    }
}

/// A game started from a given JState deals the unseen tiles from that state's tiles,
/// not from the full set.
#[test]
fn a_state0_game_rebuilds_from_its_own_tiles() {
    let config: QConfig = serde_json::from_value(serde_json::json!({
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
    let state = QGame::new(&config, 2, 5).unwrap();
    assert_state_from_view_round_trips::<QGame>(&config, &state, 2, 9);
    let mut rng = arbiter_engine::seeded_rng(1);
    let view = QGame::view(&state, Some(0));
    let rebuilt = QGame::state_from_view(&config, &view, 0, &mut rng).unwrap();
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
    assert!(QGame::state_from_view(&config, &view, 1, &mut rng).is_err());
    assert!(QGame::state_from_view(&QConfig::default(), &view, 0, &mut rng).is_err());
}
