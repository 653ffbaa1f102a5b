//! Property tests: the engine battery over random configurations, and Space Crack's
//! own properties (resignations and timeouts, ranking by planets, public views).

use arbiter_engine::erased::apply_checked;
use arbiter_engine::local::{play_local, LocalOptions};
use arbiter_engine::testkit::Battery;
use arbiter_engine::{seeded_rng, Bot, Game, GameRng, Seat, Turn};
use arbiter_spacecrack::config::{BuildOnOccupied, PerimeterMode, TurnMode};
use arbiter_spacecrack::{bots, Action, Config, SpaceCrack, State};
use proptest::prelude::*;
use rand::seq::IndexedRandom;
use rand::Rng;

/// Every audience's view, spectator first, serialized.
fn all_views(state: &State) -> Vec<String> {
    std::iter::once(None)
        .chain((0..state.seat_count()).map(Some))
        .map(|seat| serde_json::to_string(&SpaceCrack::view(state, seat)).unwrap())
        .collect()
}

/// Nothing is hidden: every seat's view equals the spectator's, byte for byte.
fn assert_views_public(state: &State) {
    let views = all_views(state);
    for view in &views[1..] {
        assert_eq!(view, &views[0]);
    }
}

/// The invariants of background §2.4 and the point cap.
fn assert_invariants(state: &State) {
    let config = state.config();
    for ship in state.ships() {
        let planet = &state.planets()[ship.planet];
        assert_eq!(planet.ship, Some(ship.id), "I1: the planet knows its ship");
        assert_eq!(
            planet.owner,
            Some(ship.owner),
            "I2: ships stand on own planets"
        );
        assert!(ship.size >= 1);
    }
    let on_planets = state.planets().iter().filter(|p| p.ship.is_some()).count();
    assert_eq!(on_planets, state.ships().count(), "I1: one ship per planet");
    for player in state.players() {
        assert!(player.command_points <= config.carry_cap() + config.command_points);
    }
    // `is_stuck` in one pass says what its definition (background §2.5) says.
    for seat in 0..=state.players().len() {
        let stuck = !state.has_ships(seat)
            && !(0..state.planets().len()).any(|p| state.can_build_on(seat, p));
        assert_eq!(state.is_stuck(seat), stuck, "seat {seat} stuck");
    }
    match SpaceCrack::to_act(state) {
        Turn::Over => assert!(state.is_over()),
        Turn::AnyOf(seats) => {
            assert!(!seats.is_empty(), "a live turn always has someone to act");
            for seat in seats {
                assert!(!SpaceCrack::legal(state, seat).is_empty());
            }
        }
        Turn::One(seat) => assert!(!SpaceCrack::legal(state, seat).is_empty()),
        Turn::Sealed(_) => panic!("Space Crack has no sealed turns"),
    }
}

