//! Engine-level vectors E1–E10 of background §11.3: hand-built maps, the reference
//! engine's `send_fleet` / `do_round` called directly.

use arbiter_spacegoo::world::{EngineResult, Ignored, World};
use arbiter_spacegoo::Planet;

fn planet(id: usize, x: i64, y: i64, owner: u8, ships: [i64; 3]) -> Planet {
    let mut p = Planet::new(id, x, y, owner, [0, 0, 0]);
    p.ships = ships;
    p
}

fn rounds(world: &mut World, n: usize) {
    for _ in 0..n {
        world.do_round();
    }
}

#[test]
fn e1_fractional_defender_truncates_and_the_planet_falls() {
    let mut world = World::new(
        vec![
            planet(0, 0, 0, 1, [1, 7, 12]),
            planet(1, 4, 0, 2, [7, 7, 10]),
        ],
        500,
    );
    assert_eq!(world.send_fleet(1, 0, 1, [1, 7, 12]), Ok(0));
    assert_eq!(world.fleets[0].eta, 4);
    assert_eq!(world.planets[0].ships, [0, 0, 0]);
    rounds(&mut world, 4);
    assert_eq!(world.planets[1].owner_id, 2);
    assert_eq!(world.fleets.len(), 1);
    world.do_round(); // the 5th: round 4 is processed
    assert_eq!(world.planets[1].owner_id, 1);
    assert_eq!(world.planets[1].ships, [0, 0, 0]);
    assert!(world.fleets.is_empty());
    assert_eq!(world.round, 5);
    assert_eq!(world.result, Some(EngineResult::Winner(1)));
}

fn e2_world() -> World {
    World::new(
        vec![planet(0, 0, 0, 1, [5, 5, 5]), planet(1, 3, 4, 2, [5, 5, 5])],
        500,
    )
}

#[test]
fn e2_clamps_each_type_and_deducts_at_once() {
    let mut world = e2_world();
    assert_eq!(world.send_fleet(1, 0, 1, [100, -3, 2]), Ok(0));
    let fleet = &world.fleets[0];
    assert_eq!(fleet.ships, [5, 0, 2]);
    assert_eq!(fleet.eta, 5);
    assert_eq!((fleet.origin, fleet.target, fleet.owner_id), (0, 1, 1));
    assert_eq!(world.planets[0].ships, [0, 5, 3]);
}

#[test]
fn e3_ignored_sends_create_nothing() {
    let cases: [(u8, i64, i64, [i64; 3], Ignored); 7] = [
        (1, 1, 0, [1, 1, 1], Ignored::NotYourPlanet),
        (2, 0, 1, [1, 1, 1], Ignored::NotYourPlanet),
        (1, 0, 0, [1, 1, 1], Ignored::SamePlanet),
        (1, 0, 1, [0, 0, 0], Ignored::NothingRequested),
        (1, 0, 7, [1, 1, 1], Ignored::NoSuchPlanet),
        (1, -1, 1, [1, 1, 1], Ignored::NoSuchPlanet),
        (1, 0, 1, [5, -5, 0], Ignored::NothingRequested),
    ];
    for (player, origin, target, ships, reason) in cases {
        let mut world = e2_world();
        let before = world.clone();
        assert_eq!(world.send_fleet(player, origin, target, ships), Err(reason));
        assert_eq!(world, before);
    }
    let mut world = e2_world();
    world.planets[0].ships = [0, 5, 3];
    assert_eq!(
        world.send_fleet(1, 0, 1, [5, 0, 0]),
        Err(Ignored::NothingToSend)
    );
    assert!(world.fleets.is_empty());
}

fn e4_world(p1: [i64; 3], p2: [i64; 3], centre: [i64; 3]) -> World {
    World::new(
        vec![
            planet(0, -5, 0, 1, p1),
            planet(1, 5, 0, 2, p2),
            planet(2, 0, 0, 0, centre),
        ],
        500,
    )
}

