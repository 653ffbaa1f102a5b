//! Rule scenarios on hand-made positions (background §2.5–2.11), built with
//! `arbiter_spacecrack::scenario`.

use arbiter_engine::{Game, Seat, Turn};

use arbiter_spacecrack::board::{Board, PlanetId};
use arbiter_spacecrack::config::{BuildOnOccupied, PerimeterMode, TurnMode};
use arbiter_spacecrack::events::{BattleResult, FinishReason};
use arbiter_spacecrack::scenario::{blank, next_ship_id, own, set_crack, set_size, settle, ship};
use arbiter_spacecrack::state::{ShipId, State, Status};
use arbiter_spacecrack::{rules, Action, Config, Event, SpaceCrack, SpaceCrackError};

/// The planet at (x, y) on the default board (every scenario uses board size 12).
fn at(x: u32, y: u32) -> PlanetId {
    Board::new(12).at(x, y).unwrap()
}

fn act(state: &mut State, seat: Seat, action: Action) -> Vec<Event> {
    SpaceCrack::apply(state, seat, &action).unwrap()
}

fn refuse(state: &mut State, seat: Seat, action: Action) -> SpaceCrackError {
    let before = serde_json::to_string(&*state).unwrap();
    let error = rules::apply(state, seat, &action).unwrap_err();
    assert_eq!(
        serde_json::to_string(&*state).unwrap(),
        before,
        "a refused action changed the state"
    );
    assert!(SpaceCrack::apply(state, seat, &action).is_err());
    error
}

fn mv(ship: ShipId, planet: PlanetId) -> Action {
    Action::MoveShip { ship, planet }
}

/// Two seats, each with one ship far apart, so neither is stuck or eliminated.
fn duel() -> (State, ShipId, ShipId) {
    let mut state = blank(Config::default(), 2);
    let a = ship(&mut state, 0, at(7, 7), 6);
    let b = ship(&mut state, 1, at(13, 12), 6);
    (state, a, b)
}

#[test]
fn moving_onto_an_empty_planet_captures_it_and_keeps_the_old_one() {
    let (mut state, a, _) = duel();
    let from = at(7, 7);
    let to = at(7, 5);
    let events = act(&mut state, 0, mv(a, to));
    assert_eq!(
        events,
        vec![
            Event::ShipMoved {
                seat: 0,
                ship: a,
                from,
                to
            },
            Event::PlanetCaptured {
                seat: 0,
                planet: to,
                from: None
            },
        ]
    );
    assert_eq!(state.planets()[from].owner, Some(0));
    assert_eq!(state.planets()[from].ship, None);
    assert_eq!(state.planets()[to].ship, Some(a));
    assert_eq!(state.ship(a).expect("the ship is on the board").planet, to);
    assert_eq!(state.players()[0].command_points, 4);
    // A chain of captures with the same ship, one point each.
    let next = at(7, 3);
    act(&mut state, 0, mv(a, next));
    assert_eq!(state.planet_count(0), 3);
    // Moving onto one's own empty planet captures nothing but still costs a point.
    let events = act(&mut state, 0, mv(a, to));
    assert_eq!(events.len(), 1);
    assert_eq!(state.players()[0].command_points, 2);
}

#[test]
fn an_enemy_planet_without_a_ship_falls_without_battle() {
    let (mut state, a, _) = duel();
    let target = at(9, 6);
    own(&mut state, 1, target);
    let events = act(&mut state, 0, mv(a, target));
    assert!(events.contains(&Event::PlanetCaptured {
        seat: 0,
        planet: target,
        from: Some(1)
    }));
    assert!(!events.iter().any(|e| matches!(e, Event::Battle { .. })));
    assert_eq!(state.planets()[target].owner, Some(0));
}

#[test]
fn moving_onto_an_own_ship_merges() {
    let (mut state, a, _) = duel();
    let other = ship(&mut state, 0, at(9, 8), 4);
    let events = act(&mut state, 0, mv(a, at(9, 8)));
    assert_eq!(
        events,
        vec![Event::ShipsMerged {
            seat: 0,
            ship: a,
            into: other,
            size: 10
        }]
    );
    assert!(state.ship(a).is_none());
    assert_eq!(
        state.ship(other).expect("the ship is on the board").size,
        10
    );
    assert_eq!(state.planets()[at(7, 7)].ship, None);
}

