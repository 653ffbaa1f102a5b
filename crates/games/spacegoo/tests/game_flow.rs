//! The ruleset through the engine's `Game` API: sealed rounds, arrival order, ignored
//! sends, disqualifications, the both-missed draw, the round limit, configs.

use arbiter_engine::digest::digest_of;
use arbiter_engine::{Game, Registry, Turn};
use arbiter_spacegoo::reasons;
use arbiter_spacegoo::{
    reference_state_json, Action, Config, Event, Planet, SendOrder, Spacegoo, State,
};

fn planet(x: i64, y: i64, owner: u8, ships: [i64; 3]) -> Planet {
    let mut p = Planet::new(0, x, y, owner, [0, 0, 0]);
    p.ships = ships;
    p
}

/// Player 1 at (-5,0), player 2 at (5,0), a neutral planet at the centre.
fn duel() -> State {
    State::with_planets(
        &Config::default(),
        vec![
            planet(-5, 0, 1, [30, 0, 0]),
            planet(5, 0, 2, [0, 20, 0]),
            planet(0, 0, 0, [3, 3, 3]),
        ],
    )
}

fn views(state: &State) -> [String; 3] {
    let show = |seat| serde_json::to_string(&Spacegoo::view(state, seat)).unwrap_or_default();
    [show(None), show(Some(0)), show(Some(1))]
}

fn act(state: &mut State, seat: usize, action: Action) -> Vec<Event> {
    match Spacegoo::apply(state, seat, &action) {
        Ok(events) => events,
        Err(illegal) => panic!("seat {seat} {action:?} refused: {illegal}"),
    }
}

#[test]
fn a_pending_send_is_invisible_to_the_other_seat_and_spectators() {
    let mut state = duel();
    let before = views(&state);
    act(&mut state, 0, Action::send(0, 2, [30, 0, 0]));
    let after = views(&state);
    assert_eq!(after[0], before[0], "spectator view changed");
    assert_eq!(after[2], before[2], "seat 1's view changed");
    assert_ne!(after[1], before[1]);
    assert!(after[1].contains(r#""your_command":{"send""#));
    assert_eq!(
        reference_state_json(&state, 2, ["a", "b"]),
        reference_state_json(&duel(), 2, ["a", "b"])
    );
    assert_eq!(Spacegoo::to_act(&state), Turn::Sealed(vec![1]));
    // The opponent's sample of the state does not hold the sealed command either.
    let sample = Spacegoo::determinize(&state, 1, &mut arbiter_engine::seeded_rng(0));
    assert!(sample.pending_command(0).is_none());
    assert_eq!(Spacegoo::to_act(&sample), Turn::Sealed(vec![0, 1]));
}

#[test]
fn the_round_resolves_when_both_commands_are_in() {
    let mut state = duel();
    let events = act(&mut state, 0, Action::send(0, 2, [30, 0, 0]));
    assert_eq!(events.len(), 1);
    assert_eq!(Spacegoo::event_for(&events[0], Some(1)), None);
    assert_eq!(Spacegoo::event_for(&events[0], None), None);
    assert!(Spacegoo::event_for(&events[0], Some(0)).is_some());

    let events = act(&mut state, 1, Action::Nop);
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::RoundResolved { round: 1 })));
    let world = state.world();
    assert_eq!(world.round, 1);
    assert_eq!(world.fleets.len(), 1);
    assert_eq!(world.fleets[0].id, 0);
    assert_eq!(world.fleets[0].eta, 5);
    assert_eq!(world.planets[0].ships, [0, 0, 0]);
    assert_eq!(Spacegoo::to_act(&state), Turn::Sealed(vec![0, 1]));
}

#[test]
fn fleet_ids_follow_arrival_order() {
    let mut state = duel();
    act(&mut state, 1, Action::send(1, 2, [0, 20, 0]));
    act(&mut state, 0, Action::send(0, 2, [30, 0, 0]));
    let fleets = &state.world().fleets;
    assert_eq!((fleets[0].id, fleets[0].owner_id), (0, 2));
    assert_eq!((fleets[1].id, fleets[1].owner_id), (1, 1));
    // E4 through the game: five more rounds and player 1 holds the centre.
    for _ in 0..5 {
        act(&mut state, 0, Action::Nop);
        act(&mut state, 1, Action::Nop);
    }
    let centre = &state.world().planets[2];
    assert_eq!((centre.owner_id, centre.ships), (1, [18, 0, 0]));
}

