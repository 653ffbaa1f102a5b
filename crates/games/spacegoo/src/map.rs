//! Planets and the seeded, point-symmetric map of background §2.
//!
//! The reference drew maps from Python's unseeded global `random`; we draw the same
//! distributions in the same order from the match's ChaCha generator, so a seed gives
//! the same map everywhere (RNG-stream parity with Python is impossible and not sought).

use rand::seq::SliceRandom;
use rand::Rng;
use rand_distr::{Distribution, Normal};
use serde::{Deserialize, Serialize};

use crate::battle::SHIP_TYPES;

/// Half-width and half-height of the field: x in [-20, 20], y in [-15, 15].
pub const MAX_X: i64 = 20;
pub const MAX_Y: i64 = 15;
/// A new planet must be strictly farther than this from every existing one.
pub const MIN_DISTANCE: f64 = 3.0;
/// Symmetric pairs per map, inclusive (so 5 to 21 planets with the centre).
pub const MIN_PAIRS: i64 = 2;
pub const MAX_PAIRS: i64 = 10;

/// Owner id of nobody; players are 1 and 2.
pub const NEUTRAL: u8 = 0;

/// A planet. Field order is the reference's JSON key order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Planet {
    pub id: usize,
    pub x: i64,
    pub y: i64,
    pub owner_id: u8,
    pub ships: [i64; SHIP_TYPES],
    pub production: [i64; SHIP_TYPES],
}

impl Planet {
    /// A planet with the reference's starting garrison: 10 per unit of production + 10.
    pub fn new(id: usize, x: i64, y: i64, owner_id: u8, production: [i64; SHIP_TYPES]) -> Self {
        Planet {
            id,
            x,
            y,
            owner_id,
            ships: production.map(|p| p.saturating_mul(10).saturating_add(10)),
            production,
        }
    }

    /// Travel time to `other`: the Euclidean distance rounded up. The offsets saturate:
    /// any offset of 2^32 or more is already the longest travel time (`u32::MAX`), so
    /// coordinates far apart enough to overflow `i64` (a hand-made board) get it too.
    pub fn distance(&self, other: &Planet) -> u32 {
        distance(
            self.x.saturating_sub(other.x),
            self.y.saturating_sub(other.y),
        )
    }
}

/// `ceil(sqrt(dx² + dy²))`, as the reference computes it in doubles.
pub fn distance(dx: i64, dy: i64) -> u32 {
    let squared = (dx as f64) * (dx as f64) + (dy as f64) * (dy as f64);
    // `ceil` without a call: x86-64's baseline has no rounding instruction, so
    // `f64::ceil` calls libm. Truncation (`as`, which saturates) plus one step up when
    // the root has a fraction is the same number for every root.
    let root = squared.sqrt();
    let whole = root as u32;
    if f64::from(whole) < root {
        whole.saturating_add(1)
    } else {
        whole
    }
}

/// A Gaussian draw; the parameters are constants, so construction cannot fail, but
/// fall back to the mean rather than panic.
fn gauss(rng: &mut impl Rng, mu: f64, sigma: f64) -> f64 {
    Normal::new(mu, sigma).map_or(mu, |normal| normal.sample(rng))
}

/// `max(1, int(abs(gauss(mu, sigma))))`.
fn positive_draw(rng: &mut impl Rng, mu: f64, sigma: f64) -> i64 {
    (gauss(rng, mu, sigma).abs().trunc() as i64).max(1)
}

/// One production vector: one, two or three ship types, then shuffled.
pub fn generate_production(rng: &mut impl Rng) -> [i64; SHIP_TYPES] {
    let mut production = match rng.random_range(0..=2) {
        0 => [positive_draw(rng, 2.0, 5.0), 0, 0],
        1 => [
            positive_draw(rng, 1.0, 4.0),
            positive_draw(rng, 1.0, 4.0),
            0,
        ],
        _ => {
            if rng.random_range(0..=1) == 0 {
                [
                    positive_draw(rng, 0.0, 3.0),
                    positive_draw(rng, 0.0, 3.0),
                    positive_draw(rng, 0.0, 3.0),
                ]
            } else {
                [positive_draw(rng, 0.0, 3.0); SHIP_TYPES]
            }
        }
    };
    production.shuffle(rng);
    production
}

fn fits(planets: &[Planet], x: i64, y: i64) -> bool {
    planets.iter().all(|p| {
        let (dx, dy) = ((x - p.x) as f64, (y - p.y) as f64);
        (dx * dx + dy * dy).sqrt() > MIN_DISTANCE
    })
}

/// Draw positions until one is farther than 3 from every planet. The reference starts
/// from (0, 0), which always fails against the central planet, so at least one draw is
/// always made.
fn fitting_position(rng: &mut impl Rng, planets: &[Planet]) -> (i64, i64) {
    loop {
        let x = rng.random_range(-MAX_X..=MAX_X);
        let y = rng.random_range(-MAX_Y..=MAX_Y);
        if fits(planets, x, y) {
            return (x, y);
        }
    }
}

