//! Property tests: the engine battery over round limits, sealed commands never show, the battle keeps its invariants, the parsers never panic.

use arbiter_engine::digest::digest_of;
use arbiter_engine::local::{play_local, LocalOptions};
use arbiter_engine::testkit::{assert_state_from_view_round_trips, Battery};
use arbiter_engine::{Bot, Game, Turn};
use arbiter_spacegoo::{
    battle, battle_harness, bots, parse_command, reasons, Action, Config, SendOrder, Spacegoo,
    State,
};
use proptest::prelude::*;

fn all_views(state: &State) -> Vec<String> {
    std::iter::once(None)
        .chain((0..2).map(Some))
        .map(|seat| serde_json::to_string(&Spacegoo::view(state, seat)).unwrap_or_default())
        .collect()
}

fn seats(names: [&str; 2], seed: u64) -> Vec<Box<dyn Bot<Spacegoo>>> {
    names
        .iter()
        .enumerate()
        .filter_map(|(i, name)| bots::bot(name, seed.wrapping_mul(31).wrapping_add(i as u64)))
        .collect()
}

fn config(max_rounds: u32) -> Config {
    Config {
        max_rounds,
        ..Config::default()
    }
}

/// Any command, including useless and disqualifying ones.
fn any_action() -> impl Strategy<Value = Action> {
    prop_oneof![
        2 => Just(Action::Nop),
        6 => (0i64..8, 0i64..8, prop::array::uniform3(0i64..80))
            .prop_map(|(origin, target, ships)| Action::Send(SendOrder { origin, target, ships })),
        1 => (-3i64..25, -3i64..25, prop::array::uniform3(-5i64..200))
            .prop_map(|(origin, target, ships)| Action::Send(SendOrder { origin, target, ships })),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// The engine's one battery (random play ends, honest turns, refused moves change
    /// nothing, no leak, rebuilding from views, determinism, replay equals the live
    /// game), here ending within the round limit: at most two decisions a round.
    #[test]
    fn the_engine_battery_passes(max_rounds in prop_oneof![1u32..60, Just(500u32)]) {
        Battery::<Spacegoo> {
            configs: vec![config(max_rounds)],
            games: 1,
            max_decisions: 2 * max_rounds as usize + 2,
            max_seats: 2,
            eject_one_in: Some(400),
            check_every: 5,
            ..Battery::new()
        }
        .run();
    }

    /// Arbitrary commands in any order never panic; refused ones change nothing; the
    /// game still ends within the limit.
    #[test]
    fn arbitrary_commands_never_panic(seed in any::<u64>(), script in prop::collection::vec((0usize..3, any_action()), 1..400)) {
        let mut state = Spacegoo::new(&config(60), 2, seed).map_err(|e| TestCaseError::fail(e.to_string()))?;
        for (seat, action) in script {
            let before = digest_of(&state);
            if Spacegoo::apply(&mut state, seat, &action).is_err() {
                prop_assert_eq!(digest_of(&state), before);
            }
            for fleet in &state.world().fleets {
                prop_assert!(fleet.ships.iter().all(|&n| n >= 0) && fleet.ships.iter().any(|&n| n > 0));
            }
            prop_assert!(state.world().planets.iter().all(|p| p.ships.iter().all(|&n| n >= 0)));
        }
        let mut guard = 0;
        while let Turn::Sealed(waiting) = Spacegoo::to_act(&state) {
            let events = Spacegoo::apply(&mut state, waiting[0], &Action::Nop);
            prop_assert!(events.is_ok());
            guard += 1;
            prop_assert!(guard <= 120);
        }
    }

    /// Whatever seat submits first (anything but a disqualifying command), the other
    /// seat's view and the spectator's are byte-identical before and after.
    #[test]
    fn sealed_commands_never_show(seed in any::<u64>(), warmup in prop::collection::vec((any_action(), any_action()), 0..30), first in 0usize..2, action in any_action()) {
        let mut state = Spacegoo::new(&config(500), 2, seed).map_err(|e| TestCaseError::fail(e.to_string()))?;
        for (a, b) in warmup {
            if state.game_over() { break; }
            let a = if a.disqualifies().is_some() { Action::Nop } else { a };
            let b = if b.disqualifies().is_some() { Action::Nop } else { b };
            prop_assert!(Spacegoo::apply(&mut state, 0, &a).is_ok());
            prop_assert!(Spacegoo::apply(&mut state, 1, &b).is_ok());
        }
        prop_assume!(!state.game_over() && action.disqualifies().is_none());
        let before = all_views(&state);
        let events = Spacegoo::apply(&mut state, first, &action).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let after = all_views(&state);
        let other = 1 - first;
        prop_assert_eq!(&after[0], &before[0]);
        prop_assert_eq!(&after[other + 1], &before[other + 1]);
        for event in &events {
            prop_assert_eq!(Spacegoo::event_for(event, Some(other)), None);
            prop_assert_eq!(Spacegoo::event_for(event, None), None);
        }
        let sample = Spacegoo::determinize(&state, other, &mut arbiter_engine::seeded_rng(seed));
        prop_assert!(sample.pending_command(first).is_none());
    }

    /// Beyond the battery's random legal play: each seat rebuilds, from its view's JSON
    /// alone, a state that shows it the same view and offers it the same moves after
    /// disqualifying commands and both kinds of named ejection (a missed deadline waits
    /// for the other seat: both missing is a draw).
    #[test]
    fn disqualified_and_missed_rounds_rebuild_from_views(seed in any::<u64>(), script in prop::collection::vec((0usize..2, any_action(), 0u8..80, any::<prop::sample::Index>()), 0..160)) {
        let config = config(60);
        let mut state = Spacegoo::new(&config, 2, seed).map_err(|e| TestCaseError::fail(e.to_string()))?;
        assert_state_from_view_round_trips::<Spacegoo>(&config, &state, 2, seed);
        for (step, (pick, wild, roll, choice)) in script.into_iter().enumerate() {
            let Turn::Sealed(waiting) = Spacegoo::to_act(&state) else { break };
            let seat = waiting[pick % waiting.len()];
            match roll {
                0 => { Spacegoo::eject(&mut state, seat, reasons::NO_COMMAND); }
                1 => { Spacegoo::eject(&mut state, seat, reasons::CONNECTION_LOST); }
                2..=5 => { let _ = Spacegoo::apply(&mut state, seat, &wild); }
                _ => {
                    let legal = Spacegoo::legal(&state, seat);
                    prop_assert!(Spacegoo::apply(&mut state, seat, choice.get(&legal)).is_ok());
                }
            }
            assert_state_from_view_round_trips::<Spacegoo>(&config, &state, 2, seed ^ step as u64);
        }
    }

    /// battle(a, b) mirrors battle(b, a); non-negative inputs give remainders between 0
    /// and the inputs, and a fight leaves at least one side empty.
    #[test]
    fn battle_invariants(a in prop::array::uniform3(0i64..2000), b in prop::array::uniform3(0i64..2000)) {
        let (ra, rb) = battle(a, b);
        let (sb, sa) = battle(b, a);
        prop_assert_eq!((ra, rb), (sa, sb));
        for k in 0..3 {
            prop_assert!(0 <= ra[k] && ra[k] <= a[k]);
            prop_assert!(0 <= rb[k] && rb[k] <= b[k]);
        }
        if a.iter().sum::<i64>() > 0 && b.iter().sum::<i64>() > 0 {
            prop_assert!(ra.iter().sum::<i64>() == 0 || rb.iter().sum::<i64>() == 0);
        } else {
            prop_assert_eq!((ra, rb), (a, b));
        }
    }

    /// The harness and the command parser take any bytes without panicking.
    #[test]
    fn parsers_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300), line in "\\PC{0,80}") {
        let mut out = Vec::new();
        let _ = battle_harness(&bytes[..], &mut out);
        let _ = parse_command(&line);
        let _ = parse_command(&String::from_utf8_lossy(&bytes));
    }

    /// Any 64-bit battle line gets an answer (extreme values terminate).
    #[test]
    fn harness_answers_any_64_bit_battle(a in prop::array::uniform3(any::<i64>()), b in prop::array::uniform3(any::<i64>())) {
        let input = format!("[{a:?},{b:?}]\n");
        let mut out = Vec::new();
        prop_assert_eq!(battle_harness(input.as_bytes(), &mut out), Ok(()));
        prop_assert_eq!(out.iter().filter(|&&c| c == b'\n').count(), 1);
    }
}

#[test]
fn greedy_beats_random_more_often_than_not() {
    let mut greedy_wins = 0;
    let mut random_wins = 0;
    for seed in 0..10u64 {
        let mut bots = seats(["greedy", "random"], seed);
        let played = play_local::<Spacegoo>(
            &Config::default(),
            vec!["g".into(), "r".into()],
            &mut bots,
            seed,
            LocalOptions::default(),
        );
        match played.ok().and_then(|p| p.state.winner()) {
            Some(1) => greedy_wins += 1,
            Some(2) => random_wins += 1,
            _ => {}
        }
    }
    assert!(
        greedy_wins > random_wins,
        "greedy {greedy_wins} vs random {random_wins}"
    );
}
