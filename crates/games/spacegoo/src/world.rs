//! The reference engine: planets, fleets, `send_fleet` and the exact tick (`do_round`).
//!
//! This is the public board only; who has commanded this round, disqualifications and
//! the end of the game live in [`crate::State`]. The order of every step follows
//! background §3.3, because the reference's quirks (production before landing, the alive
//! set counted before fleets die, fleet-vs-fleet first with the first-created side
//! winning ties, a planet falling on a truncated zero) decide real games.

use serde::{Deserialize, Serialize};

use crate::battle::{battle, SHIP_TYPES};
use crate::map::{Planet, NEUTRAL};

/// A fleet in flight. Field order is the reference's JSON key order (its `alive` flag is
/// always true for listed fleets and is added by the renderers).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fleet {
    pub id: u64,
    pub owner_id: u8,
    pub ships: [i64; SHIP_TYPES],
    pub origin: usize,
    pub target: usize,
    /// The round during whose processing the fleet lands.
    pub eta: u32,
}

/// Why a send made no fleet. The reference ignores these silently; the command still
/// counts as the player's command for the round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(rename_all = "snake_case")]
pub enum Ignored {
    #[error("there is no such planet")]
    NoSuchPlanet,
    #[error("origin and target are the same planet")]
    SamePlanet,
    #[error("no ships were requested")]
    NothingRequested,
    #[error("the origin is not the sender's planet")]
    NotYourPlanet,
    #[error("the origin holds none of the requested ships")]
    NothingToSend,
}

/// How the engine itself ended the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EngineResult {
    /// Only this player (1 or 2) has planets or fleets left.
    Winner(u8),
    /// `max_rounds` was reached.
    Draw,
}

/// A planet that changed hands during a tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capture {
    pub planet: usize,
    pub from: u8,
    pub to: u8,
}

/// The board: the reference's `Engine` object.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct World {
    pub planets: Vec<Planet>,
    /// Live fleets in creation order.
    pub fleets: Vec<Fleet>,
    pub round: u32,
    pub max_rounds: u32,
    pub next_fleet_id: u64,
    pub result: Option<EngineResult>,
}

/// One owner's merged arrivals at a planet.
type Side = (u8, [i64; SHIP_TYPES]);

fn total(ships: &[i64; SHIP_TYPES]) -> i128 {
    ships.iter().map(|&n| i128::from(n)).sum()
}

fn add(a: &mut [i64; SHIP_TYPES], b: &[i64; SHIP_TYPES]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x = x.saturating_add(*y);
    }
}

impl World {
    pub fn new(planets: Vec<Planet>, max_rounds: u32) -> Self {
        World {
            planets,
            fleets: Vec::new(),
            round: 0,
            max_rounds,
            next_fleet_id: 0,
            result: None,
        }
    }

    /// The reference's `send_fleet` + `Fleet.__init__`: checks, clamps each type to
    /// `min(max(want, 0), on planet)`, takes the ships off the origin at once, and
    /// returns the new fleet's index. Negative numbers are clamped here, as in the
    /// engine; the game disqualifies them before they get this far.
    pub fn send_fleet(
        &mut self,
        player: u8,
        origin: i64,
        target: i64,
        requested: [i64; SHIP_TYPES],
    ) -> Result<usize, Ignored> {
        let index = |id: i64| usize::try_from(id).ok().filter(|&i| i < self.planets.len());
        let (Some(origin), Some(target)) = (index(origin), index(target)) else {
            return Err(Ignored::NoSuchPlanet);
        };
        if origin == target {
            return Err(Ignored::SamePlanet);
        }
        if total(&requested) == 0 {
            return Err(Ignored::NothingRequested);
        }
        let from = &self.planets[origin];
        if from.owner_id != player {
            return Err(Ignored::NotYourPlanet);
        }
        let sent: [i64; SHIP_TYPES] =
            std::array::from_fn(|k| requested[k].max(0).min(from.ships[k]));
        if total(&sent) == 0 {
            return Err(Ignored::NothingToSend);
        }
        let eta = self
            .round
            .saturating_add(from.distance(&self.planets[target]));
        let from = &mut self.planets[origin];
        for (on_planet, leaving) in from.ships.iter_mut().zip(sent) {
            *on_planet -= leaving;
        }
        self.fleets.push(Fleet {
            id: self.next_fleet_id,
            owner_id: player,
            ships: sent,
            origin,
            target,
            eta,
        });
        self.next_fleet_id += 1;
        Ok(self.fleets.len() - 1)
    }

