//! Build a position directly, without playing turns to reach it: the rule scenarios in
//! `tests/scenarios.rs` set up each battle, build and elimination case in a few lines.
//!
//! A position built here need not be reachable; [`settle`] runs the rules' upkeep
//! (eliminations, the early end, turns nobody can play) as after any real change.

use arbiter_engine::Seat;

use crate::board::PlanetId;
use crate::config::Config;
use crate::events::Event;
use crate::map::generate;
use crate::state::{ShipId, State};

/// A game with nothing on the board: no owners, no ships, every planet size 6.
pub fn blank(config: Config, seats: usize) -> State {
    let mut state = generate(&config, seats, 3);
    for planet in &mut state.planets {
        planet.owner = None;
        planet.ship = None;
        planet.size = 6;
    }
    state.ships.clear();
    state
}

/// `planet` belongs to `seat`.
pub fn own(state: &mut State, seat: Seat, planet: PlanetId) {
    state.planets[planet].owner = Some(seat);
}

/// Put a ship of `seat` on `planet` (which becomes the seat's); its id.
pub fn ship(state: &mut State, seat: Seat, planet: PlanetId, size: u32) -> ShipId {
    let id = state.put_ship(seat, planet, size);
    own(state, seat, planet);
    id
}

/// The id the next ship built will get.
pub fn next_ship_id(state: &State) -> ShipId {
    state.next_ship
}

/// Resize `planet` (a ship built there costs its size).
pub fn set_size(state: &mut State, planet: PlanetId, size: u32) {
    state.planets[planet].size = size;
}

/// Give `seat` exactly `crack`.
pub fn set_crack(state: &mut State, seat: Seat, crack: u32) {
    state.players[seat].crack = crack;
}

/// The rules' upkeep after a change, as `apply` runs it.
pub fn settle(state: &mut State, events: &mut Vec<Event>) {
    crate::rules::after_change(state, events);
}
