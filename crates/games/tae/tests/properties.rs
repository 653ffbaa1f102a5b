//! Property tests: random play ends and keeps every invariant, replays are byte
//! identical, and no view (or determinized state) leaks another seat's secrets.

use proptest::prelude::*;
use rand::seq::IndexedRandom;
use rand::Rng;

use arbiter_engine::local::{play_local, LocalOptions};
use arbiter_engine::record::LogEntry;
use arbiter_engine::testkit::assert_state_from_view_round_trips;
use arbiter_engine::{seeded_rng, Bot, Game, Registry, Seat, Turn};
use arbiter_tae::{bots, Event, Tae, TaeConfig, TaeState};

/// More decisions than any game can take: each turn draws from a finite bag, and a
/// random player consumes colonists often.
const MAX_DECISIONS: usize = 20_000;

/// Every audience's view, serialized (spectator first).
fn all_views(state: &TaeState) -> Vec<String> {
    std::iter::once(None)
        .chain((0..state.seats()).map(Some))
        .map(|a| serde_json::to_string(&Tae::view(state, a)).unwrap())
        .collect()
}

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
fn check_view_secrecy(state: &TaeState) {
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
    let mut state = Tae::new(&TaeConfig::default(), seats, seed).unwrap();
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

    #[test]
    fn random_play_ends_and_keeps_the_invariants(seed in any::<u64>(), seats in 2usize..=4) {
        let steps = random_game(seats, seed, None);
        prop_assert!(steps > 0);
    }

    #[test]
    fn random_play_with_ejections_ends(seed in any::<u64>(), seats in 2usize..=4) {
        random_game(seats, seed, Some(60));
    }
}

/// Views of `seat` (and spectators) do not change when the secrets `seat` does not know
/// are re-drawn, and determinizing either state gives the same sample.
fn check_no_leak(state: &TaeState, seat: Seat, salt: u64) {
    let other = Tae::determinize(state, seat, &mut seeded_rng(salt));
    assert_eq!(
        serde_json::to_string(&Tae::view(state, Some(seat))).unwrap(),
        serde_json::to_string(&Tae::view(&other, Some(seat))).unwrap(),
        "seat {seat}'s view depends on secrets it does not know"
    );
    assert_eq!(
        serde_json::to_string(&Tae::view(state, None)).unwrap(),
        serde_json::to_string(&Tae::view(&other, None)).unwrap(),
        "the spectator view depends on secrets"
    );
    let a = Tae::determinize(state, seat, &mut seeded_rng(salt ^ 1));
    let b = Tae::determinize(&other, seat, &mut seeded_rng(salt ^ 1));
    assert_eq!(
        serde_json::to_string(&a).unwrap(),
        serde_json::to_string(&b).unwrap(),
        "determinize for seat {seat} depends on secrets it does not know"
    );
    // The sample keeps every public count and the seat's own secrets.
    assert_eq!(a.bag_count(), state.bag_count());
    for s in 0..state.seats() {
        let (p, q) = (&a.players()[s], &state.players()[s]);
        assert_eq!(p.hand.total(), q.hand.total());
        assert_eq!(p.discarded.total(), q.discarded.total());
        if s == seat {
            assert_eq!(p, q);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn views_and_determinize_leak_nothing(seed in any::<u64>(), seats in 2usize..=4) {
        let mut state = Tae::new(&TaeConfig::default(), seats, seed).unwrap();
        let mut rng = seeded_rng(seed ^ 0x1EAC);
        let mut step = 0u64;
        while let Turn::One(seat) = Tae::to_act(&state) {
            if step.is_multiple_of(7) {
                for s in 0..seats {
                    check_no_leak(&state, s, seed.wrapping_add(step));
                }
            }
            let legal = Tae::legal(&state, seat);
            let action = legal.choose(&mut rng).unwrap().clone();
            Tae::apply(&mut state, seat, &action).unwrap();
            step += 1;
        }
    }

    #[test]
    fn replays_are_byte_identical(seed in any::<u64>(), seats in 2usize..=4) {
        let mut players: Vec<Box<dyn Bot<Tae>>> = (0..seats)
            .map(|s| bots::bot("random", seed.wrapping_add(s as u64)).unwrap())
            .collect();
        check_replay(&mut players, seed, seats);
    }
}

/// The default game, or a small custom board with its own bag and only merchant and
/// settler leaders (harvest claims and an early end come often there).
fn some_config(custom: bool) -> TaeConfig {
    if !custom {
        return TaeConfig::default();
    }
    serde_json::from_value(serde_json::json!({
        "board": "A..M..A\n.......\n..MMM..\n.......\nA..M..A\n",
        "bag": { "scientist": 20, "mining": 10, "merchant": 10, "settler": 10 },
        "leaders": ["merchant", "settler"],
        "bombers": 1,
    }))
    .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, failure_persistence: None, ..ProptestConfig::default() })]

    /// Every seat rebuilds, from its view's JSON alone, a state that shows it the same
    /// view and offers it the same moves, at every step of random play (with the odd
    /// ejection) to the end, when every hand is shown.
    #[test]
    fn every_seat_rebuilds_a_state_from_its_view_alone(seed in any::<u64>(), seats in 2usize..=4, custom in any::<bool>()) {
        let config = some_config(custom);
        let mut state = Tae::new(&config, seats, seed).unwrap();
        let mut rng = seeded_rng(seed ^ 0x5EE);
        let mut step = 0u64;
        assert_state_from_view_round_trips::<Tae>(&config, &state, seats, seed);
        while let Turn::One(seat) = Tae::to_act(&state) {
            if rng.random_range(0..300) == 0 {
                Tae::eject(&mut state, seat, "test ejection");
            } else {
                let legal = Tae::legal(&state, seat);
                let action = legal.choose(&mut rng).unwrap().clone();
                Tae::apply(&mut state, seat, &action).unwrap();
            }
            step += 1;
            assert_state_from_view_round_trips::<Tae>(&config, &state, seats, seed ^ step);
        }
        prop_assert!(state.is_over());
    }
}