fn config_strategy() -> impl Strategy<Value = Config> {
    (
        (5u32..=12, prop::sample::select(vec![5u32, 8, 12, 16])),
        (2u32..=10, prop::option::of(0u32..=20), any::<bool>()),
        (
            prop::sample::select(vec![TurnMode::Concurrent, TurnMode::Sequential]),
            prop::sample::select(vec![BuildOnOccupied::Reject, BuildOnOccupied::Merge]),
            any::<bool>(),
            any::<bool>(),
        ),
        (
            0u32..=100,
            prop::sample::select(vec![
                PerimeterMode::FrontierCrack,
                PerimeterMode::DefenderEdge,
            ]),
            10u32..=100,
            0u32..=100,
        ),
    )
        .prop_map(
            |(
                (turns, board_size),
                (command_points, cp_carry_cap, allow_pass),
                (turn_mode, build_on_occupied, end_on_elimination, symmetric_sizes),
                (perimeter_bonus, perimeter_mode, crack_pct, interior_bonus),
            )| Config {
                turns,
                board_size,
                command_points,
                crack_pct,
                interior_bonus,
                allow_pass,
                cp_carry_cap,
                turn_timeout_secs: 0,
                turn_mode,
                build_on_occupied,
                end_on_elimination,
                symmetric_sizes,
                perimeter_bonus,
                perimeter_mode,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// At every state of a random game, for every seat (and one past the last):
    /// `random_action` draws the very action `legal(..).choose(rng)` draws and leaves
    /// the generator where the default leaves it.
    #[test]
    fn random_action_draws_what_the_list_draws(seed: u64, seats in 1usize..=4, config in config_strategy()) {
        let mut state = SpaceCrack::new(&config, seats, seed).unwrap();
        let mut rng: GameRng = seeded_rng(seed ^ 0xD8A5);
        for _ in 0..2_000 {
            for seat in 0..=seats {
                let mut ours = rng.clone();
                let drawn = SpaceCrack::random_action(&state, seat, &mut ours);
                let expected = SpaceCrack::legal(&state, seat).choose(&mut rng).cloned();
                prop_assert_eq!(&drawn, &expected, "seat {}", seat);
                prop_assert!(ours == rng, "seat {}: the generator moved differently", seat);
            }
            let Some(seat) = SpaceCrack::playout_seat(&state, &mut rng) else {
                break;
            };
            let action = SpaceCrack::random_action(&state, seat, &mut rng)
                .expect("a seat to act has an action");
            SpaceCrack::apply(&mut state, seat, &action).unwrap();
        }
        prop_assert!(state.is_over(), "the game ended");
    }

    /// The engine's one battery (random play ends, honest turns, refused moves change
    /// nothing, no leak, rebuilding from views, determinism, replay equals the live
    /// game) on a configuration that switches any rule option, with Space Crack's own
    /// invariants after every step.
    #[test]
    fn the_engine_battery_passes(config in config_strategy()) {
        Battery::<SpaceCrack> {
            configs: vec![config],
            games: 1,
            eject_one_in: Some(150),
            check_every: 3,
            invariants: |state| {
                assert_invariants(state);
                Ok(())
            },
            ..Battery::new()
        }
        .run();
    }

    /// Random legal play, with the occasional timeout, resignation and ejection, never
    /// panics, keeps the invariants, and ends within turns × seats × (most points + 1)
    /// decisions (every action spends a point or finishes its seat's turn).
    #[test]
    fn random_play_is_safe_and_ends(seed: u64, seats in 1usize..=4, config in config_strategy()) {
        let mut state = SpaceCrack::new(&config, seats, seed).unwrap();
        let mut rng: GameRng = seeded_rng(seed ^ 0xC0FFEE);
        let bound = config.turns as usize
            * seats
            * (config.carry_cap() + config.command_points + 1) as usize;
        let mut decisions = 0usize;
        assert_invariants(&state);
        while let Some(&seat) = SpaceCrack::to_act(&state).seats().choose(&mut rng) {
            decisions += 1;
            prop_assert!(decisions <= bound, "not over after {bound} decisions");
            let roll = rng.random_range(0..1000);
            if roll < 3 {
                SpaceCrack::eject(&mut state, seat, "test ejection");
            } else {
                let action = match roll {
                    3..=5 => Action::Resign,
                    6..=20 => Action::TurnTimeout,
                    _ => SpaceCrack::legal(&state, seat).choose(&mut rng).cloned().unwrap(),
                };
                let result = SpaceCrack::apply(&mut state, seat, &action);
                prop_assert!(result.is_ok(), "{action:?} refused: {result:?}");
            }
            assert_invariants(&state);
            assert_views_public(&state);
        }
        prop_assert!(state.is_over());
        let outcome = SpaceCrack::outcome(&state).unwrap();
        prop_assert_eq!(outcome.ranks.len(), seats);
        let winners = outcome.winners();
        for seat in 0..seats {
            let ejected = state.players()[seat].ejected.is_some();
            prop_assert_eq!(outcome.ejected[seat].is_some(), ejected);
            prop_assert_eq!(outcome.scores[seat], state.planet_count(seat) as i64);
            if !ejected && !winners.is_empty() {
                let best = winners[0];
                let key = |s: Seat| (state.planet_count(s), state.players()[s].crack);
                prop_assert!(key(seat) <= key(best));
                prop_assert_eq!(winners.contains(&seat), key(seat) == key(best));
            }
        }
    }
}

#[test]
fn illegal_actions_through_the_engine_change_nothing() {
    let mut state = SpaceCrack::new(&Config::default(), 2, 11).unwrap();
    let before = serde_json::to_string(&state).unwrap();
    let attempts = [
        (0, Action::MoveShip { ship: 1, planet: 0 }),
        (
            0,
            Action::MoveShip {
                ship: 0,
                planet: 44,
            },
        ),
        (1, Action::BuildShip { planet: 44 }),
        (5, Action::EndTurn),
    ];
    for (seat, action) in attempts {
        assert!(apply_checked::<SpaceCrack>(&mut state, 2, seat, &action).is_err());
        assert_eq!(serde_json::to_string(&state).unwrap(), before);
    }
}

#[test]
fn greedy_beats_random() {
    let config = Config::default();
    let mut greedy_wins = 0;
    let games = 8;
    for seed in 0..games {
        let greedy_seat = (seed % 2) as usize;
        let mut players: Vec<Box<dyn Bot<SpaceCrack>>> = (0..2)
            .map(|s| {
                let name = if s == greedy_seat { "greedy" } else { "random" };
                bots::bot(name, seed).unwrap()
            })
            .collect();
        let names = vec!["a".into(), "b".into()];
        let played =
            play_local::<SpaceCrack>(&config, names, &mut players, seed, LocalOptions::default())
                .unwrap();
        let outcome = played.record.outcome.unwrap();
        if outcome.winners() == vec![greedy_seat] {
            greedy_wins += 1;
        }
    }
    assert!(greedy_wins >= 7, "greedy won only {greedy_wins} of {games}");
}

#[test]
fn bot_names() {
    assert_eq!(bots::BOT_NAMES, &["random", "greedy"]);
    for name in bots::BOT_NAMES {
        assert!(bots::bot(name, 1).is_some());
    }
    assert!(bots::bot("nobody", 1).is_none());
}

#[test]
fn greedy_takes_a_planet_when_it_can() {
    let mut state = SpaceCrack::new(&Config::default(), 2, 5).unwrap();
    let mut greedy = bots::bot("greedy", 0).unwrap();
    let before = state.planet_count(0);
    let action = greedy.decide(&state, 0);
    assert!(matches!(action, Action::MoveShip { .. }), "{action:?}");
    SpaceCrack::apply(&mut state, 0, &action).unwrap();
    assert_eq!(state.planet_count(0), before + 1);
}