#[test]
fn a_second_command_is_refused_and_changes_nothing() {
    let mut state = duel();
    act(&mut state, 0, Action::Nop);
    let digest = digest_of(&state);
    let refused = Spacegoo::apply(&mut state, 0, &Action::Nop);
    assert_eq!(
        refused.map_err(|e| e.code),
        Err("more_than_one_command".into())
    );
    assert_eq!(digest_of(&state), digest);
    // The referee disqualifies for it.
    Spacegoo::eject(&mut state, 0, reasons::MORE_THAN_ONE_COMMAND);
    assert_eq!(state.winner(), Some(2));
    assert_eq!(
        state.end().map(|e| e.reason.as_str()),
        Some("player 1 disqualified: sent more than one command")
    );
}

#[test]
fn ignored_sends_still_use_the_round() {
    let mut state = duel();
    act(&mut state, 0, Action::send(1, 2, [5, 5, 5])); // not player 1's planet
    assert_eq!(Spacegoo::to_act(&state), Turn::Sealed(vec![1]));
    let events = act(&mut state, 1, Action::send(1, 1, [1, 1, 1])); // same planet
    let ignored = events
        .iter()
        .filter(|e| matches!(e, Event::SendIgnored { .. }))
        .count();
    assert_eq!(ignored, 2);
    assert!(state.world().fleets.is_empty());
    assert_eq!(state.world().round, 1);
}

