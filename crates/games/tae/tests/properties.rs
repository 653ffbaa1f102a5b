//! T&E's own properties beyond the engine battery (`battery.rs`): events and view
//! fields redacted per audience, a greedy match's replay, configuration checks, the
//! default action at every prompt.

use proptest::prelude::*;
use rand::seq::IndexedRandom;
use rand::Rng;

use arbiter_engine::local::LocalOptions;
use arbiter_engine::testkit::assert_replay_identical;
use arbiter_engine::{seeded_rng, Bot, Game, Registry, Turn};
use arbiter_tae::{bots, Config, Event, State, Tae};

/// More decisions than any game can take: each turn draws from a finite bag, and a
/// random player consumes colonists often.
const MAX_DECISIONS: usize = 20_000;

/// The public part of events must hide draws, swaps and gains from everyone else.
fn check_event_redaction(events: &[Event], seats: usize) {
    for event in events {
        for audience in std::iter::once(None).chain((0..seats).map(Some)) {
            let seen = Tae::event_for(event, audience);
            match (event, &seen) {
                (Event::Gained { seat, .. }, _) if audience != Some(*seat) => {
                    assert_eq!(seen, None)
                }
                (Event::Drew { seat, .. }, Some(Event::Drew { kinds, .. }))
                    if audience != Some(*seat) =>
                {
                    assert_eq!(*kinds, None)
                }
                (Event::Swapped { seat, .. }, Some(Event::Swapped { discarded, .. }))
                    if audience != Some(*seat) =>
                {
                    assert_eq!(*discarded, None)
                }
                _ => {}
            }
        }
    }
}

/// Secrets in a view: a seat sees only its own hand, resources and discards; a
/// spectator none; everyone everything after the end.
fn check_view_secrecy(state: &State) {
    let over = state.is_over();
    for audience in std::iter::once(None).chain((0..state.seats()).map(Some)) {
        let view = serde_json::to_value(Tae::view(state, audience)).unwrap();
        for (seat, player) in view["players"].as_array().unwrap().iter().enumerate() {
            let visible = over || audience == Some(seat);
            for field in ["hand", "resources", "discarded"] {
                assert_eq!(
                    !player[field].is_null(),
                    visible,
                    "{field} of seat {seat} for {audience:?}"
                );
            }
        }
    }
}

/// Random legal play with invariant checks after every step; optionally ejects a random
/// live seat now and then. Returns the number of decisions.
fn random_game(seats: usize, seed: u64, eject_every: Option<u64>) -> usize {
    let mut state = Tae::new(&Config::default(), seats, seed).unwrap();
    state.verify().unwrap();
    let mut rng = seeded_rng(seed ^ 0xDEC1DE);
    for step in 0..MAX_DECISIONS {
        let seat = match Tae::to_act(&state) {
            Turn::Over => {
                let outcome = Tae::outcome(&state).expect("an outcome once over");
                assert_eq!(outcome.ranks.len(), seats);
                check_view_secrecy(&state);
                return step;
            }
            Turn::One(seat) => seat,
            other => panic!("TaE only prompts one seat at a time, got {other:?}"),
        };
        if let Some(every) = eject_every {
            if rng.random_range(0..every) == 0 {
                let victim = rng.random_range(0..seats);
                let events = Tae::eject(&mut state, victim, "random ejection");
                check_event_redaction(&events, seats);
                state.verify().unwrap();
                continue;
            }
        }
        let legal = Tae::legal(&state, seat);
        assert!(
            !legal.is_empty(),
            "seat {seat} owes a decision but has none"
        );
        for other in 0..seats {
            if other != seat {
                assert!(Tae::legal(&state, other).is_empty());
            }
        }
        let action = legal.choose(&mut rng).unwrap().clone();
        let events = match Tae::apply(&mut state, seat, &action) {
            Ok(events) => events,
            Err(e) => panic!("legal action {action:?} refused: {e}"),
        };
        check_event_redaction(&events, seats);
        if let Err(e) = state.verify() {
            panic!("after {action:?} by seat {seat}: {e}");
        }
        if step.is_multiple_of(16) {
            check_view_secrecy(&state);
        }
    }
    panic!("the game did not end within {MAX_DECISIONS} decisions");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, failure_persistence: None, ..ProptestConfig::default() })]

    /// T&E's own secrecy check on events and on view fields (hands, resources),
    /// through random play with ejections; the engine battery checks the rest.
    #[test]
    fn events_and_view_fields_show_only_what_each_audience_may_know(seed in any::<u64>(), seats in 2usize..=4) {
        let steps = random_game(seats, seed, Some(60));
        prop_assert!(steps > 0);
    }
}