    /// One fleet (already merged per owner) arrives at `planet`: reinforce, or fight
    /// the garrison; the planet falls when the garrison's *truncated* remainder is 0.
    fn land(&mut self, planet: usize, owner: u8, ships: [i64; SHIP_TYPES]) -> Option<Capture> {
        let target = &mut self.planets[planet];
        if target.owner_id == owner {
            add(&mut target.ships, &ships);
            return None;
        }
        let (attacker, defender) = battle(ships, target.ships);
        if total(&defender) > 0 {
            target.ships = defender;
            None
        } else {
            let capture = Capture {
                planet,
                from: target.owner_id,
                to: owner,
            };
            target.ships = attacker;
            target.owner_id = owner;
            Some(capture)
        }
    }

    /// The reference's `do_round`, step for step (background §3.3). Returns the planets
    /// that changed hands; `self.result` is set when the game ends.
    pub fn do_round(&mut self) -> Vec<Capture> {
        // 1. Production on owned planets (after this round's sends, before landings).
        for planet in &mut self.planets {
            if planet.owner_id != NEUTRAL {
                let production = planet.production;
                add(&mut planet.ships, &production);
            }
        }

        // 2. Everyone with a fleet in flight is alive, even if it dies on landing.
        let mut alive: Vec<u8> = Vec::new();
        for fleet in &self.fleets {
            if !alive.contains(&fleet.owner_id) {
                alive.push(fleet.owner_id);
            }
        }

        // 3. Arriving fleets leave the list, grouped by target in first-seen order.
        let round = self.round;
        let (arriving, staying): (Vec<Fleet>, Vec<Fleet>) = std::mem::take(&mut self.fleets)
            .into_iter()
            .partition(|fleet| fleet.eta == round);
        self.fleets = staying;
        let mut groups: Vec<(usize, Vec<Side>)> = Vec::new();
        for fleet in arriving {
            let slot = match groups
                .iter()
                .position(|(planet, _)| *planet == fleet.target)
            {
                Some(i) => i,
                None => {
                    groups.push((fleet.target, Vec::new()));
                    groups.len() - 1
                }
            };
            let group = &mut groups[slot].1;
            // 4a. Merge each owner's fleets into that owner's first one.
            match group.iter_mut().find(|(owner, _)| *owner == fleet.owner_id) {
                Some((_, ships)) => add(ships, &fleet.ships),
                None => group.push((fleet.owner_id, fleet.ships)),
            }
        }

        let mut captures = Vec::new();
        for (planet, sides) in groups {
            // 4b. Fleet against fleet first: the first-created side is the first
            // argument, and survives unless the second keeps a positive truncated sum.
            let mut sides = sides.into_iter();
            let Some(mut survivor) = sides.next() else {
                continue;
            };
            for challenger in sides {
                let (first, second) = battle(survivor.1, challenger.1);
                survivor = if total(&second) > 0 {
                    (challenger.0, second)
                } else {
                    (survivor.0, first)
                };
            }
            // 4c. The survivor lands.
            captures.extend(self.land(planet, survivor.0, survivor.1));
        }

        // 5. Everyone holding a planet is alive.
        for planet in &self.planets {
            if planet.owner_id != NEUTRAL && !alive.contains(&planet.owner_id) {
                alive.push(planet.owner_id);
            }
        }

        // 6–7. Next round; one player left wins, else the round limit draws.
        self.round += 1;
        if alive.len() == 1 {
            self.result = Some(EngineResult::Winner(alive[0]));
        } else if self.round >= self.max_rounds {
            self.result = Some(EngineResult::Draw);
        }
        captures
    }

    /// All ships a player holds on planets and in fleets.
    pub fn ships_of(&self, player: u8) -> i64 {
        let on_planets = self
            .planets
            .iter()
            .filter(|p| p.owner_id == player)
            .flat_map(|p| p.ships);
        let in_fleets = self
            .fleets
            .iter()
            .filter(|f| f.owner_id == player)
            .flat_map(|f| f.ships);
        on_planets
            .chain(in_fleets)
            .fold(0i64, |sum, n| sum.saturating_add(n))
    }
}