/// The reference map: planet 0 neutral at the centre, then `2..=10` mirrored pairs
/// `(x, y)` / `(-x, -y)` sharing one production. Pair 0 is the start pair (odd id to
/// player 1, even id to player 2); a later pair `i` with `i < n/2` (true division)
/// becomes one too with probability 2/11.
pub fn generate(rng: &mut impl Rng) -> Vec<Planet> {
    let pairs = rng.random_range(MIN_PAIRS..=MAX_PAIRS);
    let mut planets = vec![Planet::new(0, 0, 0, NEUTRAL, generate_production(rng))];
    for i in 0..pairs {
        let (x, y) = fitting_position(rng, &planets);
        let production = generate_production(rng);
        // Python short-circuits: the extra draw happens only for 0 < i < n/2.
        let start = i == 0 || (2 * i < pairs && rng.random_range(0..=10) < 2);
        let (first, second) = if start { (1, 2) } else { (NEUTRAL, NEUTRAL) };
        let id = planets.len();
        planets.push(Planet::new(id, x, y, first, production));
        planets.push(Planet::new(id + 1, -x, -y, second, production));
    }
    planets
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_engine::seeded_rng;

    #[test]
    fn distance_rounds_up() {
        assert_eq!(distance(3, 4), 5);
        assert_eq!(distance(4, 0), 4);
        assert_eq!(distance(3, 3), 5); // sqrt(18) = 4.24
        assert_eq!(distance(40, 30), 50);
        assert_eq!(distance(0, 0), 0);
        assert_eq!(distance(i64::from(u32::MAX), 1), u32::MAX);
        assert_eq!(distance(1 << 40, 0), u32::MAX);
        let far_west = Planet::new(0, i64::MIN, i64::MAX, 1, [1, 1, 1]);
        let far_east = Planet::new(1, i64::MAX, i64::MIN, 2, [1, 1, 1]);
        assert_eq!(far_west.distance(&far_east), u32::MAX);
        assert_eq!(far_east.distance(&far_west), u32::MAX);
    }

    proptest::proptest! {
        /// The call-free rounding is `f64::ceil`'s, on board-sized and huge offsets.
        #[test]
        fn distance_is_the_ceiling_of_the_root(
            dx in proptest::prop_oneof![-60i64..60, proptest::num::i64::ANY],
            dy in proptest::prop_oneof![-60i64..60, proptest::num::i64::ANY],
        ) {
            let squared = (dx as f64) * (dx as f64) + (dy as f64) * (dy as f64);
            proptest::prop_assert_eq!(distance(dx, dy), squared.sqrt().ceil() as u32);
        }
    }

    #[test]
    fn starting_garrison_is_ten_per_production_plus_ten() {
        let p = Planet::new(1, -17, 0, 1, [3, 0, 5]);
        assert_eq!(p.ships, [40, 10, 60]);
    }

    #[test]
    fn maps_are_symmetric_spaced_and_seeded() {
        for seed in 0..200 {
            let planets = generate(&mut seeded_rng(seed));
            assert!((5..=21).contains(&planets.len()) && planets.len() % 2 == 1);
            assert_eq!((planets[0].x, planets[0].y, planets[0].owner_id), (0, 0, 0));
            assert_eq!((planets[1].owner_id, planets[2].owner_id), (1, 2));
            for (i, p) in planets.iter().enumerate() {
                assert_eq!(p.id, i);
                assert!(p.x.abs() <= MAX_X && p.y.abs() <= MAX_Y);
                assert!(p.production.iter().any(|&v| v >= 1));
                assert!(p.production.iter().all(|&v| v >= 0));
                assert_eq!(p.ships, p.production.map(|v| 10 * v + 10));
                for q in &planets[..i] {
                    let (dx, dy) = ((p.x - q.x) as f64, (p.y - q.y) as f64);
                    assert!((dx * dx + dy * dy).sqrt() > MIN_DISTANCE);
                }
            }
            for pair in planets[1..].chunks(2) {
                assert_eq!((pair[0].x, pair[0].y), (-pair[1].x, -pair[1].y));
                assert_eq!(pair[0].production, pair[1].production);
                let owners = (pair[0].owner_id, pair[1].owner_id);
                assert!(owners == (1, 2) || owners == (0, 0));
            }
            assert_eq!(planets, generate(&mut seeded_rng(seed)));
        }
    }

    #[test]
    fn production_kinds_have_one_two_or_three_types() {
        let mut rng = seeded_rng(7);
        let mut seen = [false; 4];
        for _ in 0..2000 {
            let p = generate_production(&mut rng);
            let nonzero = p.iter().filter(|&&v| v > 0).count();
            assert!((1..=3).contains(&nonzero));
            seen[nonzero] = true;
        }
        assert_eq!(seen, [false, true, true, true]);
    }
}