#[test]
fn a_greedy_match_replays_identically() {
    for seats in [2, 3] {
        let mut players: Vec<Box<dyn Bot<Tae>>> = (0..seats)
            .map(|s| bots::bot(if s == 0 { "greedy" } else { "random" }, 7 + s as u64).unwrap())
            .collect();
        assert_replay_identical::<Tae>(
            &Config::default(),
            &mut players,
            11 + seats as u64,
            LocalOptions::default(),
        );
    }
}

#[test]
fn bot_names_resolve() {
    for name in bots::BOT_NAMES {
        assert!(bots::bot(name, 1).is_some(), "{name}");
    }
    assert!(bots::bot("nobody", 1).is_none());
}

#[test]
fn bad_configs_and_seat_counts_are_refused() {
    let config = Config::default();
    for seats in [0, 1, 5] {
        let err = Tae::new(&config, seats, 1).unwrap_err();
        assert!(err.0.contains("seats"), "{err}");
    }
    let registry = {
        let mut r = Registry::new();
        r.register::<Tae>();
        r
    };
    let game = registry.get("tae").unwrap();
    assert_eq!(game.name(), "Tigris & Euphrates in space");
    let err = game
        .new_state(&serde_json::json!({ "board": "..x\n...\n" }), 2, 1)
        .err()
        .unwrap();
    assert!(err.0.contains("unknown character 'x'"), "{err}");
    let err = game
        .new_state(&serde_json::json!({ "board": "AAA\nAA\n" }), 2, 1)
        .err()
        .unwrap();
    assert!(err.0.contains("not rectangular"), "{err}");
    assert!(game
        .new_state(&serde_json::json!({ "hand_size": 99 }), 2, 1)
        .err()
        .unwrap()
        .0
        .contains("hand_size"));
    assert!(game
        .new_state(&serde_json::json!({ "colour": "red" }), 2, 1)
        .is_err());
    // A custom board with its own bag plays to the end.
    let custom = serde_json::json!({
        "board": "A..M..A\n.......\n..MMM..\n.......\nA..M..A\n",
        "bag": { "scientist": 20, "mining": 10, "merchant": 10, "settler": 10 },
        "leaders": ["merchant", "settler"],
        "bombers": 1,
    });
    let mut state = game.new_state(&custom, 3, 5).unwrap();
    let mut rng = seeded_rng(5);
    for _ in 0..MAX_DECISIONS {
        let Turn::One(seat) = state.to_act() else {
            break;
        };
        let legal = state.legal(seat);
        let action = legal.choose(&mut rng).unwrap();
        state.apply(seat, action).unwrap();
    }
    assert!(state.outcome().is_some());
}

#[test]
fn the_default_action_is_accepted_at_every_prompt() {
    // Answering every prompt with `Action::default()` (what a referee sends for a
    // timeout) always makes progress and ends the game.
    for seats in 2..=4 {
        let mut state = Tae::new(&Config::default(), seats, seats as u64).unwrap();
        let mut rng = seeded_rng(99);
        let mut steps = 0usize;
        while let Turn::One(seat) = Tae::to_act(&state) {
            // Alternate: a random legal action, then the default.
            let action = if steps.is_multiple_of(2) {
                Tae::legal(&state, seat).choose(&mut rng).unwrap().clone()
            } else {
                Default::default()
            };
            Tae::apply(&mut state, seat, &action).unwrap();
            steps += 1;
            assert!(steps < MAX_DECISIONS);
        }
    }
}
