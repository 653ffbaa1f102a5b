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

/// The reference's `alive` list of owner ids, as far as `do_round` reads it: whether it
/// holds exactly one id, and which.
#[derive(Default)]
struct Alive {
    first: Option<u8>,
    more: bool,
}

impl Alive {
    fn insert(&mut self, owner: u8) {
        match self.first {
            None => self.first = Some(owner),
            Some(first) => self.more |= first != owner,
        }
    }

    fn only(&self) -> Option<u8> {
        self.first.filter(|_| !self.more)
    }
}

/// A fleet landing this round, as far as the landing reads it: target, owner, ships.
type Arrival = (usize, u8, [i64; SHIP_TYPES]);

/// Arrivals a round keeps on the stack; more go to the heap.
const STACK_ARRIVALS: usize = 8;

/// The fleets landing this round (`arriving`, in list order), as the reference's steps
/// 3–4b make them: one entry per target in first-seen order, with the side that
/// survives fleet-against-fleet. Each owner's fleets merge into its first one (in list
/// order); the sides fight in first-seen order, the first-created side first, and it
/// survives unless the second keeps a positive truncated sum. A target's group and an
/// owner's side are found by scanning the arrivals (a handful), never collected.
fn arrivals(arriving: &[Arrival]) -> impl Iterator<Item = (usize, Side)> + '_ {
    arriving
        .iter()
        .enumerate()
        .filter_map(move |(i, &(target, _, _))| {
            let first_of_group = !arriving[..i].iter().any(|a| a.0 == target);
            first_of_group.then(|| (target, survivor(&arriving[i..], target)))
        })
}

/// The fight at `target` among the fleets of `arriving` (starting with the group's
/// first) that land there.
fn survivor(arriving: &[Arrival], target: usize) -> Side {
    let mut survivor: Option<Side> = None;
    for (j, &(_, owner, ships)) in arriving.iter().enumerate() {
        let of_owner = |a: &Arrival| a.0 == target && a.1 == owner;
        if !of_owner(&arriving[j]) || arriving[..j].iter().any(of_owner) {
            continue;
        }
        // 4a. This owner's first fleet here: merge its later ones into it.
        let mut ships = ships;
        for later in arriving[j + 1..].iter().filter(|a| of_owner(a)) {
            add(&mut ships, &later.2);
        }
        // 4b. Fleet against fleet.
        survivor = Some(match survivor {
            None => (owner, ships),
            Some((first_owner, first_ships)) => {
                let (first, second) = battle(first_ships, ships);
                if total(&second) > 0 {
                    (owner, second)
                } else {
                    (first_owner, first)
                }
            }
        });
    }
    // The group's first fleet lands there, so there is a side.
    survivor.unwrap_or((arriving[0].1, arriving[0].2))
}