/// Play with `play_local`, re-apply the record's log to a typed state (the live game),
/// replay it through the registry with digest verification, and compare every
/// audience's view at every step and the outcome.
fn check_replay(players: &mut [Box<dyn Bot<Tae>>], seed: u64, seats: usize) {
    let names = (0..seats).map(|s| format!("seat{s}")).collect();
    let config = TaeConfig::default();
    let played = play_local::<Tae>(&config, names, players, seed, LocalOptions::default()).unwrap();
    let record = played.record;
    assert!(played.state.is_over());

    let mut live = Tae::new(&config, seats, seed).unwrap();
    let mut live_views = vec![all_views(&live)];
    for entry in &record.log {
        match entry {
            LogEntry::Act { seat, action, .. } => {
                let action = serde_json::from_value(action.clone()).unwrap();
                Tae::apply(&mut live, *seat, &action).unwrap();
            }
            LogEntry::Eject { seat, reason, .. } => {
                Tae::eject(&mut live, *seat, reason);
            }
        }
        live_views.push(all_views(&live));
    }
    assert_eq!(
        serde_json::to_string(&live).unwrap(),
        serde_json::to_string(&played.state).unwrap()
    );

    let mut registry = Registry::new();
    registry.register::<Tae>();
    let mut replay_views = Vec::new();
    let replayed = registry
        .replay_with(&record, true, |_, state| {
            let views: Vec<String> = std::iter::once(None)
                .chain((0..seats).map(Some))
                .map(|a| serde_json::to_string(&state.view(a)).unwrap())
                .collect();
            replay_views.push(views);
        })
        .unwrap();
    assert_eq!(replay_views.len(), live_views.len());
    for (step, (a, b)) in live_views.iter().zip(&replay_views).enumerate() {
        assert_eq!(a, b, "views differ at step {step}");
    }
    assert_eq!(replayed.outcome(), Tae::outcome(&played.state));
    assert_eq!(replayed.outcome(), record.outcome);
}

#[test]
fn a_greedy_match_replays_identically() {
    for seats in [2, 3] {
        let mut players: Vec<Box<dyn Bot<Tae>>> = (0..seats)
            .map(|s| bots::bot(if s == 0 { "greedy" } else { "random" }, 7 + s as u64).unwrap())
            .collect();
        check_replay(&mut players, 11 + seats as u64, seats);
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
    let config = TaeConfig::default();
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
        let mut state = Tae::new(&TaeConfig::default(), seats, seats as u64).unwrap();
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