/// The §2.7 vectors played on the board: (a, d, attacker left, defender left).
#[test]
fn battles_on_the_board() {
    let vectors = [
        (7, 4, 5, 0),
        (4, 7, 0, 5),
        (5, 5, 0, 0),
        (6, 5, 4, 0),
        (5, 6, 0, 4),
        (11, 10, 6, 0),
        (3, 2, 2, 0),
    ];
    for (a, d, a_left, d_left) in vectors {
        let mut state = blank(Config::default(), 2);
        let home = at(7, 7);
        let target = at(9, 8);
        let attacker = ship(&mut state, 0, home, a);
        let defender = ship(&mut state, 1, target, d);
        ship(&mut state, 1, at(13, 12), 5);
        let events = act(&mut state, 0, mv(attacker, target));
        let result = match (a_left > 0, d_left > 0) {
            (true, _) => BattleResult::AttackerWon,
            (false, true) => BattleResult::DefenderWon,
            _ => BattleResult::BothDestroyed,
        };
        assert_eq!(
            events[0],
            Event::Battle {
                planet: target,
                attacker: 0,
                attacker_ship: attacker,
                defender: 1,
                defender_ship: defender,
                attacker_before: a,
                defender_before: d,
                attacker_after: a_left,
                defender_after: d_left,
                result,
            },
            "{a} vs {d}"
        );
        assert_eq!(state.planets()[home].owner, Some(0));
        assert_eq!(state.planets()[home].ship, None);
        match result {
            BattleResult::AttackerWon => {
                assert_eq!(state.planets()[target].owner, Some(0));
                assert_eq!(state.planets()[target].ship, Some(attacker));
                assert_eq!(
                    state.ship(attacker).expect("the ship is on the board").size,
                    a_left
                );
                assert!(state.ship(defender).is_none());
            }
            BattleResult::DefenderWon => {
                assert_eq!(state.planets()[target].owner, Some(1));
                assert_eq!(
                    state.ship(defender).expect("the ship is on the board").size,
                    d_left
                );
                assert!(state.ship(attacker).is_none());
            }
            BattleResult::BothDestroyed => {
                // The planet keeps its owner but is empty: the next ship takes it.
                assert_eq!(state.planets()[target].owner, Some(1));
                assert_eq!(state.planets()[target].ship, None);
                assert_eq!(state.ships().count(), 1, "only seat 1's other ship is left");
                let next = ship(&mut state, 0, at(9, 10), 4);
                let events = act(&mut state, 0, mv(next, target));
                assert!(!events.iter().any(|e| matches!(e, Event::Battle { .. })));
                assert_eq!(state.planets()[target].owner, Some(0));
            }
        }
    }
}

#[test]
fn defender_edge_makes_the_defender_fight_bigger() {
    let config = Config {
        perimeter_bonus: 25,
        perimeter_mode: PerimeterMode::DefenderEdge,
        ..Config::default()
    };
    let mut state = blank(config, 2);
    let attacker = ship(&mut state, 0, at(7, 7), 7);
    let target = at(9, 8);
    ship(&mut state, 1, target, 6);
    let events = act(&mut state, 0, mv(attacker, target));
    // 6 × 1.25 = 7.5 → 7 = a: both destroyed (a plain battle would be 7 > 6).
    assert!(matches!(
        events[0],
        Event::Battle {
            result: BattleResult::BothDestroyed,
            ..
        }
    ));
}

