//! Built-in players: `random` and `greedy`.
//!
//! `greedy` scores every send of [`Game::legal`]'s sample by its *immediate gain* and
//! plays the best one, or `nop` when no send gains anything. The gain of sending `S`
//! from `o` to `t` (arriving after `d = distance(o, t)` rounds) is computed with the
//! real [`battle`] against the garrison `t` will have on arrival (its ships now, plus
//! `d` rounds of production if a player owns it; other fleets in flight are ignored):
//! - `t` is ours: 0 (reinforcing gains nothing now);
//! - the attack takes `t`: `production(t) × min(20, rounds left after arrival)`
//!   (what the planet will build for us in the next 20 rounds), plus the enemy ships
//!   destroyed if `t` was the enemy's, minus our ships lost;
//! - the attack fails: enemy ships destroyed (0 on a neutral planet) minus ours lost.
//!
//! Ties are broken by the bot's own seeded ChaCha generator.

use arbiter_engine::bot::RandomBot;
use arbiter_engine::{Bot, Game, GameRng, Seat};
use rand::seq::IndexedRandom;

use crate::actions::Action;
use crate::battle::battle;
use crate::game::Spacegoo;
use crate::map::NEUTRAL;
use crate::state::{player_id, State};

/// Names accepted by [`bot`].
pub const BOT_NAMES: &[&str] = &["random", "greedy"];

/// Rounds of future production a capture is worth to `greedy`.
pub const GREEDY_HORIZON: i64 = 20;

/// A built-in bot by name, seeded.
pub fn bot(name: &str, seed: u64) -> Option<Box<dyn Bot<Spacegoo>>> {
    match name {
        "random" => Some(Box::new(RandomBot::new(seed))),
        "greedy" => Some(Box::new(GreedyBot::new(seed))),
        _ => None,
    }
}

fn sum(ships: &[i64; 3]) -> i64 {
    ships.iter().fold(0i64, |a, &b| a.saturating_add(b))
}

/// The immediate gain of `action` for `seat` (0 for `nop` and for sends the engine would
/// ignore).
pub fn immediate_gain(state: &State, seat: Seat, action: &Action) -> i64 {
    let Action::Send(order) = action else {
        return 0;
    };
    let world = state.world();
    let me = player_id(seat);
    let planet = |id: i64| usize::try_from(id).ok().and_then(|i| world.planets.get(i));
    let (Some(origin), Some(target)) = (planet(order.origin), planet(order.target)) else {
        return 0;
    };
    if origin.owner_id != me || origin.id == target.id || target.owner_id == me {
        return 0;
    }
    let ships: [i64; 3] = std::array::from_fn(|k| order.ships[k].max(0).min(origin.ships[k]));
    if sum(&ships) == 0 {
        return 0;
    }
    let travel = origin.distance(target);
    let enemy = target.owner_id != NEUTRAL;
    let growth = if enemy { i64::from(travel) } else { 0 };
    let garrison: [i64; 3] = std::array::from_fn(|k| {
        target.ships[k].saturating_add(target.production[k].saturating_mul(growth))
    });
    let (attackers_left, garrison_left) = battle(ships, garrison);
    let lost = sum(&ships) - sum(&attackers_left);
    let destroyed = if enemy {
        sum(&garrison) - sum(&garrison_left)
    } else {
        0
    };
    if sum(&garrison_left) > 0 {
        return destroyed - lost;
    }
    let arrival = i64::from(world.round) + i64::from(travel);
    let rounds_left = (i64::from(world.max_rounds) - arrival).clamp(0, GREEDY_HORIZON);
    sum(&target.production).saturating_mul(rounds_left) + destroyed - lost
}

/// Best immediate gain, else `nop`.
pub struct GreedyBot {
    rng: GameRng,
}

impl GreedyBot {
    pub fn new(seed: u64) -> Self {
        GreedyBot {
            rng: arbiter_engine::seeded_rng(seed),
        }
    }
}

impl Bot<Spacegoo> for GreedyBot {
    fn decide(&mut self, state: &State, seat: Seat) -> Action {
        let mut best_gain = 0i64;
        let mut best: Vec<Action> = Vec::new();
        for action in Spacegoo::legal(state, seat) {
            let gain = immediate_gain(state, seat, &action);
            if gain > best_gain {
                best_gain = gain;
                best.clear();
            }
            if gain == best_gain && gain > 0 {
                best.push(action);
            }
        }
        best.choose(&mut self.rng).cloned().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::map::Planet;

    #[test]
    fn names_resolve() {
        for name in BOT_NAMES {
            assert!(bot(name, 1).is_some());
        }
        assert!(bot("nobody", 1).is_none());
    }

    #[test]
    fn greedy_takes_the_weak_rich_planet_and_passes_when_nothing_gains() {
        let mut planets = vec![
            Planet::new(0, 0, 0, 0, [0, 0, 0]),
            Planet::new(1, -10, 0, 1, [0, 0, 0]),
            Planet::new(2, 10, 0, 2, [0, 0, 0]),
            Planet::new(3, -10, 8, 0, [5, 5, 5]),
        ];
        planets[0].ships = [500, 500, 500];
        planets[1].ships = [100, 100, 100];
        planets[2].ships = [500, 500, 500];
        planets[3].ships = [1, 1, 1];
        let state = State::with_planets(&Config::default(), planets);
        let mut greedy = GreedyBot::new(3);
        let Action::Send(order) = greedy.decide(&state, 0) else {
            panic!("greedy should attack");
        };
        assert_eq!((order.origin, order.target), (1, 3));

        let mut hopeless = state.clone();
        hopeless.world.planets[3].ships = [1000, 1000, 1000];
        assert_eq!(greedy.decide(&hopeless, 0), Action::Nop);
    }
}
