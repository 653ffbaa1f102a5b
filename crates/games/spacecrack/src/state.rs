//! The referee's state: planets, ships, players and the turn counter.
//!
//! Everything here is public information (background §2.4). Ships are kept by id in a
//! `BTreeMap` and each planet records the ship standing on it, so both "which ship is
//! here" and "where is ship n" are direct look-ups, and serialization order is fixed.

use std::collections::BTreeMap;
use std::sync::Arc;

use arbiter_engine::Seat;
use serde::{Deserialize, Serialize};

use crate::board::{Board, PlanetId};
use crate::config::{BuildOnOccupied, Config, TurnMode};

/// Ship ids come from a per-game counter, starting at 0.
pub type ShipId = u32;

/// A planet's changing part; its position and neighbours are in the [`Board`].
///
/// Serialized (for the state digest only; views have their own shape) as the compact
/// tuple `[size, owner, ship]`: planets are most of the state, and the digest is taken
/// after every action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(into = "(u32, Option<Seat>, Option<ShipId>)")]
pub struct Planet {
    /// Fixed for the whole game (4–10, start planets 5).
    pub size: u32,
    pub owner: Option<Seat>,
    /// The one ship on this planet, if any (invariant I1).
    pub ship: Option<ShipId>,
}

impl From<Planet> for (u32, Option<Seat>, Option<ShipId>) {
    fn from(planet: Planet) -> Self {
        (planet.size, planet.owner, planet.ship)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ship {
    pub id: ShipId,
    pub owner: Seat,
    pub planet: PlanetId,
    /// At least 1; no upper limit.
    pub size: u32,
}

/// Whether a seat still plays. Resigned and ejected seats keep their planets and
/// auto-pass every turn (background §2.11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Playing,
    Resigned,
    Ejected,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Player {
    pub crack: u32,
    pub command_points: u32,
    /// Done for this turn: spent every point, ended the turn, or timed out.
    pub finished: bool,
    pub status: Status,
    /// No planets and no ships: out of the game for good.
    pub eliminated: bool,
    /// Why the referee ejected this seat.
    pub ejected: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct State {
    pub(crate) config: Config,
    /// Derived from `config.board_size`, so left out of the digest.
    #[serde(skip)]
    pub(crate) board: Arc<Board>,
    pub(crate) planets: Vec<Planet>,
    pub(crate) ships: BTreeMap<ShipId, Ship>,
    pub(crate) next_ship: ShipId,
    pub(crate) players: Vec<Player>,
    /// The current turn, from 1.
    pub(crate) turn: u32,
    /// Turns left including the current one; 0 once the last turn has ended.
    pub(crate) turns_left: u32,
    pub(crate) over: bool,
}

impl State {
    /// A new ship of `seat` on the empty `planet`; its id.
    pub(crate) fn put_ship(&mut self, seat: Seat, planet: PlanetId, size: u32) -> ShipId {
        let id = self.next_ship;
        self.next_ship += 1;
        self.ships.insert(
            id,
            Ship {
                id,
                owner: seat,
                planet,
                size,
            },
        );
        self.planets[planet].ship = Some(id);
        id
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn planets(&self) -> &[Planet] {
        &self.planets
    }

    pub fn ships(&self) -> impl Iterator<Item = &Ship> {
        self.ships.values()
    }

    pub fn ship(&self, id: ShipId) -> Option<&Ship> {
        self.ships.get(&id)
    }

    pub fn players(&self) -> &[Player] {
        &self.players
    }

    pub fn seat_count(&self) -> usize {
        self.players.len()
    }

    pub fn turn(&self) -> u32 {
        self.turn
    }

    pub fn turns_left(&self) -> u32 {
        self.turns_left
    }

    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The ship on `planet`, if any.
    pub fn ship_at(&self, planet: PlanetId) -> Option<&Ship> {
        self.planets
            .get(planet)
            .and_then(|p| p.ship)
            .and_then(|id| self.ships.get(&id))
    }

    /// How many planets `seat` owns: the winner's measure.
    pub fn planet_count(&self, seat: Seat) -> usize {
        self.planets
            .iter()
            .filter(|p| p.owner == Some(seat))
            .count()
    }

    /// Whether `seat` has a ship: asked of the planets, a short array, instead of the
    /// ship map (a tree walk, a quarter of a random game when it was asked there).
    /// The same answer while every ship stands on a planet of its owner that names it
    /// (invariants I1 and I2, asserted after every step of the property tests).
    pub fn has_ships(&self, seat: Seat) -> bool {
        self.planets
            .iter()
            .any(|p| p.ship.is_some() && p.owner == Some(seat))
    }

    /// Whether `seat` may build on `planet` now, apart from command points.
    pub fn can_build_on(&self, seat: Seat, planet: PlanetId) -> bool {
        let (Some(p), Some(player)) = (self.planets.get(planet), self.players.get(seat)) else {
            return false;
        };
        p.owner == Some(seat) && self.affords_building(p, player.crack)
    }

    /// Whether `crack` pays for a ship on `p` and there is room for one (the planet is
    /// empty, or building merges into the ship there). Ownership is the caller's.
    fn affords_building(&self, p: &Planet, crack: u32) -> bool {
        crack >= p.size
            && (p.ship.is_none() || self.config.build_on_occupied == BuildOnOccupied::Merge)
    }

    /// No ships and not enough crack to build on any owned planet (background §2.5).
    /// A stuck player cannot act and does not hold up the turn.
    ///
    /// One pass over the planets: a planet of the seat's with a ship on it, or one it
    /// could build on ([`State::has_ships`] or [`State::can_build_on`]), unsticks it.
    /// `can_act` asks this of every seat several times a decision.
    pub fn is_stuck(&self, seat: Seat) -> bool {
        let crack = self.players.get(seat).map(|player| player.crack);
        !self.planets.iter().any(|p| {
            p.owner == Some(seat)
                && (p.ship.is_some() || crack.is_some_and(|crack| self.affords_building(p, crack)))
        })
    }

    /// Whether `seat` may act now in concurrent terms: in play, not finished, with
    /// points left, and not stuck.
    pub fn can_act(&self, seat: Seat) -> bool {
        let Some(player) = self.players.get(seat) else {
            return false;
        };
        !self.over
            && player.status == Status::Playing
            && !player.eliminated
            && !player.finished
            && player.command_points > 0
            && !self.is_stuck(seat)
    }

    /// Whether any seat may act now ([`State::ready_seats`] is not empty).
    pub fn anyone_ready(&self) -> bool {
        (0..self.players.len()).any(|s| self.can_act(s))
    }

    /// Seats that may act now, in seat order.
    pub fn ready_seats(&self) -> Vec<Seat> {
        (0..self.players.len())
            .filter(|&s| self.can_act(s))
            .collect()
    }

    /// In sequential mode, the seat whose go it is: the first ready seat counting from
    /// this turn's first seat, which rotates by one each turn.
    pub fn sequential_seat(&self) -> Option<Seat> {
        let n = self.players.len();
        let first = (self.turn as usize).saturating_sub(1) % n.max(1);
        (0..n).map(|i| (first + i) % n).find(|&s| self.can_act(s))
    }

    /// Whether `seat` owes the next decision under the configured turn mode.
    pub fn may_act(&self, seat: Seat) -> bool {
        match self.config.turn_mode {
            TurnMode::Concurrent => self.can_act(seat),
            TurnMode::Sequential => self.sequential_seat() == Some(seat),
        }
    }
}