#[test]
fn move_checks() {
    let (mut state, a, b) = duel();
    let here = at(7, 7);
    assert_eq!(
        refuse(&mut state, 0, mv(99, here)),
        SpaceCrackError::UnknownShip(99)
    );
    assert_eq!(
        refuse(&mut state, 0, mv(b, here)),
        SpaceCrackError::NotYourShip { ship: b, owner: 1 }
    );
    assert_eq!(
        refuse(&mut state, 0, mv(a, 10_000)),
        SpaceCrackError::UnknownPlanet(10_000)
    );
    assert_eq!(
        refuse(&mut state, 0, mv(a, here)),
        SpaceCrackError::SamePlanet {
            ship: a,
            planet: here
        }
    );
    let far = at(7, 11);
    assert_eq!(
        refuse(&mut state, 0, mv(a, far)),
        SpaceCrackError::NotAdjacent {
            ship: a,
            from: here,
            to: far
        }
    );
    assert_eq!(
        refuse(&mut state, 7, Action::EndTurn),
        SpaceCrackError::NoSuchSeat(7)
    );
    assert_eq!(
        SpaceCrack::apply(&mut state, 0, &mv(a, far))
            .unwrap_err()
            .code,
        "not_adjacent"
    );
}

#[test]
fn building_ships() {
    let (mut state, _, _) = duel();
    let planet = at(5, 6);
    own(&mut state, 0, planet);
    set_size(&mut state, planet, 7);
    assert_eq!(
        refuse(&mut state, 0, Action::BuildShip { planet }),
        SpaceCrackError::InsufficientCrack {
            planet,
            cost: 7,
            have: 0
        }
    );
    set_crack(&mut state, 0, 9);
    let next_id = next_ship_id(&state);
    let events = act(&mut state, 0, Action::BuildShip { planet });
    assert_eq!(
        events,
        vec![Event::ShipBuilt {
            seat: 0,
            ship: next_id,
            planet,
            size: 7,
            crack_left: 2
        }]
    );
    assert_eq!(
        state.ship(next_id).expect("the ship is on the board").size,
        7
    );
    assert_eq!(state.players()[0].crack, 2);
    assert_eq!(state.players()[0].command_points, 4);
    set_crack(&mut state, 0, 20);
    assert_eq!(
        refuse(&mut state, 0, Action::BuildShip { planet }),
        SpaceCrackError::PlanetOccupied(planet)
    );
    assert_eq!(
        refuse(&mut state, 0, Action::BuildShip { planet: at(13, 12) }),
        SpaceCrackError::NotYourPlanet(at(13, 12))
    );
    assert_eq!(
        refuse(&mut state, 0, Action::BuildShip { planet: 999 }),
        SpaceCrackError::UnknownPlanet(999)
    );
    // A new ship can move in the turn it was built.
    act(&mut state, 0, mv(next_id, at(5, 4)));
}

#[test]
fn build_on_occupied_merge_reinforces() {
    let config = Config {
        build_on_occupied: BuildOnOccupied::Merge,
        ..Config::default()
    };
    let mut state = blank(config, 2);
    let home = at(7, 7);
    let a = ship(&mut state, 0, home, 5);
    ship(&mut state, 1, at(13, 12), 5);
    set_crack(&mut state, 0, 10);
    let events = act(&mut state, 0, Action::BuildShip { planet: home });
    assert_eq!(
        events,
        vec![Event::ShipReinforced {
            seat: 0,
            ship: a,
            planet: home,
            added: 6,
            size: 11,
            crack_left: 4
        }]
    );
    assert_eq!(state.ships().count(), 2);
}

/// Spend every point of seat 0 shuttling its ship between two planets.
fn shuttle(state: &mut State, seat: Seat, ship: ShipId, a: PlanetId, b: PlanetId, n: u32) {
    for i in 0..n {
        let to = if i % 2 == 0 { b } else { a };
        act(state, seat, mv(ship, to));
    }
}