#[test]
fn negative_numbers_disqualify_and_the_earlier_send_stands() {
    let mut state = duel();
    act(&mut state, 1, Action::send(1, 2, [0, 7, 0]));
    let events = act(
        &mut state,
        0,
        Action::Send(SendOrder {
            origin: 0,
            target: 2,
            ships: [1, -1, 0],
        }),
    );
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::Disqualified { seat: 0, .. })));
    assert_eq!(Spacegoo::to_act(&state), Turn::Over);
    assert_eq!(state.winner(), Some(2));
    assert_eq!(
        state.end().map(|e| e.reason.as_str()),
        Some("player 1 disqualified: sent negative amount of ships")
    );
    // The reference applied player 2's send on receipt: the final state shows it.
    assert_eq!(state.world().fleets.len(), 1);
    assert_eq!(state.world().planets[1].ships, [0, 13, 0]);
    let outcome = Spacegoo::outcome(&state);
    assert_eq!(outcome.as_ref().map(|o| o.ranks.clone()), Some(vec![2, 1]));
    assert_eq!(
        outcome.and_then(|o| o.ejected[0].clone()).as_deref(),
        Some(reasons::NEGATIVE_SHIPS)
    );
    let line = reference_state_json(&state, 1, ["a", "b"]);
    assert!(line.contains(r#""game_over": true, "winner": 2, "#));
    assert!(Spacegoo::apply(&mut state, 1, &Action::Nop).is_err());
}

/// Playouts apply without events (`apply_quietly`); a disqualifying send, which legal
/// play never makes, must still end the game exactly as `apply` ends it.
#[test]
fn a_quiet_disqualifying_send_ends_the_game_as_apply_does() {
    let negative = Action::Send(SendOrder {
        origin: 0,
        target: 2,
        ships: [1, -1, 0],
    });
    let (mut loud, mut quiet) = (duel(), duel());
    act(&mut loud, 1, Action::send(1, 2, [0, 7, 0]));
    assert!(Spacegoo::apply_quietly(&mut quiet, 1, &Action::send(1, 2, [0, 7, 0])).is_ok());
    act(&mut loud, 0, negative.clone());
    assert!(Spacegoo::apply_quietly(&mut quiet, 0, &negative).is_ok());
    assert_eq!(Spacegoo::to_act(&quiet), Turn::Over);
    assert_eq!(digest_of(&quiet), digest_of(&loud));
    assert!(Spacegoo::apply_quietly(&mut quiet, 1, &Action::Nop).is_err());
}

#[test]
fn both_missing_the_deadline_is_a_draw() {
    let mut state = duel();
    Spacegoo::eject(&mut state, 0, reasons::NO_COMMAND);
    assert!(!state.game_over(), "waits for the other seat's fate");
    assert_eq!(Spacegoo::to_act(&state), Turn::Sealed(vec![1]));
    Spacegoo::eject(&mut state, 1, "timeout: no answer within 3000 ms");
    assert!(state.game_over());
    assert_eq!(state.winner(), None);
    assert_eq!(
        state.end().map(|e| e.reason.as_str()),
        Some(reasons::BOTH_MISSED)
    );
    let outcome = Spacegoo::outcome(&state);
    assert_eq!(outcome.as_ref().map(|o| o.ranks.clone()), Some(vec![1, 1]));
    assert!(outcome.is_some_and(|o| o.is_draw()));
    assert!(reference_state_json(&state, 1, ["a", "b"]).contains(r#""winner": null"#));
}

#[test]
fn one_missed_deadline_loses() {
    let mut state = duel();
    act(&mut state, 1, Action::Nop);
    Spacegoo::eject(&mut state, 0, reasons::NO_COMMAND);
    assert_eq!(state.winner(), Some(2));
    assert_eq!(
        state.end().map(|e| e.reason.as_str()),
        Some("player 1 disqualified: no command sent")
    );
    // A deadline ejection before the other seat answered waits; its answer ends it.
    let mut state = duel();
    Spacegoo::eject(&mut state, 1, reasons::NO_COMMAND);
    act(&mut state, 0, Action::send(0, 2, [1, 0, 0]));
    assert_eq!(state.winner(), Some(1));
    assert_eq!(state.world().fleets.len(), 1);
}

#[test]
fn a_lost_connection_ends_the_game_at_once() {
    let mut state = duel();
    Spacegoo::eject(&mut state, 1, reasons::CONNECTION_LOST);
    assert_eq!(state.winner(), Some(1));
    assert_eq!(
        state.end().map(|e| e.reason.as_str()),
        Some("player 2 disqualified: connection lost")
    );
    let again = Spacegoo::eject(&mut state, 0, reasons::CONNECTION_LOST);
    assert!(again.is_empty());
    assert_eq!(state.winner(), Some(1));
}

#[test]
fn e1_through_the_game_ends_with_a_win_and_the_final_line() {
    let mut state = State::with_planets(
        &Config::default(),
        vec![planet(0, 0, 1, [1, 7, 12]), planet(4, 0, 2, [7, 7, 10])],
    );
    act(&mut state, 0, Action::send(0, 1, [1, 7, 12]));
    act(&mut state, 1, Action::Nop);
    for _ in 0..4 {
        act(&mut state, 0, Action::Nop);
        act(&mut state, 1, Action::Nop);
    }
    assert!(state.game_over());
    assert_eq!(state.winner(), Some(1));
    assert_eq!(state.world().round, 5);
    assert_eq!(state.end().map(|e| e.reason.as_str()), Some("player 1 won"));
    let line = reference_state_json(&state, 2, ["carol", "dave"]);
    assert!(line.contains(r#""owner_id": 1, "ships": [0, 0, 0]"#));
    assert!(line.contains(
        r#""round": 5, "max_rounds": 500, "player_id": 2, "game_over": true, "winner": 1, "#
    ));
}

#[test]
fn the_round_limit_draws() {
    let config = Config {
        max_rounds: 3,
        ..Config::default()
    };
    let mut state = Spacegoo::new(&config, 2, 11).unwrap_or_else(|e| panic!("{e}"));
    for _ in 0..3 {
        act(&mut state, 0, Action::Nop);
        act(&mut state, 1, Action::Nop);
    }
    assert_eq!(Spacegoo::to_act(&state), Turn::Over);
    assert_eq!(state.winner(), None);
    assert_eq!(
        state.end().map(|e| e.reason.as_str()),
        Some("game is a draw")
    );
    assert_eq!(Spacegoo::outcome(&state).map(|o| o.ranks), Some(vec![1, 1]));
}

#[test]
fn legal_lists_nop_and_valid_sends_only_for_waiting_seats() {
    let mut state = duel();
    let legal = Spacegoo::legal(&state, 0);
    assert_eq!(legal[0], Action::Nop);
    // Planet 0 → planets 1 and 2, all and half: 4 sends.
    assert_eq!(legal.len(), 5);
    assert!(legal.iter().all(|a| a.disqualifies().is_none()));
    act(&mut state, 0, Action::Nop);
    assert!(Spacegoo::legal(&state, 0).is_empty());
    assert!(!Spacegoo::legal(&state, 1).is_empty());
}

#[test]
fn bad_configs_are_refused_with_the_field_named() {
    let error = |config: &Config, seats| {
        Spacegoo::new(config, seats, 1)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    };
    assert!(error(&Config::default(), 3).contains("exactly 2 seats, got 3"));
    assert!(error(&Config::default(), 1).contains("exactly 2 seats, got 1"));
    let zero_rounds = Config {
        max_rounds: 0,
        ..Config::default()
    };
    assert!(error(&zero_rounds, 2).contains("max_rounds must be between 1 and 100000, got 0"));
    let no_deadline = Config {
        deadline_ms: 5,
        ..Config::default()
    };
    assert!(error(&no_deadline, 2).contains("deadline_ms must be between 100 and 600000, got 5"));

    let mut registry = Registry::new();
    registry.register::<Spacegoo>();
    let game = registry.get("spacegoo");
    let game = game.as_deref().unwrap_or_else(|| panic!("registered"));
    assert_eq!(game.name(), "Rocket Scissor Spacegoo");
    let typo = serde_json::json!({ "max_round": 10 });
    let refused = game.normalize_config(&typo).err().map(|e| e.to_string());
    assert!(refused.unwrap_or_default().contains("max_round"));
    let normal = game.normalize_config(&serde_json::Value::Null).ok();
    assert_eq!(
        normal,
        Some(serde_json::json!({ "max_rounds": 500, "deadline_ms": 3000 }))
    );
}
