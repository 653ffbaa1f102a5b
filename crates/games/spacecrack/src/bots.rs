//! Built-in players: `random` and `greedy`.
//!
//! `greedy` looks one action ahead. It applies each legal action's own effect to a copy
//! of the state (before any end-of-turn production, so ending the turn earns nothing by
//! itself) and scores the result for its seat:
//!
//! - 1000 per planet it owns, −500 per planet its opponents own (captures first,
//!   captures from opponents before unowned planets);
//! - 20 per point of crack income the next production would bring (bigger planets,
//!   core planets);
//! - 10 per point of material: its crack plus its ships' sizes minus the opponents'
//!   ships' sizes (win battles, avoid losing ones; building is neutral);
//! - 1 per planet not its own that one of its ships could step onto next (reach), so
//!   among otherwise equal actions it moves and builds towards the frontier.
//!
//! The highest score wins; ties are broken uniformly by the bot's seeded ChaCha RNG.

use arbiter_engine::bot::RandomBot;
use arbiter_engine::{seeded_rng, Bot, Discard, GameRng, Seat};
use rand::seq::IndexedRandom;

use crate::actions::Action;
use crate::game::SpaceCrack;
use crate::legal::legal_actions;
use crate::production::income;
use crate::rules::effect_into;
use crate::state::State;

pub const BOT_NAMES: &[&str] = &["random", "greedy"];

/// A built-in bot by name, seeded; `None` for an unknown name.
pub fn bot(name: &str, seed: u64) -> Option<Box<dyn Bot<SpaceCrack>>> {
    match name {
        "random" => Some(Box::new(RandomBot::new(seed))),
        "greedy" => Some(Box::new(GreedyBot::new(seed))),
        _ => None,
    }
}

/// Best immediate gain in planets and crack (see the module notes for the score).
pub struct GreedyBot {
    rng: GameRng,
}

impl GreedyBot {
    pub fn new(seed: u64) -> Self {
        GreedyBot {
            rng: seeded_rng(seed),
        }
    }
}

/// The greedy score of `state` for `seat` (higher is better).
pub fn greedy_score(state: &State, seat: Seat) -> i64 {
    let mut own_planets = 0i64;
    let mut other_planets = 0i64;
    for planet in state.planets() {
        match planet.owner {
            Some(owner) if owner == seat => own_planets += 1,
            Some(_) => other_planets += 1,
            None => {}
        }
    }
    let mut material = i64::from(state.players()[seat].crack);
    let mut reach = Vec::new();
    for ship in state.ships() {
        if ship.owner == seat {
            material += i64::from(ship.size);
            reach.extend(
                state.board().neighbours[ship.planet]
                    .iter()
                    .copied()
                    .filter(|&n| state.planets()[n].owner != Some(seat)),
            );
        } else {
            material -= i64::from(ship.size);
        }
    }
    reach.sort_unstable();
    reach.dedup();
    1000 * own_planets - 500 * other_planets
        + 20 * i64::from(income(state, seat))
        + 10 * material
        + reach.len() as i64
}

impl Bot<SpaceCrack> for GreedyBot {
    fn decide(&mut self, state: &State, seat: Seat) -> Action {
        let mut best = Vec::new();
        let mut best_score = i64::MIN;
        for action in legal_actions(state, seat) {
            let mut next = state.clone();
            if effect_into(&mut next, seat, &action, &mut Discard).is_err() {
                continue;
            }
            let score = greedy_score(&next, seat);
            if score > best_score {
                best_score = score;
                best.clear();
            }
            if score == best_score {
                best.push(action);
            }
        }
        best.choose(&mut self.rng).cloned().unwrap_or_default()
    }
}