#[test]
fn turn_ends_when_everyone_has_finished_then_production_and_new_points() {
    let (mut state, a, b) = duel();
    let (p, q) = (at(7, 7), at(7, 5));
    assert_eq!(SpaceCrack::to_act(&state), Turn::AnyOf(vec![0, 1]));
    shuttle(&mut state, 0, a, p, q, 4);
    let events = act(&mut state, 0, mv(a, q));
    assert_eq!(
        events.last(),
        Some(&Event::PlayerFinished {
            seat: 0,
            reason: FinishReason::OutOfPoints,
            command_points_left: 0
        })
    );
    assert_eq!(SpaceCrack::to_act(&state), Turn::AnyOf(vec![1]));
    assert_eq!(
        refuse(&mut state, 0, mv(a, p)),
        SpaceCrackError::AlreadyFinished(0)
    );
    // Seat 1 passes with all 5 points: the turn ends.
    let events = act(&mut state, 1, Action::EndTurn);
    assert!(matches!(
        events[0],
        Event::PlayerFinished {
            reason: FinishReason::Passed,
            command_points_left: 5,
            ..
        }
    ));
    let Some(Event::TurnEnded {
        turn: 1,
        production,
    }) = events.get(1)
    else {
        panic!("expected the turn to end: {events:?}");
    };
    // Seat 0 owns two size-6 planets (6), seat 1 one (3).
    assert_eq!(production[0].crack, 6);
    assert_eq!(production[1].crack, 3);
    assert_eq!(state.players()[0].crack, 6);
    assert_eq!(state.players()[1].crack, 3);
    assert_eq!(
        events[2],
        Event::TurnStarted {
            turn: 2,
            turns_left: 14,
            command_points: vec![5, 10]
        }
    );
    assert_eq!(SpaceCrack::to_act(&state), Turn::AnyOf(vec![0, 1]));
    assert_eq!(
        state.ship(b).expect("the ship is on the board").planet,
        at(13, 12)
    );
}

#[test]
fn saved_points_are_capped() {
    // (cap, points after one full pass, after a second one)
    for (cap, first, second) in [
        (None, 10, 10),
        (Some(2), 7, 7),
        (Some(0), 5, 5),
        (Some(20), 10, 15),
    ] {
        let config = Config {
            cp_carry_cap: cap,
            ..Config::default()
        };
        let mut state = blank(config, 1);
        ship(&mut state, 0, at(7, 7), 5);
        act(&mut state, 0, Action::EndTurn);
        assert_eq!(state.players()[0].command_points, first, "cap {cap:?}");
        assert_eq!(state.turn(), 2);
        act(&mut state, 0, Action::EndTurn);
        assert_eq!(state.players()[0].command_points, second, "cap {cap:?}");
    }
}

#[test]
fn pass_needs_allow_pass_but_the_timeout_does_not() {
    let config = Config {
        allow_pass: false,
        ..Config::default()
    };
    let mut state = blank(config, 2);
    ship(&mut state, 0, at(7, 7), 5);
    ship(&mut state, 1, at(13, 12), 5);
    assert_eq!(
        refuse(&mut state, 0, Action::EndTurn),
        SpaceCrackError::PassNotAllowed
    );
    assert!(!SpaceCrack::legal(&state, 0).contains(&Action::EndTurn));
    let events = act(&mut state, 0, Action::TurnTimeout);
    assert_eq!(
        events,
        vec![Event::PlayerFinished {
            seat: 0,
            reason: FinishReason::TimedOut,
            command_points_left: 5
        }]
    );
    act(&mut state, 1, Action::TurnTimeout);
    assert_eq!(state.turn(), 2);
    assert_eq!(state.players()[0].command_points, 10);
}

#[test]
fn stuck_players_do_not_hold_the_turn_and_keep_capped_points() {
    let mut state = blank(Config::default(), 2);
    let a = ship(&mut state, 0, at(7, 7), 5);
    // Seat 1: one planet, no ship, no crack: stuck.
    own(&mut state, 1, at(13, 12));
    assert!(state.is_stuck(1));
    assert_eq!(SpaceCrack::to_act(&state), Turn::AnyOf(vec![0]));
    assert_eq!(
        refuse(&mut state, 1, Action::EndTurn),
        SpaceCrackError::Stuck(1)
    );
    assert!(SpaceCrack::legal(&state, 1).is_empty());
    shuttle(&mut state, 0, a, at(7, 7), at(7, 5), 5);
    // Turn 2: seat 1 has 3 crack (one size-6 planet), still stuck, 5 + 5 points.
    assert_eq!(state.turn(), 2);
    assert_eq!(state.players()[1].crack, 3);
    assert_eq!(state.players()[1].command_points, 10);
    shuttle(&mut state, 0, a, at(7, 5), at(7, 7), 5);
    // Turn 3: 6 crack, enough to build on its size-6 planet: no longer stuck.
    assert_eq!(state.turn(), 3);
    assert_eq!(state.players()[1].command_points, 10);
    assert!(!state.is_stuck(1));
    assert_eq!(SpaceCrack::to_act(&state), Turn::AnyOf(vec![0, 1]));
    act(&mut state, 1, Action::BuildShip { planet: at(13, 12) });
}