#[test]
fn e4_fleets_fight_each_other_before_the_planet() {
    let mut world = e4_world([30, 0, 0], [0, 20, 0], [3, 3, 3]);
    assert_eq!(world.send_fleet(2, 1, 2, [0, 20, 0]), Ok(0)); // player 2 first
    assert_eq!(world.send_fleet(1, 0, 2, [30, 0, 0]), Ok(1));
    assert_eq!((world.fleets[0].eta, world.fleets[1].eta), (5, 5));
    assert_eq!(world.fleets[0].owner_id, 2);
    rounds(&mut world, 6);
    assert_eq!(world.planets[2].owner_id, 1);
    assert_eq!(world.planets[2].ships, [18, 0, 0]);
}

#[test]
fn e5_mutual_annihilation_takes_the_planet_with_nothing() {
    let mut world = World::new(
        vec![
            planet(0, 0, 0, 1, [10, 0, 0]),
            planet(1, 4, 0, 2, [10, 0, 0]),
        ],
        500,
    );
    assert_eq!(world.send_fleet(1, 0, 1, [10, 0, 0]), Ok(0));
    rounds(&mut world, 5);
    assert_eq!(world.planets[1].owner_id, 1);
    assert_eq!(world.planets[1].ships, [0, 0, 0]);
}

#[test]
fn e6_owned_planets_produce() {
    let mut world = World::new(
        vec![
            Planet {
                ships: [0, 0, 0],
                ..Planet::new(0, 0, 0, 1, [1, 2, 3])
            },
            planet(1, 8, 0, 2, [0, 0, 0]),
            Planet::new(2, -8, 0, 0, [4, 4, 4]),
        ],
        500,
    );
    world.do_round();
    assert_eq!(world.planets[0].ships, [1, 2, 3]);
    assert_eq!(world.planets[2].ships, [50, 50, 50]); // neutral: no production
    assert_eq!(world.round, 1);
    assert_eq!(world.result, None);
}

#[test]
fn e7_e8_annihilated_fleets_first_created_captures_the_empty_planet() {
    for (first, expected_owner) in [(1u8, 1u8), (2, 2)] {
        let mut world = e4_world([10, 0, 0], [10, 0, 0], [0, 0, 0]);
        let send = |world: &mut World, player: u8| {
            let origin = i64::from(player) - 1;
            world.send_fleet(player, origin, 2, [10, 0, 0])
        };
        assert_eq!(send(&mut world, first), Ok(0));
        assert_eq!(send(&mut world, 3 - first), Ok(1));
        rounds(&mut world, 6);
        assert_eq!(world.planets[2].owner_id, expected_owner);
        assert_eq!(world.planets[2].ships, [0, 0, 0]);
    }
}

#[test]
fn e9_the_last_player_standing_wins() {
    let mut world = World::new(
        vec![planet(0, 0, 0, 1, [1, 0, 0]), planet(1, 5, 0, 0, [1, 0, 0])],
        500,
    );
    world.do_round();
    assert_eq!(world.result, Some(EngineResult::Winner(1)));
    assert_eq!(world.round, 1);
}

#[test]
fn e10_max_rounds_is_a_draw() {
    let mut world = World::new(
        vec![planet(0, 0, 0, 1, [1, 0, 0]), planet(1, 5, 0, 2, [1, 0, 0])],
        3,
    );
    rounds(&mut world, 2);
    assert_eq!(world.result, None);
    world.do_round();
    assert_eq!(world.result, Some(EngineResult::Draw));
    assert_eq!(world.round, 3);
}

#[test]
fn elimination_by_a_dying_fleet_is_seen_one_round_late() {
    // Player 2's last asset is a fleet that dies on arrival: it counted as alive in
    // the round it landed, so the win comes one tick later.
    let mut world = World::new(
        vec![
            planet(0, 0, 0, 1, [100, 100, 100]),
            planet(1, 4, 0, 2, [1, 0, 0]),
        ],
        500,
    );
    assert_eq!(world.send_fleet(2, 1, 0, [1, 0, 0]), Ok(0));
    world.planets[1].owner_id = 0; // player 2 keeps only the fleet
    rounds(&mut world, 5); // rounds 0..4; the fleet lands in round 4 and dies
    assert!(world.fleets.is_empty());
    assert_eq!(world.result, None);
    world.do_round();
    assert_eq!(world.result, Some(EngineResult::Winner(1)));
    assert_eq!(world.round, 6);
}