/// 4c. The surviving side arrives at `planet`: reinforce, or fight the garrison; the
/// planet falls when the garrison's *truncated* remainder is 0.
fn land(planets: &mut [Planet], planet: usize, (owner, ships): Side) -> Option<Capture> {
    let target = &mut planets[planet];
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

    /// The reference's `do_round`, step for step (background §3.3). Returns the planets
    /// that changed hands; `self.result` is set when the game ends.
    pub fn do_round(&mut self) -> Vec<Capture> {
        let mut captures = Vec::new();
        self.do_round_into(|capture| captures.push(capture));
        captures
    }

    /// [`World::do_round`], handing each capture to `captured` as it happens (a
    /// playout that drops them builds nothing). Allocation-free but for more than
    /// `STACK_ARRIVALS` (8) fleets landing in one round: the alive set is its first member
    /// and whether there is another.
    pub fn do_round_into(&mut self, mut captured: impl FnMut(Capture)) {
        // 1. Production on owned planets (after this round's sends, before landings).
        for planet in &mut self.planets {
            if planet.owner_id != NEUTRAL {
                let production = planet.production;
                add(&mut planet.ships, &production);
            }
        }

        // 2. Everyone with a fleet in flight is alive, even if it dies on landing.
        let mut alive = Alive::default();
        for fleet in &self.fleets {
            alive.insert(fleet.owner_id);
            if alive.more {
                break;
            }
        }

        // 3. Arriving fleets leave the list, 4. grouped by target in first-seen order,
        // fight and land.
        let round = self.round;
        let first = self.fleets.iter().position(|fleet| fleet.eta == round);
        let lone = first.filter(|&i| !self.fleets[i + 1..].iter().any(|f| f.eta == round));
        if let Some(lone) = lone {
            // The common case, one fleet landing: it is its target's only side.
            let fleet = self.fleets.remove(lone);
            let side = (fleet.owner_id, fleet.ships);
            if let Some(capture) = land(&mut self.planets, fleet.target, side) {
                captured(capture);
            }
        } else if let Some(first) = first {
            self.land_several(first, &mut captured);
        }

        // 5. Everyone holding a planet is alive.
        for planet in &self.planets {
            if alive.more {
                break;
            }
            if planet.owner_id != NEUTRAL {
                alive.insert(planet.owner_id);
            }
        }

        // 6–7. Next round; one player left wins, else the round limit draws.
        self.round += 1;
        if let Some(winner) = alive.only() {
            self.result = Some(EngineResult::Winner(winner));
        } else if self.round >= self.max_rounds {
            self.result = Some(EngineResult::Draw);
        }
    }

    /// Steps 3–4 when more than one fleet lands this round (`first` is the first of
    /// them): each landing fleet's target, owner and ships are copied out (on the stack
    /// unless there are many) before the list drops them. Kept out of `do_round_into`,
    /// whose common rounds then need no room for the copies.
    #[inline(never)]
    fn land_several(&mut self, first: usize, captured: &mut impl FnMut(Capture)) {
        let round = self.round;
        let mut stack = [(0, 0, [0; SHIP_TYPES]); STACK_ARRIVALS];
        let mut heap = Vec::new();
        let mut count = 0;
        for fleet in self.fleets[first..].iter().filter(|f| f.eta == round) {
            let arrival = (fleet.target, fleet.owner_id, fleet.ships);
            if count < STACK_ARRIVALS {
                stack[count] = arrival;
            } else {
                if heap.is_empty() {
                    heap.extend_from_slice(&stack);
                }
                heap.push(arrival);
            }
            count += 1;
        }
        self.fleets.retain(|fleet| fleet.eta != round);
        let arriving = if count <= STACK_ARRIVALS {
            &stack[..count]
        } else {
            &heap[..]
        };
        for (target, survivor) in arrivals(arriving) {
            if let Some(capture) = land(&mut self.planets, target, survivor) {
                captured(capture);
            }
        }
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

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::battle::battle_wide;

    /// The Python number model's battle, as `battle` narrowed it before its double path.
    fn python_battle(s1: [i64; 3], s2: [i64; 3]) -> ([i64; 3], [i64; 3]) {
        let (r1, r2) = battle_wide(s1, s2);
        let narrow = |v: i128| i64::try_from(v).unwrap_or(if v < 0 { i64::MIN } else { i64::MAX });
        (r1.map(narrow), r2.map(narrow))
    }

    /// The tick as it was written before it stopped allocating (collected arrivals,
    /// grouped per target and owner in vectors, the alive list): the oracle for
    /// `do_round`.
    fn do_round_as_listed(world: &mut World) -> Vec<Capture> {
        for planet in &mut world.planets {
            if planet.owner_id != NEUTRAL {
                let production = planet.production;
                add(&mut planet.ships, &production);
            }
        }
        let mut alive: Vec<u8> = Vec::new();
        for fleet in &world.fleets {
            if !alive.contains(&fleet.owner_id) {
                alive.push(fleet.owner_id);
            }
        }
        let round = world.round;
        let (arriving, staying): (Vec<Fleet>, Vec<Fleet>) = std::mem::take(&mut world.fleets)
            .into_iter()
            .partition(|fleet| fleet.eta == round);
        world.fleets = staying;
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
            match group.iter_mut().find(|(owner, _)| *owner == fleet.owner_id) {
                Some((_, ships)) => add(ships, &fleet.ships),
                None => group.push((fleet.owner_id, fleet.ships)),
            }
        }
        let mut captures = Vec::new();
        for (planet, sides) in groups {
            let mut sides = sides.into_iter();
            let Some(mut survivor) = sides.next() else {
                continue;
            };
            for challenger in sides {
                let (first, second) = python_battle(survivor.1, challenger.1);
                survivor = if total(&second) > 0 {
                    (challenger.0, second)
                } else {
                    (survivor.0, first)
                };
            }
            let target = &mut world.planets[planet];
            let (owner, ships) = survivor;
            if target.owner_id == owner {
                add(&mut target.ships, &ships);
                continue;
            }
            let (attacker, defender) = python_battle(ships, target.ships);
            if total(&defender) > 0 {
                target.ships = defender;
            } else {
                captures.push(Capture {
                    planet,
                    from: target.owner_id,
                    to: owner,
                });
                target.ships = attacker;
                target.owner_id = owner;
            }
        }
        for planet in &world.planets {
            if planet.owner_id != NEUTRAL && !alive.contains(&planet.owner_id) {
                alive.push(planet.owner_id);
            }
        }
        world.round += 1;
        if alive.len() == 1 {
            world.result = Some(EngineResult::Winner(alive[0]));
        } else if world.round >= world.max_rounds {
            world.result = Some(EngineResult::Draw);
        }
        captures
    }

    fn ships() -> impl Strategy<Value = [i64; 3]> {
        prop::array::uniform3(prop_oneof![
            3 => 0i64..4,
            3 => 0i64..400,
            1 => Just(i64::MAX / 2),
            1 => (i64::MAX - 3)..=i64::MAX,
            1 => -5i64..0,
        ])
    }

    /// A board with up to 6 planets and up to 40 fleets, most of them landing in the
    /// next two rounds (often many at once, at few targets, from owners 0 to 3).
    fn world() -> impl Strategy<Value = World> {
        let planets = prop::collection::vec((0u8..4, ships(), ships()), 1..7);
        (planets, 0u32..3, 1u32..6).prop_flat_map(|(planets, round, rounds_left)| {
            let count = planets.len();
            let fleet = (0u8..4, ships(), 0..count, 0..count, round..round + 3);
            prop::collection::vec(fleet, 0..40).prop_map(move |fleets| World {
                planets: planets
                    .iter()
                    .enumerate()
                    .map(|(id, &(owner, ships, production))| {
                        let mut planet = Planet::new(id, id as i64, 0, owner, production);
                        planet.ships = ships;
                        planet
                    })
                    .collect(),
                fleets: fleets
                    .into_iter()
                    .enumerate()
                    .map(|(id, (owner_id, ships, origin, target, eta))| Fleet {
                        id: id as u64,
                        owner_id,
                        ships,
                        origin,
                        target,
                        eta,
                    })
                    .collect(),
                round,
                max_rounds: round + rounds_left,
                next_fleet_id: 40,
                result: None,
            })
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Rounds of `do_round` leave the same board, captures and result as the
        /// listed tick, whatever lands (more arrivals than the stack holds included).
        #[test]
        fn do_round_is_the_listed_tick(world in world()) {
            let (mut fast, mut listed) = (world.clone(), world);
            for _ in 0..4 {
                prop_assert_eq!(fast.do_round(), do_round_as_listed(&mut listed));
                prop_assert_eq!(&fast, &listed);
            }
        }
    }

    #[test]
    fn many_fleets_landing_at_once_take_the_heap() {
        let planets = (0..3)
            .map(|id| Planet::new(id, 4 * id as i64, 0, id as u8, [1, 0, 0]))
            .collect();
        let mut world = World::new(planets, 500);
        for id in 0..(3 * STACK_ARRIVALS as u64) {
            world.fleets.push(Fleet {
                id,
                owner_id: 1 + (id % 2) as u8,
                ships: [1 + id as i64, 2, id as i64 % 3],
                origin: 1,
                target: [0, 2, 1][id as usize % 3],
                eta: 0,
            });
        }
        let mut listed = world.clone();
        assert_eq!(world.do_round(), do_round_as_listed(&mut listed));
        assert_eq!(world, listed);
        assert!(world.fleets.is_empty());
    }
}