#[test]
fn when_nobody_can_act_turns_pass_by_themselves() {
    // One seat, no ship, 0 crack, one size-6 planet: stuck for two turns, then builds.
    let mut state = blank(Config::default(), 1);
    own(&mut state, 0, at(7, 7));
    settle(&mut state, &mut Vec::new());
    assert_eq!(state.turn(), 3);
    assert_eq!(state.players()[0].crack, 6);
    assert_eq!(SpaceCrack::to_act(&state), Turn::AnyOf(vec![0]));
    // Everyone stuck for good (5 turns of 10% of 100 never buy a size-100 ship): the
    // game runs out its turns, production and all.
    let config = Config {
        turns: 5,
        crack_pct: 10,
        ..Config::default()
    };
    let mut state = blank(config, 2);
    own(&mut state, 0, at(7, 7));
    own(&mut state, 1, at(13, 12));
    set_size(&mut state, at(7, 7), 100);
    set_size(&mut state, at(13, 12), 100);
    let mut events = Vec::new();
    settle(&mut state, &mut events);
    assert!(state.is_over());
    assert_eq!(state.players()[0].crack, 5 * 10);
    assert_eq!(state.turns_left(), 0);
    assert!(matches!(events.last(), Some(Event::GameOver { .. })));
    assert_eq!(SpaceCrack::to_act(&state), Turn::Over);
}

#[test]
fn elimination_ends_a_two_player_game() {
    let mut state = blank(Config::default(), 2);
    let a = ship(&mut state, 0, at(7, 7), 8);
    let target = at(9, 8);
    ship(&mut state, 1, target, 4);
    let events = act(&mut state, 0, mv(a, target));
    assert!(events.contains(&Event::PlayerEliminated { seat: 1 }));
    assert!(state.is_over());
    assert!(matches!(
        events.last(),
        Some(Event::GameOver { winners, .. }) if winners == &vec![0]
    ));
    let outcome = SpaceCrack::outcome(&state).unwrap();
    assert_eq!(outcome.ranks, vec![1, 2]);
    assert_eq!(outcome.scores, vec![2, 0]);
    assert_eq!(
        refuse(&mut state, 0, Action::EndTurn),
        SpaceCrackError::GameNotInPlay
    );
}

#[test]
fn without_end_on_elimination_or_with_a_third_player_the_game_goes_on() {
    let config = Config {
        end_on_elimination: false,
        ..Config::default()
    };
    let mut state = blank(config, 2);
    let a = ship(&mut state, 0, at(7, 7), 8);
    ship(&mut state, 1, at(9, 8), 4);
    act(&mut state, 0, mv(a, at(9, 8)));
    assert!(state.players()[1].eliminated);
    assert!(!state.is_over());
    assert_eq!(SpaceCrack::to_act(&state), Turn::AnyOf(vec![0]));

    let mut state = blank(Config::default(), 3);
    let a = ship(&mut state, 0, at(7, 7), 8);
    ship(&mut state, 1, at(9, 8), 4);
    ship(&mut state, 2, at(1, 12), 4);
    act(&mut state, 0, mv(a, at(9, 8)));
    assert!(state.players()[1].eliminated);
    assert!(!state.is_over());
    assert_eq!(SpaceCrack::to_act(&state), Turn::AnyOf(vec![0, 2]));
    assert_eq!(
        refuse(&mut state, 1, Action::EndTurn),
        SpaceCrackError::NotPlaying(1)
    );
}

/// Play out the remaining turns with everyone passing.
fn pass_to_the_end(state: &mut State) {
    while let Turn::AnyOf(seats) = SpaceCrack::to_act(state) {
        act(state, seats[0], Action::EndTurn);
    }
}

