//! Crack production (background §2.9, §2.13): integer maths, floored once per player.
//!
//! Each owned planet yields size × efficiency %, where efficiency is `crack_pct`, plus
//! `interior_bonus` on a core planet, plus `perimeter_bonus` on a frontier planet in
//! `frontier_crack` mode. A player's gain is ⌊Σ size × % / 100⌋; the itemised report
//! keeps each planet's share in hundredths so clients never round differently.

use arbiter_engine::Seat;
use serde::Serialize;

use crate::board::PlanetId;
use crate::config::PerimeterMode;
use crate::state::State;

/// One planet's share of a production report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlanetYield {
    pub planet: PlanetId,
    pub size: u32,
    /// Efficiency in percent (base + bonuses).
    pub percent: u32,
    /// size × percent: the yield in hundredths of crack.
    pub hundredths: u64,
}

/// What one player produced at the end of a turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Production {
    pub seat: Seat,
    pub planets: Vec<PlanetYield>,
    /// Σ hundredths over the player's planets.
    pub hundredths: u64,
    /// ⌊hundredths / 100⌋: the crack actually gained.
    pub crack: u32,
}

/// Core: exactly six neighbours, all owned by the planet's owner.
pub fn is_core(state: &State, planet: PlanetId) -> bool {
    let owner = state.planets[planet].owner;
    owner.is_some()
        && state.board.is_inner(planet)
        && state.board.neighbours[planet]
            .iter()
            .all(|&n| state.planets[n].owner == owner)
}

/// Frontier (perimeter): owned, and at least one neighbour is owned by an opponent.
pub fn is_frontier(state: &State, planet: PlanetId) -> bool {
    let Some(owner) = state.planets[planet].owner else {
        return false;
    };
    state.board.neighbours[planet]
        .iter()
        .any(|&n| state.planets[n].owner.is_some_and(|o| o != owner))
}

/// The efficiency of an owned planet, in percent.
pub fn planet_percent(state: &State, planet: PlanetId) -> u32 {
    let config = &state.config;
    let mut percent = config.crack_pct;
    if is_core(state, planet) {
        percent += config.interior_bonus;
    }
    if config.perimeter_mode == PerimeterMode::FrontierCrack
        && config.perimeter_bonus > 0
        && is_frontier(state, planet)
    {
        percent += config.perimeter_bonus;
    }
    percent
}

/// The itemised production of `seat` from the current ownership.
pub fn production(state: &State, seat: Seat) -> Production {
    let planets: Vec<PlanetYield> = (0..state.planets.len())
        .filter(|&p| state.planets[p].owner == Some(seat))
        .map(|planet| {
            let size = state.planets[planet].size;
            let percent = planet_percent(state, planet);
            PlanetYield {
                planet,
                size,
                percent,
                hundredths: u64::from(size) * u64::from(percent),
            }
        })
        .collect();
    let (hundredths, crack) = floor_total(planets.iter().map(|p| (p.size, p.percent)));
    Production {
        seat,
        planets,
        hundredths,
        crack,
    }
}

/// Just the crack `seat` would gain now (for bots and views).
pub fn income(state: &State, seat: Seat) -> u32 {
    let yields = (0..state.planets.len())
        .filter(|&p| state.planets[p].owner == Some(seat))
        .map(|p| (state.planets[p].size, planet_percent(state, p)));
    floor_total(yields).1
}

