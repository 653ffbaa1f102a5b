//! Map generation (background §2.3): start corners, the mass shuffle, optional mirrored
//! sizes, and the starting ships and points.
//!
//! The only randomness in Space Crack is here, drawn from the match seed's ChaCha
//! generator; after setup the game is deterministic, so the state keeps no generator.

use std::collections::BTreeMap;

use arbiter_engine::{seeded_rng, GameRng};
use rand::Rng;

use crate::board::{Board, PlanetId};
use crate::config::Config;
use crate::state::{Planet, Player, Ship, State, Status};

/// Every planet starts at this size; start planets keep it.
pub const START_PLANET_SIZE: u32 = 5;
/// The ship each player starts with.
pub const START_SHIP_SIZE: u32 = 5;
/// Bounds of unowned planet sizes after the shuffle (`ScrackCodes.java`).
pub const MIN_PLANET_SIZE: u32 = 4;
pub const MAX_PLANET_SIZE: u32 = 10;

/// Planet sizes after the mass shuffle: every unowned planet gives one point of size to
/// one of its unowned neighbours, chosen uniformly. Gifts are decided from the starting
/// ownership, so the result does not depend on the order planets are visited in (ids
/// ascending, neighbours in board order). A planet with no unowned neighbour keeps its
/// size (cannot happen on the supported boards).
pub fn shuffle_mass(board: &Board, owned: &[bool], rng: &mut GameRng) -> Vec<u32> {
    let mut sizes = vec![START_PLANET_SIZE; board.planet_count()];
    for planet in 0..board.planet_count() {
        if owned[planet] {
            continue;
        }
        let takers: Vec<PlanetId> = board.neighbours[planet]
            .iter()
            .copied()
            .filter(|&n| !owned[n])
            .collect();
        if takers.is_empty() {
            continue;
        }
        let taker = takers[rng.random_range(0..takers.len())];
        sizes[planet] -= 1;
        sizes[taker] += 1;
    }
    sizes
}

/// Make sizes symmetric: every planet takes the size of the lowest-id planet in its
/// orbit under the board's symmetries, so every start corner faces the same map. With
/// up to two seats the orbit is the 180° rotation (P0 and P1 are opposite corners); with
/// three or four it is both mirrors (all four corners alike). An orbit holding a start
/// planet is all start-sized. Mass is then no longer exactly conserved, but every size
/// stays one that the shuffle produced, within 4–10.
pub fn mirror_sizes(board: &Board, owned: &[bool], sizes: &mut [u32], seats: usize) {
    for planet in 0..board.planet_count() {
        let rotated = board.mirror_x(board.mirror_y(planet));
        let mut orbit = vec![planet, rotated];
        if seats > 2 {
            orbit.push(board.mirror_x(planet));
            orbit.push(board.mirror_y(planet));
        }
        // The lowest id of an orbit is visited first and keeps its own size, so
        // copying from it in place is safe.
        let representative = orbit.iter().copied().min().unwrap_or(planet);
        sizes[planet] = if orbit.iter().any(|&p| owned[p]) {
            START_PLANET_SIZE
        } else {
            sizes[representative]
        };
    }
}

/// A new game's state. The config and seat count must already be valid.
pub fn generate(config: &Config, seats: usize, seed: u64) -> State {
    let board = Board::shared(config.board_size);
    let starts = board.start_planets();
    let mut owned = vec![false; board.planet_count()];
    for &start in &starts[..seats] {
        owned[start] = true;
    }
    let mut rng = seeded_rng(seed);
    let mut sizes = shuffle_mass(&board, &owned, &mut rng);
    if config.symmetric_sizes {
        mirror_sizes(&board, &owned, &mut sizes, seats);
    }
    let mut planets: Vec<Planet> = sizes
        .into_iter()
        .map(|size| Planet {
            size,
            owner: None,
            ship: None,
        })
        .collect();
    let mut ships = BTreeMap::new();
    for (seat, &start) in starts[..seats].iter().enumerate() {
        let id = seat as u32;
        planets[start].owner = Some(seat);
        planets[start].ship = Some(id);
        ships.insert(
            id,
            Ship {
                id,
                owner: seat,
                planet: start,
                size: START_SHIP_SIZE,
            },
        );
    }
    let players = (0..seats)
        .map(|_| Player {
            crack: 0,
            command_points: config.command_points,
            finished: false,
            status: Status::Playing,
            eliminated: false,
            ejected: None,
        })
        .collect();
    State {
        config: config.clone(),
        board,
        planets,
        ships,
        next_ship: seats as u32,
        players,
        turn: 1,
        turns_left: config.turns,
        over: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shuffle_conserves_mass_and_bounds_sizes() {
        for seats in 1..=4 {
            for seed in 0..20 {
                let config = Config::default();
                let state = generate(&config, seats, seed);
                let board = state.board();
                let starts = board.start_planets();
                let total: u32 = state.planets.iter().map(|p| p.size).sum();
                assert_eq!(total, START_PLANET_SIZE * board.planet_count() as u32);
                for (id, planet) in state.planets.iter().enumerate() {
                    if starts[..seats].contains(&id) {
                        assert_eq!(planet.size, START_PLANET_SIZE);
                    } else {
                        assert!((MIN_PLANET_SIZE..=MAX_PLANET_SIZE).contains(&planet.size));
                    }
                }
            }
        }
    }

    #[test]
    fn unowned_size_is_four_plus_gifts_received() {
        let board = Board::new(12);
        let owned = vec![false; board.planet_count()];
        let mut rng = seeded_rng(7);
        let sizes = shuffle_mass(&board, &owned, &mut rng);
        let received: u32 = sizes.iter().map(|s| s - MIN_PLANET_SIZE).sum();
        assert_eq!(received as usize, board.planet_count());
    }

    #[test]
    fn same_seed_same_map_and_different_seeds_differ() {
        let config = Config::default();
        let a = generate(&config, 2, 42);
        let b = generate(&config, 2, 42);
        let c = generate(&config, 2, 43);
        assert_eq!(a.planets, b.planets);
        assert_ne!(a.planets, c.planets);
    }

    #[test]
    fn starting_position() {
        let config = Config::default();
        let state = generate(&config, 4, 1);
        let starts = state.board().start_planets();
        for (seat, &start) in starts.iter().enumerate() {
            let ship = state.ship_at(start).unwrap();
            assert_eq!((ship.owner, ship.size, ship.id), (seat, 5, seat as u32));
            assert_eq!(state.planets[start].owner, Some(seat));
            assert_eq!(state.players[seat].crack, 0);
            assert_eq!(state.players[seat].command_points, 5);
        }
        assert_eq!(
            state.planets.iter().filter(|p| p.owner.is_some()).count(),
            4
        );
    }

    #[test]
    fn symmetric_sizes_are_symmetric() {
        for seats in 1..=4 {
            let config = Config {
                symmetric_sizes: true,
                ..Config::default()
            };
            let state = generate(&config, seats, 99);
            let board = state.board();
            for p in 0..board.planet_count() {
                let size = state.planets[p].size;
                assert_eq!(size, state.planets[board.mirror_x(board.mirror_y(p))].size);
                if seats > 2 {
                    assert_eq!(size, state.planets[board.mirror_x(p)].size);
                    assert_eq!(size, state.planets[board.mirror_y(p)].size);
                }
                assert!((MIN_PLANET_SIZE..=MAX_PLANET_SIZE).contains(&size));
            }
        }
    }
}