#[test]
fn the_game_lasts_exactly_the_configured_turns_and_produces_after_the_last() {
    let config = Config {
        turns: 5,
        ..Config::default()
    };
    let mut state = blank(config, 2);
    ship(&mut state, 0, at(7, 7), 5);
    ship(&mut state, 1, at(13, 12), 5);
    let mut turns_seen = 0;
    while let Turn::AnyOf(seats) = SpaceCrack::to_act(&state) {
        let events = act(&mut state, seats[0], Action::EndTurn);
        turns_seen += events
            .iter()
            .filter(|e| matches!(e, Event::TurnEnded { .. }))
            .count();
    }
    assert_eq!(turns_seen, 5);
    assert_eq!(state.turns_left(), 0);
    // 5 productions of one size-6 planet at 50% = 5 × 3.
    assert_eq!(state.players()[0].crack, 15);
}

#[test]
fn most_planets_wins_then_most_crack_then_a_shared_win() {
    let mut state = blank(Config::default(), 3);
    ship(&mut state, 0, at(7, 7), 5);
    ship(&mut state, 1, at(13, 12), 5);
    ship(&mut state, 2, at(1, 12), 5);
    own(&mut state, 2, at(1, 10));
    pass_to_the_end(&mut state);
    let outcome = SpaceCrack::outcome(&state).unwrap();
    assert_eq!(outcome.ranks, vec![2, 2, 1]);
    assert_eq!(outcome.winners(), vec![2]);

    // Equal planets: more crack wins.
    let mut state = blank(Config::default(), 2);
    ship(&mut state, 0, at(7, 7), 5);
    ship(&mut state, 1, at(13, 12), 5);
    set_size(&mut state, at(13, 12), 8);
    pass_to_the_end(&mut state);
    let outcome = SpaceCrack::outcome(&state).unwrap();
    assert_eq!(outcome.ranks, vec![2, 1]);
    assert!(
        outcome.summary.starts_with("seat 1 wins"),
        "{}",
        outcome.summary
    );

    // Equal planets and crack: both win.
    let mut state = blank(Config::default(), 2);
    ship(&mut state, 0, at(7, 7), 5);
    ship(&mut state, 1, at(13, 12), 5);
    pass_to_the_end(&mut state);
    let outcome = SpaceCrack::outcome(&state).unwrap();
    assert_eq!(outcome.ranks, vec![1, 1]);
    assert!(outcome.is_draw());
    assert_eq!(outcome.winners(), vec![0, 1]);
}

#[test]
fn the_prototype_winner_bug_is_not_copied() {
    // Seat 0 ties the initial maximum, a later seat has strictly more: only it wins.
    let mut state = blank(Config::default(), 3);
    ship(&mut state, 0, at(7, 7), 5);
    ship(&mut state, 1, at(13, 12), 5);
    ship(&mut state, 2, at(1, 12), 5);
    own(&mut state, 1, at(13, 10));
    own(&mut state, 2, at(1, 10));
    own(&mut state, 2, at(1, 8));
    pass_to_the_end(&mut state);
    assert_eq!(rules::winners(&state), vec![2]);
}

#[test]
fn sequential_turns_rotate_the_first_seat() {
    let config = Config {
        turn_mode: TurnMode::Sequential,
        ..Config::default()
    };
    let mut state = blank(config, 3);
    let a = ship(&mut state, 0, at(7, 7), 5);
    ship(&mut state, 1, at(13, 12), 5);
    ship(&mut state, 2, at(1, 12), 5);
    assert_eq!(SpaceCrack::to_act(&state), Turn::One(0));
    assert_eq!(
        refuse(&mut state, 1, Action::EndTurn),
        SpaceCrackError::NotYourTurn {
            seat: 1,
            current: 0
        }
    );
    assert!(SpaceCrack::legal(&state, 1).is_empty());
    act(&mut state, 0, mv(a, at(7, 5)));
    assert_eq!(SpaceCrack::to_act(&state), Turn::One(0));
    act(&mut state, 0, Action::EndTurn);
    assert_eq!(SpaceCrack::to_act(&state), Turn::One(1));
    act(&mut state, 1, Action::EndTurn);
    assert_eq!(SpaceCrack::to_act(&state), Turn::One(2));
    act(&mut state, 2, Action::EndTurn);
    assert_eq!(state.turn(), 2);
    assert_eq!(SpaceCrack::to_act(&state), Turn::One(1));
    act(&mut state, 1, Action::EndTurn);
    assert_eq!(SpaceCrack::to_act(&state), Turn::One(2));
    act(&mut state, 2, Action::EndTurn);
    assert_eq!(SpaceCrack::to_act(&state), Turn::One(0));
    act(&mut state, 0, Action::EndTurn);
    assert_eq!(SpaceCrack::to_act(&state), Turn::One(2));
}