/// (Σ size × percent, ⌊Σ size × percent / 100⌋) over `(size, percent)` pairs: the
/// hundredths and the crack they make, floored once.
pub fn floor_total(yields: impl IntoIterator<Item = (u32, u32)>) -> (u64, u32) {
    let hundredths: u64 = yields
        .into_iter()
        .map(|(size, percent)| u64::from(size) * u64::from(percent))
        .sum();
    (
        hundredths,
        u32::try_from(hundredths / 100).unwrap_or(u32::MAX),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::map::generate;

    /// A 2-seat default game with every planet unowned and no ships.
    fn empty_board(config: Config) -> State {
        let mut state = generate(&config, 2, 5);
        for planet in &mut state.planets {
            planet.owner = None;
            planet.ship = None;
        }
        state.ships.clear();
        state
    }

    fn inner_planet(state: &State) -> PlanetId {
        (0..state.planets.len())
            .find(|&p| state.board.is_inner(p))
            .unwrap()
    }

    /// Background §2.9 example: sizes 5, 4, 6 plus a core 8 → 2.5 + 2 + 3 + 8 = 15.5 → 15.
    #[test]
    fn background_example() {
        assert_eq!(
            floor_total([(5, 50), (4, 50), (6, 50), (8, 100)]),
            (1550, 15)
        );
    }

    /// A real core planet on the board yields its full size with the defaults.
    #[test]
    fn core_planet_yields_double() {
        let mut state = empty_board(Config::default());
        let core = inner_planet(&state);
        state.planets[core].owner = Some(0);
        state.planets[core].size = 8;
        for n in state.board.neighbours[core].clone() {
            state.planets[n].owner = Some(0);
            state.planets[n].size = 5;
        }
        let report = production(&state, 0);
        let line = report.planets.iter().find(|y| y.planet == core).unwrap();
        assert_eq!((line.percent, line.hundredths), (100, 800));
        // 8 + 6 × 2.5 = 23.
        assert_eq!((report.hundredths, report.crack), (2300, 23));
        assert_eq!(income(&state, 0), 23);
        assert_eq!(report.planets.len(), 7);
    }

    #[test]
    fn floors_the_sum_not_each_planet() {
        let mut state = empty_board(Config::default());
        // Three size-5 planets far apart on the edge: 3 × 2.5 = 7.5 → 7 (per-planet
        // flooring would give 6, per-planet rounding 9).
        let edge: Vec<PlanetId> = (0..state.planets.len())
            .filter(|&p| !state.board.is_inner(p))
            .step_by(5)
            .take(3)
            .collect();
        for &p in &edge {
            state.planets[p].owner = Some(1);
            state.planets[p].size = 5;
        }
        let report = production(&state, 1);
        assert_eq!(report.hundredths, 750);
        assert_eq!(report.crack, 7);
    }

    #[test]
    fn core_needs_six_friendly_neighbours() {
        let mut state = empty_board(Config::default());
        let core = inner_planet(&state);
        state.planets[core].owner = Some(0);
        let ring = state.board.neighbours[core].clone();
        for &n in &ring {
            state.planets[n].owner = Some(0);
        }
        assert!(is_core(&state, core));
        state.planets[ring[3]].owner = None;
        assert!(!is_core(&state, core), "an unowned neighbour disqualifies");
        state.planets[ring[3]].owner = Some(1);
        assert!(!is_core(&state, core), "an enemy neighbour disqualifies");
        assert!(is_frontier(&state, core));
        // Edge planets are never core, even when every neighbour is friendly.
        let edge = (0..state.planets.len())
            .find(|&p| !state.board.is_inner(p))
            .unwrap();
        state.planets[edge].owner = Some(0);
        for n in state.board.neighbours[edge].clone() {
            state.planets[n].owner = Some(0);
        }
        assert!(!is_core(&state, edge));
    }

    #[test]
    fn frontier_crack_bonus() {
        let config = Config {
            perimeter_bonus: 25,
            ..Config::default()
        };
        let mut state = empty_board(config);
        let a = 0;
        let b = state.board.neighbours[a][0];
        state.planets[a].owner = Some(0);
        state.planets[a].size = 8;
        state.planets[b].owner = Some(1);
        state.planets[b].size = 4;
        assert_eq!(planet_percent(&state, a), 75);
        assert_eq!(production(&state, 0).hundredths, 600);
        assert_eq!(production(&state, 1).crack, 3);
        // An unowned neighbour is not an opponent.
        state.planets[b].owner = None;
        assert_eq!(planet_percent(&state, a), 50);
        // defender_edge mode gives no crack bonus.
        state.planets[b].owner = Some(1);
        state.config.perimeter_mode = PerimeterMode::DefenderEdge;
        assert_eq!(planet_percent(&state, a), 50);
    }
}