#[test]
fn a_resigned_player_keeps_planets_passes_and_is_still_ranked() {
    let mut state = blank(Config::default(), 2);
    ship(&mut state, 0, at(7, 7), 5);
    own(&mut state, 0, at(7, 5));
    ship(&mut state, 1, at(13, 12), 5);
    let events = act(&mut state, 0, Action::Resign);
    assert_eq!(events[0], Event::PlayerResigned { seat: 0 });
    assert_eq!(state.players()[0].status, Status::Resigned);
    assert_eq!(SpaceCrack::to_act(&state), Turn::AnyOf(vec![1]));
    act(&mut state, 1, Action::EndTurn);
    // Next turn: the resigned seat auto-passes.
    assert_eq!(state.turn(), 2);
    assert_eq!(SpaceCrack::to_act(&state), Turn::AnyOf(vec![1]));
    pass_to_the_end(&mut state);
    let outcome = SpaceCrack::outcome(&state).unwrap();
    assert_eq!(outcome.ranks, vec![1, 2], "planets still count");
    assert_eq!(outcome.ejected, vec![None, None]);
}

#[test]
fn an_ejected_player_passes_and_ranks_last() {
    let mut state = blank(Config::default(), 2);
    ship(&mut state, 0, at(7, 7), 5);
    own(&mut state, 0, at(7, 5));
    ship(&mut state, 1, at(13, 12), 5);
    let events = SpaceCrack::eject(&mut state, 0, "timeout");
    assert_eq!(
        events[0],
        Event::PlayerEjected {
            seat: 0,
            reason: "timeout".into()
        }
    );
    let before = serde_json::to_string(&state).unwrap();
    assert!(SpaceCrack::eject(&mut state, 0, "again").is_empty());
    assert!(SpaceCrack::eject(&mut state, 9, "no such seat").is_empty());
    assert_eq!(serde_json::to_string(&state).unwrap(), before);
    assert_eq!(SpaceCrack::to_act(&state), Turn::AnyOf(vec![1]));
    pass_to_the_end(&mut state);
    let outcome = SpaceCrack::outcome(&state).unwrap();
    assert_eq!(outcome.ranks, vec![2, 1]);
    assert_eq!(outcome.ejected[0].as_deref(), Some("timeout"));
    assert_eq!(outcome.winners(), vec![1]);
}

#[test]
fn ejecting_the_last_active_player_runs_the_game_out() {
    let mut state = blank(Config::default(), 2);
    ship(&mut state, 0, at(7, 7), 5);
    ship(&mut state, 1, at(13, 12), 5);
    SpaceCrack::eject(&mut state, 0, "gone");
    SpaceCrack::eject(&mut state, 1, "gone");
    assert!(state.is_over());
    assert_eq!(SpaceCrack::to_act(&state), Turn::Over);
    let outcome = SpaceCrack::outcome(&state).unwrap();
    assert_eq!(outcome.ranks, vec![1, 1]);
    assert!(outcome.winners().is_empty());
}

#[test]
fn legal_lists_moves_builds_and_pass_and_each_is_accepted() {
    let (mut state, _, _) = duel();
    set_crack(&mut state, 0, 6);
    own(&mut state, 0, at(5, 6));
    let legal = SpaceCrack::legal(&state, 0);
    // 6 moves from an inner planet, builds on the empty owned planet only, pass.
    assert_eq!(legal.len(), 6 + 1 + 1);
    assert!(legal.contains(&Action::BuildShip { planet: at(5, 6) }));
    for action in legal {
        let mut copy = state.clone();
        assert!(
            SpaceCrack::apply(&mut copy, 0, &action).is_ok(),
            "{action:?}"
        );
    }
}
